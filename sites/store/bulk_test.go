package store

import (
	"context"
	"errors"
	"slices"
	"testing"

	"sitesift/sites"
)

// byPosition is an ImportanceFunc that gives node u PageRank u+1, cash u+2,
// history u+3 and OPIC importance u+4, and records the graph it was given.
func byPosition(seen **Graph) ImportanceFunc {
	return func(_ context.Context, g *Graph) (NodeImportance, error) {
		*seen = g
		n := len(g.Names)
		imp := NodeImportance{PageRank: make([]float64, n), OPIC: make([]float64, n), Cash: make([]float64, n), History: make([]float64, n),
			Fixpoint: Fixpoint{Rounds: 7, Residual: 1e-13}}
		for u := range n {
			imp.PageRank[u], imp.Cash[u], imp.History[u], imp.OPIC[u] = float64(u+1), float64(u+2), float64(u+3), float64(u+4)
		}
		return imp, nil
	}
}

func TestImportSiteGraph(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	// a → b (2.5), a → c, b → c (0.25); lonely has no edge.
	g := &Graph{Names: []string{"a.test", "b.test", "c.test", "lonely.test"},
		Offsets: []int{0, 2, 3, 3, 3}, Targets: []int32{1, 2, 2}, Weights: []float64{2.5, 1, 0.25}}
	var seen *Graph
	st, err := s.ImportSiteGraph(ctx, "one.txt", g, 2, byPosition(&seen))
	if err != nil {
		t.Fatal(err)
	}
	if st.Sites != 4 || st.Edges != 3 || st.SelfEdges != 2 || st.ID == 0 || seen != g {
		t.Fatalf("stats %+v, importance of %p, want 4 sites, 3 edges, 2 self-edges, of the graph given", st, seen)
	}
	names, edges := graph(t, s)
	if want := []string{"a.test", "b.test", "c.test", "lonely.test"}; !slices.Equal(names, want) {
		t.Errorf("sites %v, want %v", names, want)
	}
	if want := []sites.Edge{edge("a.test", "b.test", 2.5), edge("a.test", "c.test", 1), edge("b.test", "c.test", 0.25)}; !slices.Equal(edges, want) {
		t.Errorf("edges %v, want %v", edges, want)
	}
	var pr, cash, hist float64
	if err := s.db.QueryRow(`SELECT pagerank, opic_cash, opic_history FROM sites WHERE name = 'c.test'`).Scan(&pr, &cash, &hist); err != nil || pr != 3 || cash != 4 || hist != 5 {
		t.Errorf("c.test importance %v %v %v (%v), want 3 4 5", pr, cash, hist, err)
	}
	// The listing shows the degrees stored with the sites.
	_, rows, err := s.ListSites(ctx, SiteQuery{Sort: "site"})
	if err != nil || len(rows) != 4 || rows[0].OutSites != 2 || rows[2].InSites != 2 || rows[2].OutSites != 0 || rows[3].InSites != 0 {
		t.Errorf("listing %+v (%v), want a.test with 2 out-sites, c.test with 2 in-sites", rows, err)
	}
	// The indexes dropped for the bulk insert are back.
	if n := count(t, s, `SELECT COUNT(*) FROM sqlite_schema WHERE type = 'index' AND name IN ('sites_opic', 'sites_pagerank', 'site_links_to')`); n != 3 {
		t.Errorf("%d of the 3 indexes after the import", n)
	}

	// A second file adds: b → a is new, a → b gets 1 more, d is new. The
	// importance is computed on the whole graph read back, by site id.
	g2 := &Graph{Names: []string{"d.test", "b.test", "a.test"},
		Offsets: []int{0, 1, 2, 3}, Targets: []int32{2, 2, 1}, Weights: []float64{1, 4, 1}}
	st, err = s.ImportSiteGraph(ctx, "two.txt", g2, 0, byPosition(&seen))
	if err != nil {
		t.Fatal(err)
	}
	if st.Sites != 3 || st.Edges != 3 || len(seen.Names) != 5 || seen.Edges() != 5 || len(seen.IDs) != 5 {
		t.Fatalf("stats %+v; importance of %d sites and %d edges", st, len(seen.Names), seen.Edges())
	}
	_, edges = graph(t, s)
	want := []sites.Edge{edge("a.test", "b.test", 3.5), edge("a.test", "c.test", 1), edge("b.test", "a.test", 4),
		edge("b.test", "c.test", 0.25), edge("d.test", "a.test", 1)}
	if !slices.Equal(edges, want) {
		t.Errorf("edges %v, want %v", edges, want)
	}
	_, rows, err = s.ListSites(ctx, SiteQuery{Sort: "site"})
	if err != nil || len(rows) != 5 || rows[0].InSites != 2 || rows[1].OutSites != 2 || rows[3].OutSites != 1 {
		t.Errorf("listing %+v (%v), want the degrees of the merged graph", rows, err)
	}
	// Nodes are in order of site id: d.test, the fifth site, is node 4.
	if err := s.db.QueryRow(`SELECT pagerank FROM sites WHERE name = 'd.test'`).Scan(&pr); err != nil || pr != 5 {
		t.Errorf("d.test PageRank %v (%v), want 5", pr, err)
	}
	whole, err := s.SiteGraphCSR(ctx)
	if err != nil || !slices.Equal(whole.Names, seen.Names) || !slices.Equal(whole.Targets, seen.Targets) || !slices.Equal(whole.Weights, seen.Weights) {
		t.Errorf("SiteGraphCSR %+v (%v), want %+v", whole, err, seen)
	}
}

func TestImportSiteGraphRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ok := func(context.Context, *Graph) (NodeImportance, error) {
		return NodeImportance{PageRank: make([]float64, 2), OPIC: make([]float64, 2)}, nil
	}
	for _, tc := range []struct {
		name string
		g    *Graph
		imp  ImportanceFunc
	}{
		{"self-edge", &Graph{Names: []string{"a", "b"}, Offsets: []int{0, 1, 1}, Targets: []int32{0}, Weights: []float64{1}}, ok},
		{"out of order", &Graph{Names: []string{"a", "b", "c"}, Offsets: []int{0, 2, 2, 2}, Targets: []int32{2, 1}, Weights: []float64{1, 1}}, ok},
		{"zero weight", &Graph{Names: []string{"a", "b"}, Offsets: []int{0, 1, 1}, Targets: []int32{1}, Weights: []float64{0}}, ok},
		{"short offsets", &Graph{Names: []string{"a", "b"}, Offsets: []int{0, 1}, Targets: []int32{1}, Weights: []float64{1}}, ok},
		{"empty name", &Graph{Names: []string{"a", ""}, Offsets: []int{0, 1, 1}, Targets: []int32{1}, Weights: []float64{1}}, ok},
		{"repeated name", &Graph{Names: []string{"a", "a"}, Offsets: []int{0, 1, 1}, Targets: []int32{1}, Weights: []float64{1}}, ok},
		{"importance fails", &Graph{Names: []string{"a", "b"}, Offsets: []int{0, 1, 1}, Targets: []int32{1}, Weights: []float64{1}},
			func(context.Context, *Graph) (NodeImportance, error) { return NodeImportance{}, errors.New("no") }},
		{"importance too short", &Graph{Names: []string{"a", "b"}, Offsets: []int{0, 1, 1}, Targets: []int32{1}, Weights: []float64{1}},
			func(context.Context, *Graph) (NodeImportance, error) {
				return NodeImportance{PageRank: []float64{1}}, nil
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := openTest(t)
			if _, err := s.ImportSiteGraph(ctx, "bad.txt", tc.g, 0, tc.imp); err == nil {
				t.Fatal("imported")
			}
			if n := count(t, s, `SELECT (SELECT COUNT(*) FROM sites) + (SELECT COUNT(*) FROM site_links) + (SELECT COUNT(*) FROM imports)`); n != 0 {
				t.Errorf("%d rows left behind", n)
			}
		})
	}
}

// TestImportSiteGraphCancelled: the importance of a new project's graph is
// computed while its edges are written; cancelling the import stops both
// and leaves nothing behind.
func TestImportSiteGraphCancelled(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	waits := func(ctx context.Context, _ *Graph) (NodeImportance, error) {
		close(started)
		<-ctx.Done()
		return NodeImportance{}, ctx.Err()
	}
	go func() {
		<-started
		cancel()
	}()
	g := &Graph{Names: []string{"a", "b"}, Offsets: []int{0, 1, 1}, Targets: []int32{1}, Weights: []float64{1}}
	if _, err := s.ImportSiteGraph(ctx, "cancelled.txt", g, 0, waits); !errors.Is(err, context.Canceled) {
		t.Fatalf("import: %v, want it cancelled", err)
	}
	if n := count(t, s, `SELECT (SELECT COUNT(*) FROM sites) + (SELECT COUNT(*) FROM site_links) + (SELECT COUNT(*) FROM imports)`); n != 0 {
		t.Errorf("%d rows left behind", n)
	}
}
