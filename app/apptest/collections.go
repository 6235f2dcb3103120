package apptest

import (
	"context"
	"testing"

	"sitesift/app"
	"sitesift/sites"
)

// TopicProject builds a project of two communities whose pages have known
// words, and whose best hubs are on one site, and returns its directory,
// closed:
//
//   - hubs http://hub.test/jazz, https://p1.test/j and http://p2.test/j link
//     to http://j{1,2,3}.test/; their pages speak of jazz, records and
//     vinyl;
//   - hubs http://hub.test/birds, http://q1.test/b and http://q2.test/b
//     link to http://b{1,2}.test/; their pages speak of birds, feathers
//     and nests;
//   - every page also says "welcome to the site" and the year 1999, and
//     holds one-letter words; other.test's five pages speak of none of
//     the topics.
//
// Communities are cores of sites: hub.test, a hub of both topics, is a
// hub of the first community, which takes it out of the graph, so the
// second one's hub sites are q1.test and q2.test, and its seed q1.test's
// home page. p1.test was crawled over https. The project has two
// librarians, ana and bo.
func TopicProject(t testing.TB) string {
	t.Helper()
	dir, p := create(t)
	defer p.Close()
	const common = " Welcome to the site, est. 1999. x y z. "
	jazz := "Jazz records on vinyl: new jazz records, rare vinyl." + common
	birds := "Birds with feathers build nests; birds, feathers, nests." + common
	page := func(u, text string, links ...string) sites.Page {
		pg := Page(t, u, links...)
		pg.Text = text
		return pg
	}
	js := []string{"http://j1.test/", "http://j2.test/", "http://j3.test/"}
	bs := []string{"http://b1.test/", "http://b2.test/"}
	pages := []sites.Page{
		page("http://hub.test/jazz", jazz, js...),
		page("https://p1.test/j", jazz, js...),
		page("http://p2.test/j", jazz, js...),
		page("http://hub.test/birds", birds, bs...),
		page("http://q1.test/b", birds, bs...),
		page("http://q2.test/b", birds, bs...),
	}
	for _, u := range js {
		pages = append(pages, page(u, jazz))
	}
	for _, u := range bs {
		pages = append(pages, page(u, birds))
	}
	for _, u := range []string{"a", "b", "c", "d", "e"} {
		pages = append(pages, page("http://other.test/"+u, "Opening hours and parking for visitors."+common))
	}
	var states []sites.SiteState
	for i, s := range []string{"hub.test", "j1.test", "j2.test", "j3.test", "p1.test", "p2.test", "q1.test",
		"b1.test", "b2.test", "other.test", "q2.test"} {
		states = append(states, sites.SiteState{Site: s, History: float64(20 - i)})
	}
	if err := p.Store.SaveCrawlBatch(context.Background(), pages, states); err != nil {
		t.Fatal(err)
	}
	a := app.New(app.Options{Project: p})
	if _, err := a.Ranking.UpdateImportance(context.Background()); err != nil {
		t.Fatal(err)
	}
	AddLibrarians(t, a, "ana", "bo")
	return dir
}
