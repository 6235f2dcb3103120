package review_test

import (
	"context"
	"testing"

	"sitesift/app/apptest"
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
