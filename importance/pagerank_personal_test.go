package importance

import (
	"math"
	"testing"
)

// threeNodes: 0 → 1, 0 → 2, 1 → 2; node 2 is dangling.
func threeNodes(t *testing.T) *Graph {
	t.Helper()
	g, err := NewGraph(3, []WeightedEdge{{From: 0, To: 1, Weight: 1}, {From: 0, To: 2, Weight: 1}, {From: 1, To: 2, Weight: 1}})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestPersonalizedPageRank(t *testing.T) {
	// With d = 1/2 and teleport distribution v, let s = d(x0+x1) + x2 be
	// the rank handed out by v (teleport of the linked nodes plus all of the
	// dangling node's). The fixpoint is
	//   x0 = s·v0
	//   x1 = s·v1 + (1/2)·x0/2
	//   x2 = s·v2 + (1/2)·x0/2 + (1/2)·x1
	// v = (1/2, 1/4, 1/4), from p = (2, 1, 1):
	//   x0 = s/2, x1 = s/4 + s/8 = 3s/8, x2 = s/4 + s/8 + 3s/16 = 9s/16;
	//   the sum 23s/16 = 1 gives s = 16/23 and x = (8, 6, 9)/23.
	//   Check: s = (1/2)(8+6)/23 + 9/23 = 16/23.
	// v = (1, 0, 0), from p = (5, 0, 0):
	//   x0 = s, x1 = s/4, x2 = s/4 + s/8 = 3s/8; 13s/8 = 1, x = (8, 2, 3)/13.
	// Uniform (nil and p = (7, 7, 7)), v = 1/3 each:
	//   x0 = s/3, x1 = s/3 + s/12 = 5s/12, x2 = s/3 + s/12 + 5s/24 = 15s/24;
	//   the sum (8 + 10 + 15)s/24 = 1 gives x = (8, 10, 15)/33.
	g := threeNodes(t)
	for _, tc := range []struct {
		name string
		p    []float64
		want []float64
	}{
		{"biased", []float64{2, 1, 1}, []float64{8.0 / 23, 6.0 / 23, 9.0 / 23}},
		{"one node", []float64{5, 0, 0}, []float64{8.0 / 13, 2.0 / 13, 3.0 / 13}},
		{"nil", nil, []float64{8.0 / 33, 10.0 / 33, 15.0 / 33}},
		{"constant", []float64{7, 7, 7}, []float64{8.0 / 33, 10.0 / 33, 15.0 / 33}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opt := DefaultPageRankOptions()
			opt.Teleport = 0.5
			opt.Personalization = tc.p
			res, err := PageRank(g, opt)
			if err != nil {
				t.Fatal(err)
			}
			for i, w := range tc.want {
				if math.Abs(res.Rank[i]-w) > 1e-12 {
					t.Errorf("rank[%d] = %.15f, want %.15f", i, res.Rank[i], w)
				}
			}
			for it, n := range res.Norms {
				if math.Abs(n-1) > 1e-12 {
					t.Fatalf("norm after iteration %d = %.15f", it+1, n)
				}
			}
		})
	}
}

// A constant personalisation is the uniform teleport: the same iterates,
// bit for bit, on a graph with dangling nodes.
func TestPersonalizationUniformIsMStar(t *testing.T) {
	g := kimLeeGraph(t, 5, 8, 10)
	plain, err := PageRank(g, DefaultPageRankOptions())
	if err != nil {
		t.Fatal(err)
	}
	opt := DefaultPageRankOptions()
	opt.Personalization = make([]float64, g.N)
	for i := range opt.Personalization {
		opt.Personalization[i] = 0.5
	}
	same, err := PageRank(g, opt)
	if err != nil {
		t.Fatal(err)
	}
	if plain.Iterations != same.Iterations {
		t.Errorf("iterations %d vs %d", plain.Iterations, same.Iterations)
	}
	for i := range plain.Rank {
		if plain.Rank[i] != same.Rank[i] {
			t.Errorf("rank[%d]: %v uniform, %v with a constant personalization", i, plain.Rank[i], same.Rank[i])
		}
	}
}

func TestPersonalizationInvalid(t *testing.T) {
	g := threeNodes(t)
	for _, p := range [][]float64{
		{1, 1},
		{1, -1, 1},
		{0, 0, 0},
		{1, math.NaN(), 1},
		{1, math.Inf(1), 1},
		{math.MaxFloat64, math.MaxFloat64, 1},
	} {
		opt := DefaultPageRankOptions()
		opt.Personalization = p
		if _, err := PageRank(g, opt); err == nil {
			t.Errorf("personalization %v accepted", p)
		}
	}
}
