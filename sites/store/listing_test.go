package store

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"sitesift/sites"
)

// importedProject imports a random graph of n sites and rates a few of its
// sites as ana (one a note alone). With ties, the importance values are
// small whole numbers, so that the name breaks many ties; without, they are
// random floats, as a real graph's are.
func importedProject(t testing.TB, n, avgOut int, seed uint64, ties bool) *Store {
	t.Helper()
	s, err := Open(t.TempDir() + "/project.db")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	g := randomGraph(n, avgOut, seed)
	imp := func(_ context.Context, g *Graph) (NodeImportance, error) {
		rng := rand.New(rand.NewPCG(seed, 1))
		n := len(g.Names)
		ni := NodeImportance{PageRank: make([]float64, n), OPIC: make([]float64, n)}
		for u := range n {
			ni.PageRank[u], ni.OPIC[u] = float64(rng.IntN(7)), float64(rng.IntN(3)+rng.IntN(5))
			if !ties {
				ni.PageRank[u], ni.OPIC[u] = rng.Float64(), rng.Float64()+rng.Float64()
			}
		}
		return ni, nil
	}
	ctx := context.Background()
	if _, err := s.ImportSiteGraph(ctx, "g.txt", g, 0, imp); err != nil {
		t.Fatal(err)
	}
	for i, r := range []int{4, 1, 3, 4, 2, 1} {
		if _, err := s.SetRating(ctx, "ana", g.Names[(i*37)%n], r, ""); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.SetNote(ctx, "ana", g.Names[5], "a note, no rating"); err != nil {
		t.Fatal(err)
	}
	return s
}

// randomGraph is a graph of n sites s0000000.test … with avgOut random
// out-edges a site on average, exponentially distributed: many sites link
// nowhere or to one site, few to many, as on the web.
func randomGraph(n, avgOut int, seed uint64) *Graph {
	rng := rand.New(rand.NewPCG(seed, 2))
	g := &Graph{Offsets: make([]int, 1, n+1)}
	for u := range n {
		g.Names = append(g.Names, fmt.Sprintf("s%07d.test", u))
		var ts []int32
		for range int(rng.ExpFloat64() * float64(avgOut)) {
			if v := int32(rng.IntN(n)); int(v) != u {
				ts = append(ts, v)
			}
		}
		slices.Sort(ts)
		ts = slices.Compact(ts)
		for _, v := range ts {
			g.Targets = append(g.Targets, v)
			g.Weights = append(g.Weights, float64(1+rng.IntN(3)))
		}
		g.Offsets = append(g.Offsets, len(g.Targets))
	}
	return g
}

// crawledProject saves a crawl of 40 sites with 0–3 pages each (one site
// with failed fetches only) and links between them, so that pages and
// degrees are counted; ana rates a few sites.
func crawledProject(t *testing.T) *Store {
	t.Helper()
	s := openTest(t)
	rng := rand.New(rand.NewPCG(5, 6))
	var pages []sites.Page
	var states []sites.SiteState
	for i := range 40 {
		site := fmt.Sprintf("c%02d.test", i)
		states = append(states, sites.SiteState{Site: site, Cash: float64(rng.IntN(3)), History: float64(rng.IntN(3))})
		for j := range rng.IntN(4) {
			var links []string
			for range rng.IntN(4) {
				links = append(links, fmt.Sprintf("http://c%02d.test/", rng.IntN(40)))
			}
			p := page(t, fmt.Sprintf("http://%s/p%d", site, j), links...)
			if i == 7 {
				p.Status, p.Err, p.ErrClass = 500, "500 Internal Server Error", sites.ErrHTTP5xx
			}
			pages = append(pages, p)
		}
	}
	save(t, s, pages, states)
	ctx := context.Background()
	for i, r := range []int{2, 4, 4, 1} {
		if _, err := s.SetRating(ctx, "ana", fmt.Sprintf("c%02d.test", i*9+1), r, ""); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// wantOrder sorts rows as ListSites documents: by the key in the
// direction, ties by name ascending; a row without rating last either way.
func wantOrder(rows []SiteRow, key string, desc bool) []string {
	rows = slices.Clone(rows)
	val := func(r SiteRow) float64 {
		switch key {
		case "opic", "":
			return r.OPIC
		case "pagerank":
			return r.PageRank
		case "pages":
			return float64(r.Pages)
		case "in_sites":
			return float64(r.InSites)
		case "out_sites":
			return float64(r.OutSites)
		case "rating":
			return float64(*r.Rating)
		}
		return 0
	}
	slices.SortFunc(rows, func(a, b SiteRow) int {
		if key == "rating" && (a.Rating == nil) != (b.Rating == nil) {
			if a.Rating == nil {
				return 1
			}
			return -1
		}
		if key == "site" || (key == "rating" && a.Rating == nil) {
			if desc && key == "site" {
				return strings.Compare(b.Site, a.Site)
			}
			return strings.Compare(a.Site, b.Site)
		}
		c := cmp.Compare(val(a), val(b))
		if desc {
			c = -c
		}
		if c != 0 {
			return c
		}
		return strings.Compare(a.Site, b.Site)
	})
	return siteNames(rows)
}

// TestListSitesEverySortAndPage checks every sort key in both directions,
// with and without filters, against the order ListSites documents computed
// from the rows themselves, and every page of seven rows against the whole
// listing: the sorts that read apart the sites holding a value (pages,
// ratings) and those read through an index give the same pages as one
// listing would, on an imported project (stored degrees, no pages) and a
// crawled one (counted degrees, pages, failed fetches).
func TestListSitesEverySortAndPage(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for name, s := range map[string]*Store{"imported": importedProject(t, 150, 2, 1, true), "crawled": crawledProject(t)} {
		for _, key := range SortKeys() {
			for _, desc := range []bool{false, true} {
				for _, f := range []SiteQuery{{}, {Filter: "1"}, {Unrated: true}, {Filter: "2", Unrated: true},
					{NoFailed: true}, {Status: sites.SiteOK}, {Status: sites.SiteNotFetched}} {
					q := f
					q.Sort, q.Desc, q.Librarian = key, desc, "ana"
					total, all, err := s.ListSites(ctx, q)
					if err != nil {
						t.Fatalf("%s: ListSites(%+v): %v", name, q, err)
					}
					if total != len(all) {
						t.Errorf("%s: ListSites(%+v): total %d, %d rows", name, q, total, len(all))
					}
					if want := wantOrder(all, key, desc); !slices.Equal(siteNames(all), want) {
						t.Errorf("%s: ListSites(%+v) = %v,\nwant %v", name, q, siteNames(all), want)
					}
					var paged []SiteRow
					for q.Offset, q.Limit = 0, 7; q.Offset < total+7; q.Offset += 7 {
						n, rows, err := s.ListSites(ctx, q)
						if err != nil {
							t.Fatalf("%s: ListSites(%+v): %v", name, q, err)
						}
						if n != total {
							t.Errorf("%s: ListSites(%+v): total %d, want %d", name, q, n, total)
						}
						paged = append(paged, rows...)
					}
					if !slices.Equal(siteNames(paged), siteNames(all)) {
						t.Errorf("%s: pages of ListSites(%+v) = %v,\nwant %v", name, q, siteNames(paged), siteNames(all))
					}
				}
			}
		}
	}
}

// TestImportanceVersion checks what moves the importance version the
// caches of the listing depend on: a site added or its importance written,
// not a rating.
func TestImportanceVersion(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openFixture(t)
	v0, err := s.ImportanceVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetRating(ctx, "ana", "a.test", 3, "fine"); err != nil {
		t.Fatal(err)
	}
	if v, _ := s.ImportanceVersion(ctx); v != v0 {
		t.Errorf("a rating moved the importance version from %d to %d", v0, v)
	}
	n0, _, err := s.ListSites(ctx, SiteQuery{})
	if err != nil {
		t.Fatal(err)
	}
	save(t, s, []sites.Page{page(t, "http://a.test/new", "http://new.test/")}, []sites.SiteState{state("a.test", 9, 9)})
	v1, _ := s.ImportanceVersion(ctx)
	if v1 == v0 {
		t.Errorf("a crawl batch left the importance version at %d", v0)
	}
	if n, _, err := s.ListSites(ctx, SiteQuery{}); err != nil || n != n0+1 {
		t.Errorf("after a new site, ListSites total = %d, %v; want %d", n, err, n0+1)
	}
	if err := s.SetPageRank(ctx, map[string]float64{"a.test": 0.9}); err != nil {
		t.Fatal(err)
	}
	if v, _ := s.ImportanceVersion(ctx); v == v1 {
		t.Errorf("PageRank written left the importance version at %d", v1)
	}
	_, rows, err := s.ListSites(ctx, SiteQuery{Sort: "opic", Desc: true, Limit: 1})
	if err != nil || len(rows) != 1 || rows[0].Site != "a.test" {
		t.Errorf("after a.test's OPIC grew, the top site is %v (%v), want a.test", siteNames(rows), err)
	}
}

// BenchmarkListSites times the first page of the Sites page's default
// sorts on an imported project of 200,000 sites (about 400,000 edges), the
// caches warm, as a window asking for one page after another finds them.
func BenchmarkListSites(b *testing.B) {
	s := importedProject(b, 200_000, 2, 7, false)
	ctx := context.Background()
	for _, q := range []SiteQuery{
		{Sort: "opic", Desc: true}, {Sort: "pagerank", Desc: true}, {Sort: "pages", Desc: true},
		{Sort: "in_sites", Desc: true}, {Sort: "out_sites", Desc: true}, {Sort: "site"},
		{Sort: "rating", Desc: true}, {Sort: "opic", Desc: true, Archived: ArchivedYes},
		{Sort: "opic", Desc: true, Filter: "s01"}, {Sort: "opic", Desc: true, Offset: 100_000},
	} {
		q.Limit, q.Librarian = 50, "ana"
		name := q.Sort + "/" + map[bool]string{true: "desc", false: "asc"}[q.Desc]
		switch {
		case q.Filter != "":
			name += "/filter"
		case q.Archived != "":
			name += "/archived"
		case q.Offset > 0:
			name += "/offset"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, rows, err := s.ListSites(ctx, q); err != nil || len(rows) == 0 && q.Archived == "" {
					b.Fatalf("ListSites(%+v): %d rows, %v", q, len(rows), err)
				}
			}
		})
	}
}
