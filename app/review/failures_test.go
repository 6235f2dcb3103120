package review_test

import (
	"context"
	"testing"

	"sitesift/app/apptest"
	"sitesift/app/review"
	"sitesift/sites"
)

// TestReviewOfFailedSite: the review card of a site whose every fetch
// failed has no page to show; its review data says how the crawl went, the
// status and the failed fetches by class, so that the card says why rather
// than "no page was crawled".
func TestReviewOfFailedSite(t *testing.T) {
	a, _ := apptest.Open(t, apptest.FailuresProject(t))
	ctx := context.Background()
	apptest.AddLibrarians(t, a, "ana")
	r, err := a.Review.Review(ctx, "broken.test", "ana")
	if err != nil {
		t.Fatal(err)
	}
	if r.CrawlStatus != sites.SiteErrorsOnly || r.Errors != 1 || len(r.ErrorsByClass) != 1 || r.ErrorsByClass[sites.ErrHTTP5xx] != 1 {
		t.Errorf("review of broken.test: status %q, %d errors %v; want %s, 1 error, %s 1",
			r.CrawlStatus, r.Errors, r.ErrorsByClass, sites.SiteErrorsOnly, sites.ErrHTTP5xx)
	}
	r, err = a.Review.Review(ctx, "ok.test", "ana")
	if err != nil || r.CrawlStatus != sites.SiteOK || r.Errors != 0 || r.ErrorsByClass == nil || len(r.ErrorsByClass) != 0 {
		t.Errorf("review of ok.test: %q, %d errors %v, %v; want ok, none and an empty map", r.CrawlStatus, r.Errors, r.ErrorsByClass, err)
	}
}

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
