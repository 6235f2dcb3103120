package crawl

import (
	"slices"
	"testing"

	"sitesift/sites"
)

// homeWeb is a web whose seeds are pages deep in their sites.
func homeWeb() map[string]map[string]resp {
	return map[string]map[string]resp{
		"news.test": {
			"/2019/11/18/investing/story/index.html": {body: page("Story",
				"/2019/11/18/investing/a.html", "/2019/11/18/investing/b.html", "/2019/11/18/investing/c.html")},
			"/2019/11/18/investing/a.html": {body: page("A")},
			"/2019/11/18/investing/b.html": {body: page("B")},
			"/2019/11/18/investing/c.html": {body: page("C")},
			"/":                            {body: page("News home")},
		},
		"blog.test": {
			"/posts/2020/hello.html": {body: page("Hello")},
			"/":                      {status: 301, location: "http://blog.test/en/"},
			"/en/":                   {body: page("Blog home")},
		},
		"gone.test": {
			"/a/b/c.html": {body: page("Deep")},
			// "/" answers 404.
		},
		"www.x.test": {"/a/b.html": {body: page("X1")}, "/": {body: page("X home")}},
		"x.test":     {"/c/d.html": {body: page("X2")}, "/": {body: page("X home")}},
	}
}

var homeSeeds = []string{"http://news.test/2019/11/18/investing/story/index.html", "http://blog.test/posts/2020/hello.html",
	"http://gone.test/a/b/c.html", "http://www.x.test/a/b.html", "http://x.test/c/d.html"}

// TestHomePages: with HomePages the crawl asks each site's home page once,
// right after the first page of the site it fetched fine, before the other
// URLs the site's pages queued, within the site's page cap; a redirect and
// a 404 are recorded as any page's.
func TestHomePages(t *testing.T) {
	t.Parallel()
	w := newWeb(t, homeWeb())
	r := crawl(t, w, homeSeeds, HomePages(true), MaxPagesPerSite(3), Parallel(1), SiteRule(sites.RuleHostWWW))
	if r.err != nil {
		t.Fatal(r.err)
	}
	for _, h := range []string{"news.test", "blog.test", "gone.test"} {
		if n := w.count(h, "/"); n != 1 {
			t.Errorf("%s/ asked %d times, want 1", h, n)
		}
	}
	// One site of two hosts (host-www): its home page is asked once.
	if n := w.count("www.x.test", "/") + w.count("x.test", "/"); n != 1 {
		t.Errorf("x.test's home pages asked %d times, want 1", n)
	}
	// news.test's cap of 3 pages: the seed, its home page, then the first
	// of the links the seed queued before it.
	home, ok := r.byURL("http://news.test/")
	if !ok || home.Status != 200 || home.Depth != 1 || home.Via != homeSeeds[0] {
		t.Errorf("news.test/ = %+v, %v; want fetched, depth 1, via the seed", home, ok)
	}
	var asked []string
	for _, h := range w.requests() {
		if h.host == "news.test" && h.path != "/robots.txt" {
			asked = append(asked, h.path)
		}
	}
	if want := []string{"/2019/11/18/investing/story/index.html", "/", "/2019/11/18/investing/a.html"}; !slices.Equal(asked, want) {
		t.Errorf("news.test asked %q, want %q", asked, want)
	}
	if p, ok := r.byURL("http://blog.test/en/"); !ok || p.Status != 200 {
		t.Errorf("blog.test/ redirected to /en/: page %+v, %v", p, ok)
	}
	if p, ok := r.byURL("http://blog.test/"); !ok || p.ErrClass != "redirect" {
		t.Errorf("blog.test/ = %+v, %v; want a redirect record", p, ok)
	}
	if p, ok := r.byURL("http://gone.test/"); !ok || p.Status != 404 {
		t.Errorf("gone.test/ = %+v, %v; want its 404", p, ok)
	}
}

// TestHomePagesWithinScope: the home page is asked only where the crawl's
// scope takes it, whatever MaxHops lets a link reach, and not at all
// without HomePages.
func TestHomePagesWithinScope(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		opts []Option
	}{
		{"off", nil},
		{"prefix scope", []Option{HomePages(true), Scope(ScopePrefix), MaxHops(1)}},
		{"excluded", []Option{HomePages(true), Exclude(`^http://[^/]+/$`)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := newWeb(t, homeWeb())
			r := crawl(t, w, homeSeeds, c.opts...)
			if r.err != nil {
				t.Fatal(r.err)
			}
			for _, h := range w.requests() {
				if h.path == "/" {
					t.Errorf("%s/ asked", h.host)
				}
			}
		})
	}
}

// TestHomePageOfTemplateLink: a home page the crawl asks for is no longer
// counted among the template's links left out, where another site's footer
// linked to it.
func TestHomePageOfTemplateLink(t *testing.T) {
	t.Parallel()
	w := newWeb(t, map[string]map[string]resp{
		"news1.test":   {"/2020/story.html": {body: templatedArticle(1, "Story", "http://addthis.test/report/x.html")}},
		"addthis.test": {"/report/x.html": {body: page("Report")}, "/": {body: page("Home")}},
	})
	r := crawl(t, w, []string{"http://news1.test/2020/story.html"}, HomePages(true), Parallel(1))
	if r.err != nil {
		t.Fatal(r.err)
	}
	if n := w.count("addthis.test", "/"); n != 1 {
		t.Fatalf("addthis.test/ asked %d times, want 1", n)
	}
	r.c.mu.Lock()
	defer r.c.mu.Unlock()
	if r.c.templateOut["http://addthis.test/"] != nil {
		t.Errorf("http://addthis.test/, fetched, is counted among the template links left out (%d)", r.status.TemplateLeftOut)
	}
}
