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
	"sitesift/app/review"
	"sitesift/sites"
)

// TestMain removes the project apptest.CrawledProject made.
func TestMain(m *testing.M) { apptest.Main(m) }

// TestFailedSitesLeftOut: sites whose crawl gave nothing worth archiving
// stay out of the seeds by importance and of the review queue, unless asked
// for, and the queue says how many it left out.
func TestFailedSitesLeftOut(t *testing.T) {
	a, _ := apptest.Open(t, apptest.FailuresProject(t))
	ctx := context.Background()
	sites := func(include bool) []string {
		t.Helper()
		seeds, err := a.Exports.Seeds(ctx, 10, include)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, s := range seeds {
			out = append(out, s.Site)
		}
		return out
	}
	if got := sites(false); len(got) != 1 || got[0] != "ok.test" {
		t.Errorf("seeds by importance: %v, want ok.test alone", got)
	}
	if got := sites(true); len(got) != 4 || got[0] != "dead.test" {
		t.Errorf("seeds with the failed sites: %v, want all 4, dead.test first", got)
	}
	apptest.AddLibrarians(t, a, "ana")
	q, err := a.Review.ReviewQueue(ctx, review.QueueRequest{Librarian: "ana"})
	if err != nil || q.Total != 1 || q.Excluded != 3 || q.Rows[0].Site != "ok.test" {
		t.Errorf("queue: %+v, %v; want ok.test alone and 3 left out", q, err)
	}
	for _, order := range []string{review.OrderBiased, review.OrderCommunity} {
		q, err := a.Review.ReviewQueue(ctx, review.QueueRequest{Librarian: "ana", Order: order})
		if err != nil || q.Total != 1 || q.Excluded != 3 {
			t.Errorf("queue by %s: %+v, %v; want 1 site and 3 left out", order, q, err)
		}
	}
	q, err = a.Review.ReviewQueue(ctx, review.QueueRequest{Librarian: "ana", IncludeFailed: true})
	if err != nil || q.Total != 4 || q.Excluded != 0 {
		t.Errorf("queue with the failed sites: %+v, %v", q, err)
	}
}

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
