package store

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestMigrationMergesLibrarianCase opens a project of schema version 8
// whose librarians "Ana", "ana" and "ANA" rated and decided: migration
// 0009 keeps the first added (Ana) with the more recent of each pair of
// ratings, moves the others' ratings and decisions to her, records the
// merges, keeps an approved site's nominator unknown and makes names one
// librarian whatever their case from then on.
func TestMigrationMergesLibrarianCase(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sitesift.db")
	db, err := sql.Open("sqlite", path+"?"+dsnParams)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms[:8] {
		if _, err := db.ExecContext(ctx, m.sql); err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
	}
	for _, q := range []string{
		`PRAGMA user_version = 8`,
		`INSERT INTO sites (id, name, first_seen) VALUES (1, 'a.test', '2026-01-01T00:00:00.000000000Z'),
			(2, 'b.test', '2026-01-01T00:00:00.000000000Z'), (3, 'c.test', '2026-01-01T00:00:00.000000000Z')`,
		`INSERT INTO librarians (id, name, created_at) VALUES (1, 'Ana', '2026-01-01T00:00:00.000000000Z'),
			(2, 'ben', '2026-01-01T00:00:00.000000000Z'), (3, 'ana', '2026-01-02T00:00:00.000000000Z'),
			(4, 'ANA', '2026-01-03T00:00:00.000000000Z')`,
		// a.test: Ana's rating is newer than ana's (kept); b.test: ana's is
		// newer than Ana's (ana's kept); c.test: ANA's alone (moved).
		`INSERT INTO ratings (librarian_id, site_id, rating, note, rated_at) VALUES
			(1, 1, 4, 'Ana on a', '2026-02-02T00:00:00.000000000Z'), (3, 1, 1, 'ana on a', '2026-02-01T00:00:00.000000000Z'),
			(1, 2, 2, 'Ana on b', '2026-02-01T00:00:00.000000000Z'), (3, 2, 3, 'ana on b', '2026-02-03T00:00:00.000000000Z'),
			(4, 3, 1, 'ANA on c', '2026-02-01T00:00:00.000000000Z'), (2, 3, 2, '', '2026-02-01T00:00:00.000000000Z')`,
		`INSERT INTO selections (site_id, status, decided_by, decided_at) VALUES
			(1, 'approved', 3, '2026-02-04T00:00:00.000000000Z'), (2, 'nominated', 4, '2026-02-04T00:00:00.000000000Z'),
			(3, 'rejected', 2, '2026-02-04T00:00:00.000000000Z')`,
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	names, err := s.Librarians(ctx)
	if err != nil || strings.Join(names, ",") != "Ana,ben" {
		t.Fatalf("librarians after the migration: %v %v", names, err)
	}
	rs, err := s.Ratings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rs {
		got = append(got, r.Librarian+" "+r.Site+" "+r.Note)
	}
	if strings.Join(got, "; ") != "Ana a.test Ana on a; Ana b.test ana on b; Ana c.test ANA on c; ben c.test " {
		t.Errorf("ratings after the migration: %q", got)
	}
	merges, err := s.LibrarianMerges(ctx)
	if err != nil || len(merges) != 2 || merges[0].Merged != "ana" || merges[0].Into != "Ana" || merges[0].Ratings != 1 ||
		merges[0].Dropped != 1 || merges[1].Merged != "ANA" || merges[1].Ratings != 1 || merges[1].Dropped != 0 {
		t.Errorf("merges: %+v %v", merges, err)
	}
	a, err := s.Selection(ctx, "a.test")
	if err != nil || a.ApprovedBy != "Ana" || a.DecidedBy != "Ana" || a.NominatedBy != "" || !a.NominatorUnknown || a.ApprovedAt.IsZero() {
		t.Errorf("approved before the migration: %+v %v", a, err)
	}
	b, err := s.Selection(ctx, "b.test")
	if err != nil || b.NominatedBy != "Ana" || b.NominatedAt.IsZero() || b.NominatorUnknown {
		t.Errorf("nominated before the migration: %+v %v", b, err)
	}
	c, err := s.Selection(ctx, "c.test")
	if err != nil || c.RejectedBy != "ben" || c.RejectedAt.IsZero() {
		t.Errorf("rejected before the migration: %+v %v", c, err)
	}
	// From then on a name is one librarian whatever its case.
	if l, created, err := s.AddLibrarian(ctx, "aNA"); err != nil || created || l.Name != "Ana" {
		t.Errorf("add aNA: %+v %v %v", l, created, err)
	}
	// The two-person rule holds across the case of a name.
	if _, err := s.SetSelection(ctx, "b.test", SelectionUpdate{Librarian: "ana", Status: StatusApproved}); !errors.Is(err, ErrSelfApproval) {
		t.Errorf("ana approves Ana's nomination: %v", err)
	}
	if id, err := s.ProjectID(ctx); err != nil || len(id) != 32 {
		t.Errorf("project id %q %v", id, err)
	}
}
