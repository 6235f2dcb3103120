package app_test

import (
	"os"
	"path/filepath"
	"testing"

	"sitesift/app"
	"sitesift/app/apptest"
)

func TestIndexRebuiltFromStore(t *testing.T) {
	src := apptest.CrawledProject(t)
	dir := t.TempDir()
	db, err := os.ReadFile(filepath.Join(src, app.DBFile))
	if err != nil {
		t.Fatal(err)
	}
	// A checkpointed copy of the database alone, with no index beside it.
	p0, err := app.OpenProject(src, false)
	if err != nil {
		t.Fatal(err)
	}
	p0.Close()
	if db, err = os.ReadFile(filepath.Join(src, app.DBFile)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, app.DBFile), db, 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := app.OpenProject(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	n, err := p.Index.Count()
	if err != nil || n == 0 {
		t.Fatalf("rebuilt index holds %d pages, %v", n, err)
	}
}
