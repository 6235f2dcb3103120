package crawl

import (
	"fmt"
	"testing"

	"sitesift/importance"
)

// authorityWeb: hubs h0.test … h5.test of six pages each; every page links
// to the next page of its hub and to a page of auth.test, and each home page
// to the next two hubs. auth.test, the dead-end authority, has two pages and
// no link to another site: once they are fetched it is idle, and without idle
// reads it keeps all the cash every hub sends it.
func authorityWeb() map[string]map[string]resp {
	const hubs, pages = 6, 6
	web := map[string]map[string]resp{
		"auth.test": {
			"/":      {body: page("Authority", "/about")},
			"/about": {body: page("About the authority", "/")},
		},
	}
	for h := range hubs {
		site := map[string]resp{}
		for i := range pages {
			auth := "http://auth.test/"
			if i%2 == 1 {
				auth = "http://auth.test/about"
			}
			next := "/"
			if i+1 < pages {
				next = fmt.Sprintf("/%d", i+1)
			}
			links := []string{auth, next}
			if i == 0 {
				links = append(links, fmt.Sprintf("http://h%d.test/", (h+1)%hubs), fmt.Sprintf("http://h%d.test/", (h+2)%hubs))
			}
			path := "/"
			if i > 0 {
				path = fmt.Sprintf("/%d", i)
			}
			site[path] = resp{body: page(fmt.Sprintf("Hub %d page %d", h, i), links...)}
		}
		web[fmt.Sprintf("h%d.test", h)] = site
	}
	return web
}

// opicError crawls authorityWeb with k idle reads and returns the mean
// relative error (percent) of the crawler's final OPIC estimate against the
// PageRank of the site graph it built, and the number of idle reads.
func opicError(t *testing.T, k int) (mre float64, idle int) {
	t.Helper()
	w := newWeb(t, authorityWeb())
	r := crawl(t, w, []string{"http://h0.test/"}, Parallel(1), IdleReads(k))
	if r.err != nil || len(r.pages) != 6*6+2 {
		t.Fatalf("Run: %v, %d pages; want 38", r.err, len(r.pages))
	}
	checkCash(t, r)

	c := r.c
	c.mu.Lock()
	defer c.mu.Unlock()
	var edges []importance.WeightedEdge
	for i := range c.opic.Len() {
		for _, a := range c.opic.Out(i) {
			edges = append(edges, importance.WeightedEdge{From: i, To: a.To, Weight: a.Weight})
		}
	}
	g, err := importance.NewGraph(c.opic.Len(), edges)
	if err != nil {
		t.Fatal(err)
	}
	pr, err := importance.PageRank(g, importance.DefaultPageRankOptions())
	if err != nil {
		t.Fatal(err)
	}
	est := c.opic.Estimate()
	for i, s := range c.front.sites {
		t.Logf("k=%d %-10s opic %.4f pagerank %.4f", k, s.name, est[i], pr.Rank[i])
	}
	return importance.MeanRelativeError(est, pr.Rank), c.idleRead
}

// TestIdleReadsConverge: with idle reads, the OPIC estimate at the end of a
// finite crawl is much closer to the PageRank of the site graph the crawl
// saw than without, on a web whose authority is a dead end.
func TestIdleReadsConverge(t *testing.T) {
	t.Parallel()
	without, n0 := opicError(t, 0)
	with, n := opicError(t, DefaultIdleReads)
	t.Logf("mean relative error: %.1f%% without idle reads, %.1f%% with %d", without, with, n)
	if n0 != 0 || n == 0 {
		t.Errorf("idle reads: %d with IdleReads(0), %d with IdleReads(%d)", n0, n, DefaultIdleReads)
	}
	if with > without/2 {
		t.Errorf("mean relative error %.1f%% with idle reads, %.1f%% without; want at most half", with, without)
	}
}
