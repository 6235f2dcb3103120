package ranking

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"sitesift/app/project"
	"sitesift/sites"
	"sitesift/sites/store"
)

// While the sites are being ranked again after a crawl batch changed their
// importance, another reader gets the last ranking instead of waiting for
// the new one: the ranking is let finish only once that reader returned, or
// after 30 seconds, which fails the test. The ranking then made serves the
// next reader.
func TestStandingsServedWhileRankedAgain(t *testing.T) {
	ctx := context.Background()
	p, err := project.Open(filepath.Join(t.TempDir(), "p"), true)
	if err != nil {
		t.Fatal(err)
	}
	page := func(u string, links ...string) sites.Page {
		site, err := sites.Of(u)
		if err != nil {
			t.Fatal(err)
		}
		return sites.Page{URL: u, Site: site, Status: 200, ContentType: "text/html", Title: u, Text: u, Links: links,
			FetchedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	}
	pages := []sites.Page{page("http://a.test/", "http://b.test/"), page("http://b.test/", "http://a.test/")}
	if err := p.Store.SaveCrawlBatch(ctx, pages, nil); err != nil {
		t.Fatal(err)
	}
	// save stores the importance a batch of a crawl brings.
	save := func(opicA, opicB float64) {
		t.Helper()
		g, err := p.Store.SiteGraphCSR(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Store.SetImportance(ctx, g, store.NodeImportance{PageRank: []float64{0.5, 0.5}, OPIC: []float64{opicA, opicB}}); err != nil {
			t.Fatal(err)
		}
	}
	save(0.75, 0.25)
	a := New(p, 0.15, nil, nil)
	t.Cleanup(func() { p.Close() })

	before, err := a.Standings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Shares 3/4 and 1/4: the second scores 33 of the first's 100.
	if got := before.OPIC.Score(0.25); got != 33 {
		t.Fatalf("score of 1/4 before the batch = %d, want 33", got)
	}
	// The next batch: shares 1/8 and 7/8.
	save(0.125, 0.875)

	ranking, release := make(chan struct{}), make(chan struct{})
	fallback := false
	a.standings.values = func(ctx context.Context) ([]float64, []float64, int64, error) {
		close(ranking)
		select {
		case <-release:
		case <-time.After(30 * time.Second):
			fallback = true
		}
		return p.Store.ImportanceValues(ctx)
	}
	ranked := make(chan Standings, 1)
	go func() {
		st, err := a.Standings(ctx)
		if err != nil {
			t.Error(err)
		}
		ranked <- st
	}()
	<-ranking
	meanwhile, err := a.Standings(ctx)
	close(release)
	after := <-ranked
	if err != nil {
		t.Fatal(err)
	}
	if fallback {
		t.Fatal("a reader waited for the ranking under way")
	}
	if got := meanwhile.OPIC.Score(0.25); got != 33 {
		t.Errorf("meanwhile the score of 1/4 = %d, want 33 (the last ranking, top 3/4)", got)
	}
	if got := after.OPIC.Score(0.125); got != 14 {
		t.Errorf("after the batch the score of 1/8 = %d, want 14 (top 7/8)", got)
	}
	// The new ranking serves the next reader: no ranking again.
	a.standings.values = func(context.Context) ([]float64, []float64, int64, error) {
		t.Error("ranked again with the importance unchanged")
		return p.Store.ImportanceValues(ctx)
	}
	if _, err := a.Standings(ctx); err != nil {
		t.Fatal(err)
	}
}
