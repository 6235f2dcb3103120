package crawling_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"sitesift/app"
	"sitesift/app/crawling"
	"sitesift/app/fault"
	"sitesift/app/project"
	"sitesift/sites"
)

// TestCrawlImportedSaysWhere: a crawl of a project that holds an imported
// graph is refused with the way to a new project, in the app and on the
// command line, not with advice the app offers no way to follow.
func TestCrawlImportedSaysWhere(t *testing.T) {
	p, err := project.Open(filepath.Join(t.TempDir(), "project"), true)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.Store.ImportGraph(context.Background(), "g.tsv", []string{"a.test", "b.test"},
		[]sites.Edge{{From: "a.test", To: "b.test", Weight: 1}}, 0); err != nil {
		t.Fatal(err)
	}
	a := app.New(app.Options{Project: p})
	defer a.Close()
	_, err = a.Crawling.Start(crawling.CrawlRequest{Seeds: []string{"http://a.test/"}, MaxPages: 1})
	if !errors.Is(err, crawling.ErrImportedGraph) || fault.KindOf(err) != fault.KindConflict {
		t.Fatalf("crawl of an imported project: %v, want a conflict", err)
	}
	if !strings.Contains(err.Error(), "New project…") || !strings.Contains(err.Error(), "--project") {
		t.Errorf("the refusal %q does not say how to make a new project", err)
	}
}
