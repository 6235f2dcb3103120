package importance

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The expected values are worked out by hand in the comments; they are
// what scipy.stats.spearmanr and scipy.stats.kendalltau (tau-b) give.
func TestRankCorrelationsHandComputed(t *testing.T) {
	for _, tc := range []struct {
		name              string
		x, y              []float64
		spearman, kendall float64
	}{
		{"identical", []float64{0.1, 0.5, 0.3, 0.2}, []float64{0.1, 0.5, 0.3, 0.2}, 1, 1},
		{"reversed", []float64{1, 2, 3, 4, 5}, []float64{50, 40, 30, 20, 10}, -1, -1},
		{"monotone transform", []float64{1, 2, 3, 4}, []float64{1, 4, 9, 16}, 1, 1},
		// Two adjacent swaps: Σd² = 4, ρ = 1 − 6·4/(5·24) = 0.8; two of the
		// ten pairs discordant, τ = (8 − 2)/10 = 0.6.
		{"two swaps", []float64{1, 2, 3, 4, 5}, []float64{2, 1, 4, 3, 5}, 0.8, 0.6},
		// x ranks 1, 2.5, 2.5, 4; y ranks 1, 3, 2, 4: ρ = 4.5/√(4.5·5) = √0.9.
		// Pairs: 5 concordant, 1 tied in x: τ_b = 5/√((6−1)·6) = 5/√30.
		{"tie in x", []float64{1, 2, 2, 3}, []float64{1, 3, 2, 4}, math.Sqrt(0.9), 5 / math.Sqrt(30)},
		// x ranks 1.5 1.5 3.5 3.5 5, y ranks 1.5 3.5 3.5 1.5 5: ρ = 5/9.
		// C = 5, D = 1, n₁ = 2, n₂ = 2: τ_b = 4/√(8·8) = 0.5.
		{"ties in both", []float64{1, 1, 2, 2, 3}, []float64{1, 2, 2, 1, 3}, 5.0 / 9, 0.5},
		// One pair tied in both (n₃ = 1), two concordant: τ_b = 2/√(2·2).
		{"joint tie", []float64{1, 1, 2}, []float64{5, 5, 6}, 1, 1},
		// Spearman: ranks (1,2,3,4) and (2,4,1,3): Σd² = 1+4+4+1 = 10,
		// ρ = 1 − 60/60 = 0. Kendall: C = 3, D = 3, τ = 0.
		{"uncorrelated", []float64{1, 2, 3, 4}, []float64{2, 4, 1, 3}, 0, 0},
		{"constant", []float64{1, 2, 3}, []float64{7, 7, 7}, 0, 0},
		{"single", []float64{1}, []float64{2}, 0, 0},
		{"empty", nil, nil, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Spearman(tc.x, tc.y); math.Abs(got-tc.spearman) > 1e-12 {
				t.Errorf("Spearman = %.15g, want %.15g", got, tc.spearman)
			}
			if got := KendallTau(tc.x, tc.y); math.Abs(got-tc.kendall) > 1e-12 {
				t.Errorf("KendallTau = %.15g, want %.15g", got, tc.kendall)
			}
		})
	}
}

// TestRankCorrelationsAgainstDefinitions checks the O(n log n) code against
// the O(n²) definitions on random vectors with many ties.
func TestRankCorrelationsAgainstDefinitions(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for trial := range 200 {
		n := 1 + rng.IntN(120)
		levels := 1 + rng.IntN(8) // few levels: many ties
		x, y := make([]float64, n), make([]float64, n)
		for i := range n {
			x[i] = float64(rng.IntN(levels))
			y[i] = float64(rng.IntN(levels)) + 0.5*x[i]
		}
		if got, want := KendallTau(x, y), bruteKendall(x, y); math.Abs(got-want) > 1e-12 {
			t.Fatalf("trial %d (n=%d): KendallTau %.15g, definition %.15g", trial, n, got, want)
		}
		if got, want := Spearman(x, y), bruteSpearman(x, y); math.Abs(got-want) > 1e-12 {
			t.Fatalf("trial %d (n=%d): Spearman %.15g, definition %.15g", trial, n, got, want)
		}
	}
}

func bruteKendall(x, y []float64) float64 {
	var c, d, tx, ty float64
	n := len(x)
	for i := range n {
		for j := i + 1; j < n; j++ {
			sx, sy := sign(x[i]-x[j]), sign(y[i]-y[j])
			switch {
			case sx == 0 && sy == 0:
				tx++
				ty++
			case sx == 0:
				tx++
			case sy == 0:
				ty++
			case sx == sy:
				c++
			default:
				d++
			}
		}
	}
	n0 := float64(n*(n-1)) / 2
	if (n0-tx)*(n0-ty) == 0 {
		return 0
	}
	return (c - d) / math.Sqrt((n0-tx)*(n0-ty))
}

func sign(v float64) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

func bruteSpearman(x, y []float64) float64 {
	rank := func(v []float64) []float64 {
		r := make([]float64, len(v))
		for i := range v {
			var less, equal float64
			for j := range v {
				if v[j] < v[i] {
					less++
				} else if v[j] == v[i] {
					equal++
				}
			}
			r[i] = less + (equal+1)/2
		}
		return r
	}
	rx, ry := rank(x), rank(y)
	var mx, my float64
	for i := range rx {
		mx += rx[i]
		my += ry[i]
	}
	mx /= float64(len(rx))
	my /= float64(len(ry))
	var sxy, sxx, syy float64
	for i := range rx {
		sxy += (rx[i] - mx) * (ry[i] - my)
		sxx += (rx[i] - mx) * (rx[i] - mx)
		syy += (ry[i] - my) * (ry[i] - my)
	}
	if sxx == 0 || syy == 0 {
		return 0
	}
	return sxy / math.Sqrt(sxx*syy)
}

func TestTopKOverlap(t *testing.T) {
	desc := []float64{5, 4, 3, 2, 1}
	asc := []float64{1, 2, 3, 4, 5}
	flat := []float64{1, 1, 1, 1}
	for _, tc := range []struct {
		name string
		x, y []float64
		k    int
		want float64
	}{
		{"reversed k=2", desc, asc, 2, 0},
		{"reversed k=3", desc, asc, 3, 1.0 / 3}, // {0,1,2} ∩ {4,3,2}
		{"reversed k=n", desc, asc, 5, 1},
		{"same", desc, desc, 2, 1},
		// All tied: top-2 of x is {0, 1} by index; of y {2, 3}.
		{"ties by index", flat, []float64{0, 0, 1, 1}, 2, 0},
		{"ties by index overlap", flat, []float64{0, 1, 1, 0}, 2, 0.5}, // {0,1} ∩ {1,2}
		{"k above n", flat, []float64{0, 1, 1, 0}, 10, 1},
		{"k zero", desc, asc, 0, 0},
		{"k negative", desc, asc, -3, 0},
		{"empty", nil, nil, 3, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := TopKOverlap(tc.x, tc.y, tc.k); math.Abs(got-tc.want) > 1e-15 {
				t.Errorf("TopKOverlap = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestRankCorrelationPolblogs(t *testing.T) {
	// On a real web graph PageRank and in-degree agree strongly but not
	// perfectly; authority and PageRank likewise. A sanity check of scale.
	g, labels := loadPolblogs(t)
	ref := referenceScores(t)
	pr, hubs := make([]float64, g.N), make([]float64, g.N)
	indeg := make([]float64, g.N)
	for i, l := range labels {
		pr[i], hubs[i] = ref[l][0], ref[l][1]
	}
	for _, v := range g.Targets {
		indeg[v]++
	}
	rho, tau := Spearman(pr, indeg), KendallTau(pr, indeg)
	t.Logf("pagerank vs in-degree: spearman %.4f kendall %.4f top-100 overlap %.2f; pagerank vs hub: spearman %.4f",
		rho, tau, TopKOverlap(pr, indeg, 100), Spearman(pr, hubs))
	if !(rho > 0.8 && rho < 1 && tau > 0.6 && tau < rho) {
		t.Errorf("pagerank vs in-degree: spearman %v kendall %v", rho, tau)
	}
}

func TestRankCorrelationLengthMismatchPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic on vectors of different lengths")
		}
	}()
	KendallTau([]float64{1, 2}, []float64{1})
}
