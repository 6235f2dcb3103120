package importance

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// TestFixpointSlides carries the OPIC slides' three-page cash game (no
// teleport there: the web is strongly connected) on to its fixpoint, the
// 40 %, 40 %, 20 % the slides give.
func TestFixpointSlides(t *testing.T) {
	// Alice → Bob, Georges; Bob → Alice; Georges → Bob.
	g, err := NewGraph(3, []WeightedEdge{{0, 1, 1}, {0, 2, 1}, {1, 0, 1}, {2, 1, 1}})
	if err != nil {
		t.Fatal(err)
	}
	opt := DefaultFixpointOptions()
	opt.Teleport = 0
	// Without teleport the cycle Alice → Bob → Alice has period 2 for the
	// power method; the rounds of OPIC still settle, a read taking what the
	// reads before it in the round passed on.
	res, err := Fixpoint(g, opt)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{0.4, 0.4, 0.2} {
		if math.Abs(res.Importance[i]-want) > 1e-9 {
			t.Fatalf("importance %v after %d rounds; want 0.4 0.4 0.2", res.Importance, res.Rounds)
		}
	}
}

// TestFixpointIsPageRank checks that OPIC's fixpoint is the PageRank of the
// Kim–Lee matrix M* on a real web graph (polblogs, with its repeated links
// as weights, its dangling blogs included) and on synthetic ones, to 1e-9 on
// every node, and reports its convergence.
func TestFixpointIsPageRank(t *testing.T) {
	graphs := map[string]func(t *testing.T) *Graph{
		"synthetic 2000":       func(*testing.T) *Graph { return Synthetic(2000, 8, 1) },
		"synthetic 300 sparse": func(*testing.T) *Graph { return Synthetic(300, 1.2, 7) },
		"polblogs": func(t *testing.T) *Graph {
			g, _ := loadPolblogsCounts(t)
			return g
		},
	}
	for name, graph := range graphs {
		t.Run(name, func(t *testing.T) {
			g := graph(t)
			res, err := Fixpoint(g, DefaultFixpointOptions())
			if err != nil {
				t.Fatal(err)
			}
			pr, err := PageRank(g, DefaultPageRankOptions())
			if err != nil {
				t.Fatal(err)
			}
			var sum float64
			for i := range g.N {
				sum += res.Importance[i]
				if d := math.Abs(res.Importance[i] - pr.Rank[i]); d > 1e-9 {
					t.Fatalf("node %d: OPIC fixpoint %v, PageRank %v (%d rounds, residual %.2g)", i, res.Importance[i], pr.Rank[i], res.Rounds, res.Residual)
				}
			}
			if math.Abs(sum-1) > 1e-12 {
				t.Fatalf("importance sums to %v", sum)
			}
			if !(res.Residual < 1e-12) || res.Rounds < 2 {
				t.Fatalf("rounds %d, residual %v", res.Rounds, res.Residual)
			}
			t.Logf("%d nodes, %d arcs: %d rounds (PageRank %d iterations)", g.N, g.Arcs(), res.Rounds, pr.Iterations)
		})
	}
}

// TestFixpointWhateverTheOrder numbers the nodes of one graph in another
// order, as another crawl or an import would, and reads the same
// importance to 1e-12 for every node: the fixpoint does not depend on the
// order the nodes are read in.
func TestFixpointWhateverTheOrder(t *testing.T) {
	g := Synthetic(1500, 6, 3)
	perm := rand.New(rand.NewPCG(9, 9)).Perm(g.N)
	var edges []WeightedEdge
	for u := range g.N {
		for k := g.Offsets[u]; k < g.Offsets[u+1]; k++ {
			edges = append(edges, WeightedEdge{From: perm[u], To: perm[g.Targets[k]], Weight: g.Weights[k]})
		}
	}
	h, err := NewGraph(g.N, edges)
	if err != nil {
		t.Fatal(err)
	}
	a, err := Fixpoint(g, DefaultFixpointOptions())
	if err != nil {
		t.Fatal(err)
	}
	b, err := Fixpoint(h, DefaultFixpointOptions())
	if err != nil {
		t.Fatal(err)
	}
	for u := range g.N {
		if d := math.Abs(a.Importance[u] - b.Importance[perm[u]]); d > 1e-12 {
			t.Fatalf("node %d: %v read in one order, %v in another", u, a.Importance[u], b.Importance[perm[u]])
		}
	}
}

// TestFixpointNotReached stops at MaxRounds with the error and the last
// round's importance, and refuses options that cannot stop.
func TestFixpointNotReached(t *testing.T) {
	g := Synthetic(500, 5, 2)
	res, err := Fixpoint(g, FixpointOptions{Teleport: DefaultTeleport, Tolerance: 1e-12, MaxRounds: 3})
	if !errors.Is(err, ErrFixpointNotReached) || res.Rounds != 3 || len(res.Importance) != g.N || !(res.Residual > 1e-12) {
		t.Fatalf("got %v, %d rounds, residual %v; want ErrFixpointNotReached after 3", err, res.Rounds, res.Residual)
	}
	if _, err := Fixpoint(g, FixpointOptions{Teleport: DefaultTeleport}); err == nil {
		t.Fatal("zero tolerance and rounds accepted")
	}
	if _, err := Fixpoint(g, FixpointOptions{Teleport: 1.5, Tolerance: 1e-9, MaxRounds: 10}); err == nil {
		t.Fatal("teleport 1.5 accepted")
	}
	empty, err := Fixpoint(&Graph{}, DefaultFixpointOptions())
	if err != nil || len(empty.Importance) != 0 {
		t.Fatalf("empty graph: %v %v", empty, err)
	}
}

// TestSnapTies: values within the tie tolerance of a tie's first value
// become their mean, whatever their order; a spread wider than the
// tolerance is not chained into one tie; the sum is kept.
func TestSnapTies(t *testing.T) {
	v := []float64{0.3, 0.1 + 4e-14, 0.2, 0.1, 0.1 - 3e-14, 0.2 + 1e-15, math.NaN(), 0.3 - 2e-10, 0.3 - 4e-10}
	SnapTies(v)
	tie := func(is ...int) {
		t.Helper()
		for _, i := range is[1:] {
			if v[i] != v[is[0]] {
				t.Errorf("values %d and %d not equal: %v", is[0], i, v)
			}
		}
	}
	tie(1, 3, 4)
	tie(2, 5)
	if v[0] == v[8] {
		// 0.3 − 4e-10 is beyond 0.3's tolerance (3e-10); 0.3 − 2e-10 is within.
		t.Errorf("a tie chained across 4e-10: %v", v)
	}
	tie(0, 7)
	if !math.IsNaN(v[6]) {
		t.Errorf("NaN changed: %v", v[6])
	}
	if math.Abs(v[1]-0.1) > 1e-14 || math.Abs(v[0]-(0.3-1e-10)) > 1e-16 {
		t.Errorf("means: %v", v)
	}
}
