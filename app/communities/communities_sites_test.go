package communities_test

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"sitesift/app"
	"sitesift/app/apptest"
	"sitesift/app/communities"
	"sitesift/app/project"
	"sitesift/importance"
	"sitesift/sites"
)

// Messy crawls, as a librarian's crawl of real articles is: each part is
// one thing a page template does to the link graph.
var (
	// publisherPages: one publisher's 30 pages all link to the help and
	// footer pages of its network's hosts: 30 hub pages and 4 authority
	// pages, a complete bipartite core of pages, but one site pointing at
	// its own footer.
	publisherPages = func(t *testing.T) []sites.Page {
		var ps []sites.Page
		for i := range 30 {
			ps = append(ps, apptest.Page(t, fmt.Sprintf("https://www.publisher.test/story/%d", i),
				"https://help.pubnet.test/", "https://help.pubnet.test/accessibility",
				"https://corp.pubgroup.test/cookies", "https://corp.pubgroup.test/terms"))
		}
		return ps
	}
	// platformPages: three shops' pages link to the platform's home page
	// and to each shop's own profile on it: many sites, one authority site.
	platformPages = func(t *testing.T) []sites.Page {
		var ps []sites.Page
		for _, shop := range []string{"shop1", "shop2", "shop3"} {
			for _, p := range []string{"/", "/about"} {
				ps = append(ps, apptest.Page(t, "https://"+shop+".test"+p,
					"https://twitter.com/", "https://twitter.com/"+shop))
			}
		}
		return ps
	}
	// blogPages: three blogs' posts each cite a story of the same two news
	// sites, never the same story twice: no page is linked from two blogs,
	// but three sites agree on two others.
	blogPages = func(t *testing.T) []sites.Page {
		var ps []sites.Page
		for _, blog := range []string{"blog1", "blog2", "blog3"} {
			home := "https://" + blog + ".test/"
			ps = append(ps, apptest.Page(t, home, home+"post/1", home+"post/2"))
			for i := 1; i <= 2; i++ {
				ps = append(ps, apptest.Page(t, fmt.Sprintf("%spost/%d", home, i), home,
					fmt.Sprintf("https://news1.test/%s/story-%d", blog, i),
					fmt.Sprintf("https://www.news2.test/%s/report-%d", blog, i)))
			}
		}
		return ps
	}
)

// crawledProject saves pages as a crawl does, each page's site by the
// project's rule, and opens the app on the project.
func crawledProject(t *testing.T, pages []sites.Page) *app.App {
	t.Helper()
	p, err := project.Open(filepath.Join(t.TempDir(), "project"), true)
	if err != nil {
		t.Fatal(err)
	}
	var states []sites.SiteState
	seen := map[string]bool{}
	for i, pg := range pages {
		site, err := p.Store.SiteRule().Of(pg.URL)
		if err != nil {
			t.Fatal(err)
		}
		pages[i].Site, pg.Site = site, site
		if !seen[pg.Site] {
			seen[pg.Site] = true
			states = append(states, sites.SiteState{Site: pg.Site, History: 1})
		}
	}
	if err := p.Store.SaveCrawlBatch(context.Background(), pages, states); err != nil {
		t.Fatal(err)
	}
	a := app.New(app.Options{Project: p})
	t.Cleanup(func() { a.Close(); p.Close() })
	return a
}

// TestCommunitiesOfSites: on a crawled project a community is a core of at
// least two hub sites and two authority sites. A publisher's pages
// pointing at its footer and a platform linked by many sites are none,
// whatever their cores of pages; three blogs citing two news sites are
// one, though no two of their posts cite the same story.
func TestCommunitiesOfSites(t *testing.T) {
	type want struct {
		hubs, auths []string
	}
	blogs := want{
		hubs:  []string{"http://blog1.test/", "http://blog2.test/", "http://blog3.test/"},
		auths: []string{"http://news1.test/", "http://news2.test/"},
	}
	for _, tc := range []struct {
		name  string
		pages func(t *testing.T) []sites.Page
		want  []want
		ended importance.SeedsEnd
	}{
		{"a publisher's footer", publisherPages, nil, importance.EndSmallCores},
		// The links to a platform are left out of the graph: none remain.
		{"a platform", platformPages, nil, importance.EndNoLinks},
		{"three blogs citing two news sites", blogPages, []want{blogs}, importance.EndNoLinks},
		{"all of them", func(t *testing.T) []sites.Page {
			return slices.Concat(publisherPages(t), platformPages(t), blogPages(t))
		}, []want{blogs}, importance.EndSmallCores},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := crawledProject(t, tc.pages(t))
			cs, ended, err := a.Communities.ExtractEnd(context.Background(), 5, importance.DefaultCoreOptions())
			if err != nil {
				t.Fatal(err)
			}
			if len(cs) != len(tc.want) || ended != tc.ended {
				t.Fatalf("%d communities, ended %v: %+v; want %d, ended %v", len(cs), ended, cs, len(tc.want), tc.ended)
			}
			for i, w := range tc.want {
				c := cs[i]
				if !reflect.DeepEqual(sorted(c.Hubs), w.hubs) || !reflect.DeepEqual(sorted(c.Authorities), w.auths) {
					t.Errorf("community %d: hubs %v, authorities %v; want %v, %v", i, c.Hubs, c.Authorities, w.hubs, w.auths)
				}
				// The seed is the best hub site's shallowest page the
				// crawl fetched, here its home page.
				if c.Site != "blog1.test" || c.Seed != "https://blog1.test/" || c.FromHub != "https://blog1.test/" {
					t.Errorf("community %d: seed %s of site %s from hub %s; want https://blog1.test/ of blog1.test",
						i, c.Seed, c.Site, c.FromHub)
				}
			}
		})
	}
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// TestDemoWebCommunitiesOfSites: on a crawl of the demo web every community
// has two hub sites and two authority sites at least, and a site is a hub
// of one community at most: the cores are of sites. With the demo web's
// page chrome (publisher networks, accounts on the platforms) the page
// graph made communities of one site's pages pointing at its network or
// at the platforms.
func TestDemoWebCommunitiesOfSites(t *testing.T) {
	a, _, _ := apptest.OpenProject(t, apptest.CrawledProject(t))
	cs, err := a.Communities.Extract(context.Background(), 10, importance.DefaultCoreOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) < 2 {
		t.Fatalf("%d communities on the demo web: %+v", len(cs), cs)
	}
	hubOf := map[string]int{}
	for _, c := range cs {
		hubs, auths := map[string]bool{}, map[string]bool{}
		for _, u := range c.Hubs {
			s, _ := sites.Of(u)
			hubs[s] = true
			if k, ok := hubOf[s]; ok && k != c.Core {
				t.Errorf("site %s is a hub of communities %d and %d", s, k, c.Core)
			}
			hubOf[s] = c.Core
		}
		for _, u := range c.Authorities {
			s, _ := sites.Of(u)
			auths[s] = true
		}
		if len(hubs) < 2 || len(auths) < 2 {
			t.Errorf("community %d: %d hub sites %v, %d authority sites %v", c.Core, len(hubs), c.Hubs, len(auths), c.Authorities)
		}
	}
}

// followPages: three news sites' articles each carry the template's
// "follow us" links to their accounts on facebook, twitter and instagram:
// three hub sites agreeing on three authority sites, the core every crawl
// of news pages would find first were platforms in the graph.
func followPages(t *testing.T) []sites.Page {
	var ps []sites.Page
	for _, site := range []string{"daily", "herald", "tribune"} {
		for i := range 3 {
			ps = append(ps, apptest.Page(t, fmt.Sprintf("https://www.%s.test/story/%d", site, i),
				"https://www.facebook.com/"+site, "https://twitter.com/"+site, "https://www.instagram.com/"+site,
				"https://apps.apple.com/app/"+site, "https://play.google.com/store/apps/details?id=test."+site))
		}
	}
	return ps
}

// TestCommunitiesLeavePlatformsOut: no platform site is a hub or an
// authority of a community, by the list and by the project's own choice.
// Sites that all link to facebook, twitter and instagram make no
// community; the blogs citing two news sites still do, until a librarian
// makes one of the news sites a platform.
func TestCommunitiesLeavePlatformsOut(t *testing.T) {
	ctx := context.Background()
	a := crawledProject(t, slices.Concat(followPages(t), blogPages(t)))
	chosen := map[string]bool{} // the sites a librarian made platforms
	extract := func() []communities.Community {
		t.Helper()
		cs, err := a.Communities.Extract(ctx, 5, importance.DefaultCoreOptions())
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			for _, u := range slices.Concat(c.Hubs, c.Authorities) {
				if s, _ := sites.Of(u); sites.IsPlatform(s) || chosen[s] {
					t.Errorf("community %d holds the platform site %s: hubs %v, authorities %v", c.Core, s, c.Hubs, c.Authorities)
				}
			}
		}
		return cs
	}
	cs := extract()
	if len(cs) != 1 || !reflect.DeepEqual(sorted(cs[0].Authorities), []string{"http://news1.test/", "http://news2.test/"}) {
		t.Fatalf("communities %+v; want the blogs' one alone", cs)
	}
	if _, err := a.Ranking.SetPlatform(ctx, "news1.test", true, ""); err != nil {
		t.Fatal(err)
	}
	chosen["news1.test"] = true
	if cs := extract(); len(cs) != 0 {
		t.Fatalf("communities %+v after news1.test became a platform; want none", cs)
	}
}
