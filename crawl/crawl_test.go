package crawl

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/url"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"sitesift/importance"
	"sitesift/sites"
)

// basicWeb has robots.txt, same-host and cross-host redirects, a redirect to a
// page already fetched, a 404, a PDF, <base href> and links to skip.
func basicWeb() map[string]map[string]resp {
	return map[string]map[string]resp{
		"a.test": {
			"/robots.txt": {ctype: "text/plain", body: "User-agent: *\nDisallow: /private\n"},
			"/": {body: `<!doctype html><html><head><title> Home
				of A </title><style>.x{color:red}</style><script>var hidden = 1;</script></head>
				<body><p>Welcome   to <b>A</b>rchive</p><div>second&nbsp;block</div>
				<a href="/about">About</a> <a href="/about#frag">About again</a>
				<a href="/private/secret">secret</a> <a href="/old">old</a> <a href="/go-c">to c</a>
				<a href="/missing">missing</a> <a href="doc.pdf">pdf</a> <a href="http://B.test:80/">b</a>
				<a href="mailto:x@a.test">mail</a> <a href="javascript:void(0)">js</a> <a href="#top">top</a>
				<a href="/again">again</a> <a href="ftp://a.test/f">ftp</a>
				<script>document.write("<a href='/script-link'>x</a>")</script></body></html>`},
			"/about": {body: `<html><head><title>About</title><base href="http://a.test/sub/"></head>
				<body><a href="page">relative to base</a></body></html>`},
			"/sub/page": {body: page("Sub page")},
			"/old":      {location: "/new"},
			"/new":      {body: page("New")},
			"/go-c":     {location: "http://c.test/landing"},
			"/again":    {location: "http://a.test/"},
			"/doc.pdf":  {ctype: "application/pdf", body: "%PDF-1.4 <a href=\"/from-pdf\">x</a>"},
		},
		"b.test": {
			"/": {body: page("B", "http://a.test/", "http://c.test/landing")},
		},
		"c.test": {
			"/landing": {body: page("Landing of C")},
		},
	}
}

func TestCrawlBasic(t *testing.T) {
	t.Parallel()
	w := newWeb(t, basicWeb())
	r := crawl(t, w, []string{"http://A.test"}, BatchSize(2))
	if r.err != nil {
		t.Fatalf("Run: %v", r.err)
	}

	want := []string{
		"http://a.test/", "http://a.test/about", "http://a.test/new", "http://c.test/landing",
		"http://a.test/missing", "http://a.test/doc.pdf", "http://b.test/", "http://a.test/sub/page",
	}
	got := r.urls()
	if !sameSet(got, want) {
		t.Errorf("recorded pages %q, want %q", got, want)
	}
	if r.status.State != StateDone || r.status.Pages != len(want) || r.status.Queue != 0 || r.status.Sites != 3 {
		t.Errorf("status %+v, want done, %d pages, empty queue, 3 sites", r.status, len(want))
	}
	if r.status.PagesPerSec <= 0 || r.status.Elapsed <= 0 {
		t.Errorf("status %+v: no rate", r.status)
	}

	// robots.txt: fetched once per host, the disallowed URL never.
	if n := w.count("a.test", "/robots.txt"); n != 1 {
		t.Errorf("a.test/robots.txt fetched %d times, want 1", n)
	}
	if n := w.count("a.test", "/private/secret"); n != 0 || r.status.Disallowed != 1 {
		t.Errorf("disallowed URL fetched %d times, Disallowed = %d; want 0 and 1", n, r.status.Disallowed)
	}

	home, _ := r.byURL("http://a.test/")
	if home.Title != "Home of A" || home.Site != "a.test" || home.Status != 200 || home.ContentType != "text/html" || home.Depth != 0 {
		t.Errorf("home page %+v", home)
	}
	if want := "Welcome to Archive second block About About again secret old to c missing pdf b mail js top again ftp"; home.Text != want {
		t.Errorf("home text %q, want %q", home.Text, want)
	}
	wantLinks := []string{
		"http://a.test/about", "http://a.test/private/secret", "http://a.test/old", "http://a.test/go-c",
		"http://a.test/missing", "http://a.test/doc.pdf", "http://b.test/", "http://a.test/", "http://a.test/again",
	}
	if !slices.Equal(home.Links, wantLinks) {
		t.Errorf("home links\n %q\nwant\n %q", home.Links, wantLinks)
	}
	if about, _ := r.byURL("http://a.test/about"); !slices.Equal(about.Links, []string{"http://a.test/sub/page"}) || about.Depth != 1 {
		t.Errorf("about page (base href) %+v", about)
	}
	if sub, _ := r.byURL("http://a.test/sub/page"); sub.Depth != 2 {
		t.Errorf("sub page depth %d, want 2", sub.Depth)
	}

	// Redirects: recorded under the final URL, once.
	if p, ok := r.byURL("http://a.test/new"); !ok || p.Title != "New" || p.Depth != 1 {
		t.Errorf("same-host redirect: page %+v, %v", p, ok)
	}
	if p, ok := r.byURL("http://c.test/landing"); !ok || p.Site != "c.test" || p.Title != "Landing of C" {
		t.Errorf("cross-host redirect: page %+v, %v", p, ok)
	}
	if w.count("a.test", "/again") != 1 {
		t.Errorf("/again not fetched")
	}
	// /again redirects to a page already fetched: the redirect is not followed.
	if n := w.count("a.test", "/"); n != 1 {
		t.Errorf("a.test/ requested %d times, want 1", n)
	}
	for _, u := range want {
		n := 0
		for _, p := range r.pages {
			if p.URL == u {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s recorded %d times", u, n)
		}
	}

	// A 404 is a page and an error.
	if p, _ := r.byURL("http://a.test/missing"); p.Status != 404 || p.Title != "Not found" {
		t.Errorf("404 page %+v", p)
	}
	if r.status.Errors != 1 || r.status.LastError != "http://a.test/missing: 404 Not Found" {
		t.Errorf("errors %d, last %q; want 1 and the 404", r.status.Errors, r.status.LastError)
	}

	// Non-HTML: recorded, not parsed.
	if p, _ := r.byURL("http://a.test/doc.pdf"); p.Status != 200 || p.ContentType != "application/pdf" || p.Links != nil || p.Text != "" || p.Title != "" {
		t.Errorf("pdf page %+v", p)
	}
	if w.count("a.test", "/from-pdf") != 0 {
		t.Error("followed a link found in a PDF")
	}

	checkCash(t, r)
	top := r.c.Top(0)
	var sum float64
	for i, s := range top {
		sum += s.OPIC
		if i > 0 && s.OPIC > top[i-1].OPIC {
			t.Errorf("Top not sorted: %+v", top)
		}
	}
	if len(top) != 3 || math.Abs(sum-1) > 1e-9 || len(r.c.Top(2)) != 2 {
		t.Errorf("Top(0) = %+v (sum %v), want 3 sites summing to 1", top, sum)
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// gridWeb returns n hosts h0.test … each with a home page linking to its own
// pages /1 … /k-1 and to the next host's home.
func gridWeb(n, k int, sleep time.Duration) map[string]map[string]resp {
	web := make(map[string]map[string]resp)
	for h := range n {
		host := fmt.Sprintf("h%d.test", h)
		pages := map[string]resp{}
		var links []string
		for i := 1; i < k; i++ {
			links = append(links, fmt.Sprintf("/%d", i))
			pages[fmt.Sprintf("/%d", i)] = resp{body: page(fmt.Sprintf("%s %d", host, i)), sleep: sleep}
		}
		links = append(links, fmt.Sprintf("http://h%d.test/", (h+1)%n))
		pages["/"] = resp{body: page(host, links...), sleep: sleep}
		web[host] = pages
	}
	return web
}

func perSite(pages []sites.Page) map[string]int {
	m := make(map[string]int)
	for _, p := range pages {
		m[p.Site]++
	}
	return m
}

func TestMaxPages(t *testing.T) {
	t.Parallel()
	w := newWeb(t, gridWeb(4, 10, 0))
	r := crawl(t, w, []string{"http://h0.test/"}, MaxPages(12), MaxPagesPerSite(4), Parallel(3))
	if r.err != nil {
		t.Fatal(r.err)
	}
	if len(r.pages) != 12 || r.status.Pages != 12 || r.status.State != StateDone {
		t.Errorf("%d pages delivered, status %+v; want 12, done", len(r.pages), r.status)
	}
	for s, n := range perSite(r.pages) {
		if n > 4 {
			t.Errorf("site %s: %d pages, want <= 4", s, n)
		}
	}
}

func TestMaxPagesPerSite(t *testing.T) {
	t.Parallel()
	w := newWeb(t, gridWeb(4, 10, 0))
	r := crawl(t, w, []string{"http://h0.test/"}, MaxPages(100), MaxPagesPerSite(3))
	if r.err != nil {
		t.Fatal(r.err)
	}
	m := perSite(r.pages)
	if len(m) != 4 || len(r.pages) != 12 || r.status.Queue != 0 {
		t.Errorf("pages per site %v, queue %d; want 3 for each of 4 sites, empty queue", m, r.status.Queue)
	}
	for s, n := range m {
		if n != 3 {
			t.Errorf("site %s: %d pages, want 3", s, n)
		}
	}
	// Pages of a site beyond its cap are not even requested.
	if n := len(w.requests()); n != 12+4 {
		t.Errorf("server saw %d requests, want 12 pages + 4 robots.txt", n)
	}
}

func TestDelay(t *testing.T) {
	t.Parallel()
	const delay = 40 * time.Millisecond
	w := newWebOnClock(t, gridWeb(2, 5, 0))
	r := crawl(t, w, []string{"http://h0.test/"}, Delay(delay), Parallel(4))
	if r.err != nil || len(r.pages) != 10 {
		t.Fatalf("Run: %v, %d pages; want 10", r.err, len(r.pages))
	}
	last := map[string]time.Time{}
	n := 0
	for _, h := range w.requests() { // robots.txt included
		if prev, ok := last[h.host]; ok {
			n++
			if gap := h.at.Sub(prev); gap < delay {
				t.Errorf("%s%s came %v after the previous request to the host, want >= %v", h.host, h.path, gap, delay)
			}
		}
		last[h.host] = h.at
	}
	if n < 8 {
		t.Errorf("only %d gaps measured", n)
	}
}

func TestParallel(t *testing.T) {
	t.Parallel()
	w := newWeb(t, gridWeb(6, 3, 30*time.Millisecond))
	seeds := []string{"http://h0.test/", "http://h2.test/", "http://h4.test/"}
	r := crawl(t, w, seeds, Parallel(2))
	if r.err != nil || len(r.pages) != 18 {
		t.Fatalf("Run: %v, %d pages; want 18", r.err, len(r.pages))
	}
	w.mu.Lock()
	m := w.maxInflight
	w.mu.Unlock()
	if m != 2 {
		t.Errorf("at most %d requests in flight, want 2", m)
	}
}

// replay recomputes the crawler's OPIC from the pages it recorded, by the
// rule of the package documentation, independently of the crawler.
type replay struct {
	o     *importance.OPIC
	ids   map[string]int
	names []string // by id
	idle  int      // idle reads made
}

func newReplay(t *testing.T, seedSites ...string) *replay {
	o, err := importance.NewOPIC(importance.DefaultTeleport)
	if err != nil {
		t.Fatal(err)
	}
	rp := &replay{o: o, ids: map[string]int{}}
	for _, s := range seedSites {
		rp.node(s)
	}
	o.Seed()
	return rp
}

func (rp *replay) node(site string) int {
	if id, ok := rp.ids[site]; ok {
		return id
	}
	rp.ids[site] = rp.o.AddNode()
	rp.names = append(rp.names, site)
	return rp.ids[site]
}

// record adds the weights of p's links and reads p's site; it returns the
// cash read.
func (rp *replay) record(p sites.Page) float64 {
	s := rp.node(p.Site)
	done := map[int]bool{}
	for _, l := range p.Links {
		site, _ := sites.Of(l)
		t := rp.node(site)
		if t != s && !done[t] {
			done[t] = true
			rp.o.AddWeight(s, t, 1)
		}
	}
	return rp.o.Read(s)
}

// readIdle makes the idle reads that follow the read of read cash, by the
// rule of the IdleReads option: at most k times, the idle site with the most
// cash (the first discovered on a tie), while that cash is positive and at
// least read.
func (rp *replay) readIdle(k int, read float64, idle func(site string) bool) {
	for range k {
		best, bestC := -1, 0.0
		for id, name := range rp.names {
			if c := rp.o.Cash(id); idle(name) && (best < 0 || c > bestC) {
				best, bestC = id, c
			}
		}
		if best < 0 || !(bestC > 0) || bestC < read {
			return
		}
		rp.o.Read(best)
		rp.idle++
	}
}

func (rp *replay) cash(site string) float64 { return rp.o.Cash(rp.ids[site]) }

// greedyWeb: rich.test is linked from both seeds, poor.test from one.
func greedyWeb() map[string]map[string]resp {
	return map[string]map[string]resp{
		"a.test": {
			"/":  {body: page("A", "http://rich.test/", "/2")},
			"/2": {body: page("A2", "http://rich.test/2", "http://x.test/", "http://rich.test/3")},
		},
		"b.test": {
			"/":  {body: page("B", "http://rich.test/", "http://poor.test/", "/2")},
			"/2": {body: page("B2", "http://rich.test/3", "http://rich.test/3#twice")},
		},
		"rich.test": {
			"/":  {body: page("R", "/2", "http://a.test/")},
			"/2": {body: page("R2", "/3", "http://poor.test/2")},
			"/3": {body: page("R3", "http://x.test/")},
		},
		"poor.test": {
			"/":  {body: page("P", "/2")},
			"/2": {body: page("P2")},
		},
		"x.test": {
			"/": {body: page("X", "http://a.test/", "http://b.test/3")},
		},
	}
}

// TestGreedyOrder checks every choice of the greedy crawl against an OPIC
// replayed from the recorded pages: each page comes from the site with the
// most cash among those with URLs waiting, and is the oldest URL waiting
// there. It also checks that the states of each batch are the replay's,
// which models the idle reads too, with and without them.
func TestGreedyOrder(t *testing.T) {
	t.Parallel()
	for _, idle := range []int{0, DefaultIdleReads} {
		t.Run(fmt.Sprintf("IdleReads(%d)", idle), func(t *testing.T) {
			t.Parallel()
			testGreedyOrder(t, idle)
		})
	}
}

func testGreedyOrder(t *testing.T, idle int) {
	w := newWeb(t, greedyWeb())
	seeds := []string{"http://a.test/", "http://b.test/"}
	r := crawl(t, w, seeds, Parallel(1), BatchSize(1), IdleReads(idle))
	if r.err != nil || len(r.pages) != 11 {
		t.Fatalf("Run: %v, %d pages; want 11", r.err, len(r.pages))
	}
	rp := newReplay(t, "a.test", "b.test")
	queue := map[string][]string{"a.test": {"http://a.test/"}, "b.test": {"http://b.test/"}}
	seen := map[string]bool{"http://a.test/": true, "http://b.test/": true}
	k := 0
	for bi, batch := range r.batches {
		for _, p := range batch {
			best, bestSite := -1.0, ""
			for s, q := range queue {
				if len(q) > 0 && rp.cash(s) > best {
					best, bestSite = rp.cash(s), s
				}
			}
			if c := rp.cash(p.Site); c < best-1e-12 {
				t.Errorf("page %d %s: site cash %v, but %s had %v", k, p.URL, c, bestSite, best)
			}
			if q := queue[p.Site]; len(q) == 0 || q[0] != p.URL {
				t.Errorf("page %d %s: oldest URL waiting in %s is %q", k, p.URL, p.Site, q)
			} else {
				queue[p.Site] = q[1:]
			}
			read := rp.record(p)
			for _, l := range p.Links {
				if !seen[l] {
					seen[l] = true
					s, _ := sites.Of(l)
					queue[s] = append(queue[s], l)
				}
			}
			// With one fetch at a time and no site at its cap, the idle
			// sites are those with no URL waiting.
			rp.readIdle(idle, read, func(s string) bool { return len(queue[s]) == 0 })
			k++
		}
		for _, st := range r.states[bi] {
			if math.Abs(st.Cash-rp.cash(st.Site)) > 1e-12 || math.Abs(st.History-rp.o.History(rp.ids[st.Site])) > 1e-12 {
				t.Errorf("batch %d: state %+v, replay cash %v", bi, st, rp.cash(st.Site))
			}
		}
		if len(r.states[bi]) != len(rp.ids) {
			t.Errorf("batch %d: %d states, replay knows %d sites", bi, len(r.states[bi]), len(rp.ids))
		}
	}
	if r.status.IdleReads != rp.idle || (idle > 0) != (rp.idle > 0) {
		t.Errorf("IdleReads(%d): crawler made %d idle reads, replay %d; want the same, > 0 unless disabled",
			idle, r.status.IdleReads, rp.idle)
	}
	first := func(site string) int {
		return slices.IndexFunc(r.pages, func(p sites.Page) bool { return p.Site == site })
	}
	if first("rich.test") > first("poor.test") {
		t.Errorf("poor.test crawled before rich.test: %q", r.urls())
	}
	checkCash(t, r)
}

// TestWeightsDistinct: a page linking twice to one site gives that site one
// unit of weight, as much as a site linked once.
func TestWeightsDistinct(t *testing.T) {
	t.Parallel()
	w := newWeb(t, map[string]map[string]resp{
		"s.test": {"/": {body: page("S", "http://t.test/1", "http://t.test/2", "http://u.test/", "/self")}},
		"t.test": {}, "u.test": {},
	})
	r := crawl(t, w, []string{"http://s.test/"}, MaxPages(1))
	if r.err != nil || len(r.pages) != 1 {
		t.Fatalf("Run: %v, %d pages", r.err, len(r.pages))
	}
	final := r.states[len(r.states)-1]
	cash := map[string]float64{}
	for _, s := range final {
		cash[s.Site] = s.Cash
	}
	// s.test read once with cash 1: 0.85 split over two arcs of weight 1,
	// 0.15 to the virtual page and from it to the 3 sites.
	tp := importance.DefaultTeleport
	want := map[string]float64{"s.test": tp / 3, "t.test": (1-tp)/2 + tp/3, "u.test": (1-tp)/2 + tp/3}
	for s, c := range want {
		if math.Abs(cash[s]-c) > 1e-12 {
			t.Errorf("cash of %s = %v, want %v", s, cash[s], c)
		}
	}
}

func TestCycleOrder(t *testing.T) {
	t.Parallel()
	w := newWeb(t, chains())
	r := crawl(t, w, []string{"http://a.test/", "http://b.test/", "http://c.test/"}, WithStrategy(Cycle), Parallel(1))
	if r.err != nil {
		t.Fatal(r.err)
	}
	var got []string
	for _, p := range r.pages {
		got = append(got, p.Site)
	}
	want := []string{"a.test", "b.test", "c.test", "a.test", "b.test", "c.test", "a.test", "b.test", "c.test"}
	if !slices.Equal(got, want) {
		t.Errorf("cycle order %q, want %q", got, want)
	}
}

func TestRandomRepeatable(t *testing.T) {
	t.Parallel()
	order := func(seed int64) []string {
		w := newWeb(t, chains())
		r := crawl(t, w, []string{"http://a.test/", "http://b.test/", "http://c.test/"}, WithStrategy(Random), Parallel(1), Seed(seed))
		if r.err != nil || len(r.pages) != 9 {
			t.Fatalf("Run: %v, %d pages", r.err, len(r.pages))
		}
		return r.urls()
	}
	a, b := order(7), order(7)
	if !slices.Equal(a, b) {
		t.Errorf("same seed, different orders:\n%q\n%q", a, b)
	}
	differs := false
	for s := int64(1); s <= 5 && !differs; s++ {
		differs = !slices.Equal(order(s), a)
	}
	if !differs {
		t.Error("six seeds gave the same order")
	}
}

// chains: three sites, each a chain of three pages.
func chains() map[string]map[string]resp {
	web := map[string]map[string]resp{}
	for _, h := range []string{"a.test", "b.test", "c.test"} {
		web[h] = map[string]resp{
			"/":  {body: page(h, "/2")},
			"/2": {body: page(h+" 2", "/3")},
			"/3": {body: page(h + " 3")},
		}
	}
	return web
}

// TestCancel: a cancelled crawl returns without waiting for the answers
// of its requests in flight — here they never come — and hands over what
// it has.
func TestCancel(t *testing.T) {
	t.Parallel()
	web := gridWeb(3, 8, 0)
	for _, pages := range web {
		for p, rs := range pages {
			if p != "/" {
				rs.sleep = forever
				pages[p] = rs
			}
		}
	}
	w := newWeb(t, web)
	r := &result{}
	// No batch before the end: what OnBatch gets comes from the final flush.
	c, err := New(Proxy(w.srv.URL), Delay(0), Parallel(2), r.recorder(), BatchSize(1000), FlushInterval(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx, []string{"http://h0.test/", "http://h1.test/", "http://h2.test/"}) }()
	waitFor(t, func() bool { st := c.Status(); return st.Pages >= 3 && st.InFlight > 0 })
	cancel()
	select {
	case err = <-done:
	case <-time.After(hangTimeout):
		t.Fatalf("Run did not return within %v of cancel: it waits for answers that never come", hangTimeout)
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Run = %v, want context.Canceled", err)
	}
	st := c.Status()
	if st.State != StateStopped || st.InFlight != 0 {
		t.Errorf("status %+v, want stopped with nothing in flight", st)
	}
	if len(r.batches) != 1 || len(r.pages) != st.Pages || st.Pages < 3 {
		t.Errorf("%d batches with %d pages, status %d pages; want one final batch with all", len(r.batches), len(r.pages), st.Pages)
	}
	checkCash(t, r)
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(hangTimeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("condition not met within %v", hangTimeout)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func TestPauseResume(t *testing.T) {
	t.Parallel()
	w := newWeb(t, gridWeb(2, 8, 0))
	r := &result{}
	c, err := New(Proxy(w.srv.URL), Delay(20*time.Millisecond), Parallel(2), r.recorder())
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- c.Run(context.Background(), []string{"http://h0.test/"}) }()
	waitFor(t, func() bool { return c.Status().Pages >= 3 })
	c.Pause()
	waitFor(t, func() bool { return c.Status().InFlight == 0 })
	st := c.Status()
	hits := len(w.requests())
	time.Sleep(200 * time.Millisecond)
	if st2 := c.Status(); st2.State != StatePaused || st2.Pages != st.Pages || len(w.requests()) != hits {
		t.Errorf("while paused: status %+v, %d requests; before %+v, %d requests", st2, len(w.requests()), st, hits)
	}
	c.Resume()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if st := c.Status(); st.State != StateDone || st.Pages != 16 || len(r.pages) != 16 {
		t.Errorf("after resume: status %+v, %d pages delivered; want done, 16", st, len(r.pages))
	}
}

func TestInvalidSeed(t *testing.T) {
	t.Parallel()
	w := newWeb(t, basicWeb())
	for _, bad := range []string{"ftp://a.test/", "not a url", "http:///nohost"} {
		c, err := New(Proxy(w.srv.URL))
		if err != nil {
			t.Fatal(err)
		}
		err = c.Run(context.Background(), []string{"http://a.test/", bad})
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%q", bad)) {
			t.Errorf("seed %q: Run = %v, want an error naming it", bad, err)
		}
		if st := c.Status(); st.State != StateIdle {
			t.Errorf("seed %q: state %s after a bad seed", bad, st.State)
		}
	}
	if c, _ := New(); c.Run(context.Background(), nil) == nil {
		t.Error("Run without seeds: no error")
	}
	if n := len(w.requests()); n != 0 {
		t.Errorf("server saw %d requests", n)
	}
}

// TestEnvProxy: without the Proxy option the crawler uses HTTP_PROXY and
// NO_PROXY, read when New is called.
func TestEnvProxy(t *testing.T) {
	w := newWeb(t, map[string]map[string]resp{
		"a.test": {"/": {body: page("A", "http://b.test/")}},
		"b.test": {"/": {body: page("B")}},
	})
	t.Setenv("HTTP_PROXY", w.srv.URL)
	t.Setenv("NO_PROXY", "b.test")
	r := &result{}
	c, err := New(Delay(0), Timeout(3*time.Second), r.recorder())
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(context.Background(), []string{"http://a.test/"}); err != nil {
		t.Fatal(err)
	}
	if p, ok := r.byURL("http://a.test/"); !ok || p.Status != 200 || p.Title != "A" {
		t.Errorf("a.test through the proxy: %+v, %v", p, ok)
	}
	// b.test is not proxied, and .test names do not resolve.
	if w.count("b.test", "/") != 0 {
		t.Error("NO_PROXY host went through the proxy")
	}
	if p, ok := r.byURL("http://b.test/"); !ok || p.Status != 0 || p.Err == "" {
		t.Errorf("b.test: %+v, %v; want a failed fetch", p, ok)
	}
	if st := c.Status(); st.Pages != 1 || st.Errors != 1 || !strings.HasPrefix(st.LastError, "http://b.test/: ") {
		t.Errorf("status %+v", st)
	}
}

// TestBatchError: an error of the batch function stops the crawl and is
// returned by Run.
func TestBatchError(t *testing.T) {
	t.Parallel()
	w := newWeb(t, gridWeb(3, 10, 0))
	boom := errors.New("disk full")
	var (
		mu    sync.Mutex
		calls int
	)
	c, err := New(Proxy(w.srv.URL), Delay(0), BatchSize(2), OnBatch(func(context.Context, []sites.Page, []sites.SiteState) error {
		mu.Lock()
		defer mu.Unlock()
		calls++
		return boom
	}))
	if err != nil {
		t.Fatal(err)
	}
	err = c.Run(context.Background(), []string{"http://h0.test/"})
	if !errors.Is(err, boom) {
		t.Fatalf("Run = %v, want %v", err, boom)
	}
	st := c.Status()
	if st.State != StateFailed || st.Pages >= 30 || calls != 1 {
		t.Errorf("status %+v after %d calls; want failed early after one call", st, calls)
	}
}

func TestParseStrategy(t *testing.T) {
	for in, want := range map[string]Strategy{"": Greedy, "greedy": Greedy, " Random ": Random, "CYCLE": Cycle} {
		if got, err := ParseStrategy(in); err != nil || got != want {
			t.Errorf("ParseStrategy(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseStrategy("bfs"); err == nil {
		t.Error("ParseStrategy(bfs): no error")
	}
}

func TestOptionErrors(t *testing.T) {
	for name, o := range map[string]Option{
		"MaxPages":     MaxPages(0),
		"PerSite":      MaxPagesPerSite(-1),
		"Delay":        Delay(-time.Second),
		"Parallel":     Parallel(0),
		"Strategy":     WithStrategy("best"),
		"Proxy scheme": Proxy("ftp://p:1"),
		"Proxy host":   Proxy("http://"),
		"Teleport":     Teleport(1),
		"UserAgent":    UserAgent(" "),
		"BatchSize":    BatchSize(0),
		"Flush":        FlushInterval(0),
		"Timeout":      Timeout(0),
		"Body":         MaxBodySize(0),
		"IdleReads":    IdleReads(-1),
	} {
		if _, err := New(o); err == nil {
			t.Errorf("%s: New accepted an invalid option", name)
		}
	}
	if _, err := New(Proxy("http://127.0.0.1:3128"), Logger(nil), Seed(3), Teleport(0), IdleReads(0)); err != nil {
		t.Errorf("valid options: %v", err)
	}
}

// TestNoGoroutineLeak runs a crawl that is paused, resumed and cancelled, and
// checks that every goroutine it started has ended once Run returns. It is
// not parallel, so other tests' goroutines do not blur the count.
func TestNoGoroutineLeak(t *testing.T) {
	before := runtime.NumGoroutine()
	w := newWeb(t, gridWeb(3, 6, 10*time.Millisecond))
	c, err := New(Proxy(w.srv.URL), Delay(5*time.Millisecond), (&result{}).recorder())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx, []string{"http://h0.test/"}) }()
	waitFor(t, func() bool { return c.Status().Pages >= 2 })
	c.Pause()
	time.Sleep(50 * time.Millisecond)
	c.Resume()
	waitFor(t, func() bool { return c.Status().Pages >= 6 })
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Run = %v", err)
	}
	w.srv.Close()
	deadline := time.Now().Add(hangTimeout)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines before, %d after:\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// editorialWeb: a.test's article links to b.test in its text and to n.test
// in its navigation bar; b.test and n.test link nowhere.
func editorialWeb() map[string]map[string]resp {
	article := `<!DOCTYPE html><html lang="en"><head><title>A story</title></head><body>
<header><nav><a href="http://n.test/">Our network</a> <a href="/">Home</a></nav></header>
<article><h1>A story</h1>
<p>Heavy rain fell for three days over the valley, and the river rose above its banks on Tuesday night,
according to <a href="http://b.test/">the river authority's report</a>. Hundreds of homes were evacuated.</p>
<p>The mayor said that the emergency services had worked through the night, and that the schools of the
old town would stay closed until the water had gone down and the buildings had been checked.</p></article>
<footer><p>© 2024</p></footer></body></html>`
	return map[string]map[string]resp{
		"a.test": {"/": {body: article}},
		"b.test": {"/": {body: page("B")}},
		"n.test": {"/": {body: page("N")}},
	}
}

// TestImportanceFromEditorialLinks: with FollowAll the crawl follows
// template links as editorial ones, but OPIC hands a site's cash only to the sites its authors
// link to, unless AllLinksForImportance says all links.
func TestImportanceFromEditorialLinks(t *testing.T) {
	t.Parallel()
	for _, all := range []bool{false, true} {
		t.Run(fmt.Sprintf("AllLinksForImportance(%v)", all), func(t *testing.T) {
			t.Parallel()
			w := newWeb(t, editorialWeb())
			r := crawl(t, w, []string{"http://a.test/"}, Parallel(1), AllLinksForImportance(all), FollowLinks(FollowAll))
			if r.err != nil {
				t.Fatal(r.err)
			}
			if got := r.urls(); !sameSet(got, []string{"http://a.test/", "http://b.test/", "http://n.test/"}) {
				t.Errorf("fetched %q: template links are followed too", got)
			}
			a, _ := r.byURL("http://a.test/")
			if !slices.Equal(a.Links, []string{"http://b.test/"}) || !slices.Equal(a.TemplateLinks, []string{"http://n.test/", "http://a.test/"}) {
				t.Errorf("links %q, template links %q", a.Links, a.TemplateLinks)
			}
			if !strings.HasPrefix(a.Text, "A story Heavy rain") || strings.Contains(a.Text, "network") ||
				!strings.Contains(a.FullText, "Our network") || a.Language != "en" {
				t.Errorf("text %q, full text %q, language %q", a.Text, a.FullText, a.Language)
			}
			score := map[string]float64{}
			for _, s := range r.c.Top(0) {
				score[s.Site] = s.OPIC
			}
			if all && math.Abs(score["n.test"]-score["b.test"]) > 1e-12 {
				t.Errorf("all links: n.test %v, b.test %v; want equal", score["n.test"], score["b.test"])
			}
			if !all && !(score["n.test"] < score["b.test"]) {
				t.Errorf("editorial links: n.test %v, b.test %v; want n.test below", score["n.test"], score["b.test"])
			}
		})
	}
}

// TestExtractionPool: however many fetches are in flight, no more pages are
// parsed at once than the pool has places (one per core), and every page
// fetched is parsed.
func TestExtractionPool(t *testing.T) {
	t.Parallel()
	hosts := map[string]map[string]resp{}
	var seeds []string
	for i := range 16 {
		h := fmt.Sprintf("s%d.test", i)
		hosts[h] = map[string]resp{"/": {body: page(h)}}
		seeds = append(seeds, "http://"+h+"/")
	}
	w := newWeb(t, hosts)
	r := &result{}
	c, err := New(Proxy(w.srv.URL), Delay(0), Parallel(8), r.recorder())
	if err != nil {
		t.Fatal(err)
	}
	const places = 2
	c.extracting = make(chan struct{}, places)
	var mu sync.Mutex
	var now, most, parsed int
	c.parse = func(pageURL *url.URL, p boundedPage) document {
		mu.Lock()
		now++
		most = max(most, now)
		mu.Unlock()
		// Long enough for the other fetches to arrive meanwhile.
		time.Sleep(20 * time.Millisecond)
		mu.Lock()
		now--
		parsed++
		mu.Unlock()
		return parsePage(pageURL, p)
	}
	if err := c.Run(context.Background(), seeds); err != nil {
		t.Fatal(err)
	}
	if most > places || parsed != 16 || len(r.pages) != 16 {
		t.Errorf("%d pages parsed at once at most, %d parsed, %d recorded; want at most %d, 16, 16", most, parsed, len(r.pages), places)
	}
}
