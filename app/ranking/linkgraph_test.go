package ranking_test

import (
	"context"
	"path/filepath"
	"testing"

	"sitesift/app"
	"sitesift/app/apptest"
	"sitesift/app/fault"
	"sitesift/app/project"
	"sitesift/app/ranking"
	"sitesift/sites"
	"sitesift/sites/store"
)

// templateProject opens a crawled project whose three news.test pages
// each link to blog.test in their text and to share.test in their
// template (a share button), and blog.test's home page links back to
// news.test in its text.
func templateProject(t *testing.T) (*app.App, *project.Project) {
	t.Helper()
	a, p := apptest.EmptyProject(t)
	var pages []sites.Page
	for _, u := range []string{"http://news.test/", "http://news.test/a", "http://news.test/b"} {
		pg := apptest.Page(t, u, "http://blog.test/")
		pg.TemplateLinks = []string{"http://share.test/share?u=" + u}
		pages = append(pages, pg)
	}
	pages = append(pages, apptest.Page(t, "http://blog.test/", "http://news.test/"))
	ctx := context.Background()
	if err := p.Store.SaveCrawlBatch(ctx, pages, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Store.StartCrawl(ctx, nil); err != nil { // a crawled project
		t.Fatal(err)
	}
	if _, err := a.Ranking.UpdateImportedImportance(ctx); err != nil {
		t.Fatal(err)
	}
	return a, p
}

// siteRow returns the row of site in the sites listing, and the graph the
// listing says its numbers come from.
func siteRow(t *testing.T, a *app.App, site string) (ranking.SiteRow, ranking.LinkGraph) {
	t.Helper()
	l, err := a.Review.Sites(context.Background(), store.SiteQuery{Sort: "opic", Desc: true, Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range l.Rows {
		if r.Site == site {
			return r, l.Graph
		}
	}
	t.Fatalf("no %s in the listing", site)
	return ranking.SiteRow{}, ranking.LinkGraph{}
}

// The links setting chooses the graph the importance is computed on: a
// share button counts on all links only; changing it computes the
// importance again at once, and the listing and the ranking name the graph.
func TestLinksSetting(t *testing.T) {
	ctx := context.Background()
	a, p := templateProject(t)
	s, err := a.Settings(ctx)
	if err != nil || s.Links != "editorial" {
		t.Fatalf("default links setting %q, %v; want editorial", s.Links, err)
	}
	ed, g := siteRow(t, a, "share.test")
	if g.Label != ranking.GraphEditorial || ed.InSites != 0 {
		t.Errorf("share.test on the editorial graph: %+v, graph %+v; want no in-link", ed, g)
	}

	if s, err = a.Ranking.SetSettings(ctx, project.SettingsUpdate{Links: app.Set("all")}); err != nil || s.Links != "all" {
		t.Fatalf("set links all: %+v, %v", s, err)
	}
	if stale, err := p.Store.ImportanceStale(ctx); err != nil || stale {
		t.Errorf("importance stale after the change: %v, %v; want computed again", stale, err)
	}
	all, g := siteRow(t, a, "share.test")
	if g.Label != ranking.GraphAll || all.InSites != 1 || !(all.OPIC > ed.OPIC) || !(all.PageRank > ed.PageRank) {
		t.Errorf("share.test on the all-links graph: %+v, graph %+v; want an in-link, and OPIC and PageRank above %+v",
			all, g, ed)
	}
	rows, err := a.Ranking.Rank(ctx, 0)
	if err != nil || len(rows) == 0 || rows[0].Graph != ranking.GraphAll {
		t.Errorf("rank on all links: %+v, %v", rows, err)
	}

	if _, err := a.Ranking.SetSettings(ctx, project.SettingsUpdate{Links: app.Set("template")}); fault.KindOf(err) != fault.KindInvalid {
		t.Errorf("links template: %v, want a bad request", err)
	}
	if s, _ := a.Settings(ctx); s.Links != "all" {
		t.Errorf("links after a refused change: %q", s.Links)
	}
}

// An imported edge list ranks on all its links, and says why.
func TestImportedGraphName(t *testing.T) {
	ctx := context.Background()
	a := apptest.Empty(t)
	path := filepath.Join(t.TempDir(), "g.txt")
	apptest.WriteSynthetic(t, path, 20, 3)
	if _, err := a.Imports.Import(ctx, path); err != nil {
		t.Fatal(err)
	}
	g, err := a.Ranking.LinkGraph(ctx)
	if err != nil || g.Label != ranking.GraphNoPages || g.Links != "editorial" {
		t.Errorf("graph of an imported edge list: %+v, %v", g, err)
	}
}

// The ranking applies the repetition rule: a link in the text of every
// post of a site counts as the template's on the editorial graph.
func TestRankingRepetitionRule(t *testing.T) {
	ctx := context.Background()
	a, p := apptest.EmptyProject(t)
	var pages []sites.Page
	for i := range 5 {
		pages = append(pages, apptest.Page(t, "http://blog.test/"+string(rune('a'+i)), "http://follow.test/us"))
	}
	pages[0].Links = append(pages[0].Links, "http://cited.test/")
	if err := p.Store.SaveCrawlBatch(ctx, pages, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Store.StartCrawl(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Ranking.UpdateImportance(ctx); err != nil {
		t.Fatal(err)
	}
	follow, _ := siteRow(t, a, "follow.test")
	cited, _ := siteRow(t, a, "cited.test")
	if follow.InSites != 0 || cited.InSites != 1 || !(cited.PageRank > follow.PageRank) {
		t.Errorf("after the ranking: follow.test %+v, cited.test %+v; want the repeated link left out of the editorial graph", follow, cited)
	}
}
