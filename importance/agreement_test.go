package importance

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The worked example: three librarians, five sites.
//
//	      s1 s2 s3 s4 s5
//	A      4  3  1  2  -
//	B      4  2  1  3  2
//	C      3  2  2  -  -
//
// Means 11/3, 7/3, 4/3, 5/2 → reference 4, 2, 1, 3 (2.5 rounds up); s5 has
// one rating and no reference.
func example() Ratings {
	return Ratings{
		Sites:      []string{"s1", "s2", "s3", "s4", "s5"},
		Librarians: []string{"A", "B", "C"},
		R:          [][]int{{4, 3, 1, 2, 0}, {4, 2, 1, 3, 2}, {3, 2, 2, 0, 0}},
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 || (math.IsNaN(a) && math.IsNaN(b)) }

func TestReference(t *testing.T) {
	r := example()
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	ref := NewReference(r, -1)
	want := []int{4, 2, 1, 3, 0}
	for s := range want {
		if ref.Rank[s] != want[s] {
			t.Errorf("reference of %s = %d, want %d", r.Sites[s], ref.Rank[s], want[s])
		}
	}
	if !near(ref.Mean[3], 2.5) || !math.IsNaN(ref.Mean[4]) || ref.Excluded != 1 {
		t.Errorf("means %v excluded %d", ref.Mean, ref.Excluded)
	}
	for _, tc := range []struct {
		x    float64
		want int
	}{{1.49, 1}, {1.5, 2}, {2.5, 3}, {3.5, 4}, {3.49, 3}} {
		if got := RoundHalfUp(tc.x); got != tc.want {
			t.Errorf("RoundHalfUp(%v) = %d, want %d", tc.x, got, tc.want)
		}
	}
}

func ratingsOf(r Ratings, l int) ([]int, []float64) {
	v := make([]float64, len(r.Sites))
	for s, x := range r.R[l] {
		v[s] = float64(x)
	}
	return r.R[l], v
}

func TestAgreeLibrarians(t *testing.T) {
	r := example()
	ref := NewReference(r, -1)
	for _, tc := range []struct {
		l          int
		sites      int
		pct, loo   float64
		kappa, rho float64
	}{
		// A: equal on s1, s3 → 50%. Leave-one-out (B, C): 4, 2, 2, 3 → only s1 → 25%.
		// κw: A = [4,3,1,2], ref = [4,2,1,3], uniform marginals:
		// observed Σw = (1/9+1/9)/4 = 1/18, expected Σw = 40/144 = 5/18 → 1 − 1/5.
		// Spearman: A ranks [4,3,1,2] vs mean ranks [4,2,1,3] → 1 − 6·2/(4·15) = 0.8.
		{0, 4, 50, 25, 0.8, 0.8},
		// B agrees everywhere; leave-one-out (A, C): 4, 3 (2.5), 2 (1.5), 2 → s1 only.
		{1, 4, 100, 25, 1, 1},
		// C: equal on s2 only → 1/3; leave-one-out (A, B): 4, 3 (2.5), 1 → none.
		{2, 3, 100.0 / 3, 0, math.NaN(), math.NaN()},
	} {
		ranks, values := ratingsOf(r, tc.l)
		sc := Agree(ranks, values, ref)
		loo := Agree(ranks, values, NewReference(r, tc.l))
		if sc.Sites != tc.sites || !near(sc.Pct, tc.pct) || !near(loo.Pct, tc.loo) {
			t.Errorf("%s: sites %d score %v loo %v; want %d %v %v", r.Librarians[tc.l], sc.Sites, sc.Pct, loo.Pct, tc.sites, tc.pct, tc.loo)
		}
		if !math.IsNaN(tc.kappa) && (!near(sc.KappaW, tc.kappa) || !near(sc.Spearman, tc.rho)) {
			t.Errorf("%s: κw %v ρ %v; want %v %v", r.Librarians[tc.l], sc.KappaW, sc.Spearman, tc.kappa, tc.rho)
		}
	}
	// C against the reference: C = [3,2,2], ref = [4,2,1].
	// Observed Σw = (1/9 + 0 + 1/9)/3 = 2/27. Marginals: C {2: 2/3, 3: 1/3},
	// ref {1,2,4: 1/3 each}. Expected Σw = Σ_ij p_i q_j (i−j)²/9 =
	// (1/9)[(2/3)(1/3)(1+0+4) + (1/3)(1/3)(4+1+1)] = (1/9)(10/9 + 6/9) = 16/81.
	// κw = 1 − (2/27)/(16/81) = 1 − 6/16 = 0.625.
	ranks, values := ratingsOf(r, 2)
	sc := Agree(ranks, values, ref)
	if !near(sc.KappaW, 0.625) {
		t.Errorf("C: κw = %v, want 0.625", sc.KappaW)
	}
	if sc.Confusion[3][2] != 1 || sc.Confusion[1][1] != 1 || sc.Confusion[0][1] != 1 {
		t.Errorf("C: confusion %v", sc.Confusion)
	}
}

func TestQuantileRanks(t *testing.T) {
	r := example()
	ref := NewReference(r, -1)
	opic := []float64{0.5, 0.2, 0.05, 0.25, 0.0}
	ranks, th := QuantileRanks(opic, ref)
	want := []int{4, 2, 1, 3, 0}
	for s := range want {
		if ranks[s] != want[s] {
			t.Errorf("rank of %s = %d, want %d", r.Sites[s], ranks[s], want[s])
		}
	}
	if th != [3]float64{0.2, 0.25, 0.5} {
		t.Errorf("thresholds %v", th)
	}
	sc := Agree(ranks, opic, ref)
	if sc.Pct != 100 || sc.Spearman != 1 {
		t.Errorf("measure score %v ρ %v", sc.Pct, sc.Spearman)
	}
	// A constant measure against the reference 1, 2, 1, 2: one tie group
	// of positions [0, 4), median 2, on the boundary of classes 1 and 2:
	// the upper class for all.
	tie := Reference{Rank: []int{1, 2, 1, 2}, Mean: []float64{1, 2, 1, 2}}
	got, th2 := QuantileRanks([]float64{7, 7, 7, 7}, tie)
	if !slices.Equal(got, []int{2, 2, 2, 2}) || th2[0] != 7 || !math.IsNaN(th2[1]) || !math.IsNaN(th2[2]) {
		t.Errorf("ties: ranks %v thresholds %v", got, th2)
	}
}

// TestQuantileRanksTieAcrossBoundary: ties that straddle a quantile
// boundary get one rank, the class of the group's median member.
func TestQuantileRanksTieAcrossBoundary(t *testing.T) {
	// The reference has three 1s, three 2s, two 3s and two 4s: classes hold
	// positions [0,3), [3,6), [6,8), [8,10).
	refRanks := []int{1, 1, 1, 2, 2, 2, 3, 3, 4, 4}
	ref := Reference{Rank: refRanks, Mean: make([]float64, 10)}
	for s, r := range refRanks {
		ref.Mean[s] = float64(r)
	}
	for _, tc := range []struct {
		name   string
		values []float64
		want   []int
		th     [3]float64 // NaN written as -1
	}{
		// Positions [2, 5) tie: median 3.5 lies in class 2.
		{"three across 1|2, most in 2", []float64{1, 2, 5, 5, 5, 6, 7, 8, 9, 10}, []int{1, 1, 2, 2, 2, 2, 3, 3, 4, 4}, [3]float64{5, 7, 9}},
		// Positions [1, 4) tie: median 2.5 lies in class 1.
		{"three across 1|2, most in 1", []float64{1, 5, 5, 5, 6, 6.5, 7, 8, 9, 10}, []int{1, 1, 1, 1, 2, 2, 3, 3, 4, 4}, [3]float64{6, 7, 9}},
		// Positions [2, 4) tie: median 3, the boundary itself: the upper class.
		{"two split evenly", []float64{1, 2, 5, 5, 6, 6.5, 7, 8, 9, 10}, []int{1, 1, 2, 2, 2, 2, 3, 3, 4, 4}, [3]float64{5, 7, 9}},
		// Positions [5, 9) tie over classes 2, 3 and 4: median 7, class 3.
		{"four over three classes", []float64{1, 2, 3, 4, 5, 8, 8, 8, 8, 10}, []int{1, 1, 1, 2, 2, 3, 3, 3, 3, 4}, [3]float64{4, 8, 10}},
		// All equal: median 5, class 2; ranks 1, 3 and 4 unused.
		{"all equal", []float64{3, 3, 3, 3, 3, 3, 3, 3, 3, 3}, []int{2, 2, 2, 2, 2, 2, 2, 2, 2, 2}, [3]float64{3, -1, -1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, th := QuantileRanks(tc.values, ref)
			if !slices.Equal(got, tc.want) {
				t.Errorf("ranks %v, want %v", got, tc.want)
			}
			for k, w := range tc.th {
				if w < 0 && !math.IsNaN(th[k]) || w >= 0 && th[k] != w {
					t.Errorf("thresholds %v, want %v (-1: none)", th, tc.th)
				}
			}
		})
	}
}

// TestQuantileRanksSiteOrder: the ranks of a measure with many ties never
// depend on the order of the sites (their names sort them): every
// permutation of the sites gives each site the same rank, and the same
// score.
func TestQuantileRanksSiteOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for trial := range 200 {
		n := 2 + rng.IntN(40)
		ref := Reference{Rank: make([]int, n), Mean: make([]float64, n)}
		values := make([]float64, n)
		for s := range n {
			ref.Rank[s] = rng.IntN(Levels + 1) // 0: no reference
			ref.Mean[s] = float64(ref.Rank[s])
			values[s] = float64(rng.IntN(4)) // few distinct values: many ties
			if rng.IntN(10) == 0 {
				values[s] = math.NaN()
			}
		}
		ranks, th := QuantileRanks(values, ref)
		score := Agree(ranks, values, ref)
		for range 5 {
			perm := rng.Perm(n)
			pRef := Reference{Rank: make([]int, n), Mean: make([]float64, n)}
			pValues := make([]float64, n)
			for i, s := range perm {
				pRef.Rank[i], pRef.Mean[i], pValues[i] = ref.Rank[s], ref.Mean[s], values[s]
			}
			pRanks, pTh := QuantileRanks(pValues, pRef)
			for i, s := range perm {
				if pRanks[i] != ranks[s] {
					t.Fatalf("trial %d: site %d ranked %d, %d once permuted (values %v, reference %v)",
						trial, s, ranks[s], pRanks[i], values, ref.Rank)
				}
			}
			if !slices.EqualFunc(th[:], pTh[:], func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }) {
				t.Fatalf("trial %d: thresholds %v, %v once permuted", trial, th, pTh)
			}
			if p := Agree(pRanks, pValues, pRef); p.Pct != score.Pct && !(math.IsNaN(p.Pct) && math.IsNaN(score.Pct)) {
				t.Fatalf("trial %d: agreement %v%%, %v%% once permuted", trial, score.Pct, p.Pct)
			}
		}
		// Ranks are monotone in value and equal values share one rank.
		for a := range n {
			for b := range n {
				if ranks[a] > 0 && ranks[b] > 0 && values[a] <= values[b] && ranks[a] > ranks[b] {
					t.Fatalf("trial %d: value %v ranked %d above value %v ranked %d", trial, values[a], ranks[a], values[b], ranks[b])
				}
			}
		}
	}
}

func TestWeightedKappaEdgeCases(t *testing.T) {
	if k := WeightedKappa([]int{2, 2, 2}, []int{2, 2, 2}); !math.IsNaN(k) {
		t.Errorf("constant raters: %v, want NaN", k)
	}
	if k := WeightedKappa([]int{1, 4}, []int{4, 1}); !near(k, -1) {
		// observed Σw = 1, expected = (1/4)(1+1) = 1/2 → 1 − 2 = −1.
		t.Errorf("opposite raters: %v, want −1", k)
	}
	bad := example()
	bad.R[0][0] = 5
	if bad.Validate() == nil {
		t.Error("rating 5 accepted")
	}
}

// TestQuantileRanksLastBits: values of the same structure that differ in
// their last bits, as sums taken in another order do (0.1+0.2 against
// 0.3), are one tie group: which site got which bits, the order of an
// input file, changes no rank and no score. Values further apart than
// TieTolerance stay apart.
func TestQuantileRanksLastBits(t *testing.T) {
	ref := Reference{Rank: []int{1, 1, 2, 2}, Mean: []float64{1, 1, 2, 2}}
	a, b := 0.1, 0.2 // variables: constants would add exactly
	sum, lit := a+b, 0.3
	if sum == lit {
		t.Fatal("0.1+0.2 == 0.3: the test needs values that differ in the last bits")
	}
	var scores []float64
	for _, values := range [][]float64{{lit, lit, sum, sum}, {sum, sum, lit, lit}, {sum, lit, sum, lit}} {
		ranks, _ := QuantileRanks(values, ref)
		if !slices.Equal(ranks, []int{2, 2, 2, 2}) {
			t.Errorf("values %v: ranks %v, want one tie group, all 2", values, ranks)
		}
		if g := TieGroups(values, ref); g != 1 {
			t.Errorf("values %v: %d tie groups, want 1", values, g)
		}
		scores = append(scores, Agree(ranks, values, ref).Pct)
	}
	if scores[0] != scores[1] || scores[1] != scores[2] {
		t.Errorf("scores %v depend on which site got which last bits", scores)
	}
	// Spearman's correlation reads the values snapped to their tie group:
	// a site of the highest value, 0.9, over four of the last bits.
	ref5 := Reference{Rank: []int{1, 1, 2, 2, 4}, Mean: []float64{1, 1, 2, 2, 4}}
	var rho []float64
	for _, values := range [][]float64{{lit, lit, sum, sum, 0.9}, {sum, sum, lit, lit, 0.9}} {
		ranks, _ := QuantileRanks(values, ref5)
		snapped := TieSnap(values, ref5)
		if snapped[0] != snapped[3] || snapped[4] != 0.9 {
			t.Errorf("values %v snapped to %v, want one value for the first four, 0.9 kept", values, snapped)
		}
		rho = append(rho, Agree(ranks, snapped, ref5).Spearman)
	}
	if rho[0] != rho[1] {
		t.Errorf("Spearman %v depends on which site got which last bits", rho)
	}
	apart := []float64{lit, lit, lit * (1 + 1e-8), lit * (1 + 1e-8)}
	if ranks, _ := QuantileRanks(apart, ref); !slices.Equal(ranks, []int{1, 1, 2, 2}) {
		t.Errorf("values %v a relative 1e-8 apart: ranks %v, want 1 1 2 2", apart, ranks)
	}
	if g := TieGroups(apart, ref); g != 2 {
		t.Errorf("values %v: %d tie groups, want 2", apart, g)
	}
}
