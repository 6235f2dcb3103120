package importance

import (
	"errors"
	"math"
	"testing"
)

func TestHITSPolblogsReference(t *testing.T) {
	g, labels := loadPolblogs(t)
	ref := referenceScores(t)
	opt := HITSOptions{MaxIter: 10000, Tolerance: 1e-13}
	res, err := HITS(g, opt)
	if err != nil {
		t.Fatal(err)
	}
	maxErr := func(res HITSResult) (hub, auth float64) {
		for i, l := range labels {
			r, ok := ref[l]
			if !ok {
				t.Fatalf("node %q not in the reference", l)
			}
			hub = max(hub, math.Abs(res.Hub[i]-r[1]))
			auth = max(auth, math.Abs(res.Authority[i]-r[2]))
		}
		return hub, auth
	}
	hub, auth := maxErr(res)
	t.Logf("converged: %d iterations, residual %g, max |hub − ref| %g, max |authority − ref| %g", res.Iterations, res.Residual, hub, auth)
	// The reference's own README expects about 1e-9 from a correct
	// implementation; the brief asks for 1e-6.
	if hub > 1e-9 || auth > 1e-9 {
		t.Errorf("max error hub %g, authority %g; want ≤ 1e-9", hub, auth)
	}
	checkDistribution(t, "hub", res.Hub)
	checkDistribution(t, "authority", res.Authority)

	// The paper's fixed 60 iterations, for the record: close but not
	// necessarily converged on this graph.
	res60, err := HITS(g, DefaultHITSOptions())
	if err != nil || res60.Iterations != 60 {
		t.Fatalf("60 iterations: %d, %v", res60.Iterations, err)
	}
	hub, auth = maxErr(res60)
	t.Logf("60 iterations: residual %g, max |hub − ref| %g, max |authority − ref| %g", res60.Residual, hub, auth)
}

// checkDistribution fails unless x is free of NaN, not negative and sums to 1.
func checkDistribution(t *testing.T, name string, x []float64) {
	t.Helper()
	var s float64
	for i, v := range x {
		if math.IsNaN(v) || v < 0 {
			t.Fatalf("%s[%d] = %v", name, i, v)
		}
		s += v
	}
	if len(x) > 0 && math.Abs(s-1) > 1e-12 {
		t.Fatalf("%s sums to %.17g, want 1", name, s)
	}
}

func TestHITSHandComputed(t *testing.T) {
	phi := (1 + math.Sqrt(5)) / 2
	// Weighted: 0→2 weight 2, 1→2 and 1→3 weight 1. AᵀA on {2, 3} is
	// [[5, 1], [1, 1]], top eigenvalue λ = 3+√5, eigenvector (1, λ−5).
	lw := 3 + math.Sqrt(5)
	aw2, aw3 := 1/(1+lw-5), (lw-5)/(1+lw-5)
	hw0, hw1 := 2*aw2, aw2+aw3
	for _, tc := range []struct {
		name     string
		weighted bool
		hub      []float64
		auth     []float64
	}{
		// Unweighted: AᵀA on {2, 3} is [[2, 1], [1, 1]], top eigenvalue
		// φ², eigenvector (1, 1/φ): a = (1/φ, 1/φ²); h = A·a = (1/φ, 1),
		// normalised (1/φ², 1/φ).
		{"unweighted", false, []float64{1 / (phi * phi), 1 / phi, 0, 0}, []float64{0, 0, 1 / phi, 1 / (phi * phi)}},
		{"weighted", true, []float64{hw0 / (hw0 + hw1), hw1 / (hw0 + hw1), 0, 0}, []float64{0, 0, aw2, aw3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := NewGraph(4, []WeightedEdge{{0, 2, 2}, {1, 2, 1}, {1, 3, 1}})
			if err != nil {
				t.Fatal(err)
			}
			res, err := HITS(g, HITSOptions{MaxIter: 200, Tolerance: 1e-15, Weighted: tc.weighted})
			if err != nil {
				t.Fatal(err)
			}
			for i := range 4 {
				if math.Abs(res.Hub[i]-tc.hub[i]) > 1e-12 || math.Abs(res.Authority[i]-tc.auth[i]) > 1e-12 {
					t.Fatalf("node %d: hub %v authority %v, want %v %v", i, res.Hub[i], res.Authority[i], tc.hub[i], tc.auth[i])
				}
			}
		})
	}
}

func TestHITSDegenerateGraphs(t *testing.T) {
	mustGraph := func(n int, edges []WeightedEdge) *Graph {
		g, err := NewGraph(n, edges)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	for _, tc := range []struct {
		name      string
		g         *Graph
		hub, auth []float64
	}{
		{"empty", &Graph{Offsets: []int{0}}, []float64{}, []float64{}},
		{"no arcs", mustGraph(4, nil), []float64{0.25, 0.25, 0.25, 0.25}, []float64{0.25, 0.25, 0.25, 0.25}},
		{"only self-loops", mustGraph(2, []WeightedEdge{{0, 0, 1}, {1, 1, 1}}), []float64{0.5, 0.5}, []float64{0.5, 0.5}},
		// Two identical components tie for the top singular value and share
		// the scores evenly, as the uniform start does.
		{"tied components", mustGraph(4, []WeightedEdge{{0, 1, 1}, {2, 3, 1}}), []float64{0.5, 0, 0.5, 0}, []float64{0, 0.5, 0, 0.5}},
		// 0→1 has singular value 1; the complete bipartite {2,4}→{3,5} has
		// 2. After 60 iterations the first holds (1/4)^60 of the weight.
		{"unequal components", mustGraph(6, []WeightedEdge{{0, 1, 1}, {2, 3, 1}, {4, 3, 1}, {2, 5, 1}, {4, 5, 1}}),
			[]float64{0, 0, 0.5, 0, 0.5, 0}, []float64{0, 0, 0, 0.5, 0, 0.5}},
		// An isolated node next to a link: hub and authority 0.
		{"isolated node", mustGraph(3, []WeightedEdge{{0, 1, 1}}), []float64{1, 0, 0}, []float64{0, 1, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := HITS(tc.g, DefaultHITSOptions())
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Hub) != len(tc.hub) || len(res.Authority) != len(tc.auth) {
				t.Fatalf("lengths %d %d, want %d", len(res.Hub), len(res.Authority), len(tc.hub))
			}
			checkDistribution(t, "hub", res.Hub)
			checkDistribution(t, "authority", res.Authority)
			for i := range tc.hub {
				if math.Abs(res.Hub[i]-tc.hub[i]) > 1e-12 || math.Abs(res.Authority[i]-tc.auth[i]) > 1e-12 {
					t.Fatalf("hub %v authority %v, want %v %v", res.Hub, res.Authority, tc.hub, tc.auth)
				}
			}
		})
	}
}

func TestHITSIterationsAndErrors(t *testing.T) {
	g := randomGraph(t, 100, 3, 4)
	res, err := HITS(g, HITSOptions{MaxIter: 7})
	if err != nil || res.Iterations != 7 {
		t.Errorf("tolerance 0: %d iterations, %v; want exactly 7", res.Iterations, err)
	}
	res, err = HITS(g, HITSOptions{MaxIter: 3, Tolerance: 1e-300})
	if !errors.Is(err, ErrHITSNotConverged) || res.Iterations != 3 || len(res.Hub) != g.N {
		t.Errorf("unreachable tolerance: %d iterations, %v", res.Iterations, err)
	}
	res, err = HITS(g, HITSOptions{MaxIter: 10000, Tolerance: 1e-10})
	if err != nil || res.Residual >= 1e-10 || res.Iterations >= 10000 {
		t.Errorf("tolerance 1e-10: %d iterations, residual %g, %v", res.Iterations, res.Residual, err)
	}
	// Without Weighted the weights are ignored: the same as the binary graph.
	b, _ := HITS(g.Binary(), HITSOptions{MaxIter: 50})
	u, _ := HITS(g, HITSOptions{MaxIter: 50})
	w, _ := HITS(g, HITSOptions{MaxIter: 50, Weighted: true})
	var du, dw float64
	for i := range b.Hub {
		du += math.Abs(b.Hub[i] - u.Hub[i])
		dw += math.Abs(b.Hub[i] - w.Hub[i])
	}
	if du != 0 || dw < 1e-3 {
		t.Errorf("unweighted vs binary differ by %g (want 0), weighted by %g (want > 1e-3)", du, dw)
	}
	for _, opt := range []HITSOptions{{}, {MaxIter: -1}, {MaxIter: 5, Tolerance: -1}, {MaxIter: 5, Tolerance: math.NaN()}, {MaxIter: 5, Tolerance: math.Inf(1)}} {
		if _, err := HITS(g, opt); err == nil {
			t.Errorf("HITS(%+v) succeeded, want an error", opt)
		}
	}
}
