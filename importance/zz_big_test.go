package importance

import (
	"slices"
	"testing"
)

var bigG, bigR *Graph

func relabel(g *Graph) *Graph {
	in := make([]int, g.N)
	for _, t := range g.Targets {
		in[t]++
	}
	order := make([]int32, g.N)
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int { return in[b] - in[a] })
	newID := make([]int32, g.N)
	for k, u := range order {
		newID[u] = int32(k)
	}
	r := &Graph{N: g.N, Offsets: make([]int, g.N+1), Targets: make([]int32, len(g.Targets)), Weights: make([]float64, len(g.Weights)), OutW: make([]float64, g.N)}
	k := 0
	for nu, u := range order {
		r.Offsets[nu] = k
		for e := g.Offsets[u]; e < g.Offsets[u+1]; e++ {
			r.Targets[k] = newID[g.Targets[e]]
			r.Weights[k] = g.Weights[e]
			k++
		}
		r.OutW[nu] = g.OutW[u]
	}
	r.Offsets[g.N] = k
	return r
}

func benchBig(b *testing.B, relab bool) {
	if bigG == nil {
		bigG = Synthetic(5000000, 10, 1)
		bigR = relabel(bigG)
	}
	g := bigG
	if relab {
		g = bigR
	}
	o, err := LoadGraph(g, DefaultTeleport)
	if err != nil {
		b.Fatal(err)
	}
	sel, err := NewSelector(o, Greedy, 1)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		sel.Step()
	}
}
func BenchmarkOPICStepBig(b *testing.B)     { benchBig(b, false) }
func BenchmarkOPICStepBigRelab(b *testing.B) { benchBig(b, true) }
