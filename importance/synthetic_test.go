package importance

import (
	"math"
	"slices"
	"testing"
)

func TestSyntheticShape(t *testing.T) {
	const n, avgOut = 100000, 8.0
	g := Synthetic(n, avgOut, 1)
	if g.N != n || len(g.Offsets) != n+1 || g.Offsets[n] != g.Arcs() || len(g.Weights) != g.Arcs() {
		t.Fatalf("malformed graph: N %d, %d offsets, %d arcs, %d weights", g.N, len(g.Offsets), g.Arcs(), len(g.Weights))
	}
	if a := float64(g.Arcs()); math.Abs(a-n*avgOut)/(n*avgOut) > 0.01 {
		t.Errorf("%v arcs, want n·avgOut = %v within 1%%", a, n*avgOut)
	}
	in := make([]int, n)
	var dangling int
	for u := range n {
		row := g.Targets[g.Offsets[u]:g.Offsets[u+1]]
		if len(row) == 0 {
			dangling++
		}
		if g.OutW[u] != float64(len(row)) {
			t.Fatalf("node %d: OutW %v, %d arcs", u, g.OutW[u], len(row))
		}
		for k, v := range row {
			if int(v) == u || (k > 0 && row[k-1] >= v) {
				t.Fatalf("node %d: row %v has a self-arc, a repeat or is unsorted", u, row)
			}
			if g.Weights[g.Offsets[u]+k] != 1 {
				t.Fatalf("weight %v, want 1", g.Weights[g.Offsets[u]+k])
			}
			in[v]++
		}
	}
	if share := float64(dangling) / n; math.Abs(share-SyntheticDangling) > 0.01 {
		t.Errorf("dangling share %v, want about %v", share, SyntheticDangling)
	}
	// Heavy tail: the complementary CDF P(in ≥ k) on log-log axes falls with
	// slope −(γ−1) = −1.1 between k = 10 and k = 1000 (a Poisson in-degree
	// would have no node at all above about 25).
	ccdf := func(k int) float64 {
		var c int
		for _, d := range in {
			if d >= k {
				c++
			}
		}
		return float64(c) / n
	}
	slope := (math.Log(ccdf(1000)) - math.Log(ccdf(10))) / (math.Log(1000) - math.Log(10))
	maxIn := slices.Max(in)
	t.Logf("%d arcs, %d dangling, max in-degree %d (mean %.2f), CCDF slope %.3f over k = 10..1000", g.Arcs(), dangling, maxIn, float64(g.Arcs())/n, slope)
	if slope < -1.3 || slope > -0.9 {
		t.Errorf("CCDF log-log slope %.3f, want −1.1 ± 0.2 (in-degree exponent %v)", slope, SyntheticInExponent)
	}
	if maxIn < 1000*int(avgOut) {
		t.Errorf("max in-degree %d, want ≫ mean %v", maxIn, avgOut)
	}
}

func TestSyntheticReproducible(t *testing.T) {
	a, b, c := Synthetic(5000, 6, 42), Synthetic(5000, 6, 42), Synthetic(5000, 6, 43)
	if !slices.Equal(a.Offsets, b.Offsets) || !slices.Equal(a.Targets, b.Targets) {
		t.Error("same seed, different graphs")
	}
	if slices.Equal(a.Targets, c.Targets) {
		t.Error("seeds 42 and 43 give the same graph")
	}
}

func TestSyntheticEdgeCases(t *testing.T) {
	for _, tc := range []struct {
		name   string
		n      int
		avgOut float64
	}{{"empty", 0, 8}, {"negative", -3, 8}, {"single node", 1, 8}, {"no arcs", 10, 0}, {"NaN degree", 10, math.NaN()}, {"dense", 6, 50}} {
		t.Run(tc.name, func(t *testing.T) {
			g := Synthetic(tc.n, tc.avgOut, 7)
			if len(g.Offsets) != g.N+1 || g.N != max(tc.n, 0) {
				t.Fatalf("N %d, %d offsets", g.N, len(g.Offsets))
			}
			for u := range g.N {
				if d := g.Offsets[u+1] - g.Offsets[u]; d > (g.N-1)/2 {
					t.Fatalf("node %d has %d arcs in a graph of %d nodes", u, d, g.N)
				}
			}
			if (tc.n < 2 || !(tc.avgOut > 0)) && g.Arcs() != 0 {
				t.Fatalf("%d arcs, want none", g.Arcs())
			}
			if _, err := PageRank(g, DefaultPageRankOptions()); err != nil {
				t.Fatal(err)
			}
		})
	}
}
