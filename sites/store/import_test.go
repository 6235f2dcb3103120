package store

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"sitesift/sites"
)

func importGraph(t *testing.T, s *Store, file string, names []string, edges []sites.Edge, self int) ImportStats {
	t.Helper()
	st, err := s.ImportGraph(context.Background(), file, names, edges, self)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// count returns the single integer a query yields.
func count(t *testing.T, s *Store, query string) int {
	t.Helper()
	var n int
	if err := s.db.QueryRow(query).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestImportGraphWeights(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	if has, err := s.HasImport(ctx); err != nil || has {
		t.Fatalf("HasImport on a new project = %v, %v", has, err)
	}
	names := []string{"a.test", "b.test", "c.test", "lonely.test"}
	st := importGraph(t, s, "one.txt", names, []sites.Edge{
		edge("a.test", "b.test", 1.5),
		edge("a.test", "c.test", 1),
		edge("a.test", "b.test", 1), // repeat: 2.5 in all
		edge("c.test", "c.test", 4), // self-edge: dropped
		edge("b.test", "c.test", 0.25),
	}, 2)
	want := ImportStats{ID: st.ID, File: "one.txt", ImportedAt: st.ImportedAt, Sites: 4, Edges: 3, SelfEdges: 3}
	if st != want || st.ID == 0 || st.ImportedAt.IsZero() {
		t.Fatalf("stats = %+v, want %+v", st, want)
	}
	gotNames, gotEdges := graph(t, s)
	if !slices.Equal(gotNames, names) {
		t.Errorf("sites = %v, want %v", gotNames, names)
	}
	wantEdges := []sites.Edge{edge("a.test", "b.test", 2.5), edge("a.test", "c.test", 1), edge("b.test", "c.test", 0.25)}
	if !slices.Equal(gotEdges, wantEdges) {
		t.Errorf("edges = %v, want %v", gotEdges, wantEdges)
	}
	// The INTEGER-affinity column keeps what is not an integer as REAL.
	if n := count(t, s, `SELECT COUNT(*) FROM site_links WHERE typeof(weight) = 'real'`); n != 2 {
		t.Errorf("%d REAL weights, want 2 (2.5 and 0.25)", n)
	}

	_, rows, err := s.ListSites(ctx, SiteQuery{Sort: "site"})
	if err != nil {
		t.Fatal(err)
	}
	degrees := map[string][2]int{}
	for _, r := range rows {
		degrees[r.Site] = [2]int{r.InSites, r.OutSites}
		if r.Pages != 0 {
			t.Errorf("%s has %d pages", r.Site, r.Pages)
		}
	}
	wantDeg := map[string][2]int{"a.test": {0, 2}, "b.test": {1, 1}, "c.test": {2, 0}, "lonely.test": {0, 0}}
	if fmt.Sprint(degrees) != fmt.Sprint(wantDeg) {
		t.Errorf("in/out sites = %v, want %v", degrees, wantDeg)
	}
	d, err := s.Site(ctx, "a.test", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.OutLinks) != 2 || d.OutLinks[0] != (SiteLink{Site: "b.test", Weight: 2.5}) {
		t.Errorf("a.test out-links = %+v", d.OutLinks)
	}

	// A second import adds its edges, repeats adding weights.
	st2 := importGraph(t, s, "two.txt", []string{"b.test", "a.test", "d.test"}, []sites.Edge{
		edge("a.test", "b.test", 0.5),
		edge("d.test", "a.test", 3),
	}, 0)
	if st2.Sites != 3 || st2.Edges != 2 || st2.ID <= st.ID {
		t.Errorf("second stats = %+v", st2)
	}
	_, gotEdges = graph(t, s)
	wantEdges = []sites.Edge{edge("a.test", "b.test", 3), edge("a.test", "c.test", 1),
		edge("b.test", "c.test", 0.25), edge("d.test", "a.test", 3)}
	if !slices.Equal(gotEdges, wantEdges) {
		t.Errorf("edges after the second import = %v, want %v", gotEdges, wantEdges)
	}
	if has, err := s.HasImport(ctx); err != nil || !has {
		t.Errorf("HasImport = %v, %v; want true", has, err)
	}
	imps, err := s.Imports(ctx)
	if err != nil || len(imps) != 2 || imps[0] != st || imps[1] != st2 {
		t.Errorf("Imports = %+v, %v; want %+v, %+v", imps, err, st, st2)
	}
}

// TestImportGraphMatchesMerge imports enough random edges for several
// batches, with many repeats, and compares with a merge done here.
func TestImportGraphMatchesMerge(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	rng := rand.New(rand.NewPCG(3, 4))
	names := make([]string, 300)
	for i := range names {
		names[i] = fmt.Sprintf("s%03d.test", i)
	}
	want := map[[2]string]float64{}
	var edges []sites.Edge
	self := 0
	for range 3000 {
		e := edge(names[rng.IntN(len(names))], names[rng.IntN(40)], float64(1+rng.IntN(4))/2)
		edges = append(edges, e)
		if e.From == e.To {
			self++
			continue
		}
		want[[2]string{e.From, e.To}] += e.Weight
	}
	// Reversed names: positions and site ids differ.
	rev := slices.Clone(names)
	slices.Reverse(rev)
	st := importGraph(t, s, "random.txt", rev, edges, 0)
	if st.Edges != len(want) || st.SelfEdges != self || st.Sites != len(names) {
		t.Errorf("stats = %+v; want %d edges, %d self-edges", st, len(want), self)
	}
	gotNames, got := graph(t, s)
	if !slices.Equal(gotNames, names) {
		t.Errorf("sites differ")
	}
	if len(got) != len(want) {
		t.Fatalf("%d edges stored, want %d", len(got), len(want))
	}
	for _, e := range got {
		if w := want[[2]string{e.From, e.To}]; math.Abs(e.Weight-w) > 1e-12 {
			t.Errorf("%s → %s weight %v, want %v", e.From, e.To, e.Weight, w)
		}
	}
}

func TestImportGraphRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	names := []string{"a.test", "b.test"}
	for _, tc := range []struct {
		name  string
		names []string
		edges []sites.Edge
		self  int
	}{
		{"unknown site", names, []sites.Edge{edge("a.test", "c.test", 1)}, 0},
		{"empty name", []string{"a.test", ""}, nil, 0},
		{"zero weight", names, []sites.Edge{edge("a.test", "b.test", 0)}, 0},
		{"negative weight", names, []sites.Edge{edge("a.test", "b.test", -1)}, 0},
		{"NaN weight", names, []sites.Edge{edge("a.test", "b.test", math.NaN())}, 0},
		{"infinite weight", names, []sites.Edge{edge("a.test", "b.test", math.Inf(1))}, 0},
		{"negative self-edge count", names, nil, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := openTest(t)
			_, err := s.ImportGraph(ctx, "bad.txt", tc.names, tc.edges, tc.self)
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("err = %v, want ErrInvalid", err)
			}
			if n := count(t, s, `SELECT COUNT(*) FROM sites`); n != 0 {
				t.Errorf("%d sites stored", n)
			}
		})
	}

	t.Run("crawled project", func(t *testing.T) {
		s := openTest(t)
		save(t, s, []sites.Page{page(t, "http://a.test/", "http://b.test/")}, nil)
		_, err := s.ImportGraph(ctx, "g.txt", []string{"a.test", "c.test"}, []sites.Edge{edge("c.test", "a.test", 1)}, 0)
		if !errors.Is(err, ErrCrawled) {
			t.Fatalf("err = %v, want ErrCrawled", err)
		}
		_, es := graph(t, s)
		if n := count(t, s, `SELECT COUNT(*) FROM sites`); n != 2 || len(es) != 1 {
			t.Errorf("after the refusal: %d sites, edges %v", n, es)
		}
		if has, err := s.HasImport(ctx); err != nil || has {
			t.Errorf("HasImport = %v, %v", has, err)
		}
	})

	t.Run("project with a crawl record", func(t *testing.T) {
		s := openTest(t)
		if _, err := s.StartCrawl(ctx, map[string]int{"max_pages": 1}); err != nil {
			t.Fatal(err)
		}
		_, err := s.ImportGraph(ctx, "g.txt", names, nil, 0)
		if !errors.Is(err, ErrCrawled) {
			t.Fatalf("err = %v, want ErrCrawled", err)
		}
	})
}

// TestImportGraphRollsBack makes the database refuse one edge of a late
// batch, after sites and earlier batches were written: nothing must remain.
func TestImportGraphRollsBack(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	importGraph(t, s, "first.txt", []string{"x.test", "y.test"}, []sites.Edge{edge("x.test", "y.test", 1)}, 0)
	if _, err := s.db.Exec(`CREATE TRIGGER refuse_13 BEFORE INSERT ON site_links WHEN NEW.weight = 13
		BEGIN SELECT RAISE(ABORT, 'weight 13 refused'); END`); err != nil {
		t.Fatal(err)
	}
	names := make([]string, 2000)
	var edges []sites.Edge
	for i := range names {
		names[i] = fmt.Sprintf("n%04d.test", i)
		if i > 0 {
			edges = append(edges, edge(names[i-1], names[i], 1))
		}
	}
	edges = append(edges, edge(names[1900], names[0], 13), edge("x.test", "y.test", 2))
	names = append(names, "x.test", "y.test")
	_, err := s.ImportGraph(ctx, "second.txt", names, edges, 0)
	if err == nil {
		t.Fatal("import succeeded despite the trigger")
	}
	gotNames, gotEdges := graph(t, s)
	if !slices.Equal(gotNames, []string{"x.test", "y.test"}) || !slices.Equal(gotEdges, []sites.Edge{edge("x.test", "y.test", 1)}) {
		t.Errorf("after a failed import: sites %d, edges %v", len(gotNames), gotEdges)
	}
	if imps, err := s.Imports(ctx); err != nil || len(imps) != 1 {
		t.Errorf("imports = %+v, %v; want the first only", imps, err)
	}
}

// An import whose importance fails (a kill in the middle of it, in effect)
// leaves the project as it was, so running the same file again adds its
// weights once; with the importance computed, both are stored together.
func TestImportGraphWithImportanceIsOneUnit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	names := []string{"a.test", "b.test", "c.test"}
	edges := []sites.Edge{{From: "a.test", To: "b.test", Weight: 2}, {From: "b.test", To: "c.test", Weight: 1}}
	failing := WithImportance(func(context.Context, []string, []sites.Edge) (Importance, error) {
		return Importance{}, errors.New("killed")
	})
	if _, err := s.ImportGraph(ctx, "g.txt", names, edges, 0, failing); err == nil {
		t.Fatal("an import whose importance failed reported success")
	}
	if n := count(t, s, `SELECT COUNT(*) FROM site_links`) + count(t, s, `SELECT COUNT(*) FROM imports`) +
		count(t, s, `SELECT COUNT(*) FROM sites`); n != 0 {
		t.Fatalf("a failed import left %d rows behind", n)
	}

	var seen int
	uniform := WithImportance(func(_ context.Context, ns []string, es []sites.Edge) (Importance, error) {
		seen = len(es)
		imp := Importance{PageRank: map[string]float64{}, Fixpoint: map[string]float64{}}
		for _, n := range ns {
			imp.PageRank[n] = 1 / float64(len(ns))
			imp.Fixpoint[n] = 0.3
			imp.OPIC = append(imp.OPIC, sites.SiteState{Site: n, Cash: 0.1, History: 0.2})
		}
		return imp, nil
	})
	if _, err := s.ImportGraph(ctx, "g.txt", names, edges, 0, uniform); err != nil {
		t.Fatal(err)
	}
	if seen != 2 {
		t.Errorf("the importance saw %d edges, want the 2 just imported", seen)
	}
	_, es, err := s.SiteGraph(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 2 || es[0].Weight != 2 || es[1].Weight != 1 {
		t.Errorf("edges after a failed then a good import: %+v, want the file's weights once", es)
	}
	opic, pr, n, err := s.ImportanceTotals(ctx)
	if err != nil || n != 3 || math.Abs(opic-0.9) > 1e-12 || math.Abs(pr-1) > 1e-12 {
		t.Errorf("importance totals %v, %v over %d sites, %v; want 0.9, 1 over 3", opic, pr, n, err)
	}
}
