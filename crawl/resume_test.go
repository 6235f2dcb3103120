package crawl

import (
	"bytes"
	"context"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"sitesift/sites"
)

// priorOf builds what a store would give back after the crawl r, from what
// r handed to its batch function: the last states, the site graph of the
// pages (a unit of weight per page and linked site), the pages' URLs and
// the link targets not fetched, in order of discovery.
func priorOf(r *result) Prior {
	var p Prior
	p.States = slices.Clone(r.states[len(r.states)-1])
	fetched := map[string]bool{}
	for _, pg := range r.pages {
		p.Fetched = append(p.Fetched, pg.URL)
		fetched[pg.URL] = true
	}
	weight := map[[2]string]float64{}
	var order [][2]string
	inFrontier := map[string]bool{}
	for _, pg := range r.pages {
		linked := map[string]bool{}
		for _, l := range pg.Links {
			site, _ := sites.Of(l)
			if site != pg.Site && !linked[site] {
				linked[site] = true
				k := [2]string{pg.Site, site}
				if weight[k] == 0 {
					order = append(order, k)
				}
				weight[k]++
			}
			if !fetched[l] && !inFrontier[l] {
				inFrontier[l] = true
				p.Frontier = append(p.Frontier, l)
			}
		}
	}
	for _, k := range order {
		p.Edges = append(p.Edges, sites.Edge{From: k[0], To: k[1], Weight: weight[k]})
	}
	return p
}

// TestResume crawls part of a web, then continues from what the first crawl
// left: the second crawl fetches no URL again, fetches the whole frontier,
// keeps the total cash at 1 and continues every site's history.
func TestResume(t *testing.T) {
	t.Parallel()
	web := gridWeb(4, 6, 0)
	web["new.test"] = map[string]resp{"/": {body: page("New", "http://h0.test/")}}
	w := newWeb(t, web)
	first := crawl(t, w, []string{"http://h0.test/"}, MaxPages(8), MaxPagesPerSite(3), Parallel(1))
	if first.err != nil || len(first.pages) != 8 {
		t.Fatalf("first crawl: %v, %d pages; want 8", first.err, len(first.pages))
	}
	prior := priorOf(first)
	if len(prior.Frontier) == 0 {
		t.Fatal("the first crawl left no frontier")
	}
	before := len(w.requests())

	// The old seed again, and a seed of a site nobody links to. The page
	// cap counts this crawl's pages only, so 5 lets every grid site be
	// finished (none has more than 4 pages left), and lets h0.test reach
	// its old seed after its 4 frontier URLs, were it not skipped.
	// The OPIC states right after the first page, taken when it is
	// recorded: a batch may hold several pages when the machine is busy.
	var (
		c2         *Crawler
		afterFirst []sites.SiteState
	)
	firstStates := OnRecord(func(sites.Page) {
		if afterFirst == nil {
			afterFirst = c2.states() // OnRecord runs with c2.mu held
		}
	})
	second := &result{}
	c2, err := New(Proxy(w.srv.URL), Delay(0), second.recorder(), FlushInterval(20*time.Millisecond),
		Resume(prior), MaxPages(100), MaxPagesPerSite(5), BatchSize(1), firstStates)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hangTimeout)
	defer cancel()
	if err := c2.Run(ctx, []string{"http://h0.test/", "http://new.test/"}); err != nil {
		t.Fatal(err)
	}
	second.status = c2.Status()
	hits := w.requests()[before:]
	requested := map[string]bool{}
	for _, h := range hits {
		if h.path != "/robots.txt" {
			requested["http://"+h.host+h.path] = true
		}
	}
	for _, u := range prior.Fetched {
		if requested[u] {
			t.Errorf("%s fetched again", u)
		}
	}
	for _, u := range prior.Frontier {
		if !requested[u] {
			t.Errorf("frontier URL %s not fetched", u)
		}
	}
	if _, ok := second.byURL("http://new.test/"); !ok {
		t.Error("the new seed's site, which starts with no cash, was never fetched")
	}
	all := append(first.urls(), second.urls()...)
	slices.Sort(all)
	if len(all) != 4*6+1 || len(slices.Compact(slices.Clone(all))) != len(all) || second.status.Pages != len(second.pages) {
		t.Errorf("the two crawls recorded %q (status: %d pages in the second); want the 25 pages of the web, each once",
			all, second.status.Pages)
	}

	checkCash(t, second)
	// Histories continue: no site's history is ever below the prior's.
	last := map[string]float64{}
	for _, st := range prior.States {
		last[st.Site] = st.History
	}
	for bi, states := range second.states {
		if len(states) < len(prior.States) {
			t.Fatalf("batch %d: %d states, fewer than the prior's %d", bi, len(states), len(prior.States))
		}
		for _, st := range states {
			if st.History < last[st.Site] {
				t.Errorf("batch %d: history of %s fell from %v to %v", bi, st.Site, last[st.Site], st.History)
			}
			last[st.Site] = st.History
		}
	}
	// After the first page of the second crawl, only its site and the idle
	// sites read with it have a new history; at least one site kept exactly
	// the history it had, so the states were restored, not rebuilt.
	kept := 0
	for i, st := range afterFirst {
		if i < len(prior.States) && st.Site == prior.States[i].Site && st.History == prior.States[i].History && st.History > 0 {
			kept++
		}
	}
	if kept == 0 {
		t.Errorf("no site kept its prior history after one page: states %v, prior %v", afterFirst, prior.States)
	}
}

// TestResumeFallsBack: a prior whose cash does not sum to 1 is not restored;
// the crawl logs it, starts OPIC afresh over the known sites and still skips
// the URLs fetched before.
func TestResumeFallsBack(t *testing.T) {
	t.Parallel()
	w := newWeb(t, gridWeb(2, 3, 0))
	damaged := Prior{
		States: []sites.SiteState{
			{Site: "h0.test", Cash: 0.25, History: 3},
			{Site: "h1.test", Cash: 0.25, History: 1},
		},
		Edges:    []sites.Edge{{From: "h0.test", To: "h1.test", Weight: 1}, {From: "h0.test", To: "h1.test", Weight: -2}},
		Fetched:  []string{"http://h0.test/", "http://h0.test/1", "not a URL"},
		Frontier: []string{"http://h0.test/2", "http://h1.test/"},
	}
	var logs bytes.Buffer
	r := crawl(t, w, []string{"http://h0.test/"}, Resume(damaged), Parallel(1), BatchSize(1),
		Logger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelInfo}))))
	if r.err != nil {
		t.Fatal(r.err)
	}
	if got, want := r.urls(), []string{"http://h0.test/2", "http://h1.test/", "http://h1.test/1", "http://h1.test/2"}; !sameSet(got, want) {
		t.Errorf("recorded %q, want %q", got, want)
	}
	checkCash(t, r)
	out := logs.String()
	if !strings.Contains(out, "OPIC starts afresh") || !strings.Contains(out, "total cash 0.5") ||
		!strings.Contains(out, "unusable entries skipped") {
		t.Errorf("log does not tell of the fallback and the skipped entries:\n%s", out)
	}
	// Afresh: h0.test and h1.test start with cash 1/2 each and no history,
	// so after the first page (of h0.test, whose frontier URL comes first)
	// h0.test's history is 1/2, not the damaged prior's 3 or more.
	for _, st := range r.states[0] {
		if st.Site == "h0.test" && st.History != 0.5 {
			t.Errorf("history of h0.test after one page %v, want 0.5", st.History)
		}
	}
}

// TestResumeEmptyPrior: an empty prior is a fresh crawl.
func TestResumeEmptyPrior(t *testing.T) {
	t.Parallel()
	w := newWeb(t, gridWeb(2, 3, 0))
	r := crawl(t, w, []string{"http://h0.test/"}, Resume(Prior{}))
	if r.err != nil || len(r.pages) != 6 {
		t.Fatalf("Run: %v, %d pages; want 6", r.err, len(r.pages))
	}
	checkCash(t, r)
}
