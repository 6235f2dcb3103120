package crawling_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"sitesift/app"
	"sitesift/app/apptest"
	"sitesift/app/crawling"
	"sitesift/app/project"
)

// The crawl's online OPIC hands cash along the graph the project ranks on:
// a site linked from another's navigation bar only gets that site's cash
// when the setting links is all.
func TestCrawlOPICFollowsLinksSetting(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.Host != "home.test" {
			fmt.Fprint(w, "<!doctype html><title>Leaf</title><p>Nothing links from here.</p>")
			return
		}
		fmt.Fprint(w, `<!doctype html><html lang="en"><head><title>Home</title></head><body>
<nav><a href="http://nav.test/">Our network</a> <a href="/about">About</a></nav>
<main><article><h1>A long read about harbours</h1>
<p>The harbour of the old town was rebuilt three times in the last century, each time after a storm that the
chroniclers of the port describe at length; the <a href="http://article.test/">maritime archive</a> keeps their
letters, the tide tables and the plans of the three breakwaters, which tell how the engineers learned from each
failure and why the last wall still stands today.</p>
<p>Visitors can walk along the breakwater at low tide and read the plaques that the town set up to remember the
workers who built it, many of whom came from the villages of the valley and stayed to found the fishing
cooperative that still runs the market every morning.</p>
</article></main>
<footer><a href="http://nav.test/legal">Legal</a></footer></body></html>`)
	}))
	t.Cleanup(srv.Close)

	opicOf := func(links string) (nav, article float64) {
		t.Helper()
		a := apptest.Empty(t)
		req := crawling.CrawlRequest{Seeds: []string{"http://home.test/"}, Proxy: srv.URL, MaxPages: 1, NoWARC: true,
			SettingsUpdate: project.SettingsUpdate{DelayMS: app.Set(1), Links: app.Set(links)}}
		st, err := runCrawl(a, req)
		if err != nil {
			t.Fatalf("crawl with links %s: %v", links, err)
		}
		for _, s := range st.Top {
			switch s.Site {
			case "nav.test":
				nav = s.OPIC
			case "article.test":
				article = s.OPIC
			}
		}
		return nav, article
	}
	edNav, edArticle := opicOf("editorial")
	if !(edArticle > edNav) {
		t.Errorf("editorial links: article.test %g, nav.test %g; want the article's link to count alone", edArticle, edNav)
	}
	allNav, allArticle := opicOf("all")
	if !(allNav > edNav) || allNav != allArticle {
		t.Errorf("all links: nav.test %g (editorial %g), article.test %g; want the navigation's link to count as the article's",
			allNav, edNav, allArticle)
	}
}
