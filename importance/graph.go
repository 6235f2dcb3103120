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
	return compact(n, count, targets, weights), nil
}

// FromEdgeList builds a graph of n nodes from arcs given as parallel slices,
// as sites/edgelist reads them: arc k goes from from[k] to to[k] with weight
// weight[k] (1 for every arc when weight is nil). It is [NewGraph] without
// the []WeightedEdge a caller would first have to build, which matters for
// millions of arcs.
func FromEdgeList(n int, from, to []int32, weight []float64) (*Graph, error) {
	if n < 0 || n > math.MaxInt32 {
		return nil, fmt.Errorf("importance: %d nodes out of range", n)
	}
	if len(to) != len(from) || (weight != nil && len(weight) != len(from)) {
		return nil, fmt.Errorf("importance: edge list of %d sources, %d targets and %d weights", len(from), len(to), len(weight))
	}
	count := make([]int, n+1)
	for k, f := range from {
		t := to[k]
		if f < 0 || int(f) >= n || t < 0 || int(t) >= n {
			return nil, fmt.Errorf("importance: edge %d (%d→%d) outside [0, %d)", k, f, t, n)
		}
		if weight != nil {
			if w := weight[k]; !(w > 0) || math.IsInf(w, 0) {
				return nil, fmt.Errorf("importance: edge %d (%d→%d) weight %v not positive and finite", k, f, t, w)
			}
		}
		if f != t {
			count[f+1]++
		}
	}
	for u := 0; u < n; u++ {
		count[u+1] += count[u]
	}
	targets := make([]int32, count[n])
	weights := make([]float64, count[n])
	fill := append([]int(nil), count[:n]...)
	for k, f := range from {
		t := to[k]
		if f == t {
			continue
		}
		i := fill[f]
		targets[i] = t
		if weight != nil {
			weights[i] = weight[k]
		} else {
			weights[i] = 1
		}
		fill[f]++
	}
	return compact(n, count, targets, weights), nil
}

// compact turns arcs grouped by source (row u is [count[u], count[u+1]))
// into a Graph: each row sorted by target, parallel arcs merged by adding
// their weights, in place.
func compact(n int, count []int, targets []int32, weights []float64) *Graph {
	g := &Graph{N: n, Offsets: make([]int, n+1), OutW: make([]float64, n)}
	w := 0
	for u := 0; u < n; u++ {
		lo, hi := count[u], count[u+1]
		sortRow(targets[lo:hi], weights[lo:hi])
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
	return g
}

// sortRow sorts a row's arcs by target. Most rows of a web graph are short
// and often sorted already, where an insertion sort beats sort.Sort's
// interface calls; long rows go to sort.Sort.
func sortRow(t []int32, w []float64) {
	if len(t) > 24 {
		sort.Sort(arcRow{t, w})
		return
	}
	for i := 1; i < len(t); i++ {
		ti, wi := t[i], w[i]
		j := i
		for ; j > 0 && t[j-1] > ti; j-- {
			t[j], w[j] = t[j-1], w[j-1]
		}
		t[j], w[j] = ti, wi
	}
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
