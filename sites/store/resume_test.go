package store

import (
	"context"
	"slices"
	"strings"
	"testing"

	"sitesift/sites"
)

func TestPrior(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)

	if st, e, f, fr, err := s.Prior(ctx); err != nil || len(st)+len(e)+len(f)+len(fr) != 0 {
		t.Fatalf("Prior of an empty project = %v %v %v %v, %v; want nothing", st, e, f, fr, err)
	}

	save(t, s, []sites.Page{
		page(t, "http://a.test/", "http://b.test/", "http://z.test/x", "http://a.test/2"),
		page(t, "http://b.test/", "http://a.test/", "http://y.test/", "http://z.test/x"),
	}, nil)
	failed := sites.Page{URL: "http://d.test/", Site: "d.test", Err: "connection refused"}
	save(t, s, []sites.Page{
		page(t, "http://a.test/2", "http://c.test/", "http://b.test/3"),
		failed,
		// b.test/ again: its old links (to a.test/, y.test/, z.test/x) are
		// replaced, so y.test/ is no longer a link target.
		page(t, "http://b.test/", "http://x.test/"),
	}, []sites.SiteState{
		state("a.test", 0.1, 2), state("b.test", 0.2, 1), state("z.test", 0.3, 0),
		state("y.test", 0, 0.5), state("c.test", 0.1, 0), state("d.test", 0.2, 0), state("x.test", 0.1, 0),
	})

	states, edges, fetched, frontier, err := s.Prior(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wantStates := []sites.SiteState{ // in order of first sight
		state("a.test", 0.1, 2), state("b.test", 0.2, 1), state("z.test", 0.3, 0), state("y.test", 0, 0.5),
		state("c.test", 0.1, 0), state("d.test", 0.2, 0), state("x.test", 0.1, 0),
	}
	if !slices.Equal(states, wantStates) {
		t.Errorf("states\n %v\nwant\n %v", states, wantStates)
	}
	wantEdges := []sites.Edge{
		edge("a.test", "b.test", 2), // a.test/ → b.test/ and a.test/2 → b.test/3
		edge("a.test", "z.test", 1),
		edge("a.test", "c.test", 1),
		edge("b.test", "x.test", 1),
	}
	if !slices.Equal(edges, wantEdges) {
		t.Errorf("edges\n %v\nwant\n %v", edges, wantEdges)
	}
	wantFetched := []string{"http://a.test/", "http://b.test/", "http://a.test/2", "http://d.test/"}
	if !slices.Equal(fetched, wantFetched) {
		t.Errorf("fetched %q, want %q", fetched, wantFetched)
	}
	// By first linking page (a.test/, b.test/, a.test/2), then URL; link
	// targets that are pages (b.test/, a.test/2) are not in the frontier.
	wantFrontier := []string{"http://z.test/x", "http://x.test/", "http://b.test/3", "http://c.test/"}
	if !slices.Equal(frontier, wantFrontier) {
		t.Errorf("frontier %q, want %q", frontier, wantFrontier)
	}

	// The graph is the one SiteGraph reports, in another order.
	_, g := graph(t, s)
	if !sameEdges(g, edges) {
		t.Errorf("Prior edges %v, SiteGraph %v", edges, g)
	}

	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, _, _, err := s.Prior(cctx); err == nil {
		t.Error("Prior with a cancelled context: no error")
	}
}

func sameEdges(a, b []sites.Edge) bool {
	key := func(e sites.Edge) string { return e.From + " " + e.To }
	a, b = slices.Clone(a), slices.Clone(b)
	slices.SortFunc(a, func(x, y sites.Edge) int { return strings.Compare(key(x), key(y)) })
	slices.SortFunc(b, func(x, y sites.Edge) int { return strings.Compare(key(x), key(y)) })
	return slices.Equal(a, b)
}
