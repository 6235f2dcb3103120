package importance

import (
	"math"
	"testing"
)

func TestPageRankPolblogsReference(t *testing.T) {
	g, labels := loadPolblogs(t)
	ref := referenceScores(t)
	if g.N != len(ref) || g.Arcs() != 19022 {
		t.Fatalf("graph has %d nodes and %d arcs; reference has %d nodes and 19022 arcs", g.N, g.Arcs(), len(ref))
	}
	res, err := PageRank(g, DefaultPageRankOptions())
	if err != nil {
		t.Fatal(err)
	}
	var worst float64
	for i, l := range labels {
		r, ok := ref[l]
		if !ok {
			t.Fatalf("node %q not in the reference", l)
		}
		worst = max(worst, math.Abs(res.Rank[i]-r[0]))
	}
	if worst > 1e-9 {
		t.Errorf("max |pagerank − reference| = %g, want ≤ 1e-9", worst)
	}
	for it, n := range res.Norms {
		if math.Abs(n-1) > 1e-12 {
			t.Fatalf("norm after iteration %d = %.15f, want 1", it+1, n)
		}
	}
	t.Logf("%d iterations, residual %g, max abs error %g", res.Iterations, res.Residual, worst)

	// networkx stops once the L1 residual is below N·tol (tol 1e-12): with
	// the same rule the same iterate comes out, to rounding.
	opt := DefaultPageRankOptions()
	opt.Tolerance = float64(g.N) * 1e-12
	res, err = PageRank(g, opt)
	if err != nil {
		t.Fatal(err)
	}
	worst = 0
	for i, l := range labels {
		worst = max(worst, math.Abs(res.Rank[i]-ref[l][0]))
	}
	if worst > 1e-12 {
		t.Errorf("with networkx's stopping rule, max |pagerank − reference| = %g, want ≤ 1e-12", worst)
	}
}

// kimLeeGraph is a ten-page web in the spirit of the Kim–Lee experiments,
// with the given pages (1-based) made dangling.
func kimLeeGraph(t *testing.T, dangling ...int) *Graph {
	t.Helper()
	links := [][2]int{{1, 2}, {2, 3}, {3, 1}, {2, 4}, {3, 7}, {7, 2}, {4, 5}, {5, 6}, {6, 4}, {6, 8}, {8, 9}, {9, 10}, {10, 9}, {9, 3}, {8, 5}, {7, 8}}
	drop := map[int]bool{}
	for _, d := range dangling {
		drop[d] = true
	}
	var edges []WeightedEdge
	for _, l := range links {
		if !drop[l[0]] {
			edges = append(edges, WeightedEdge{From: l[0] - 1, To: l[1] - 1, Weight: 1})
		}
	}
	g, err := NewGraph(10, edges)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestPageRankNormStaysOne(t *testing.T) {
	for _, tc := range []struct {
		name     string
		dangling []int
	}{{"none", nil}, {"one", []int{10}}, {"three", []int{5, 8, 10}}} {
		t.Run(tc.name, func(t *testing.T) {
			g := kimLeeGraph(t, tc.dangling...)
			for _, d := range []float64{0.15, 0.5, 0.9} {
				opt := DefaultPageRankOptions()
				opt.Teleport = d
				res, err := PageRank(g, opt)
				if err != nil {
					t.Fatal(err)
				}
				for it, n := range res.Norms {
					if math.Abs(n-1) > 1e-14 {
						t.Fatalf("d=%v: M* norm after iteration %d = %.16f", d, it+1, n)
					}
				}
				opt.Leaky, opt.MaxIter = true, 20
				leaky, _ := PageRank(g, opt)
				last := leaky.Norms[len(leaky.Norms)-1]
				if len(tc.dangling) == 0 && math.Abs(last-1) > 1e-14 {
					t.Errorf("d=%v: M′ without dangling pages has norm %v, want 1", d, last)
				}
				if len(tc.dangling) > 0 && last > 1-1e-3 {
					t.Errorf("d=%v: M′ with dangling pages has norm %v, want a leak", d, last)
				}
			}
		})
	}
}

// TestPageRankNormStaysOneAtScale: on a cycle of three million nodes every
// node's rank is 1/N from the start, so the uniform share sums three million
// equal terms at every iteration. Summed plainly, their rounding errs the
// same way each time and the norm drifts by about 1e-11 an iteration, more
// than the tolerance: the iteration never converges. Compensated, the
// norm stays 1 and the first iterations reach the fixpoint.
func TestPageRankNormStaysOneAtScale(t *testing.T) {
	const n = 3_000_017
	from, to := make([]int32, n), make([]int32, n)
	for u := range int32(n) {
		from[u], to[u] = u, (u+1)%n
	}
	g, err := FromEdgeList(n, from, to, nil)
	if err != nil {
		t.Fatal(err)
	}
	opt := DefaultPageRankOptions()
	opt.MaxIter = 20
	res, err := PageRank(g, opt)
	if err != nil {
		t.Fatalf("%v; norms %v", err, res.Norms)
	}
	for it, norm := range res.Norms {
		if math.Abs(norm-1) > 1e-14 {
			t.Errorf("norm after iteration %d = %.17f", it+1, norm)
		}
	}
	for u, r := range res.Rank {
		if math.Abs(r*n-1) > 1e-12 {
			t.Fatalf("node %d: rank %g, want 1/%d", u, r, n)
		}
	}
}

func TestPageRankHandComputed(t *testing.T) {
	// Two nodes, 0 → 1, node 1 dangling, teleport d.
	// x0 = d/2 + x1/2 (the dangling node's rank is spread evenly), x1 = d/2 + (1−d)x0 + x1/2 ... solve:
	// with x0 + x1 = 1: x0 = d/2·(x0+x1)·... directly: x0 = d·x0/2 + x1/2, so x0(1 − d/2) = (1 − x0)/2,
	// x0 = 1/(3 − d).
	for _, d := range []float64{0.15, 0.5} {
		g, _ := NewGraph(2, []WeightedEdge{{0, 1, 1}})
		opt := DefaultPageRankOptions()
		opt.Teleport = d
		res, err := PageRank(g, opt)
		if err != nil {
			t.Fatal(err)
		}
		if want := 1 / (3 - d); math.Abs(res.Rank[0]-want) > 1e-12 {
			t.Errorf("d=%v: rank[0] = %v, want %v", d, res.Rank[0], want)
		}
	}
}

func TestPageRankWeights(t *testing.T) {
	// 0 → 1 with weight 3 and 0 → 2 with weight 1 equals four parallel arcs.
	w, _ := NewGraph(3, []WeightedEdge{{0, 1, 3}, {0, 2, 1}, {1, 0, 1}, {2, 0, 1}})
	p, _ := NewGraph(3, []WeightedEdge{{0, 1, 1}, {0, 1, 1}, {0, 1, 1}, {0, 2, 1}, {1, 0, 1}, {2, 0, 1}, {2, 2, 5}})
	rw, _ := PageRank(w, DefaultPageRankOptions())
	rp, _ := PageRank(p, DefaultPageRankOptions())
	for i := range rw.Rank {
		if math.Abs(rw.Rank[i]-rp.Rank[i]) > 1e-13 {
			t.Errorf("node %d: %v vs %v", i, rw.Rank[i], rp.Rank[i])
		}
	}
	if rw.Rank[1] <= rw.Rank[2] {
		t.Errorf("heavier arc should give more rank: %v", rw.Rank)
	}
}

func TestPageRankErrors(t *testing.T) {
	g, _ := NewGraph(2, []WeightedEdge{{0, 1, 1}, {1, 0, 1}})
	for _, opt := range []PageRankOptions{{Teleport: 0, Tolerance: 1e-9, MaxIter: 10}, {Teleport: 0.15, Tolerance: 0, MaxIter: 10}, {Teleport: 0.15, Tolerance: 1e-9}} {
		if _, err := PageRank(g, opt); err == nil {
			t.Errorf("PageRank(%+v) succeeded, want an error", opt)
		}
	}
	// A periodic-looking pair with tiny teleport needs many iterations.
	opt := PageRankOptions{Teleport: 1e-9, Tolerance: 1e-15, MaxIter: 3}
	g2, _ := NewGraph(3, []WeightedEdge{{0, 1, 1}, {1, 2, 1}, {2, 0, 1}, {0, 2, 1}})
	if _, err := PageRank(g2, opt); err == nil {
		t.Error("want ErrNotConverged after 3 iterations")
	}
	if res, err := PageRank(&Graph{}, DefaultPageRankOptions()); err != nil || len(res.Rank) != 0 {
		t.Errorf("empty graph: %v, %v", res, err)
	}
}

func TestNewGraph(t *testing.T) {
	g, err := NewGraph(3, []WeightedEdge{{0, 2, 1}, {0, 1, 2}, {0, 2, 0.5}, {1, 1, 1}, {2, 0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if g.Arcs() != 3 {
		t.Fatalf("arcs = %d, want 3 (parallel merged, self dropped)", g.Arcs())
	}
	if got := g.Targets[g.Offsets[0]:g.Offsets[1]]; len(got) != 2 || got[0] != 1 || got[1] != 2 {
		t.Errorf("row 0 targets = %v", got)
	}
	if g.Weights[g.Offsets[0]+1] != 1.5 || g.OutW[0] != 3.5 || g.OutW[1] != 0 {
		t.Errorf("weights %v, outW %v", g.Weights, g.OutW)
	}
	for _, bad := range [][]WeightedEdge{{{0, 3, 1}}, {{-1, 0, 1}}, {{0, 1, 0}}, {{0, 1, math.Inf(1)}}, {{0, 1, math.NaN()}}} {
		if _, err := NewGraph(3, bad); err == nil {
			t.Errorf("NewGraph(%v) succeeded, want an error", bad)
		}
	}
}

// TestPageRankPolblogsWeighting: the reference matches the binary graph
// (each linked pair once, as networkx's DiGraph keeps it), and not the
// graph where polblogs' 65 repeated links weigh their count: a blog listed
// twice as a target gets twice the share of its source's rank.
func TestPageRankPolblogsWeighting(t *testing.T) {
	counts, labels := loadPolblogsCounts(t)
	ref := referenceScores(t)
	var repeated float64
	for _, w := range counts.Weights {
		repeated += w - 1
	}
	if counts.Arcs() != 19022 || repeated != 65 {
		t.Fatalf("%d arcs, %v repeats; want 19022 distinct arcs and 65 repeats", counts.Arcs(), repeated)
	}
	worst := func(g *Graph) (float64, int) {
		res, err := PageRank(g, DefaultPageRankOptions())
		if err != nil {
			t.Fatal(err)
		}
		var w float64
		off := 0
		for i, l := range labels {
			d := math.Abs(res.Rank[i] - ref[l][0])
			w = max(w, d)
			if d > 1e-9 {
				off++
			}
		}
		return w, off
	}
	if w, off := worst(counts.Binary()); w > 1e-9 || off != 0 {
		t.Errorf("binary: max |pagerank − reference| = %g (%d nodes off by more than 1e-9), want ≤ 1e-9", w, off)
	}
	w, off := worst(counts)
	if w < 1e-6 || off < 10 {
		t.Errorf("count weighting: max |pagerank − reference| = %g over %d nodes; the repeated links should move it well beyond 1e-9", w, off)
	}
	t.Logf("count weighting: max |pagerank − reference| = %.3g, %d of %d nodes off by more than 1e-9", w, off, counts.N)
}
