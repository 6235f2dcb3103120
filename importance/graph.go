package importance

import (
	"fmt"
	"math"
	"sort"
)

// WeightedEdge is an arc of a graph under construction.
type WeightedEdge struct {
	From, To int
	Weight   float64
}

// Graph is a directed graph with float64 arc weights in compressed sparse row
// form: the out-arcs of node u are Targets[Offsets[u]:Offsets[u+1]] with the
// matching Weights. Parallel arcs are merged (weights added) and self-arcs
// dropped, so every (u, v) pair appears at most once.
type Graph struct {
	N       int
	Offsets []int
	Targets []int32
	Weights []float64
	OutW    []float64 // sum of out-arc weights by node; 0 for a dangling node
}

// NewGraph builds a graph of n nodes from edges. Weights must be positive
// and finite; node ids must lie in [0, n).
func NewGraph(n int, edges []WeightedEdge) (*Graph, error) {
	if n < 0 || n > math.MaxInt32 {
		return nil, fmt.Errorf("importance: %d nodes out of range", n)
	}
	count := make([]int, n+1)
	for k, e := range edges {
		if e.From < 0 || e.From >= n || e.To < 0 || e.To >= n {
			return nil, fmt.Errorf("importance: edge %d (%d→%d) outside [0, %d)", k, e.From, e.To, n)
		}
		if !(e.Weight > 0) || math.IsInf(e.Weight, 0) {
			return nil, fmt.Errorf("importance: edge %d (%d→%d) weight %v not positive and finite", k, e.From, e.To, e.Weight)
		}
		if e.From != e.To {
			count[e.From+1]++
		}
	}
	for u := 0; u < n; u++ {
		count[u+1] += count[u]
	}
	targets := make([]int32, count[n])
	weights := make([]float64, count[n])
	fill := append([]int(nil), count[:n]...)
	for _, e := range edges {
		if e.From == e.To {
			continue
		}
		k := fill[e.From]
		targets[k], weights[k] = int32(e.To), e.Weight
		fill[e.From]++
	}
	g := &Graph{N: n, Offsets: make([]int, n+1), OutW: make([]float64, n)}
	// Sort each row by target and merge parallel arcs, compacting in place.
	w := 0
	for u := 0; u < n; u++ {
		lo, hi := count[u], count[u+1]
		row := arcRow{targets[lo:hi], weights[lo:hi]}
		sort.Sort(row)
		g.Offsets[u] = w
		for k := lo; k < hi; k++ {
			if w > g.Offsets[u] && targets[w-1] == targets[k] {
				weights[w-1] += weights[k]
			} else {
				targets[w], weights[w] = targets[k], weights[k]
				w++
			}
			g.OutW[u] += weights[k]
		}
	}
	g.Offsets[n] = w
	g.Targets, g.Weights = targets[:w:w], weights[:w:w]
	return g, nil
}

type arcRow struct {
	t []int32
	w []float64
}

func (r arcRow) Len() int           { return len(r.t) }
func (r arcRow) Less(i, j int) bool { return r.t[i] < r.t[j] }
func (r arcRow) Swap(i, j int) {
	r.t[i], r.t[j] = r.t[j], r.t[i]
	r.w[i], r.w[j] = r.w[j], r.w[i]
}

// Arcs returns the number of arcs (after merging).
func (g *Graph) Arcs() int { return len(g.Targets) }

// Binary returns a copy of g with every arc weight set to 1: each linked
// pair counts once, whatever its weight.
func (g *Graph) Binary() *Graph {
	b := &Graph{N: g.N, Offsets: g.Offsets, Targets: g.Targets, Weights: make([]float64, len(g.Weights)), OutW: make([]float64, g.N)}
	for u := 0; u < g.N; u++ {
		for k := g.Offsets[u]; k < g.Offsets[u+1]; k++ {
			b.Weights[k] = 1
		}
		b.OutW[u] = float64(g.Offsets[u+1] - g.Offsets[u])
	}
	return b
}
