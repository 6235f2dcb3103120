package crawling_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sitesift/app/apptest"
	"sitesift/app/project"
	"sitesift/sites"
)

// TestMain removes the project apptest.CrawledProject made.
func TestMain(m *testing.M) { apptest.Main(m) }

// TestCrawlLog: a crawl writes a line of crawl.log for every fetch the
// project keeps, failures and robots.txt refusals included, with the page
// that led to it.
func TestCrawlLog(t *testing.T) {
	dir := apptest.CrawledProject(t)
	b, err := os.ReadFile(filepath.Join(dir, project.CrawlLogFile))
	if err != nil {
		t.Fatal(err)
	}
	logged := map[string][]string{}
	for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		f := strings.Fields(l)
		if len(f) != 12 {
			t.Fatalf("line of %d fields: %q", len(f), l)
		}
		logged[f[3]] = f
	}
	_, p, _ := apptest.OpenProject(t, dir)
	stored, vias := 0, 0
	err = p.Store.ForEachPage(context.Background(), func(pg sites.Page) error {
		stored++
		f, ok := logged[pg.URL]
		switch {
		case !ok:
			t.Errorf("%s is stored but not in the crawl log", pg.URL)
		case pg.Status > 0 && f[1] != strconv.Itoa(pg.Status):
			t.Errorf("%s: status %d logged as %s", pg.URL, pg.Status, f[1])
		case pg.Depth > 0 && f[5] != "-":
			vias++
		}
		return nil
	})
	if err != nil || stored == 0 || vias == 0 {
		t.Errorf("%d pages stored, %d logged with the page that led to them, %v", stored, vias, err)
	}
}
