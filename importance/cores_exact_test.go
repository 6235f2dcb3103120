package importance

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"testing"
)

// pushHITS is HITS as first written, the paper's iteration read literally:
// a scattered from each hub along its out-arcs, both vectors normalised
// by a pass of their own, the residual taken at every iteration. HITS
// must give the same vectors to the last bit.
func pushHITS(g *Graph, opt HITSOptions) HITSResult {
	n := g.N
	res := HITSResult{Hub: make([]float64, n), Authority: make([]float64, n)}
	if n == 0 {
		return res
	}
	inv := 1 / float64(n)
	if g.Arcs() == 0 {
		for i := range n {
			res.Hub[i], res.Authority[i] = inv, inv
		}
		return res
	}
	h, a := res.Hub, res.Authority
	for i := range h {
		h[i] = inv
	}
	nextH, nextA := make([]float64, n), make([]float64, n)
	for it := 1; it <= opt.MaxIter; it++ {
		clear(nextA)
		for u := range n {
			if h[u] == 0 {
				continue
			}
			for k := g.Offsets[u]; k < g.Offsets[u+1]; k++ {
				if opt.Weighted {
					nextA[g.Targets[k]] += g.Weights[k] * h[u]
				} else {
					nextA[g.Targets[k]] += h[u]
				}
			}
		}
		for u := range n {
			var s float64
			for k := g.Offsets[u]; k < g.Offsets[u+1]; k++ {
				if opt.Weighted {
					s += g.Weights[k] * nextA[g.Targets[k]]
				} else {
					s += nextA[g.Targets[k]]
				}
			}
			nextH[u] = s
		}
		normalize1(nextA)
		normalize1(nextH)
		var diff float64
		for i := range n {
			diff += math.Abs(nextH[i]-h[i]) + math.Abs(nextA[i]-a[i])
		}
		h, nextH = nextH, h
		a, nextA = nextA, a
		res.Iterations, res.Residual = it, diff
		if opt.Tolerance > 0 && diff < opt.Tolerance {
			break
		}
	}
	res.Hub, res.Authority = h, a
	return res
}

// rebuiltExtractSeeds is ExtractSeeds as first written: each round copies
// the graph without the removed nodes, reverses it, and runs pushHITS on
// it. ExtractSeeds must give the same cores, hub scores to the last bit.
func rebuiltExtractSeeds(g *Graph, count int, opt CoreOptions) []Core {
	if opt.NewMembers <= 0 {
		opt.NewMembers = 1
	}
	removed := make([]bool, g.N)
	var cores []Core
	for len(cores) < count {
		var sub, in Graph
		subgraphInto(&sub, g, removed, true)
		if sub.Arcs() == 0 {
			break
		}
		r := pushHITS(&sub, opt.HITS)
		reverseInto(&in, &sub, true)
		c, err := extractCore(&sub, &in, r.Hub, r.Authority, opt)
		if err != nil {
			break
		}
		c.Iteration = len(cores)
		cores = append(cores, c)
		for _, v := range append(c.Hubs, c.Authorities...) {
			removed[v] = true
		}
	}
	return cores
}

// exactGraphs are the graphs of the exactness tests: polblogs, plain and
// with its link counts as weights, power-law graphs of the paper's model,
// and the hand-made communities.
func exactGraphs(t *testing.T) map[string]*Graph {
	gs := map[string]*Graph{"two communities": twoCommunities(t)}
	for seed := range uint64(3) {
		gs[fmt.Sprintf("synthetic 4000 seed %d", seed+1)] = Synthetic(4000, 8, seed+1)
	}
	gs["synthetic 300 sparse"] = Synthetic(300, 1.5, 7)
	gs["polblogs"], _ = loadPolblogs(t)
	gs["polblogs counts"], _ = loadPolblogsCounts(t)
	return gs
}

func TestHITSSameAsScattered(t *testing.T) {
	for name, g := range exactGraphs(t) {
		var in, win Graph
		reverseInto(&in, g, false)
		reverseInto(&win, g, true)
		for _, opt := range []HITSOptions{
			{MaxIter: 60}, {MaxIter: 60, Weighted: true}, {MaxIter: 7},
			{MaxIter: 500, Tolerance: 1e-12}, {MaxIter: 500, Tolerance: 1e-9, Weighted: true},
		} {
			want := pushHITS(g, opt)
			rev := &in
			if opt.Weighted {
				rev = &win
			}
			// However many goroutines share the rows, the sums are the same.
			for _, workers := range []int{1, 2, 3, 7} {
				t.Run(fmt.Sprintf("%s %+v %d workers", name, opt, workers), func(t *testing.T) {
					got, err := hits(g, rev, opt, &hitsVectors{}, workers)
					if err != nil && !errors.Is(err, ErrHITSNotConverged) {
						t.Fatal(err)
					}
					if got.Iterations != want.Iterations || got.Residual != want.Residual {
						t.Errorf("%d iterations, residual %v; scattered %d, %v", got.Iterations, got.Residual, want.Iterations, want.Residual)
					}
					for v := range g.N {
						if got.Hub[v] != want.Hub[v] || got.Authority[v] != want.Authority[v] {
							t.Fatalf("node %d: hub %v authority %v; scattered %v, %v", v, got.Hub[v], got.Authority[v], want.Hub[v], want.Authority[v])
						}
					}
				})
			}
		}
		got, err := HITS(g, HITSOptions{MaxIter: 60})
		if want := pushHITS(g, HITSOptions{MaxIter: 60}); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: HITS differs from the scattered iteration (%v)", name, err)
		}
	}
}

func TestExtractSeedsSameAsRebuilt(t *testing.T) {
	weighted := DefaultCoreOptions()
	weighted.HITS.Weighted = true
	dense := DefaultCoreOptions()
	dense.CoverDensity = 70
	sized := DefaultCoreOptions()
	sized.CoreSize, sized.NewMembers = 8, 2
	loose := DefaultCoreOptions()
	loose.MinHubs, loose.MinAuthorities = 1, 1
	for name, g := range exactGraphs(t) {
		for oname, opt := range map[string]CoreOptions{"default": DefaultCoreOptions(), "weighted": weighted,
			"density 70": dense, "size 8 by 2": sized, "no least core": loose} {
			t.Run(name+" "+oname, func(t *testing.T) {
				got, err := ExtractSeedsContext(context.Background(), g, 25, opt)
				if err != nil {
					t.Fatal(err)
				}
				want := rebuiltExtractSeeds(g, 25, opt)
				if len(got) == 0 && g.Arcs() > 0 && name != "synthetic 300 sparse" {
					t.Fatal("no core")
				}
				if !reflect.DeepEqual(got, want) {
					for i := range min(len(got), len(want)) {
						if !reflect.DeepEqual(got[i], want[i]) {
							t.Fatalf("core %d of %d: %+v\nrebuilt round by round (%d cores): %+v", i, len(got), got[i], len(want), want[i])
						}
					}
					t.Fatalf("%d cores, rebuilt round by round %d", len(got), len(want))
				}
			})
		}
	}
}
