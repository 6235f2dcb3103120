package store

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"sitesift/sites"
)

// TestImportedSiteLinks: an imported graph's links are SiteGraphCSR's, in
// the same order, weights left out, for sites with many links, none, and
// ids out of the order of names; a project with pages gives none.
func TestImportedSiteLinks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	names := []string{"z.test", "a.test", "hub.test", "lonely.test", "m.test/path"}
	var edges []sites.Edge
	for i := range 300 {
		n := fmt.Sprintf("s%03d.test", 299-i)
		names = append(names, n)
		edges = append(edges, sites.Edge{From: "hub.test", To: n, Weight: 2}, sites.Edge{From: n, To: "a.test", Weight: 1})
	}
	edges = append(edges, sites.Edge{From: "z.test", To: "m.test/path", Weight: 5}, sites.Edge{From: "a.test", To: "z.test", Weight: 1})
	if _, err := s.ImportGraph(ctx, "g.tsv", names, edges, 0); err != nil {
		t.Fatal(err)
	}
	got, ok, err := s.ImportedSiteLinks(ctx)
	if err != nil || !ok {
		t.Fatalf("imported graph: ok %v, %v", ok, err)
	}
	want, err := s.SiteGraphCSR(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got.Weights != nil || got.Edges() != len(edges) {
		t.Errorf("%d links with weights %v, want %d without", got.Edges(), got.Weights != nil, len(edges))
	}
	want.Weights = nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("links\n%+v\nwant SiteGraphCSR's\n%+v", got, want)
	}

	crawled := openTest(t)
	save(t, crawled, []sites.Page{page(t, "http://b.test/", "http://a.test/x")}, nil)
	if g, ok, err := crawled.ImportedSiteLinks(ctx); g != nil || ok || err != nil {
		t.Errorf("crawled project: %v, %v, %v", g, ok, err)
	}
}
