package crawling

import (
	"context"
	"math"
	"testing"

	"sitesift/app/project"
	"sitesift/sites"
)

func TestCrawlShares(t *testing.T) {
	p, err := project.Open(t.TempDir(), true)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	a := newService(p)
	defer a.Close()
	ctx := context.Background()
	// A project of three sites, rated: a.test 4 and 3 (mean 3.5), b.test 2, c.test 3.
	var states []sites.SiteState
	for _, s := range []string{"a.test", "b.test", "c.test"} {
		states = append(states, sites.SiteState{Site: s, Cash: 1.0 / 3})
	}
	if err := p.Store.SaveCrawlBatch(ctx, nil, states); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"ana", "ben"} {
		if _, _, err := p.Store.AddLibrarian(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range []struct {
		lib, site string
		v         int
	}{{"ana", "a.test", 4}, {"ben", "a.test", 3}, {"ana", "b.test", 2}, {"ben", "c.test", 3}} {
		if _, err := p.Store.SetRating(ctx, r.lib, r.site, r.v, ""); err != nil {
			t.Fatal(err)
		}
	}
	shares, err := a.crawlShares(ctx, 9)
	if err != nil {
		t.Fatal(err)
	}
	if len(shares) != 2 || shares["a.test"] != 10 || shares["c.test"] != 10 {
		t.Errorf("shares = %v, want a.test and c.test at 10", shares)
	}
	for _, bad := range []float64{-1, math.Inf(1)} {
		req := CrawlRequest{Seeds: []string{"http://a.test/"}, Bias: bad}
		req.withDefaults()
		if _, _, err := req.validate(); err == nil {
			t.Errorf("bias %v accepted", bad)
		}
	}
}
