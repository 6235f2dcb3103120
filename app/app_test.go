package app_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"sitesift/app/apptest"
	"sitesift/app/project"
)

// TestMain removes the project apptest.CrawledProject made.
func TestMain(m *testing.M) { apptest.Main(m) }

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

// TestInfoImports checks that a project made by an import says so: what
// the Crawl page shows in place of a crawl.
func TestInfoImports(t *testing.T) {
	ctx := context.Background()
	a := apptest.Empty(t)
	info, err := a.Info(ctx)
	if err != nil || info.Imports == nil || len(info.Imports) != 0 {
		t.Fatalf("empty project: imports %v, %v; want []", info.Imports, err)
	}
	path := filepath.Join(t.TempDir(), "graph.txt")
	if err := os.WriteFile(path, []byte("a.test b.test\nb.test c.test\nc.test c.test\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Imports.Import(ctx, path); err != nil {
		t.Fatal(err)
	}
	info, err = a.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(info.Imports) != 1 || info.Imports[0].File != path || info.Imports[0].Sites != 3 || info.Imports[0].Edges != 2 ||
		info.Imports[0].SelfEdges != 1 || info.Imports[0].ImportedAt.IsZero() || info.Sites != 3 {
		t.Errorf("info after import: %+v", info)
	}
}
