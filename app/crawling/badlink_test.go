package crawling_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"sitesift/app"
	"sitesift/app/apptest"
	"sitesift/app/crawling"
	"sitesift/app/project"
)

// One page linking to "http://../x" made every batch of the project fail:
// the crawl ended failed with 0 pages, and again on every restart. Crawled
// into a real project, the link is dropped and counted, the rest is kept.
func TestBadLinkDoesNotFailTheCrawl(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/robots.txt":
			http.NotFound(w, r)
		case "/":
			fmt.Fprint(w, `<title>Home</title><a href="http://../x">bad</a> <a href="http://a.test:99999/">bad</a>
				<a href="/next">next</a> <a href="http://b.test/">b</a>`)
		default:
			fmt.Fprint(w, `<title>Page</title><p>gramophone</p>`)
		}
	}))
	defer srv.Close()
	p := apptest.OpenDir(t, t.TempDir(), true)
	defer p.Close()
	a := app.New(app.Options{Project: p})
	defer a.Close()
	req := crawling.CrawlRequest{Seeds: []string{"http://a.test/"}, MaxPages: 10, SettingsUpdate: project.SettingsUpdate{DelayMS: app.Set(1), Parallel: app.Set(2)}, Proxy: srv.URL}
	st, err := a.Crawling.Run(context.Background(), req, time.Second, nil)
	if err != nil || st.State != crawling.StateDone || st.Pages != 4 || st.BadLinks != 4 {
		t.Fatalf("crawl: %+v, %v; want done with 4 pages (a.test and b.test, each / and /next) and their 4 bad links", st, err)
	}
}
