package project

import (
	"context"
	"path/filepath"
	"testing"

	"sitesift/sites"
)

// TestSeedURLsHomePage: a site's seed is its home page where the crawl saw
// it answer, 2xx or a redirect to a page of the site that did, before any
// deeper page; otherwise its shallowest page that answered. A home page
// that failed, or that redirected out of the site or to a page that
// failed, is no seed.
func TestSeedURLsHomePage(t *testing.T) {
	p, err := Open(filepath.Join(t.TempDir(), "p"), true, SearchTimeout(NoSearchTimeout))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	page := func(u string, status int) sites.Page {
		site, err := p.Store.SiteRule().Of(u)
		if err != nil {
			t.Fatal(err)
		}
		pg := sites.Page{URL: u, Site: site, Status: status, ContentType: "text/html"}
		if status >= 400 {
			pg.ErrClass = sites.ErrHTTP4xx
		}
		return pg
	}
	redirect := func(u, to string) sites.Page {
		pg := page(u, 301)
		pg.ErrClass, pg.Err = sites.ErrRedirect, "redirected to "+to
		return pg
	}
	pages := []sites.Page{
		// The article the crawl met first, and the home page it asked.
		page("https://www.cnn.com/2019/11/18/investing/asian-market-latest/index.html", 200),
		page("https://www.cnn.com/", 200),
		// The home page redirects into the site: the home page is the seed,
		// not the shorter page of one segment.
		page("https://blog.test/en/", 200),
		page("https://blog.test/ab", 200),
		redirect("https://blog.test/", "https://blog.test/en/"),
		// A home page that redirects out of the site, or to a page that
		// failed, or that failed: the shallowest page that answered.
		page("https://moved.test/2020/01/story.html", 200),
		page("https://moved.test/about/team.html", 200),
		redirect("https://moved.test/", "https://elsewhere.test/"),
		page("https://elsewhere.test/", 200),
		page("https://gone.test/news/a.html", 200),
		page("https://gone.test/en/", 404),
		redirect("https://gone.test/", "https://gone.test/en/"),
		page("https://dead.test/x/y/z.html", 200),
		page("https://dead.test/", 404),
		// A deeper redirect is no seed.
		page("https://deep.test/a/b/c.html", 200),
		redirect("https://deep.test/a", "https://deep.test/a/b/c.html"),
		// No query over https.
		page("https://q.test/?lang=en", 200),
		page("http://q.test/", 200),
	}
	if err := p.Store.SaveCrawlBatch(context.Background(), pages, nil); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"cnn.com":        "https://www.cnn.com/",
		"blog.test":      "https://blog.test/",
		"moved.test":     "https://moved.test/about/team.html",
		"elsewhere.test": "https://elsewhere.test/",
		"gone.test":      "https://gone.test/news/a.html",
		"dead.test":      "https://dead.test/x/y/z.html",
		"deep.test":      "https://deep.test/a/b/c.html",
		"q.test":         "http://q.test/",
	}
	for _, names := range [][]string{nil, {"cnn.com", "blog.test", "moved.test", "elsewhere.test", "gone.test", "dead.test", "deep.test", "q.test", "none.test"}} {
		got, err := p.SeedURLs(context.Background(), names)
		if err != nil {
			t.Fatal(err)
		}
		for site, u := range want {
			if got[site] != u {
				t.Errorf("names %v: seed of %s = %q, want %q", names, site, got[site], u)
			}
		}
		if len(got) != len(want) {
			t.Errorf("names %v: %d seeds %v, want %d", names, len(got), got, len(want))
		}
	}
}
