package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sort"
	"testing"
	"time"

	"sitesift/sites"
)

// withTemplate is p with template links.
func withTemplate(p sites.Page, template ...string) sites.Page {
	p.TemplateLinks = template
	return p
}

// setLinks chooses the project's link graph, failing the test on an error.
func setLinks(t *testing.T, s *Store, g LinkGraph) {
	t.Helper()
	if _, err := s.SetLinkGraph(context.Background(), g); err != nil {
		t.Fatal(err)
	}
}

// recomputed is the site graph the latest version of each page implies:
// every link, or the editorial links only.
func recomputed(latest map[string]sites.Page, all bool) []sites.Edge {
	weights := map[[2]string]float64{}
	for _, p := range latest {
		targets := map[string]bool{}
		links := p.Links
		if all {
			links = slices.Concat(p.Links, p.TemplateLinks)
		}
		for _, l := range links {
			if ts, _ := sites.Of(l); ts != p.Site {
				targets[ts] = true
			}
		}
		for ts := range targets {
			weights[[2]string{p.Site, ts}]++
		}
	}
	want := []sites.Edge{}
	for k, w := range weights {
		want = append(want, sites.Edge{From: k[0], To: k[1], Weight: w})
	}
	sort.Slice(want, func(i, j int) bool {
		if want[i].From != want[j].From {
			return want[i].From < want[j].From
		}
		return want[i].To < want[j].To
	})
	return want
}

// Both graphs stay what the pages imply while pages are saved again with
// other links of both kinds, through crawls and recrawls: the editorial
// weight is withdrawn and added with the page's share, never above the
// all-links weight, and no row of weight 0 is left.
func TestLinkGraphsMatchRecomputation(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	rng := rand.New(rand.NewPCG(3, 4))
	siteNames := []string{"a.test", "b.test", "c.test", "d.test", "e.test"}
	url := func() string {
		return fmt.Sprintf("http://%s/%d", siteNames[rng.IntN(len(siteNames))], rng.IntN(8))
	}
	latest := map[string]sites.Page{}
	for round := range 60 {
		var batch []sites.Page
		seen := map[string]bool{}
		for range 1 + rng.IntN(6) {
			var links, template []string
			for range rng.IntN(5) {
				links = append(links, url())
			}
			for range rng.IntN(5) {
				if l := url(); !slices.Contains(links, l) {
					template = append(template, l)
				}
			}
			p := withTemplate(page(t, url(), links...), template...)
			if seen[p.URL] {
				continue // a recrawl round fetches a page once
			}
			seen[p.URL] = true
			batch = append(batch, p)
			latest[p.URL] = p
		}
		if round%3 == 2 {
			r, err := s.StartRound(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.SaveRecrawlBatch(ctx, r.Round, batch, nil); err != nil {
				t.Fatal(err)
			}
			if _, _, err := s.FinishRound(ctx, r.Round); err != nil {
				t.Fatal(err)
			}
		} else {
			save(t, s, batch, nil)
		}
	}
	if _, got := graph(t, s); !slices.Equal(got, recomputed(latest, false)) {
		t.Errorf("editorial edges =\n%v\nwant\n%v", got, recomputed(latest, false))
	}
	var bad int
	if err := s.rdb.QueryRowContext(ctx, `SELECT COUNT(*) FROM site_links
		WHERE weight <= 0 OR editorial_weight IS NULL OR editorial_weight > weight`).Scan(&bad); err != nil || bad != 0 {
		t.Errorf("%d rows of site_links with weight 0, or an editorial weight NULL or above the weight (%v)", bad, err)
	}
	setLinks(t, s, AllLinks)
	if _, got := graph(t, s); !slices.Equal(got, recomputed(latest, true)) {
		t.Errorf("all-links edges =\n%v\nwant\n%v", got, recomputed(latest, true))
	}
}

// The sites listing, a site's detail, the CSR graph, the crawl's prior and
// the page graph read the project's link graph.
func TestLinkGraphReaders(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	save(t, s, []sites.Page{
		withTemplate(page(t, "http://a.test/1", "http://b.test/x"), "http://share.test/tweet", "http://c.test/"),
		withTemplate(page(t, "http://a.test/2"), "http://share.test/tweet"),
		page(t, "http://b.test/x", "http://c.test/"),
	}, nil)
	type view struct {
		aOut, shareIn int
		detail        []SiteLink
		csrEdges      int
		prior         []sites.Edge
		arcs          int
	}
	read := func() view {
		var v view
		_, rows, err := s.ListSites(ctx, SiteQuery{Sort: "out_sites", Desc: true, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			switch r.Site {
			case "a.test":
				v.aOut = r.OutSites
			case "share.test":
				v.shareIn = r.InSites
			}
		}
		d, err := s.Site(ctx, "a.test", "")
		if err != nil {
			t.Fatal(err)
		}
		v.detail = d.OutLinks
		g, err := s.SiteGraphCSR(ctx)
		if err != nil {
			t.Fatal(err)
		}
		v.csrEdges = len(g.Targets)
		if _, v.prior, _, _, err = s.Prior(ctx); err != nil {
			t.Fatal(err)
		}
		_, arcs, err := s.PageGraph(ctx)
		if err != nil {
			t.Fatal(err)
		}
		v.arcs = len(arcs)
		return v
	}
	ed := read()
	if ed.aOut != 1 || ed.shareIn != 0 || len(ed.detail) != 1 || ed.detail[0].Site != "b.test" || ed.csrEdges != 2 ||
		!slices.Equal(ed.prior, []sites.Edge{edge("a.test", "b.test", 1), edge("b.test", "c.test", 1)}) || ed.arcs != 2 {
		t.Errorf("editorial graph: %+v", ed)
	}
	setLinks(t, s, AllLinks)
	all := read()
	if all.aOut != 3 || all.shareIn != 1 || len(all.detail) != 3 || all.detail[0].Site != "share.test" || all.detail[0].Weight != 2 ||
		all.csrEdges != 4 || len(all.prior) != 4 || all.arcs != 5 {
		t.Errorf("all-links graph: %+v", all)
	}
}

// Choosing the other graph marks the importance stale; choosing the same
// one changes nothing, and a graph of another name is refused.
func TestSetLinkGraph(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	info, err := s.LinkGraph(ctx)
	if err != nil || info.Links != EditorialLinks || info.Pages || info.NoPageStructure || info.BeforeKinds {
		t.Fatalf("new project: %+v, %v", info, err)
	}
	if changed, err := s.SetLinkGraph(ctx, AllLinks); err != nil || !changed {
		t.Fatalf("set all on an empty project: %v, %v", changed, err)
	}
	if stale(t, s) {
		t.Error("an empty project has no importance to be stale")
	}
	save(t, s, []sites.Page{page(t, "http://a.test/", "http://b.test/")}, nil)
	if changed, err := s.SetLinkGraph(ctx, AllLinks); err != nil || changed || stale(t, s) {
		t.Errorf("set all again: changed %v, stale %v, %v", changed, stale(t, s), err)
	}
	if changed, err := s.SetLinkGraph(ctx, EditorialLinks); err != nil || !changed || !stale(t, s) {
		t.Errorf("set editorial: changed %v, stale %v, %v", changed, stale(t, s), err)
	}
	if _, err := s.SetLinkGraph(ctx, "template"); !errors.Is(err, ErrInvalid) {
		t.Errorf("set template: %v, want ErrInvalid", err)
	}
}

// An imported graph has no page structure: its edges are in both graphs,
// and the project says so.
func TestImportedGraphInBothLinkGraphs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	edges := []sites.Edge{edge("a.test", "b.test", 3), edge("b.test", "c.test", 1)}
	if _, err := s.ImportGraph(ctx, "g.txt", []string{"a.test", "b.test", "c.test"}, edges, 0); err != nil {
		t.Fatal(err)
	}
	if _, got := graph(t, s); !slices.Equal(got, edges) {
		t.Errorf("editorial graph of an import = %v, want %v", got, edges)
	}
	setLinks(t, s, AllLinks)
	if _, got := graph(t, s); !slices.Equal(got, edges) {
		t.Errorf("all-links graph of an import = %v, want %v", got, edges)
	}
	info, err := s.LinkGraph(ctx)
	if err != nil || !info.NoPageStructure || info.Pages {
		t.Errorf("link graph of an import: %+v, %v", info, err)
	}
}

// A project migrated with links from before link kinds keeps its graph as
// the editorial graph, says so, and pages saved since count their own kinds
// beside the old links.
func TestLinkKindsMigration(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ms, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "project.db")
	db, err := sql.Open("sqlite", path+"?"+dsnParams)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms[:16] {
		if _, err := db.ExecContext(ctx, m.sql); err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
	}
	const now = `'2026-01-01T00:00:00.000000000Z'`
	for _, q := range []string{
		`PRAGMA user_version = 16`,
		`INSERT INTO sites (id, name, first_seen) VALUES (1, 'a.test', ` + now + `), (2, 'b.test', ` + now + `), (3, 'c.test', ` + now + `)`,
		`INSERT INTO pages (id, url, site_id, status) VALUES (1, 'http://a.test/1', 1, 200), (2, 'http://a.test/2', 1, 200)`,
		`INSERT INTO links (page_id, target_url, target_site_id) VALUES (1, 'http://b.test/', 2), (2, 'http://b.test/', 2), (2, 'http://c.test/', 3)`,
		`INSERT INTO site_links (from_site_id, to_site_id, weight) VALUES (1, 2, 2), (1, 3, 1)`,
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	old := []sites.Edge{edge("a.test", "b.test", 2), edge("a.test", "c.test", 1)}
	if _, got := graph(t, s); !slices.Equal(got, old) {
		t.Errorf("editorial graph after the migration = %v, want the old graph %v", got, old)
	}
	if info, err := s.LinkGraph(ctx); err != nil || !info.BeforeKinds {
		t.Errorf("link graph after the migration: %+v, %v; want BeforeKinds", info, err)
	}
	// Page 2 crawled again: its link to b.test is now the template's.
	save(t, s, []sites.Page{withTemplate(page(t, "http://a.test/2", "http://c.test/"), "http://b.test/")}, nil)
	if _, got := graph(t, s); !slices.Equal(got, []sites.Edge{edge("a.test", "b.test", 1), edge("a.test", "c.test", 1)}) {
		t.Errorf("editorial graph after a page crawled again = %v", got)
	}
	setLinks(t, s, AllLinks)
	if _, got := graph(t, s); !slices.Equal(got, old) {
		t.Errorf("all-links graph after a page crawled again = %v, want %v", got, old)
	}
}

// A page's whole text, language and publication date are kept beside its
// main text.
func TestPageTextFields(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	p := page(t, "http://a.test/")
	p.FullText, p.Language = "Menu Home "+p.Text+" Footer", "fr"
	p.Published = time.Date(2025, 3, 4, 0, 0, 0, 0, time.UTC)
	save(t, s, []sites.Page{p, page(t, "http://b.test/")}, nil)
	var got []sites.Page
	if err := s.ForEachPage(ctx, func(p sites.Page) error { got = append(got, p); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Language != "fr" || !got[0].Published.Equal(p.Published) || !got[1].Published.IsZero() {
		t.Errorf("pages read back: %+v", got)
	}
	var full string
	if err := s.rdb.QueryRowContext(ctx, `SELECT full_text FROM pages WHERE url = ?`, p.URL).Scan(&full); err != nil || full != p.FullText {
		t.Errorf("full text stored = %q, %v; want %q", full, err, p.FullText)
	}
}

// The importance saved for a crawled project leaves its degrees counted:
// the next crawl batch and the other link graph change them.
func TestSetImportanceCountsDegreesOfPages(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	save(t, s, []sites.Page{withTemplate(page(t, "http://a.test/", "http://b.test/"), "http://share.test/")}, nil)
	g, err := s.SiteGraphCSR(ctx)
	if err != nil {
		t.Fatal(err)
	}
	n := len(g.IDs)
	if err := s.SetImportance(ctx, g, NodeImportance{PageRank: make([]float64, n), OPIC: make([]float64, n)}); err != nil {
		t.Fatal(err)
	}
	save(t, s, []sites.Page{page(t, "http://c.test/", "http://b.test/")}, nil)
	in := func(site string) int {
		d, err := s.Site(ctx, site, "")
		if err != nil {
			t.Fatal(err)
		}
		return d.InSites
	}
	if got := in("b.test"); got != 2 {
		t.Errorf("b.test in-sites after a batch = %d, want 2", got)
	}
	setLinks(t, s, AllLinks)
	if got := in("share.test"); got != 1 {
		t.Errorf("share.test in-sites on all links = %d, want 1", got)
	}
}

// The repetition rule makes an editorial link that most pages of a site
// carry a template link, in the links and the editorial graph, and takes
// it back when the site grows past it; the all-links graph keeps it.
func TestRepetitionRule(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	var pages []sites.Page
	for i := range 8 {
		links := []string{"http://follow.test/us"}
		if i < 2 {
			links = append(links, fmt.Sprintf("http://cited.test/%d", i))
		}
		if i < 5 { // 5 of 8 pages: over 60 %
			links = append(links, "http://sister.test/")
		}
		pages = append(pages, page(t, fmt.Sprintf("http://blog.test/%d", i), links...))
	}
	// Only 4 pages of small.test: too few for the rule.
	for i := range 4 {
		pages = append(pages, page(t, fmt.Sprintf("http://small.test/%d", i), "http://follow.test/us"))
	}
	save(t, s, pages, nil)
	n, err := s.RepetitionRule(ctx)
	if err != nil || n != 13 {
		t.Fatalf("repetition rule: %d links changed, %v; want 13 (8 to follow.test, 5 to sister.test)", n, err)
	}
	want := []sites.Edge{edge("blog.test", "cited.test", 2), edge("small.test", "follow.test", 4)}
	if _, got := graph(t, s); !slices.Equal(got, want) {
		t.Errorf("editorial graph after the rule = %v, want %v", got, want)
	}
	if n, err := s.RepetitionRule(ctx); err != nil || n != 0 {
		t.Errorf("rule applied again: %d links changed, %v; want none", n, err)
	}
	// One more post without the sister link: 5 of 9, under 60 %.
	save(t, s, []sites.Page{page(t, "http://blog.test/8", "http://follow.test/us")}, nil)
	if n, err := s.RepetitionRule(ctx); err != nil || n != 6 {
		t.Errorf("rule after the site grew: %d links changed, %v; want the 5 sister links back and the new follow link", n, err)
	}
	want = []sites.Edge{edge("blog.test", "cited.test", 2), edge("blog.test", "sister.test", 5), edge("small.test", "follow.test", 4)}
	if _, got := graph(t, s); !slices.Equal(got, want) {
		t.Errorf("editorial graph after the site grew = %v, want %v", got, want)
	}
	setLinks(t, s, AllLinks)
	want = []sites.Edge{edge("blog.test", "cited.test", 2), edge("blog.test", "follow.test", 9), edge("blog.test", "sister.test", 5),
		edge("small.test", "follow.test", 4)}
	if _, got := graph(t, s); !slices.Equal(got, want) {
		t.Errorf("all-links graph = %v, want %v", got, want)
	}
}

// The shared-block rule: a network teaser, the same four stories of two
// sister sites in an article of indie.test and one of stone.test, is the
// template's on both, however few pages they have; the sources an article
// of a third site shares with one of them (two URLs), and each article's own
// citations, stay editorial.
func TestSharedBlockRule(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	teaser := []string{"http://derby.test/a", "http://derby.test/b", "http://deadline.test/c", "http://deadline.test/d"}
	save(t, s, []sites.Page{
		page(t, "http://indie.test/story", append([]string{"http://study.test/paper"}, teaser...)...),
		page(t, "http://stone.test/review", append([]string{"http://label.test/album"}, teaser...)...),
		page(t, "http://blog.test/post", "http://study.test/paper", "http://derby.test/a", "http://deadline.test/c"),
		// Both teaser sites' own pages link to each other: no block of
		// four other sites.
		page(t, "http://derby.test/a", "http://deadline.test/c"),
	}, nil)
	n, err := s.RepetitionRule(ctx)
	if err != nil || n != 8 {
		t.Fatalf("rule: %d links changed, %v; want the 8 teaser links", n, err)
	}
	want := []sites.Edge{edge("blog.test", "deadline.test", 1), edge("blog.test", "derby.test", 1), edge("blog.test", "study.test", 1),
		edge("derby.test", "deadline.test", 1), edge("indie.test", "study.test", 1), edge("stone.test", "label.test", 1)}
	if _, got := graph(t, s); !slices.Equal(got, want) {
		t.Errorf("editorial graph = %v, want %v", got, want)
	}
	if n, err := s.RepetitionRule(ctx); err != nil || n != 0 {
		t.Errorf("rule applied again: %d links changed, %v; want none", n, err)
	}
	// Two directories listing the same sites by their home pages: their
	// authors' votes, no block.
	s = openTest(t)
	homes := []string{"http://a.test/", "http://b.test", "http://c.test/?lang=en", "http://d.test/"}
	save(t, s, []sites.Page{page(t, "http://dir1.test/", homes...), page(t, "http://dir2.test/", homes...)}, nil)
	if n, err := s.RepetitionRule(ctx); err != nil || n != 0 {
		t.Errorf("two directories: %d changed, %v; want none", n, err)
	}
	for u, want := range map[string]bool{"http://a.test": true, "http://a.test/": true, "http://a.test/?q=1": true,
		"http://a.test/#x": true, "http://a.test/x": false, "https://a.test/x/": false, "http://a.test:8080/": true} {
		if homePage(u) != want {
			t.Errorf("homePage(%q) = %v", u, !want)
		}
	}
	// The teaser of three stories only: no block.
	s = openTest(t)
	save(t, s, []sites.Page{
		page(t, "http://indie.test/story", teaser[:3]...),
		page(t, "http://stone.test/review", teaser[:3]...),
	}, nil)
	if n, err := s.RepetitionRule(ctx); err != nil || n != 0 {
		t.Errorf("three shared links: %d changed, %v; want none", n, err)
	}
}
