package crawl

import (
	"fmt"
	"strings"
	"testing"

	"sitesift/sites"
)

// TestSeedsFirst: every seed is asked for before any discovered URL, even
// when the greedy order would rather read the hub all seeds link to, and
// a seed that fails is asked for too.
func TestSeedsFirst(t *testing.T) {
	t.Parallel()
	const nSeeds = 30
	hosts := map[string]map[string]resp{"hub.test": {}}
	var hubLinks []string
	for i := range 40 {
		p := fmt.Sprintf("/%d", i)
		hubLinks = append(hubLinks, "http://hub.test"+p)
		hosts["hub.test"][p] = resp{body: page("hub "+p, "http://hub.test/")}
	}
	hosts["hub.test"]["/"] = resp{body: page("hub", hubLinks...)}
	var seeds []string
	isSeed := map[string]bool{}
	for i := range nSeeds {
		h := fmt.Sprintf("s%d.test", i)
		links := append([]string{"/a", "/b"}, hubLinks...)
		home := resp{body: page(h, links...)}
		if i%7 == 3 {
			home = resp{status: 404, body: page("gone", links...)}
		}
		hosts[h] = map[string]resp{"/": home, "/a": {body: page("a")}, "/b": {body: page("b")}}
		seeds = append(seeds, "http://"+h+"/")
		isSeed[h+"/"] = true
	}
	for _, st := range []Strategy{Greedy, Cycle, Random} {
		t.Run(string(st), func(t *testing.T) {
			w := newWeb(t, hosts)
			r := crawl(t, w, seeds, MaxPages(nSeeds+5), Parallel(3), WithStrategy(st))
			if r.err != nil {
				t.Fatal(r.err)
			}
			seen, discovered := 0, ""
			for _, h := range w.requests() {
				if h.path == "/robots.txt" {
					continue
				}
				if isSeed[h.host+h.path] {
					seen++
					if discovered != "" {
						t.Errorf("seed %s%s asked for after the discovered %s", h.host, h.path, discovered)
					}
				} else if discovered == "" {
					discovered = h.host + h.path
				}
			}
			if seen != nSeeds {
				t.Errorf("%d of %d seeds asked for", seen, nSeeds)
			}
		})
	}
}

// fourOhFourWeb is one site whose home links to n pages, one in every
// `every` of them there, the others 404.
func fourOhFourWeb(n, every int) map[string]map[string]resp {
	site := map[string]resp{}
	var links []string
	for i := range n {
		p := fmt.Sprintf("/%d", i)
		links = append(links, p)
		if i%every == every-1 {
			site[p] = resp{body: page("page " + p)}
		}
	}
	site["/"] = resp{body: page("home", links...)}
	return map[string]map[string]resp{"a.test": site}
}

// TestMaxPagesCountsFinePages: the page cap counts the pages fetched fine,
// the failures count apart; a crawl that keeps failing stops at the
// failure cap and says so.
func TestMaxPagesCountsFinePages(t *testing.T) {
	t.Parallel()
	w := newWeb(t, fourOhFourWeb(200, 4))
	r := crawl(t, w, []string{"http://a.test/"}, MaxPages(10), MaxPagesPerSite(1000), Parallel(1))
	st := r.status
	// The failure cap is the page cap unless set: three 404s come before
	// each fine page but the home.
	if r.err != nil || st.Errors != 10 || st.PagesOK != 4 || st.EndReason != EndFailLimit || st.MaxFailures != 10 {
		t.Errorf("capped at 10 pages: %d fine, %d failed, ended %q, failure cap %d; want 4 fine, 10 failed, ended %q, cap 10",
			st.PagesOK, st.Errors, st.EndReason, st.MaxFailures, EndFailLimit)
	}

	r = crawl(t, w, []string{"http://a.test/"}, MaxPages(10), MaxFailures(100), MaxPagesPerSite(1000), Parallel(1))
	st = r.status
	if r.err != nil || st.PagesOK != 10 || st.EndReason != EndLimit {
		t.Errorf("capped at 10 pages, 100 failures: %d fine, %d failed, ended %q; want 10 fine, ended %q",
			st.PagesOK, st.Errors, st.EndReason, EndLimit)
	}
	if st.Errors != 27 || st.ErrorsByClass[sites.ErrHTTP4xx] != 27 {
		t.Errorf("%d failures (%v), want 27 404s", st.Errors, st.ErrorsByClass)
	}

	r = crawl(t, w, []string{"http://a.test/"}, MaxPages(100), MaxFailures(20), MaxPagesPerSite(1000), Parallel(2))
	st = r.status
	if r.err != nil || st.Errors != 20 || st.EndReason != EndFailLimit || st.PagesOK >= 100 {
		t.Errorf("capped at 20 failures: %d fine, %d failed, ended %q; want 20 failed, ended %q",
			st.PagesOK, st.Errors, st.EndReason, EndFailLimit)
	}
	n := 0
	for _, h := range w.requests() {
		if h.path != "/robots.txt" && h.path != "/" {
			n++
		}
	}
	if want := 13 + 9 + 27 + st.PagesOK - 1 + 20; n != want {
		t.Errorf("server saw %d page requests over both crawls, want %d: none after the failure cap", n, want)
	}
}

// TestRedirectChainCut: a chain of redirects across hosts longer than the
// bound is cut before its next hop and recorded as a failure of the URL
// asked for; the hosts it went through get no page and no site.
func TestRedirectChainCut(t *testing.T) {
	t.Parallel()
	hosts := map[string]map[string]resp{
		"a.test": {"/": {body: page("A", "http://r0.test/", "/1")}, "/1": {body: page("A 1")}},
	}
	for i := range 12 {
		hosts[fmt.Sprintf("r%d.test", i)] = map[string]resp{"/": {location: fmt.Sprintf("http://r%d.test/", i+1)}}
	}
	// A short chain across hosts is followed.
	hosts["s0.test"] = map[string]resp{"/": {location: "http://s1.test/"}}
	hosts["s1.test"] = map[string]resp{"/": {location: "http://s2.test/"}}
	hosts["s2.test"] = map[string]resp{"/": {body: page("S2")}}
	w := newWeb(t, hosts)
	r := crawl(t, w, []string{"http://a.test/", "http://s0.test/"}, Parallel(2))
	if r.err != nil {
		t.Fatal(r.err)
	}
	for i := 1; i <= 5; i++ {
		if n := w.count(fmt.Sprintf("r%d.test", i), "/"); n != 1 {
			t.Errorf("hop %d of the chain asked for %d times, want once", i, n)
		}
	}
	if n := w.count("r6.test", "/"); n != 0 {
		t.Errorf("the 6th hop was asked for %d times, want none: the chain is cut at 5", n)
	}
	p, ok := r.byURL("http://r0.test/")
	if !ok || p.ErrClass != sites.ErrRedirectChain || !strings.Contains(p.Err, "after 5 hops") ||
		!strings.Contains(p.Err, "http://r6.test/") {
		t.Errorf("the chain's start recorded as %+v, %v; want class %q naming 5 hops and the hop not followed",
			p, ok, sites.ErrRedirectChain)
	}
	for _, p := range r.pages {
		if strings.HasPrefix(p.Site, "r") && p.Site != "r0.test" {
			t.Errorf("a host of the chain got a record: %s (%s) %q", p.URL, p.Site, p.Err)
		}
	}
	if st := r.status; st.ErrorsByClass[sites.ErrRedirectChain] != 1 || st.PagesOK != 3 {
		t.Errorf("status: %d pages fine, failures %v; want 3 fine and one cut chain", st.PagesOK, st.ErrorsByClass)
	}
	if p, ok := r.byURL("http://s2.test/"); !ok || p.Status != 200 || p.ErrClass != "" {
		t.Errorf("the end of a 2-hop chain recorded as %+v, %v; want a page", p, ok)
	}
}
