package importance

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestOPICTotalCashConstant crawls a random growing graph: nodes and arcs
// appear as pages are read, and the total cash must stay 1 after every step.
func TestOPICTotalCashConstant(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		o, err := NewOPIC(0.15)
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			o.AddNode()
		}
		o.Seed()
		check := func(step int) {
			if tc := o.TotalCash(); math.Abs(tc-1) > 1e-12 {
				t.Fatalf("seed %d step %d: total cash %.17g", seed, step, tc)
			}
		}
		check(0)
		for step := 1; step <= 3000; step++ {
			i := rng.IntN(o.Len())
			// The page read links to a few sites, some new.
			for range rng.IntN(4) {
				var j int
				if rng.Float64() < 0.1 && o.Len() < 300 {
					j = o.AddNode()
				} else {
					j = rng.IntN(o.Len())
				}
				o.AddWeight(i, j, 1)
			}
			o.Read(i)
			check(step)
			for k := range o.Len() {
				if o.Cash(k) < -1e-15 {
					t.Fatalf("negative cash %v at node %d", o.Cash(k), k)
				}
			}
		}
		est := o.Estimate()
		var s float64
		for _, e := range est {
			s += e
		}
		if math.Abs(s-1) > 1e-12 {
			t.Fatalf("estimate sums to %v", s)
		}
	}
}

func TestOPICTotalCashEveryStrategy(t *testing.T) {
	g := randomGraph(t, 200, 3, 11)
	for _, st := range []Strategy{Greedy, Random, Cycle} {
		o, _ := LoadGraph(g, DefaultTeleport)
		sel, err := NewSelector(o, st, 3)
		if err != nil {
			t.Fatal(err)
		}
		for step := range 5000 {
			sel.Step()
			if tc := o.TotalCash(); math.Abs(tc-1) > 1e-12 {
				t.Fatalf("%s step %d: total cash %.17g", st, step, tc)
			}
		}
	}
}

// randomGraph has n nodes with out-degrees 0..2·avg (some dangling) and
// targets skewed towards low ids, so importance is uneven.
func randomGraph(t testing.TB, n, avg int, seed uint64) *Graph {
	rng := rand.New(rand.NewPCG(seed, 1))
	var edges []WeightedEdge
	for u := range n {
		for range rng.IntN(2*avg + 1) {
			v := int(float64(n) * math.Pow(rng.Float64(), 2))
			edges = append(edges, WeightedEdge{From: u, To: v, Weight: float64(1 + rng.IntN(3))})
		}
	}
	g, err := NewGraph(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestOPICApproachesPageRank runs OPIC long on a fixed graph: its estimate
// must come within 1% mean relative error of PageRank (M*, same teleport).
func TestOPICApproachesPageRank(t *testing.T) {
	g := randomGraph(t, 100, 3, 5)
	pr, err := PageRank(g, DefaultPageRankOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range []Strategy{Greedy, Random, Cycle} {
		o, _ := LoadGraph(g, DefaultTeleport)
		sel, _ := NewSelector(o, st, 9)
		for range 200 * g.N {
			sel.Step()
		}
		mre := MeanRelativeError(o.Estimate(), pr.Rank)
		t.Logf("%s: mean relative error %.4f%% after %d reads", st, mre, 200*g.N)
		if mre >= 1 {
			t.Errorf("%s: mean relative error %.3f%%, want < 1%%", st, mre)
		}
	}
}

func TestOPICGreedyReadsRichestNode(t *testing.T) {
	g := randomGraph(t, 50, 2, 2)
	o, _ := LoadGraph(g, DefaultTeleport)
	sel, _ := NewSelector(o, Greedy, 0)
	// Enough reads for the uniform share to be folded into the cash several
	// times: the keys and a threshold are taken anew then.
	for read := range 3000 {
		best := 0
		cash := make([]float64, o.Len())
		for i := range cash {
			cash[i] = o.Cash(i)
			if cash[i] > cash[best] {
				best = i
			}
		}
		// The cash as Cash gives it and as the heap's key orders it may
		// differ in the last bits, so a tie within rounding may go either way.
		if i := sel.Step(); cash[best]-cash[i] > 1e-15 {
			t.Fatalf("read %d: greedy read node %d with cash %v, node %d had %v", read, i, cash[i], best, cash[best])
		}
	}
	if o.folds < 2 {
		t.Errorf("%d folds of the uniform share, want the reads to span several", o.folds)
	}
}

// TestGreedyHotHeapSameAsScan: the greedy selector, whose heap holds only
// the hot nodes, reads the node a scan of every node's key picks (most
// cash, then the lower id), read after read, across many new thresholds
// (a heap aimed at 16 nodes empties and overflows often) and several folds
// of the uniform share; hot is always exactly the nodes whose key reaches
// the threshold, key then lower id.
func TestGreedyHotHeapSameAsScan(t *testing.T) {
	g := randomGraph(t, 3000, 4, 11)
	o, _ := LoadGraph(g, DefaultTeleport)
	sel, _ := NewSelector(o, Greedy, 3)
	sel.size = 16
	sel.refill()
	for read := range 20 * g.N {
		best := sel.entry(0)
		for i := 1; i < o.Len(); i++ {
			if e := sel.entry(i); before(e, best) {
				best = e
			}
		}
		if i := sel.Step(); i != int(best.node) {
			t.Fatalf("read %d: greedy read node %d (key %v), a scan picks %d (key %v)", read, i, sel.key(i), best.node, best.key)
		}
		if read%997 == 0 {
			for i := range o.Len() {
				if hot, e := sel.pos[i] >= 0, sel.entry(i); hot != !before(sel.threshold, e) {
					t.Fatalf("read %d: node %d hot %v with key %v, threshold %+v", read, i, hot, e.key, sel.threshold)
				}
			}
		}
	}
	if o.folds < 2 || sel.refills < 100 {
		t.Errorf("%d folds and %d thresholds over the reads, want several folds and many thresholds", o.folds, sel.refills)
	}
	t.Logf("%d reads: %d folds, %d thresholds", 20*g.N, o.folds, sel.refills)
}

func TestOPICHandComputed(t *testing.T) {
	// Two sites, 0 → 1, teleport 0.2; both start with 1/2.
	o, _ := NewOPIC(0.2)
	o.AddNode()
	o.AddNode()
	o.Seed()
	o.AddWeight(0, 1, 1)
	o.Read(0) // 0.5 read: 0.4 to node 1, 0.1 to the virtual page, 0.05 back to each.
	if c0, c1 := o.Cash(0), o.Cash(1); math.Abs(c0-0.05) > 1e-15 || math.Abs(c1-0.95) > 1e-15 {
		t.Fatalf("after reading 0: cash %v %v, want 0.05 0.95", c0, c1)
	}
	o.Read(1) // dangling: all 0.95 to the virtual page, 0.475 to each.
	if c0, c1 := o.Cash(0), o.Cash(1); math.Abs(c0-0.525) > 1e-15 || math.Abs(c1-0.475) > 1e-15 {
		t.Fatalf("after reading 1: cash %v %v, want 0.525 0.475", c0, c1)
	}
	if h0, h1, g := o.History(0), o.History(1), o.G(); h0 != 0.5 || math.Abs(h1-0.95) > 1e-15 || math.Abs(g-1.45) > 1e-15 {
		t.Fatalf("history %v %v G %v", h0, h1, g)
	}
	// A node added now starts with nothing and does not change the total.
	o.AddNode()
	if o.Cash(2) != 0 || math.Abs(o.TotalCash()-1) > 1e-15 {
		t.Fatalf("new node cash %v, total %v", o.Cash(2), o.TotalCash())
	}
}

func TestOPICRestore(t *testing.T) {
	o, _ := NewOPIC(0.15)
	o.AddNode()
	o.AddNode()
	if err := o.Restore([]State{{0.3, 2}, {0.7, 1}}, 0); err != nil {
		t.Fatal(err)
	}
	if o.Cash(1) != 0.7 || o.G() != 3 {
		t.Errorf("cash %v G %v", o.Cash(1), o.G())
	}
	for _, bad := range [][]State{{{0.3, 2}}, {{0.5, 0}, {0.6, 0}}, {{-0.1, 0}, {1.1, 0}}, {{math.NaN(), 0}, {1, 0}}} {
		if err := o.Restore(bad, 0); err == nil {
			t.Errorf("Restore(%v) succeeded", bad)
		}
	}
	if _, err := NewOPIC(1); err == nil {
		t.Error("teleport 1 accepted")
	}
}
