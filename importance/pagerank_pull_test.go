package importance

import "testing"

// pushPageRank is the power iteration of PageRank done by pushing rank
// along the out-arcs, as PageRank did before it pulled through the
// transposed arcs (the uniform share summed as PageRank sums it); it stops
// after exactly iters iterations.
func pushPageRank(g *Graph, d float64, leaky bool, p []float64, iters int) []float64 {
	n := g.N
	x, next := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i] = 1 / float64(n)
	}
	var sum float64
	for _, v := range p {
		sum += v
	}
	for range iters {
		var total compensated
		for u := range n {
			switch {
			case g.OutW[u] > 0 || leaky:
				total.add(d * x[u])
			default:
				total.add(x[u])
			}
		}
		spread := total.sum()
		for i := range next {
			if p == nil {
				next[i] = spread * (1 / float64(n))
			} else {
				next[i] = spread * (p[i] / sum)
			}
		}
		for u := range n {
			if w := g.OutW[u]; w > 0 {
				share := (1 - d) * x[u] / w
				for k := g.Offsets[u]; k < g.Offsets[u+1]; k++ {
					next[g.Targets[k]] += share * g.Weights[k]
				}
			}
		}
		x, next = next, x
	}
	return x
}

// TestPageRankPullEqualsPush: the pull-based product adds the same terms in
// the same order as pushing did, so the ranks are equal to the last bit, on
// weighted and unweighted graphs, leaky or not, personalised or not.
func TestPageRankPullEqualsPush(t *testing.T) {
	g := Synthetic(5000, 7, 3)
	var wes []WeightedEdge
	for u := 0; u < g.N; u++ {
		for k := g.Offsets[u]; k < g.Offsets[u+1]; k++ {
			wes = append(wes, WeightedEdge{u, int(g.Targets[k]), float64(1+(u+k)%5) / 3})
		}
	}
	w, err := NewGraph(g.N, wes)
	if err != nil {
		t.Fatal(err)
	}
	pers := make([]float64, g.N)
	for i := range pers {
		pers[i] = float64(i % 7)
	}
	for _, tc := range []struct {
		name  string
		g     *Graph
		leaky bool
		p     []float64
	}{
		{"unit", g, false, nil}, {"weighted", w, false, nil}, {"leaky", w, true, nil},
		{"personalised", w, false, pers}, {"unit personalised", g, false, pers},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opt := DefaultPageRankOptions()
			opt.Leaky, opt.Personalization, opt.MaxIter, opt.Tolerance = tc.leaky, tc.p, 30, 1e-300
			res, _ := PageRank(tc.g, opt)
			want := pushPageRank(tc.g, opt.Teleport, tc.leaky, tc.p, 30)
			for i := range want {
				if res.Rank[i] != want[i] {
					t.Fatalf("node %d: pull %v, push %v", i, res.Rank[i], want[i])
				}
			}
		})
	}
}
