package project_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"sitesift/app"
	"sitesift/app/apptest"
	"sitesift/app/fault"
	"sitesift/app/project"
	"sitesift/sites/store"
)

// ratingSet is every rating of st, as librarian|site|rating.
func ratingSet(t *testing.T, st *store.Store) map[string]bool {
	t.Helper()
	rs, err := st.Ratings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]bool{}
	for _, r := range rs {
		m[fmt.Sprintf("%s|%s|%d", r.Librarian, r.Site, r.Rating)] = true
	}
	return m
}

// names lists the files of dir.
func names(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

// TestBackupWhileRatingsAreWritten backs the project up, as `sitesift
// backup` does beside a serving process, while the process holding it keeps
// writing ratings; the copy opens, passes the project's check and holds
// every rating committed before it began, and put back as a project's
// database it opens as the project.
func TestBackupWhileRatingsAreWritten(t *testing.T) {
	ctx := context.Background()
	dir := apptest.ReviewProject(t)
	held, err := project.Open(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	// What check finds of the project as it is (the fixture's own OPIC
	// state included), which its backup must give again.
	ha := app.New(app.Options{Project: held})
	want, err := ha.Check(ctx)
	ha.Close()
	if err != nil {
		t.Fatal(err)
	}
	// The holder writes ratings, each a new librarian's, until told to stop.
	stop, started := make(chan struct{}), make(chan struct{})
	var written atomic.Int64
	var wg sync.WaitGroup
	var werr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := held.Store.SetRating(ctx, fmt.Sprintf("w%d", i), fmt.Sprintf("s%d.test", 1+i%5), 1+i%4, ""); err != nil {
				werr = err
				return
			}
			if written.Add(1) == 50 {
				close(started)
			}
		}
	}()
	<-started
	// Beside it, as another process opens a held project: read-only.
	beside, err := project.Open(dir, false, project.ReadOnlyBeside())
	if err != nil {
		t.Fatal(err)
	}
	defer beside.Close()
	if !beside.ReadOnly {
		t.Fatal("the project opened beside its holder is not read-only")
	}
	before := ratingSet(t, held.Store)
	out := t.TempDir()
	file := filepath.Join(out, "maps.db")
	if err := beside.Backup(ctx, file, false); err != nil {
		t.Fatal(err)
	}
	close(stop)
	wg.Wait()
	if werr != nil {
		t.Fatalf("the writer: %v", werr)
	}
	if got := names(t, out); len(got) != 1 || got[0] != "maps.db" {
		t.Fatalf("the backup's folder holds %v, want maps.db alone", got)
	}
	// It holds the accounts' password hashes: its owner's alone.
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the backup's mode: %v %v, want 0600", fi.Mode(), err)
	}

	// Restored: the copy as the database of a project folder, no index.
	restored := filepath.Join(t.TempDir(), "restored")
	if err := os.Mkdir(restored, 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(restored, project.DBFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	a, p, _ := apptest.OpenProject(t, restored)
	r, err := a.Check(ctx)
	if err != nil || !slices.Equal(r.Problems, want.Problems) {
		t.Fatalf("check of the restored project: %+v %v; want the problems %q of the project backed up", r, err, want.Problems)
	}
	if r.Pages != 9 || r.Indexed == 0 {
		t.Fatalf("the restored project has %d pages, %d indexed; want 9, the index rebuilt", r.Pages, r.Indexed)
	}
	after := ratingSet(t, p.Store)
	for k := range before {
		if !after[k] {
			t.Fatalf("rating %s, committed before the backup began, is not in it", k)
		}
	}
	if len(after) > len(before)+int(written.Load()) {
		t.Fatalf("the backup holds %d ratings, more than the %d there ever were", len(after), len(before)+int(written.Load()))
	}
}

func TestBackupRefusesToOverwriteUnlessAsked(t *testing.T) {
	ctx := context.Background()
	dir := apptest.ReviewProject(t)
	p, err := project.Open(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	out := t.TempDir()
	file := filepath.Join(out, "b.db")
	if err := os.WriteFile(file, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := p.Backup(ctx, file, false); fault.KindOf(err) != fault.KindConflict {
		t.Fatalf("a backup over an existing file: %v", err)
	}
	if b, _ := os.ReadFile(file); string(b) != "keep me" {
		t.Fatalf("the existing file was changed: %q", b)
	}
	if err := p.Backup(ctx, file, true); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(file, store.ReadOnly())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if h, err := st.Health(ctx); err != nil || len(h.Integrity) > 0 || h.Pages != 9 {
		t.Fatalf("the backup: %+v %v", h, err)
	}
	// Over the project's own database: refused, whatever overwrite says.
	if err := p.Backup(ctx, filepath.Join(dir, project.DBFile), true); fault.KindOf(err) != fault.KindInvalid {
		t.Fatalf("a backup over the project's database: %v", err)
	}
	// A failed backup keeps nothing, under its name or another.
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := p.Backup(cancelled, filepath.Join(out, "c.db"), false); err == nil {
		t.Fatal("a cancelled backup succeeded")
	}
	if got := names(t, out); len(got) != 1 || got[0] != "b.db" {
		t.Fatalf("after a failed backup the folder holds %v, want b.db alone", got)
	}
	// Only an admin backs up on a team server.
	cur := project.WithIdentity(ctx, project.Identity{Name: "ana", Role: project.RoleCurator})
	if err := p.Backup(cur, filepath.Join(out, "d.db"), false); fault.KindOf(err) != fault.KindForbidden {
		t.Fatalf("a curator backs up: %v", err)
	}
}
