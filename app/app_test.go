package app_test

import (
	"os"
	"path/filepath"
	"testing"

	"sitesift/app/apptest"
	"sitesift/app/project"
)

func TestIndexRebuiltFromStore(t *testing.T) {
	src := apptest.CrawledProject(t)
	dir := t.TempDir()
	db, err := os.ReadFile(filepath.Join(src, project.DBFile))
	if err != nil {
		t.Fatal(err)
	}
	// A checkpointed copy of the database alone, with no index beside it.
	p0, err := project.Open(src, false)
	if err != nil {
		t.Fatal(err)
	}
	p0.Close()
	if db, err = os.ReadFile(filepath.Join(src, project.DBFile)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, project.DBFile), db, 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := project.Open(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	n, err := p.Index.Count()
	if err != nil || n == 0 {
		t.Fatalf("rebuilt index holds %d pages, %v", n, err)
	}
}
