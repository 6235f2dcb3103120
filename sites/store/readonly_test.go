package store

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"sitesift/sites"
)

// A read-only store reads what a writer holding the database commits, and
// refuses every write.
func TestReadOnlyBesideWriter(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "project.db")
	w, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	if _, _, err := w.AddLibrarian(ctx, "ann"); err != nil {
		t.Fatal(err)
	}

	r, err := Open(path, ReadOnly())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	if !r.ReadOnlyStore() || r.SiteRule() != sites.DefaultRule {
		t.Fatalf("read-only %v, rule %q", r.ReadOnlyStore(), r.SiteRule())
	}
	libs, err := r.LibrarianProfiles(ctx)
	if err != nil || len(libs) != 1 {
		t.Fatalf("librarians %v, %v; want ann", libs, err)
	}
	// What the writer commits later is seen too.
	if _, _, err := w.AddLibrarian(ctx, "bob"); err != nil {
		t.Fatal(err)
	}
	if libs, _ := r.LibrarianProfiles(ctx); len(libs) != 2 {
		t.Errorf("after the writer's commit: %v; want ann and bob", libs)
	}
	_, _, err = r.AddLibrarian(ctx, "eve")
	if err == nil || !strings.Contains(err.Error(), "readonly") {
		t.Errorf("a write through the read-only store: %v; want refused", err)
	}
	if libs, _ := w.LibrarianProfiles(ctx); len(libs) != 2 {
		t.Errorf("librarians %v after the refused write", libs)
	}
}

func TestReadOnlyMissingFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "project.db")
	if _, err := Open(path, ReadOnly()); err == nil {
		t.Fatal("opened a missing database read-only")
	}
	if _, err := Open(path, ReadOnly()); err == nil {
		t.Fatal("the failed read-only open created the file")
	}
}
