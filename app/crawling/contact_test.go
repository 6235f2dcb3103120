package crawling_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"sitesift/app"
	"sitesift/app/apptest"
	"sitesift/app/crawling"
	"sitesift/app/fault"
	"sitesift/app/project"
)

// agents is a web server, also usable as a proxy, that answers every host
// with one page and passes on the User-Agent and From headers it got.
type agents struct {
	srv  *httptest.Server
	seen chan string // "User-Agent | From"
}

func newAgents(t *testing.T) *agents {
	w := &agents{seen: make(chan string, 1000)}
	w.srv = httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		w.seen <- r.Header.Get("User-Agent") + " | " + r.Header.Get("From")
		if r.URL.Path == "/robots.txt" {
			http.NotFound(rw, r)
			return
		}
		rw.Header().Set("Content-Type", "text/html")
		fmt.Fprint(rw, "<title>Home</title>")
	}))
	t.Cleanup(w.srv.Close)
	return w
}

// only returns the one agent seen since the last call, and forgets it.
func (w *agents) only(t *testing.T) string {
	t.Helper()
	var out []string
	for len(w.seen) > 0 {
		if a := <-w.seen; !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	if len(out) != 1 {
		t.Fatalf("agents seen %q, want one", out)
	}
	return out[0]
}

func runCrawl(a *app.App, req crawling.CrawlRequest) (crawling.CrawlStatus, error) {
	return a.Crawling.Run(context.Background(), req, time.Second, nil)
}

// TestContactRule: a crawl of the open web needs a contact, the demo web's
// .test hosts and loopback do not; a contact given with one crawl is kept
// for the next, with the other settings, and is sent in the user agent
// (an e-mail address as From, too).
func TestContactRule(t *testing.T) {
	a := apptest.Empty(t)
	w := newAgents(t)
	ctx := context.Background()

	s, err := a.Settings(ctx)
	if err != nil || s.Contact != "" || s.DelayMS != project.DefaultDelayMS || s.Parallel != project.DefaultParallel ||
		s.MaxDelayMS != project.DefaultMaxDelayMS || s.EffectiveUserAgent != "sitesift/"+project.Version {
		t.Fatalf("settings of a new project: %+v, %v", s, err)
	}

	fast := project.SettingsUpdate{DelayMS: app.Set(5)}
	_, err = runCrawl(a, crawling.CrawlRequest{Seeds: []string{"http://example.org/"}, Proxy: w.srv.URL, SettingsUpdate: fast})
	if !errors.Is(err, crawling.ErrNoContact) || fault.KindOf(err) != fault.KindInvalid {
		t.Fatalf("a crawl of example.org without a contact: %v; want ErrNoContact", err)
	}
	if s, _ := a.Settings(ctx); s.DelayMS != project.DefaultDelayMS {
		t.Errorf("a refused crawl stored its delay: %+v", s)
	}

	for _, seed := range []string{"http://a.test/", w.srv.URL + "/"} {
		req := crawling.CrawlRequest{Seeds: []string{seed}, SettingsUpdate: fast}
		if seed == "http://a.test/" {
			req.Proxy = w.srv.URL
		}
		if st, err := runCrawl(a, req); err != nil || st.PagesOK != 1 {
			t.Fatalf("a crawl of %s without a contact: %+v, %v; want 1 page", seed, st, err)
		}
	}
	if got := w.only(t); got != "sitesift/"+project.Version+" | " {
		t.Errorf("without a contact the crawl sent %q", got)
	}

	withContact := fast
	withContact.Contact = app.Set("you@library.org")
	req := crawling.CrawlRequest{Seeds: []string{"http://example.org/"}, Proxy: w.srv.URL, SettingsUpdate: withContact}
	if st, err := runCrawl(a, req); err != nil || st.PagesOK != 1 {
		t.Fatalf("a crawl of example.org with a contact: %+v, %v", st, err)
	}
	want := "sitesift/" + project.Version + " (+you@library.org) | you@library.org"
	if got := w.only(t); got != want {
		t.Errorf("with a contact the crawl sent %q, want %q", got, want)
	}

	// The next crawl gives no settings: the stored ones apply.
	s, err = a.Settings(ctx)
	if err != nil || s.Contact != "you@library.org" || s.DelayMS != 5 || s.EffectiveUserAgent != "sitesift/"+project.Version+" (+you@library.org)" {
		t.Errorf("settings after the crawls: %+v, %v", s, err)
	}
	if _, err := runCrawl(a, crawling.CrawlRequest{Seeds: []string{"http://example.net/"}, Proxy: w.srv.URL}); err != nil {
		t.Fatalf("a crawl with the stored contact: %v", err)
	}
	if got := w.only(t); got != want {
		t.Errorf("the next crawl sent %q, want the stored contact's %q", got, want)
	}

	// A URL contact and a user agent of the operator's own.
	s, err = a.Ranking.SetSettings(ctx, project.SettingsUpdate{Contact: app.Set("https://library.org/crawl"), UserAgent: app.Set("LibBot/2.0 (+https://library.org/crawl)")})
	if err != nil || s.EffectiveUserAgent != "LibBot/2.0 (+https://library.org/crawl)" {
		t.Fatalf("set a URL contact and a user agent: %+v, %v", s, err)
	}
	if _, err := runCrawl(a, crawling.CrawlRequest{Seeds: []string{"http://example.com/"}, Proxy: w.srv.URL}); err != nil {
		t.Fatal(err)
	}
	if got := w.only(t); got != "LibBot/2.0 (+https://library.org/crawl) | " {
		t.Errorf("the crawl sent %q", got)
	}
}

func TestIdleReadsChecked(t *testing.T) {
	bad := crawling.CrawlRequest{Seeds: []string{"http://a.test/"}, IdleReads: app.Set(-1)}
	if err := bad.CheckNew(); fault.KindOf(err) != fault.KindInvalid || !strings.Contains(err.Error(), "idle reads -1") {
		t.Errorf("a crawl with -1 idle reads: %v; want an invalid request naming them", err)
	}
	for _, k := range []int{0, 4} {
		ok := crawling.CrawlRequest{Seeds: []string{"http://a.test/"}, IdleReads: app.Set(k)}
		if err := ok.CheckNew(); err != nil {
			t.Errorf("a crawl with %d idle reads: %v", k, err)
		}
	}
}
