package importance

import (
	"math"
	"math/rand/v2"
	"slices"
)

// The graph model of the OPIC paper's synthetic experiments (section 4, "the
// graph model"): "a simple graph model based on the power distribution on
// incoming edges", N = 100 000 nodes, with the in-degree exponent of the web
// studies it cites (Broder et al.: P(in-degree = k) ∝ k^−2.1). The paper
// omits the details; these are sitesift's choices.
const (
	// SyntheticInExponent is γ in P(in-degree = k) ∝ k^−γ.
	SyntheticInExponent = 2.1
	// SyntheticDangling is the share of nodes with no out-arc: pages a
	// crawl knows of but has not read, or that link nowhere.
	SyntheticDangling = 0.1
)

// Synthetic returns a random directed graph of n nodes with about
// n·avgOut arcs (all of weight 1) and a power-law in-degree distribution,
// the same graph for the same seed. A negative n counts as 0; n must fit
// in an int32, as node ids do.
//
// Out-degrees: a share [SyntheticDangling] of the nodes is dangling; the
// others draw a Poisson out-degree of mean avgOut/(1 − SyntheticDangling)
// (capped at (n−1)/2), so the mean over all nodes is avgOut.
//
// Targets: the nodes are put in a random order of "popularity" r = 1..n and
// each arc picks its target with probability ∝ r^−α, a Zipf law over
// ranks. The expected in-degree of rank r is then ∝ r^−α, so the number of
// nodes with in-degree ≥ k falls as k^−1/α: α = 1/(γ − 1) gives the density
// exponent γ = [SyntheticInExponent]. A node's targets are distinct and
// never itself (a target already drawn is drawn again), so the graph needs
// no merging and every row is sorted.
//
// It costs O(arcs · log(out-degree)) time and O(n) memory beyond the graph.
func Synthetic(n int, avgOut float64, seed uint64) *Graph {
	if n > math.MaxInt32 {
		panic("importance: Synthetic: too many nodes for int32 ids")
	}
	n = max(n, 0)
	if !(avgOut > 0) || n < 2 {
		avgOut = 0
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x5bd1e9955bd1e995))
	// byRank[r-1] is the node of popularity rank r.
	byRank := rng.Perm(n)
	alpha := 1 / (SyntheticInExponent - 1)
	target := zipfRanks(n, alpha)
	lambda := avgOut / (1 - SyntheticDangling)
	// chosenBy[v] is the last node that drew v as a target, so a repeat
	// is seen in O(1) whatever the out-degree.
	chosenBy := make([]int32, n)
	for v := range chosenBy {
		chosenBy[v] = -1
	}

	g := &Graph{N: n, Offsets: make([]int, n+1), OutW: make([]float64, n)}
	g.Targets = make([]int32, 0, int(float64(n)*avgOut*1.01)+16)
	for u := range n {
		g.Offsets[u] = len(g.Targets)
		if avgOut == 0 || rng.Float64() < SyntheticDangling {
			continue
		}
		// At most half the nodes, so that drawing distinct targets by
		// rejection stays cheap even from the tail of the Zipf law.
		d := min(Poisson(rng, lambda), (n-1)/2)
		row := len(g.Targets)
		for len(g.Targets)-row < d {
			v := int32(byRank[target(rng.Float64())-1])
			if int(v) == u || chosenBy[v] == int32(u) {
				continue
			}
			chosenBy[v] = int32(u)
			g.Targets = append(g.Targets, v)
		}
		slices.Sort(g.Targets[row:])
		g.OutW[u] = float64(d)
	}
	g.Offsets[n] = len(g.Targets)
	g.Weights = make([]float64, len(g.Targets))
	for k := range g.Weights {
		g.Weights[k] = 1
	}
	return g
}

// zipfRanks returns a sampler of ranks 1..n with P(r) ≈ ∝ r^−α (0 < α < 1),
// by inverting the CDF of the continuous density ∝ x^−α on [1, n+1) and
// rounding down: O(1) a draw and no table.
func zipfRanks(n int, alpha float64) func(u float64) int {
	e := 1 - alpha
	top := math.Pow(float64(n)+1, e) - 1
	return func(u float64) int {
		r := int(math.Pow(1+u*top, 1/e))
		return min(max(r, 1), n)
	}
}

// Poisson draws from a Poisson law of mean lambda: Knuth's product of
// uniforms up to a mean of 30, a rounded normal above (where its error is
// far below what a graph model cares about).
func Poisson(rng *rand.Rand, lambda float64) int {
	if lambda <= 0 {
		return 0
	}
	if lambda > 30 {
		return max(0, int(math.Round(lambda+math.Sqrt(lambda)*rng.NormFloat64())))
	}
	limit := math.Exp(-lambda)
	k, p := 0, rng.Float64()
	for p > limit {
		k++
		p *= rng.Float64()
	}
	return k
}
