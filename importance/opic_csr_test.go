package importance

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// An OPIC loaded from a graph reads its arcs in place; it must read exactly
// as one built arc by arc, and keep doing so once nodes and arcs are added.
func TestLoadGraphReadsInPlace(t *testing.T) {
	g := Synthetic(2000, 6, 3)
	loaded, err := LoadGraph(g, DefaultTeleport)
	if err != nil {
		t.Fatal(err)
	}
	built, _ := NewOPIC(DefaultTeleport)
	for range g.N {
		built.AddNode()
	}
	for u := range g.N {
		for k := g.Offsets[u]; k < g.Offsets[u+1]; k++ {
			built.AddWeight(u, int(g.Targets[k]), g.Weights[k])
		}
	}
	built.Seed()
	if loaded.csr == nil {
		t.Fatal("LoadGraph copied the arcs")
	}
	for u := range g.N {
		if !slices.Equal(loaded.Out(u), built.Out(u)) {
			t.Fatalf("Out(%d) = %v, want %v", u, loaded.Out(u), built.Out(u))
		}
	}
	step := func(o *OPIC, sel *Selector, n int) {
		for range n {
			sel.Step()
		}
	}
	sl, _ := NewSelector(loaded, Greedy, 1)
	sb, _ := NewSelector(built, Greedy, 1)
	step(loaded, sl, 5000)
	step(built, sb, 5000)
	if !slices.Equal(loaded.Estimate(), built.Estimate()) {
		t.Fatal("a loaded graph reads differently from one built arc by arc")
	}
	// Growing the graph copies the arcs out, the sums of out-weights with
	// them (the loaded OPIC reads g's in place); both go on alike.
	if &loaded.outW[0] != &g.OutW[0] {
		t.Error("LoadGraph copied the out-weights its graph holds")
	}
	outW := slices.Clone(g.OutW)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, o := range []*OPIC{loaded, built} {
		o.AddWeight(2, 3, 0.5) // first between nodes of g
		v := o.AddNode()
		o.AddWeight(0, v, 2)
		o.AddWeight(v, 1, 1)
	}
	if loaded.csr != nil {
		t.Fatal("AddNode left the arcs in the loaded graph")
	}
	if !slices.Equal(g.OutW, outW) {
		t.Fatal("adding arcs to the loaded OPIC changed its graph's out-weights")
	}
	for range 3000 {
		i := rng.IntN(loaded.Len())
		loaded.Read(i)
		built.Read(i)
	}
	if !slices.Equal(loaded.Estimate(), built.Estimate()) || loaded.TotalCash() != built.TotalCash() {
		t.Fatal("the graph grown after loading reads differently")
	}
}
