package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"sitesift/sites"
)

// stale says whether s marks its importance stale.
func stale(t *testing.T, s *Store) bool {
	t.Helper()
	st, err := s.ImportanceStale(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// The importance is marked stale in the transaction that commits an
// archive file adding to the site graph, and the mark cleared in the one
// that saves the importance of the whole graph, so that a kill between the
// two leaves a project that knows its ranking is not done.
func TestImportanceStaleMark(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	n := 0
	file := func(fill func(*ArchiveTx) error) error {
		n++
		f := ArchiveFile{Kind: "cc-edges", Path: "e.gz", Size: int64(n), Digest: fmt.Sprintf("sha256:%d", n)}
		_, err := s.ImportArchiveFile(ctx, f, fill, func() any { return map[string]int{} })
		return err
	}
	if stale(t, s) {
		t.Fatal("a new project's importance is stale")
	}
	// A file that adds nothing to the graph (a ranks file of sites not
	// stored), and one that fails, leave the mark as it was.
	if err := file(func(tx *ArchiveTx) error {
		_, err := tx.SetCCRanks(ctx, "nowhere.test", 1, 1)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	bad := errors.New("bad line")
	if err := file(func(tx *ArchiveTx) error {
		if err := tx.AddSiteLink(ctx, "a.test", "b.test", 1); err != nil {
			return err
		}
		return bad
	}); !errors.Is(err, bad) {
		t.Fatalf("a failing file: %v", err)
	}
	if stale(t, s) {
		t.Error("stale after a file that added nothing and one that failed")
	}
	// In this order: the links are added to the page the file before
	// saved (a map's random order made the page's file come after them,
	// when the page was there already and the file added nothing).
	for _, f := range []struct {
		what string
		fill func(*ArchiveTx) error
	}{
		{"site link", func(tx *ArchiveTx) error { return tx.AddSiteLink(ctx, "a.test", "b.test", 1) }},
		{"site", func(tx *ArchiveTx) error { return tx.AddSite(ctx, "c.test") }},
		{"page", func(tx *ArchiveTx) error {
			_, err := tx.SavePage(ctx, page(t, "http://d.test/", "http://a.test/"), 1)
			return err
		}},
		{"links", func(tx *ArchiveTx) error {
			_, err := tx.AddLinks(ctx, page(t, "http://d.test/", "http://b.test/"))
			return err
		}},
		{"archive of a site", func(tx *ArchiveTx) error {
			return tx.AddSiteArchive(ctx, "e.test", SiteArchive{URLs: 1, Captures: 1})
		}},
	} {
		what, fill := f.what, f.fill
		if err := file(fill); err != nil {
			t.Fatal(err)
		}
		if !stale(t, s) {
			t.Errorf("a file adding a %s: the importance is not marked stale", what)
		}
		g, err := s.SiteGraphCSR(ctx)
		if err != nil {
			t.Fatal(err)
		}
		k := len(g.IDs)
		imp := NodeImportance{PageRank: make([]float64, k), OPIC: make([]float64, k)}
		if err := s.SetImportance(ctx, g, imp); err != nil {
			t.Fatal(err)
		}
		if stale(t, s) {
			t.Errorf("a file adding a %s: still stale once the importance is saved", what)
		}
	}

	// An edge-list import (into a project without pages) saves the
	// importance of the whole graph with it; one without it leaves the
	// importance to compute.
	s = openTest(t)
	if err := file(func(tx *ArchiveTx) error { return tx.AddSite(ctx, "f.test") }); err != nil {
		t.Fatal(err)
	}
	if !stale(t, s) {
		t.Fatal("a file adding a site: the importance is not marked stale")
	}
	g := &Graph{Names: []string{"g.test", "h.test"}, Offsets: []int{0, 1, 1}, Targets: []int32{1}, Weights: []float64{1}}
	var seen *Graph
	if _, err := s.ImportSiteGraph(ctx, "g.txt", g, 0, byPosition(&seen)); err != nil {
		t.Fatal(err)
	}
	if stale(t, s) {
		t.Error("stale after an edge-list import, which saves the importance of the whole graph")
	}
	if _, err := s.ImportGraph(ctx, "i.txt", []string{"i.test", "j.test"}, []sites.Edge{{From: "i.test", To: "j.test", Weight: 1}}, 0); err != nil {
		t.Fatal(err)
	}
	if !stale(t, s) {
		t.Error("not stale after an import whose importance is left to compute")
	}
}

// A project a kill left with an imported graph and no importance, before
// the mark existed, is marked stale by the migration; a complete one, and a
// crawled one, are not.
func TestImportanceStaleMigration(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ms, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	const now = `'2026-01-01T00:00:00.000000000Z'`
	for _, c := range []struct {
		name  string
		rows  []string
		stale bool
	}{
		{"edge list cut short", []string{
			`INSERT INTO sites (id, name, first_seen) VALUES (1, 'a.test', ` + now + `), (2, 'b.test', ` + now + `)`,
			`INSERT INTO imports (file, imported_at, sites, edges, self_edges) VALUES ('g.txt', ` + now + `, 2, 1, 0)`}, true},
		{"archive cut short", []string{
			`INSERT INTO sites (id, name, first_seen) VALUES (1, 'a.test', ` + now + `)`,
			`INSERT INTO archive_files (kind, path, size, digest, imported_at) VALUES ('cdx', 'x.cdx', 1, 'sha256:1', ` + now + `)`}, true},
		{"archive complete", []string{
			`INSERT INTO sites (id, name, first_seen, pagerank, opic_cash, opic_history) VALUES (1, 'a.test', ` + now + `, 1, 0.5, 2)`,
			`INSERT INTO archive_files (kind, path, size, digest, imported_at) VALUES ('cdx', 'x.cdx', 1, 'sha256:1', ` + now + `)`}, false},
		{"crawled", []string{
			`INSERT INTO sites (id, name, first_seen) VALUES (1, 'a.test', ` + now + `)`}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "project.db")
			db, err := sql.Open("sqlite", path+"?"+dsnParams)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range ms[:15] {
				if _, err := db.ExecContext(ctx, m.sql); err != nil {
					t.Fatalf("%s: %v", m.name, err)
				}
			}
			for _, q := range append([]string{`PRAGMA user_version = 15`}, c.rows...) {
				if _, err := db.ExecContext(ctx, q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			// 0016's verdict, then 0020's, which marks every project with
			// sites for the computation of OPIC's fixpoint.
			if _, err := db.ExecContext(ctx, ms[15].sql); err != nil {
				t.Fatalf("%s: %v", ms[15].name, err)
			}
			var got bool
			if err := db.QueryRowContext(ctx, `SELECT importance_stale FROM project`).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != c.stale {
				t.Errorf("stale after migration 0016: %v, want %v", got, c.stale)
			}
			if _, err := db.ExecContext(ctx, `PRAGMA user_version = 16`); err != nil {
				t.Fatal(err)
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			s, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if !stale(t, s) {
				t.Error("not stale once OPIC's fixpoint is shown: opening the project would not compute it")
			}
		})
	}
}
