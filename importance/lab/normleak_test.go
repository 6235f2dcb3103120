package lab

import (
	"math"
	"slices"
	"testing"

	"sitesift/importance"
)

// TestKimLeeWebProperties checks the rebuilt ten-page web against every
// property the paper states of it.
func TestKimLeeWebProperties(t *testing.T) {
	dangling := func(g *importance.Graph) []int {
		var d []int
		for u := range g.N {
			if g.OutW[u] == 0 {
				d = append(d, u+1)
			}
		}
		return d
	}
	for c, want := range map[int][]int{1: nil, 2: {10}, 3: {5, 8, 10}, 4: nil} {
		g, err := KimLeeWeb(c)
		if err != nil {
			t.Fatal(err)
		}
		if got := dangling(g); !slices.Equal(got, want) {
			t.Errorf("case %d: dangling pages %v, want %v", c, got, want)
		}
	}

	g1, _ := KimLeeWeb(1)
	if !stronglyConnected(g1) {
		t.Error("case 1 is not strongly connected (it has a RankSink)")
	}
	// Page 6 is linked by page 5 only, page 5's one out-link.
	if out5 := g1.Targets[g1.Offsets[4]:g1.Offsets[5]]; !slices.Equal(out5, []int32{5}) {
		t.Errorf("page 5 links to %v, want page 6 only", out5)
	}
	for u := range g1.N {
		if u != 4 && slices.Contains(g1.Targets[g1.Offsets[u]:g1.Offsets[u+1]], 5) {
			t.Errorf("page %d links to page 6", u+1)
		}
	}
	// Pages 5 and 6 highest, page 1 lowest, with small dampening factors.
	for _, d := range []float64{0.01, 0.15} {
		res, err := importance.PageRank(g1, importance.PageRankOptions{Teleport: d, Tolerance: 1e-13, MaxIter: 100000})
		if err != nil {
			t.Fatal(err)
		}
		order := make([]int, 10)
		for i := range order {
			order[i] = i + 1
		}
		slices.SortFunc(order, func(a, b int) int { return -cmpF(res.Rank[a-1], res.Rank[b-1]) })
		if !(order[0] == 5 && order[1] == 6 || order[0] == 6 && order[1] == 5) || order[9] != 1 {
			t.Errorf("d = %v: pages by PageRank %v, want 5 and 6 first and 1 last", d, order)
		}
	}

	// Case 4: group 1 (pages 1–3) only links inside itself, every page
	// has an out-link, and 9→3 is the one link from group 2 into group 1.
	g4, _ := KimLeeWeb(4)
	for u := range g4.N {
		row := g4.Targets[g4.Offsets[u]:g4.Offsets[u+1]]
		if len(row) == 0 {
			t.Errorf("case 4: page %d has no out-link", u+1)
		}
		for _, v := range row {
			from1, to1 := u < 3, v < 3
			if from1 && !to1 {
				t.Errorf("case 4: group 1 page %d links out of the group to %d", u+1, v+1)
			}
			if !from1 && to1 && !(u == 8 && v == 2) {
				t.Errorf("case 4: link %d→%d into group 1 besides 9→3", u+1, v+1)
			}
		}
	}
	if _, err := KimLeeWeb(5); err == nil {
		t.Error("case 5 accepted")
	}
}

func cmpF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// stronglyConnected reports whether every node reaches every other (a
// forward and a backward search from node 0).
func stronglyConnected(g *importance.Graph) bool {
	reach := func(forward bool) int {
		seen := make([]bool, g.N)
		stack := []int{0}
		seen[0] = true
		count := 1
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for w := range g.N {
				var linked bool
				if forward {
					linked = slices.Contains(g.Targets[g.Offsets[u]:g.Offsets[u+1]], int32(w))
				} else {
					linked = slices.Contains(g.Targets[g.Offsets[w]:g.Offsets[w+1]], int32(u))
				}
				if linked && !seen[w] {
					seen[w] = true
					count++
					stack = append(stack, w)
				}
			}
		}
		return count
	}
	return reach(true) == g.N && reach(false) == g.N
}

func TestNormLeak(t *testing.T) {
	for _, d := range []float64{0.15, 0.5} {
		const iters = 20
		pts, err := NormLeak(iters, d)
		if err != nil {
			t.Fatal(err)
		}
		if len(pts) != 3*2*(iters+1) {
			t.Fatalf("%d points, want %d", len(pts), 3*2*(iters+1))
		}
		norms := map[[2]int][]float64{} // (dangling, 0 for M′ / 1 for M*) → norms by iteration
		for _, p := range pts {
			m := 0
			if p.Matrix == MatrixFixed {
				m = 1
			}
			k := [2]int{p.Dangling, m}
			if p.Iteration != len(norms[k]) {
				t.Fatalf("point %+v out of order", p)
			}
			norms[k] = append(norms[k], p.Norm)
		}
		for _, dang := range []int{0, 1, 3} {
			for it, v := range norms[[2]int{dang, 1}] {
				if math.Abs(v-1) > 1e-12 {
					t.Errorf("d %v, %d dangling, M* iteration %d: norm %v, want 1", d, dang, it, v)
				}
			}
			leaky := norms[[2]int{dang, 0}]
			for it := 1; it <= iters; it++ {
				v := leaky[it]
				switch {
				case dang == 0 && math.Abs(v-1) > 1e-12:
					t.Errorf("d %v, no dangling page, M′ iteration %d: norm %v, want 1", d, it, v)
				case dang > 0 && !(v < leaky[it-1]):
					t.Errorf("d %v, %d dangling, M′ iteration %d: norm %v does not fall below %v", d, dang, it, v, leaky[it-1])
				}
			}
		}
		// More dangling pages leak more.
		one, three := norms[[2]int{1, 0}], norms[[2]int{3, 0}]
		if !(three[iters] < one[iters]) {
			t.Errorf("d %v: norm after %d iterations %v with 3 dangling pages, %v with 1", d, iters, three[iters], one[iters])
		}
		t.Logf("d %v: M′ norm after %d iterations: %.4f (1 dangling), %.4f (3 dangling)", d, iters, one[iters], three[iters])
	}
	for _, bad := range []struct {
		iters int
		d     float64
	}{{0, 0.15}, {20, 0}, {20, 1.5}, {20, math.NaN()}} {
		if _, err := NormLeak(bad.iters, bad.d); err == nil {
			t.Errorf("NormLeak(%d, %v) accepted", bad.iters, bad.d)
		}
	}
}
