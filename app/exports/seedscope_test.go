package exports_test

import (
	"context"
	"strings"
	"testing"

	"sitesift/app/apptest"
	"sitesift/app/exports"
	"sitesift/app/review"
	"sitesift/sites"
)

// TestApprovedArticlesScopeTheirSites: a project whose crawl met sites
// through articles deep in them exports, for its approved sites, seeds
// that scope each whole site as Heritrix reads its seeds file (the home
// page where the crawl saw it answer, else the shallowest page, with the
// site's SURT prefixes), and the Browsertrix configuration scopes them
// alike; a seed marked as its page only keeps its folder in Heritrix and
// its page in Browsertrix.
func TestApprovedArticlesScopeTheirSites(t *testing.T) {
	a, p := apptest.EmptyProject(t)
	ctx := context.Background()
	cnnArticle := "https://www.cnn.com/2019/11/18/investing/asian-market-latest/index.html"
	pg := func(u string, links ...string) sites.Page {
		site, err := p.Store.SiteRule().Of(u)
		if err != nil {
			t.Fatal(err)
		}
		return sites.Page{URL: u, Site: site, Status: 200, ContentType: "text/html", Title: u, Links: links}
	}
	redirect := func(u, to string) sites.Page {
		r := pg(u)
		r.Status, r.ErrClass, r.Err = 301, sites.ErrRedirect, "redirected to "+to
		return r
	}
	pages := []sites.Page{
		pg("https://hub.test/", cnnArticle, "https://www.bbc.co.uk/news/world-123", "https://blog.test/2020/05/hello.html", "https://nature.test/articles/s41586"),
		// The article the crawl met, and the home page it asked after it.
		pg(cnnArticle, "https://www.bbc.co.uk/news/world-123"),
		pg("https://www.cnn.com/"),
		// A home page that redirected to a page of its site.
		pg("https://blog.test/2020/05/hello.html", "https://www.bbc.co.uk/news/world-123"),
		redirect("https://blog.test/", "https://blog.test/en/"),
		pg("https://blog.test/en/"),
		// A home page that did not answer: the shallowest page is the seed.
		pg("https://www.bbc.co.uk/news/world-123", cnnArticle),
		pg("https://www.bbc.co.uk/news/uk/2020/a.html"),
		// Marked as its page only.
		pg("https://nature.test/articles/s41586", cnnArticle),
	}
	if err := p.Store.SaveCrawlBatch(ctx, pages, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Ranking.UpdateImportance(ctx); err != nil {
		t.Fatal(err)
	}
	apptest.AddLibrarians(t, a, "ana", "ben")
	yes := true
	for _, site := range []string{"cnn.com", "bbc.co.uk", "blog.test", "nature.test"} {
		for _, u := range []review.SelectionUpdate{{Librarian: "ana", Status: review.StatusNominated}, {Librarian: "ben", Status: review.StatusApproved}} {
			if site == "nature.test" && u.Status == review.StatusApproved {
				u.PageOnly = &yes
			}
			if _, err := a.Review.SetSelection(ctx, site, u); err != nil {
				t.Fatal(err)
			}
		}
	}
	var b strings.Builder
	if err := a.Exports.Export(ctx, &b, exports.ExportRequest{What: exports.ExportHeritrixSeeds}); err != nil {
		t.Fatal(err)
	}
	file := b.String()
	seeds := map[string]bool{}
	for _, l := range strings.Split(file, "\n") {
		if l != "" && !strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "+") {
			seeds[l] = true
		}
	}
	for _, s := range []string{"https://www.cnn.com/", "https://blog.test/", "https://www.bbc.co.uk/news/world-123", "https://nature.test/articles/s41586"} {
		if !seeds[s] {
			t.Errorf("seed %s is not a line of\n%s", s, file)
		}
	}
	if len(seeds) != 4 {
		t.Errorf("seeds %v, want 4", seeds)
	}
	in := exports.HeritrixScopeOf(t, file)
	for _, u := range []string{
		"https://www.cnn.com/", "http://www.cnn.com/", "https://cnn.com/", "http://cnn.com/2020/01/02/politics/x/index.html",
		"https://www.cnn.com/2019/11/18/investing/other.html", "https://www.cnn.com/world/",
		"https://www.bbc.co.uk/", "http://bbc.co.uk/sport/", "https://blog.test/about", "http://www.blog.test/en/",
		"https://nature.test/articles/other",
	} {
		if !in(u) {
			t.Errorf("%s is out of the scope of\n%s", u, file)
		}
	}
	for _, u := range []string{
		"https://edition.cnn.com/", "http://cnn.com.evil.test/", "https://hub.test/", "https://news.bbc.co.uk/",
		"https://nature.test/", "https://nature.test/news/x",
	} {
		if in(u) {
			t.Errorf("%s is in the scope of\n%s", u, file)
		}
	}
	b.Reset()
	if err := a.Exports.Export(ctx, &b, exports.ExportRequest{What: exports.ExportBrowsertrix}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"  - url: \"https://www.cnn.com/\"\n    scopeType: custom\n",
		"  - url: \"https://www.bbc.co.uk/news/world-123\"\n    scopeType: custom\n",
		"  - url: \"https://nature.test/articles/s41586\"\n    scopeType: page\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("browsertrix configuration without %q:\n%s", want, b.String())
		}
	}
	if strings.Contains(b.String(), "scopeType: page\n    include") {
		t.Errorf("a seed of its page only has an include expression:\n%s", b.String())
	}
}
