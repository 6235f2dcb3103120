package lab

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"sitesift/importance"
)

func paperPolicies(t *testing.T, T float64) []Policy {
	t.Helper()
	ps, err := PaperPolicies(T, 4, 3)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// byPolicy splits the points of a window run.
func byPolicy(pts []WindowPoint) map[string][]WindowPoint {
	m := map[string][]WindowPoint{}
	for _, p := range pts {
		m[p.Policy] = append(m[p.Policy], p)
	}
	return m
}

// TestWindowsStaticMatchesConvergence: with no change, the full-history
// policy is plain OPIC under Greedy, so it must measure what the
// convergence experiment measures on the same synthetic graph.
func TestWindowsStaticMatchesConvergence(t *testing.T) {
	const n = 1000
	pts, err := Windows(context.Background(), n, 8, 0, 6*n, n, paperPolicies(t, 2*n), importance.DefaultTeleport, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	conv, err := Convergence(context.Background(), importance.Synthetic(n, 8, 5), []importance.Strategy{importance.Greedy},
		6*n, n, importance.DefaultTeleport, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	full := byPolicy(pts)["full-history"]
	if len(full) != len(conv) {
		t.Fatalf("%d full-history points, %d convergence points", len(full), len(conv))
	}
	for k := range full {
		if full[k].Step != conv[k].Step || math.Abs(full[k].MeanRelErrPct-conv[k].MeanRelErrPct) > 1e-6*conv[k].MeanRelErrPct {
			t.Errorf("step %d: full history %.9f%%, OPIC greedy %.9f%% at step %d",
				full[k].Step, full[k].MeanRelErrPct, conv[k].MeanRelErrPct, conv[k].Step)
		}
		if full[k].Replaced != 0 || full[k].Rewired != 0 {
			t.Fatalf("change rate 0 changed the graph: %+v", full[k])
		}
	}
}

// TestWindowsFollowChange: on a graph that keeps changing, every window
// ends closer to the current PageRank than the full history, which keeps
// the importance of the graph as it was.
func TestWindowsFollowChange(t *testing.T) {
	const n, rate = 2000, 0.05
	for seed := uint64(1); seed <= 2; seed++ {
		pts, err := Windows(context.Background(), n, 8, rate, 20*n, 2*n, paperPolicies(t, 4*n), importance.DefaultTeleport, seed, nil)
		if err != nil {
			t.Fatal(err)
		}
		m := byPolicy(pts)
		end := func(p string) WindowPoint { return m[p][len(m[p])-1] }
		full := end("full-history")
		for _, p := range []string{"fixed", "improved", "variable", "interpolation", "full-history"} {
			e := end(p)
			t.Logf("seed %d %-13s after 20N: mean %.2f%%, top 1%% %.2f%%, %.2f measures a node", seed, p, e.MeanRelErrPct, e.Top1PctRelErrPct, e.MeasuresPerNode)
			if p != "full-history" && !(e.MeanRelErrPct < full.MeanRelErrPct) {
				t.Errorf("seed %d: %s error %.2f%% not below the full history's %.2f%%", seed, p, e.MeanRelErrPct, full.MeanRelErrPct)
			}
		}
		if k := end("variable").MeasuresPerNode; !(k > 1 && k <= 4) {
			t.Errorf("variable window keeps %.2f measures a node, want in (1, 4]", k)
		}
		if end("interpolation").MeasuresPerNode != 1 || full.MeasuresPerNode != 1 {
			t.Errorf("interpolation and full history keep %.2f and %.2f measures, want 1", end("interpolation").MeasuresPerNode, full.MeasuresPerNode)
		}
		// The pace of change: rate·N nodes and rate·A arcs every N reads.
		if want := int(rate * 20 * n); full.Replaced < want-1 || full.Replaced > want {
			t.Errorf("%d nodes replaced in 20N reads, want %d", full.Replaced, want)
		}
		if want := rate * 20 * 8 * n; math.Abs(float64(full.Rewired)-want) > 0.02*want {
			t.Errorf("%d arcs rewired in 20N reads, want about %.0f", full.Rewired, want)
		}
	}
}

func TestWindowsDeterministicAndCancel(t *testing.T) {
	run := func(ctx context.Context, p Progress) ([]WindowPoint, error) {
		const n = 500
		return Windows(ctx, n, 6, 0.1, 5*n, n, paperPolicies(t, 2*n), importance.DefaultTeleport, 3, p)
	}
	a, err := run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two runs with the same seed differ")
	}
	ctx, cancel := context.WithCancel(context.Background())
	_, err = run(ctx, func(done, total int) {
		if done >= 1000 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run returned %v", err)
	}
}

func TestWindowsBadInput(t *testing.T) {
	ok := func() []Policy { return paperPolicies(t, 100) }
	for _, tc := range []struct {
		name     string
		n        int
		avgOut   float64
		rate     float64
		policies []Policy
		want     string
	}{
		{"one node", 1, 8, 0.1, ok(), "nodes"},
		{"no arcs", 100, 0, 0.1, ok(), "out-degree"},
		{"negative rate", 100, 8, -0.1, ok(), "change rate"},
		{"rate above 1", 100, 8, 1.5, ok(), "change rate"},
		{"no policy", 100, 8, 0.1, nil, "no policy"},
		{"nil window", 100, 8, 0.1, []Policy{{Name: "x"}}, "no window"},
		{"twice", 100, 8, 0.1, []Policy{{"x", importance.NewFullHistory()}, {"x", importance.NewFullHistory()}}, "twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Windows(context.Background(), tc.n, tc.avgOut, tc.rate, 10, 5, tc.policies, 0.15, 1, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestChangingGraphBookkeeping makes many changes and checks the model's
// own records against the AdaptiveOPIC's graph, and the cash.
func TestChangingGraphBookkeeping(t *testing.T) {
	const n = 300
	g := importance.Synthetic(n, 5, 9)
	a, err := importance.LoadAdaptive(g, importance.DefaultTeleport, importance.NewFullHistory())
	if err != nil {
		t.Fatal(err)
	}
	c := newChangingGraph(a, g, 5, 0.5, rand.New(rand.NewPCG(1, 2)))
	for s := 1; s <= 20*n; s++ {
		if err := c.change(); err != nil {
			t.Fatal(err)
		}
		if _, err := a.Step(float64(s)); err != nil {
			t.Fatal(err)
		}
	}
	if c.replaced != 10*n {
		t.Fatalf("%d replaced, want %d", c.replaced, 10*n)
	}
	if tc := a.TotalCash(); math.Abs(tc-1) > 1e-9 {
		t.Errorf("total cash %v after the changes", tc)
	}
	cur, ids := a.Graph()
	if cur.N != n || a.LiveCount() != n || len(c.nodes) != n {
		t.Fatalf("%d nodes in the graph, %d live, %d recorded: want %d", cur.N, a.LiveCount(), len(c.nodes), n)
	}
	if cur.Arcs() != c.arcs {
		t.Errorf("graph has %d arcs, the model counts %d", cur.Arcs(), c.arcs)
	}
	// Arc count stays near its start: replacements repair broken links.
	if math.Abs(float64(c.arcs-g.Arcs())) > 0.1*float64(g.Arcs()) {
		t.Errorf("%d arcs after the changes, %d at the start", c.arcs, g.Arcs())
	}
	// Every arc the model records is in the graph, and the reverse.
	dense := map[int]int{}
	for k, id := range ids {
		dense[id] = k
	}
	have := map[[2]int]bool{}
	for u := range cur.N {
		for k := cur.Offsets[u]; k < cur.Offsets[u+1]; k++ {
			have[[2]int{u, int(cur.Targets[k])}] = true
		}
	}
	for s := range c.from {
		if c.from[s] < 0 {
			continue
		}
		u, okU := dense[int(c.from[s])]
		v, okV := dense[int(c.to[s])]
		if !okU || !okV || !have[[2]int{u, v}] {
			t.Fatalf("slot %d: arc %d→%d not in the graph", s, c.from[s], c.to[s])
		}
		delete(have, [2]int{u, v})
	}
	if len(have) != 0 {
		t.Errorf("%d arcs of the graph not recorded by the model", len(have))
	}
	// Popularity ranks are a permutation of the live nodes.
	seen := map[int32]bool{}
	for r, v := range c.byRank {
		if !a.Live(int(v)) || seen[v] || c.rankOf[v] != int32(r) {
			t.Fatalf("rank %d: node %d (live %v, seen %v, rankOf %d)", r, v, a.Live(int(v)), seen[v], c.rankOf[v])
		}
		seen[v] = true
	}
}

// TestChangingGraphKeepsPowerLaw: after the graph has been rewired many
// times over, in-degrees still follow popularity: the top 1% of nodes hold
// about as large a share of the arcs as at the start.
func TestChangingGraphKeepsPowerLaw(t *testing.T) {
	const n = 5000
	g := importance.Synthetic(n, 8, 2)
	a, err := importance.LoadAdaptive(g, importance.DefaultTeleport, importance.NewFullHistory())
	if err != nil {
		t.Fatal(err)
	}
	topShare := func() float64 {
		cur, _ := a.Graph()
		in := make([]float64, cur.N)
		for _, v := range cur.Targets {
			in[v]++
		}
		top := topIndices(in, cur.N/100)
		var s float64
		for _, i := range top {
			s += in[i]
		}
		return s / float64(cur.Arcs())
	}
	before := topShare()
	c := newChangingGraph(a, g, 8, 1, rand.New(rand.NewPCG(3, 4)))
	for range 3 * n { // each arc rewired about three times, 3N nodes replaced
		if err := c.change(); err != nil {
			t.Fatal(err)
		}
	}
	after := topShare()
	t.Logf("top 1%% of nodes hold %.1f%% of the arcs before, %.1f%% after", 100*before, 100*after)
	if math.Abs(after-before) > 0.25*before {
		t.Errorf("top-1%% share of in-arcs moved from %.3f to %.3f", before, after)
	}
}

// topIndices returns the indices of the k largest values.
func topIndices(v []float64, k int) []int {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	for i := 0; i < k; i++ { // partial selection sort: k is small
		best := i
		for j := i + 1; j < len(idx); j++ {
			if v[idx[j]] > v[idx[best]] {
				best = j
			}
		}
		idx[i], idx[best] = idx[best], idx[i]
	}
	return idx[:k]
}
