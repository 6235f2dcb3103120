package store

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"sitesift/sites"
)

// arcNames turns a PageGraph answer into "from -> to" strings.
func arcNames(urls []string, arcs [][2]int32) []string {
	out := make([]string, len(arcs))
	for i, a := range arcs {
		out[i] = urls[a[0]] + " -> " + urls[a[1]]
	}
	return out
}

// checkGraph compares a PageGraph answer with the URLs and the arcs, as
// arcNames writes them, it should have.
func checkGraph(t *testing.T, urls []string, arcs [][2]int32, wantURLs, wantArcs []string) {
	t.Helper()
	if !reflect.DeepEqual(urls, wantURLs) {
		t.Errorf("urls = %q, want %q", urls, wantURLs)
	}
	if got := arcNames(urls, arcs); !reflect.DeepEqual(got, wantArcs) {
		t.Errorf("arcs = %q, want %q", got, wantArcs)
	}
}

func TestPageGraphPrunesIntraSiteLinks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	save(t, s, []sites.Page{
		page(t, "http://b.test/", "http://b.test/about", "http://a.test/x", "http://c.test/"),
		// A repeated link and a link inside the site.
		page(t, "http://a.test/x", "http://b.test/", "http://b.test/", "http://a.test/y"),
		page(t, "http://a.test/y", "http://a.test/x", "http://c.test/"),
		// Linked only from its own site and crawled: a node without arcs.
		page(t, "http://b.test/about", "http://b.test/"),
	}, nil)
	// A second version of a page replaces its links: no stale arc.
	save(t, s, []sites.Page{page(t, "http://a.test/y", "http://a.test/x", "http://d.test/")}, nil)

	urls, arcs, err := s.PageGraph(ctx)
	if err != nil {
		t.Fatal(err)
	}
	checkGraph(t, urls, arcs, []string{"http://a.test/x", "http://a.test/y", "http://b.test/", "http://b.test/about",
		"http://c.test/", "http://d.test/"}, []string{
		"http://a.test/x -> http://b.test/",
		"http://a.test/y -> http://d.test/",
		"http://b.test/ -> http://a.test/x",
		"http://b.test/ -> http://c.test/",
	})
	// Unpruned: the links inside sites too, and the URL only they reach;
	// a page's link to itself is no arc.
	save(t, s, []sites.Page{page(t, "http://c.test/", "http://c.test/", "http://c.test/only-inside")}, nil)
	full, fullArcs, err := s.FullPageGraph(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wantFull := []string{
		"http://a.test/x -> http://a.test/y",
		"http://a.test/x -> http://b.test/",
		"http://a.test/y -> http://a.test/x",
		"http://a.test/y -> http://d.test/",
		"http://b.test/ -> http://a.test/x",
		"http://b.test/ -> http://b.test/about",
		"http://b.test/ -> http://c.test/",
		"http://b.test/about -> http://b.test/",
		"http://c.test/ -> http://c.test/only-inside",
	}
	if got := arcNames(full, fullArcs); !reflect.DeepEqual(got, wantFull) {
		t.Errorf("full arcs = %q, want %q", got, wantFull)
	}
	if !slices.IsSortedFunc(arcs, func(a, b [2]int32) int {
		if a[0] != b[0] {
			return int(a[0] - b[0])
		}
		return int(a[1] - b[1])
	}) {
		t.Errorf("arcs not sorted: %v", arcs)
	}
}

func TestPageGraphEmpty(t *testing.T) {
	t.Parallel()
	urls, arcs, err := openTest(t).PageGraph(context.Background())
	if err != nil || len(urls) != 0 || len(arcs) != 0 {
		t.Errorf("empty project: %q %v %v", urls, arcs, err)
	}
}

func TestPageGraphImportedSiteGraph(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	// An imported graph: sites and site_links, no pages. The importer is
	// another part of the store; plain SQL keeps this test independent of it.
	for i, name := range []string{"a.b", "a.b.c", "blog.test/path", "lonely.test"} {
		if _, err := s.db.ExecContext(ctx, `INSERT INTO sites (id, name, first_seen) VALUES (?, ?, ?)`,
			i+1, name, formatTime(s.now())); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range [][3]int{{1, 2, 5}, {2, 1, 1}, {3, 1, 2}, {2, 3, 1}} {
		if _, err := s.db.ExecContext(ctx, `INSERT INTO site_links (from_site_id, to_site_id, weight) VALUES (?, ?, ?)`,
			l[0], l[1], l[2]); err != nil {
			t.Fatal(err)
		}
	}
	urls, arcs, err := s.PageGraph(ctx)
	if err != nil {
		t.Fatal(err)
	}
	checkGraph(t, urls, arcs, []string{"http://a.b.c/", "http://a.b/", "http://blog.test/path/", "http://lonely.test/"}, []string{
		"http://a.b.c/ -> http://a.b/",
		"http://a.b.c/ -> http://blog.test/path/",
		"http://a.b/ -> http://a.b.c/",
		"http://blog.test/path/ -> http://a.b/",
	})
	full, fullArcs, err := s.FullPageGraph(ctx)
	if err != nil || !reflect.DeepEqual(full, urls) || !reflect.DeepEqual(fullArcs, arcs) {
		t.Errorf("full graph of an imported graph differs: %q %v %v", full, fullArcs, err)
	}
}

func TestPageGraphLarger(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	// 30 sites of 4 pages; every page links to the next page of its own
	// site and to page 0 of the next two sites.
	var batch []sites.Page
	wantArcs := map[string]bool{}
	for si := range 30 {
		for p := range 4 {
			u := fmt.Sprintf("http://s%02d.test/%d", si, p)
			next := fmt.Sprintf("http://s%02d.test/%d", si, (p+1)%4)
			o1 := fmt.Sprintf("http://s%02d.test/0", (si+1)%30)
			o2 := fmt.Sprintf("http://s%02d.test/0", (si+2)%30)
			batch = append(batch, page(t, u, next, o1, o2))
			wantArcs[u+" -> "+o1] = true
			wantArcs[u+" -> "+o2] = true
		}
	}
	save(t, s, batch, nil)
	urls, arcs, err := s.PageGraph(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(urls) != 120 || len(arcs) != len(wantArcs) {
		t.Fatalf("%d urls, %d arcs; want 120 and %d", len(urls), len(arcs), len(wantArcs))
	}
	for _, a := range arcNames(urls, arcs) {
		if !wantArcs[a] {
			t.Errorf("unexpected arc %s", a)
		}
	}
}
