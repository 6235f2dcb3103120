package crawl

import (
	"slices"
	"testing"

	"sitesift/sites"
)

// twins: a hub links to two sites that are alike in every way; each has a
// chain of pages and links back to the hub.
func twins() map[string]map[string]resp {
	web := map[string]map[string]resp{
		"hub.test": {"/": {body: page("hub", "http://x.test/", "http://y.test/")}},
	}
	for _, h := range []string{"x.test", "y.test"} {
		web[h] = map[string]resp{
			"/":  {body: page(h, "/2", "http://hub.test/")},
			"/2": {body: page(h+" 2", "/3")},
			"/3": {body: page(h + " 3")},
		}
	}
	return web
}

// TestSharesBiasTheCrawl: with a larger teleport share, a site gets more of
// the virtual page's cash, so greedy fetches it first and it ends richer.
func TestSharesBiasTheCrawl(t *testing.T) {
	t.Parallel()
	first := func(r *result, site string) int {
		return slices.IndexFunc(r.pages, func(p sites.Page) bool { return p.Site == site })
	}
	w := newWeb(t, twins())
	plain := crawl(t, w, []string{"http://hub.test/"}, Parallel(1), IdleReads(0))
	biased := crawl(t, w, []string{"http://hub.test/"}, Parallel(1), IdleReads(0), Shares(map[string]float64{"y.test": 10}))
	for _, r := range []*result{plain, biased} {
		if r.err != nil {
			t.Fatal(r.err)
		}
		checkCash(t, r)
	}
	// Without shares the twins tie and the first discovered goes first.
	if first(plain, "x.test") > first(plain, "y.test") {
		t.Fatalf("plain crawl fetched y.test before x.test: %v", plain.urls())
	}
	if first(biased, "y.test") > first(biased, "x.test") {
		t.Errorf("biased crawl fetched x.test before y.test: %v", biased.urls())
	}
	score := func(r *result, site string) float64 {
		for _, s := range r.states[len(r.states)-1] {
			if s.Site == site {
				return s.Cash + s.History
			}
		}
		t.Fatalf("no state for %s", site)
		return 0
	}
	if x, y := score(plain, "x.test"), score(plain, "y.test"); x != y {
		t.Errorf("plain crawl: the twins score %v and %v, want equal", x, y)
	}
	if x, y := score(biased, "x.test"), score(biased, "y.test"); !(y > x) {
		t.Errorf("biased crawl: y.test scores %v, x.test %v; want y above", y, x)
	}
	if _, err := New(Shares(map[string]float64{"a.test": 0})); err == nil {
		t.Error("a zero share was accepted")
	}
}
