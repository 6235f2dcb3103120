package crawling_test

import (
	"context"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"sitesift/app"
	"sitesift/app/apptest"
	"sitesift/app/crawling"
	"sitesift/app/httpapi"
	"sitesift/app/project"
	"sitesift/app/review"
	"sitesift/crawl/demoweb"
	"sitesift/sites"
)

// requestLog is an HTTP handler that records the URL of every request it
// passes on.
type requestLog struct {
	next http.Handler
	mu   sync.Mutex
	urls []string
}

func (l *requestLog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	l.mu.Lock()
	l.urls = append(l.urls, r.URL.String()) // absolute: the crawler talks to a proxy
	l.mu.Unlock()
	l.next.ServeHTTP(w, r)
}

func (l *requestLog) since(n int) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.urls[n:]...)
}

// TestSecondCrawlResumes runs two small crawls of the demo web in one
// project: the second continues the first, fetching only URLs the first did
// not, and the OPIC state stays whole.
func TestSecondCrawlResumes(t *testing.T) {
	web := demoweb.New(demoweb.DefaultSeed)
	log := &requestLog{next: web.Handler()}
	srv := httptest.NewServer(log)
	defer srv.Close()
	p, err := project.Open(t.TempDir(), true)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	a := app.New(app.Options{Project: p})
	defer a.Close()
	ctx := context.Background()
	req := crawling.CrawlRequest{Seeds: web.Seeds(), MaxPages: 60, MaxPagesPerSite: 5, SettingsUpdate: project.SettingsUpdate{DelayMS: app.Set(1), Parallel: app.Set(4)}, Proxy: srv.URL}

	run := func(name string) crawling.CrawlStatus {
		t.Helper()
		st, err := a.Crawling.Run(ctx, req, time.Second, nil)
		if err != nil || st.State != crawling.StateDone || st.PagesOK != req.MaxPages {
			t.Fatalf("%s crawl: %+v, %v; want done with %d pages", name, st, err, req.MaxPages)
		}
		return st
	}
	pagesOf := func() map[string]bool {
		t.Helper()
		m := map[string]bool{}
		// The URLs robots.txt refused and the redirects are kept too, but
		// they are no page the crawl counts.
		err := p.Store.ForEachPage(ctx, func(pg sites.Page) error {
			if pg.ErrClass != sites.ErrRobots && pg.ErrClass != sites.ErrRedirect {
				m[pg.URL] = true
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	histories := func() map[string]float64 {
		t.Helper()
		states, err := p.Store.OPICStates(ctx)
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]float64{}
		var cash float64
		for _, s := range states {
			m[s.Site] = s.History
			cash += s.Cash
		}
		if math.Abs(cash-1) > 1e-9 {
			t.Errorf("stored OPIC cash sums to %v, want 1", cash)
		}
		return m
	}

	run("first")
	first, hist1 := pagesOf(), histories()
	before := len(log.since(0))
	second := run("second")
	after, hist2 := pagesOf(), histories()

	for _, u := range log.since(before) {
		if first[u] {
			t.Errorf("second crawl fetched %s again", u)
		}
	}
	// The store keeps every response (Pages) and every fetch that failed
	// before one: the demo pages' links to the platforms' https profiles,
	// which the demo proxy refuses to tunnel. URLs robots.txt refused are
	// in neither count.
	noResponse := 0
	for class, n := range second.ErrorsByClass {
		if class != sites.ErrHTTP4xx && class != sites.ErrHTTP5xx && class != sites.ErrRobots && class != sites.ErrSlow {
			noResponse += n
		}
	}
	if len(after) != len(first)+second.Pages+noResponse {
		t.Errorf("%d pages after the first crawl, %d after the second of %d responses and %d fetches without one: it recorded pages already stored",
			len(first), len(after), second.Pages, noResponse)
	}
	for site, h := range hist1 {
		if hist2[site] < h {
			t.Errorf("history of %s fell from %v to %v", site, h, hist2[site])
		}
	}
	if len(hist2) <= len(hist1) {
		t.Errorf("%d sites known after the second crawl, %d after the first: it discovered nothing", len(hist2), len(hist1))
	}

	var list review.SiteList
	apptest.Call(t, httpapi.New(a), "GET", "/api/sites?limit=500", "", 200, &list)
	var opic float64
	for _, r := range list.Rows {
		opic += r.OPIC
	}
	if len(list.Rows) != len(hist2) || math.Abs(opic-1) > 1e-9 {
		t.Errorf("/api/sites: %d rows summing to %v; want %d summing to 1", len(list.Rows), opic, len(hist2))
	}
}

// TestFreshFrontier: a crawl of a project that has one says what it
// continues; with a fresh frontier it starts from its own seeds only, so
// seeds already fetched leave it nothing to do, where a continued crawl goes
// on with the links left waiting.
func TestFreshFrontier(t *testing.T) {
	web := demoweb.New(demoweb.DefaultSeed)
	log := &requestLog{next: web.Handler()}
	srv := httptest.NewServer(log)
	defer srv.Close()
	a := apptest.Empty(t)
	ctx := context.Background()
	if c, err := a.Crawling.Continuation(ctx); err != nil || c.Continues || c.String() != "starts a new crawl" {
		t.Fatalf("a new project: %+v, %v", c, err)
	}
	req := crawling.CrawlRequest{Seeds: web.Seeds()[:2], MaxPages: 20, MaxPagesPerSite: 5, SettingsUpdate: project.SettingsUpdate{DelayMS: app.Set(1), Parallel: app.Set(2)}, Proxy: srv.URL}
	first, err := a.Crawling.Run(ctx, req, time.Second, nil)
	if err != nil || first.PagesOK == 0 {
		t.Fatalf("first crawl: %+v, %v", first, err)
	}
	c, err := a.Crawling.Continuation(ctx)
	if err != nil || !c.Continues || c.Pages != first.PagesOK || c.Fetches < c.Pages || c.Waiting == 0 ||
		!strings.HasPrefix(c.String(), "continues the crawl of ") {
		t.Fatalf("after a crawl of %d pages: %+v (%q), %v", first.PagesOK, c, c, err)
	}

	before := len(log.since(0))
	req.FreshFrontier = true
	fresh, err := a.Crawling.Run(ctx, req, time.Second, nil)
	if err != nil || fresh.Pages != 0 || fresh.EndReason != crawling.EndExhausted {
		t.Errorf("fresh frontier from seeds already fetched: %+v, %v; want nothing fetched", fresh, err)
	}
	if got := log.since(before); len(got) != 0 {
		t.Errorf("the fresh crawl requested %v", got)
	}
	req.FreshFrontier = false
	more, err := a.Crawling.Run(ctx, req, time.Second, nil)
	if err != nil || more.PagesOK == 0 {
		t.Errorf("a continued crawl: %+v, %v; want it to go on with the links left waiting", more, err)
	}
}
