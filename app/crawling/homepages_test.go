package crawling

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sitesift/app/project"
	"testing"
	"time"
)

// TestCrawlAsksHomePages: a crawl from articles deep in their sites asks
// each site's home page, so that the site's seed is its home page: the one
// that answered, or the one that redirected to a page of its site.
func TestCrawlAsksHomePages(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		page := func(title string) {
			rw.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(rw, "<html><head><title>%s</title></head><body><article><h1>%s</h1><p>Words of %s.</p></article></body></html>",
				title, title, title)
		}
		switch r.URL.Host + r.URL.Path {
		case "news.test/2019/11/18/investing/asian-market-latest/index.html":
			page("Markets")
		case "news.test/":
			page("News")
		case "blog.test/posts/2020/05/hello.html":
			page("Hello")
		case "blog.test/":
			http.Redirect(rw, r, "http://blog.test/en/", http.StatusMovedPermanently)
		case "blog.test/en/":
			page("Blog")
		default:
			http.NotFound(rw, r)
		}
	}))
	defer srv.Close()
	p := openProject(t, t.TempDir(), true)
	defer p.Close()
	a := newService(p)
	defer a.Close()
	ctx := context.Background()
	req := CrawlRequest{Seeds: []string{"http://news.test/2019/11/18/investing/asian-market-latest/index.html", "http://blog.test/posts/2020/05/hello.html"},
		MaxPages: 50, SettingsUpdate: project.SettingsUpdate{DelayMS: new(0)}, Proxy: srv.URL, NoWARC: true}
	if st, err := a.Run(ctx, req, time.Second, nil); err != nil || st.State != StateDone {
		t.Fatalf("crawl: %+v, %v", st, err)
	}
	seeds, err := p.SeedURLs(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for site, want := range map[string]string{"news.test": "http://news.test/", "blog.test": "http://blog.test/"} {
		if seeds[site] != want {
			t.Errorf("seed of %s = %q, want %q", site, seeds[site], want)
		}
	}
}
