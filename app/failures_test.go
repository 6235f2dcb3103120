package app_test

import (
	"context"
	"testing"

	"sitesift/app"
	"sitesift/app/apptest"
)

// TestFailedSitesLeftOut: sites whose crawl gave nothing worth archiving
// stay out of the seeds by importance and of the review queue, unless asked
// for, and the queue says how many it left out.
func TestFailedSitesLeftOut(t *testing.T) {
	a, _ := apptest.Open(t, apptest.FailuresProject(t))
	ctx := context.Background()
	sites := func(include bool) []string {
		t.Helper()
		seeds, err := a.Seeds(ctx, 10, include)
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
	q, err := a.ReviewQueue(ctx, app.QueueRequest{Librarian: "ana"})
	if err != nil || q.Total != 1 || q.Excluded != 3 || q.Rows[0].Site != "ok.test" {
		t.Errorf("queue: %+v, %v; want ok.test alone and 3 left out", q, err)
	}
	for _, order := range []string{app.OrderBiased, app.OrderCommunity} {
		q, err := a.ReviewQueue(ctx, app.QueueRequest{Librarian: "ana", Order: order})
		if err != nil || q.Total != 1 || q.Excluded != 3 {
			t.Errorf("queue by %s: %+v, %v; want 1 site and 3 left out", order, q, err)
		}
	}
	q, err = a.ReviewQueue(ctx, app.QueueRequest{Librarian: "ana", IncludeFailed: true})
	if err != nil || q.Total != 4 || q.Excluded != 0 {
		t.Errorf("queue with the failed sites: %+v, %v", q, err)
	}
}
