package importance

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// policy is a named window constructor, so that each run gets a fresh one.
type policy struct {
	name string
	make func() Window
}

func must[W any](w W, err error) W {
	if err != nil {
		panic(err)
	}
	return w
}

// policies returns the four window policies of the paper with window T (on
// a clock of one unit per read) or k measures, and the window-less baseline.
func policies(T float64, k, m int) []policy {
	return []policy{
		{"fixed", func() Window { return must(NewFixedWindow(T)) }},
		{"improved", func() Window { return must(NewImprovedFixedWindow(T, m)) }},
		{"variable", func() Window { return must(NewVariableWindow(k)) }},
		{"interpolation", func() Window { return must(NewInterpolation(T)) }},
		{"full history", func() Window { return NewFullHistory() }},
	}
}

// lockstep runs one AdaptiveOPIC per policy on the same graph. Greedy is
// deterministic and the window does not touch the cash, so every run reads
// the same nodes at the same times.
type lockstep struct {
	t     *testing.T
	names []string
	runs  []*AdaptiveOPIC
	clock float64
}

func newLockstep(t *testing.T, g *Graph, ps []policy) *lockstep {
	l := &lockstep{t: t}
	for _, p := range ps {
		a, err := LoadAdaptive(g, DefaultTeleport, p.make())
		if err != nil {
			t.Fatal(err)
		}
		l.names = append(l.names, p.name)
		l.runs = append(l.runs, a)
	}
	return l
}

// steps makes k greedy reads, one per unit of time.
func (l *lockstep) steps(k int) {
	for range k {
		l.clock++
		var first int
		for r, a := range l.runs {
			i, err := a.Step(l.clock)
			if err != nil {
				l.t.Fatal(err)
			}
			if r == 0 {
				first = i
			} else if i != first {
				l.t.Fatalf("runs diverged at time %v: read %d and %d", l.clock, first, i)
			}
		}
	}
}

// errors returns each run's mean relative error (percent) against the
// PageRank of the current graph.
func (l *lockstep) errors() []float64 {
	g, ids := l.runs[0].Graph()
	pr, err := PageRank(g, DefaultPageRankOptions())
	if err != nil {
		l.t.Fatal(err)
	}
	out := make([]float64, len(l.runs))
	for r, a := range l.runs {
		est := a.Estimate()
		e := make([]float64, len(ids))
		for k, id := range ids {
			e[k] = est[id]
		}
		out[r] = MeanRelativeError(e, pr.Rank)
	}
	return out
}

func (l *lockstep) log(label string, errs []float64) {
	var b strings.Builder
	for r, name := range l.names {
		fmt.Fprintf(&b, "  %s %.2f%% (%.1f kept)", name, errs[r], l.runs[r].Window().MeasuresKept())
	}
	l.t.Logf("%-14s%s", label, b.String())
}

// TestAdaptiveStaticApproachesPageRank: on a graph that does not change,
// every policy's estimate tends to PageRank.
func TestAdaptiveStaticApproachesPageRank(t *testing.T) {
	const n = 1000
	l := newLockstep(t, Synthetic(n, 8, 1), policies(10*n, 8, 3))
	l.steps(50 * n)
	errs := l.errors()
	l.log("after 50n:", errs)
	for r, e := range errs {
		if e > 2.5 {
			t.Errorf("%s: mean relative error %.2f%% after %d reads, want < 2.5%%", l.names[r], e, 50*n)
		}
	}
}

// moveInLinks redirects every arc into node from to node to.
func moveInLinks(t *testing.T, a *AdaptiveOPIC, from, to int) {
	for u := range a.Len() {
		if !a.Live(u) {
			continue
		}
		for _, arc := range a.Out(u) {
			if arc.To == from {
				if err := a.RemoveArc(u, from); err != nil {
					t.Fatal(err)
				}
				if err := a.SetArc(u, to, arc.Weight); err != nil {
					t.Fatal(err)
				}
				break
			}
		}
	}
}

// TestAdaptiveFollowsChange moves the in-links of the 5% most important
// nodes to 5% of the least important, once the estimates have settled: the
// windows follow the new PageRank within a few windows, plain OPIC's
// history holds it back.
func TestAdaptiveFollowsChange(t *testing.T) {
	const n = 1000
	const T = 10 * n
	g := Synthetic(n, 8, 1)
	l := newLockstep(t, g, policies(T, 8, 3))
	l.steps(3 * T)
	before := l.errors()
	l.log("before change:", before)

	pr, _ := PageRank(g, DefaultPageRankOptions())
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int { return -cmpFloat(pr.Rank[x], pr.Rank[y]) })
	for p := range n / 20 {
		for _, a := range l.runs {
			moveInLinks(t, a, order[p], order[n-1-p])
		}
	}
	newG, _ := l.runs[0].Graph()
	newPR, _ := PageRank(newG, DefaultPageRankOptions())
	t.Logf("the change moves PageRank by %.1f%% (mean relative)", MeanRelativeError(pr.Rank, newPR.Rank))

	full := len(l.runs) - 1
	var last []float64
	for _, at := range []int{T / 2, T, 2 * T, 3 * T} {
		l.steps(at - (int(l.clock) - 3*T))
		last = l.errors()
		l.log(fmt.Sprintf("+%dn:", at/n), last)
		// From half a window on, every window is closer to the new
		// PageRank than the full history.
		for r := range full {
			if !(last[r] < last[full]) {
				t.Errorf("+%d reads: %s error %.2f%% not below full history's %.2f%%", at, l.names[r], last[r], last[full])
			}
		}
	}
	// Three windows on, the windows have caught up and the history has not.
	for r := range full {
		if last[r] > 10 || last[r] > last[full]/10 {
			t.Errorf("+3T: %s error %.2f%%, want < 10%% and < a tenth of full history's %.2f%%", l.names[r], last[r], last[full])
		}
	}
	if last[full] < 50 {
		t.Errorf("+3T: full history error %.2f%%; expected it to lag far behind", last[full])
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestImprovedFixedWindowShortWindow: with a window short enough that the
// less important nodes are read only once or twice in it, keeping at least
// three measures gives a better estimate (the paper's Improved Fixed Window).
func TestImprovedFixedWindowShortWindow(t *testing.T) {
	const n = 1000
	l := newLockstep(t, Synthetic(n, 8, 1), policies(2*n, 3, 3)[:2])
	l.steps(30 * n)
	errs := l.errors()
	l.log("T = 2n:", errs)
	fixed, improved := l.runs[0].Window(), l.runs[1].Window()
	if !(improved.MeasuresKept() > fixed.MeasuresKept()) || !(errs[1] < errs[0]) {
		t.Errorf("improved keeps %.2f measures for %.2f%% error, fixed %.2f for %.2f%%: want more measures and a smaller error",
			improved.MeasuresKept(), errs[1], fixed.MeasuresKept(), errs[0])
	}
	// A node holds fewer than M measures only if it was read fewer than M
	// times in all.
	fw := improved.(*FixedWindow)
	for i := range n {
		if kept := len(fw.log.m[i]); int64(kept) < min(3, l.runs[1].Reads(i)) {
			t.Errorf("node %d read %d times keeps %d measures, want at least 3", i, l.runs[1].Reads(i), kept)
		}
	}
}

func TestWindowMemory(t *testing.T) {
	const n, k = 500, 4
	const T = 6 * n
	l := newLockstep(t, Synthetic(n, 8, 2), policies(T, k, 3))
	l.steps(20 * n)
	l.errors() // expires the fixed windows' old measures
	vw := l.runs[2].Window().(*VariableWindow)
	for i := range n {
		if vw.Kept(i) > k {
			t.Fatalf("variable window: node %d keeps %d measures, want ≤ %d", i, vw.Kept(i), k)
		}
	}
	kept := func(r int) float64 { return l.runs[r].Window().MeasuresKept() }
	if kept(2) > k || kept(2) < k-0.5 {
		t.Errorf("variable window keeps %.2f measures a node, want ≤ %d and close to it", kept(2), k)
	}
	// One read per unit of time: the window [now − T, now] holds T+1 reads.
	if want := float64(T+1) / n; math.Abs(kept(0)-want) > 1e-9 {
		t.Errorf("fixed window keeps %.4f measures a node, want %.4f", kept(0), want)
	}
	if kept(1) < kept(0) {
		t.Errorf("improved fixed window keeps %.2f < fixed's %.2f", kept(1), kept(0))
	}
	if kept(3) != 1 || kept(4) != 1 {
		t.Errorf("interpolation keeps %v, full history %v, want 1", kept(3), kept(4))
	}
	t.Logf("measures per node: fixed %.2f, improved %.2f, variable %.2f, interpolation %.0f", kept(0), kept(1), kept(2), kept(3))
}

// TestWindowsHandComputed feeds the windows measures directly.
func TestWindowsHandComputed(t *testing.T) {
	// Two nodes created at time 0, G = 0. Node 0 is read three times:
	// (cash, G after, time) = (0.5, 1, 2), (0.3, 2, 8), (0.2, 3, 15); node
	// 1 never. At time 15, G = 4, the current cash is 0.1 and 0.3.
	feed := func(w Window) []float64 {
		w.Add(0, 0, 0)
		w.Add(1, 0, 0)
		for _, m := range []measure{{0.5, 1, 2}, {0.3, 2, 8}, {0.2, 3, 15}} {
			w.Record(0, m.cash, m.g, m.t)
		}
		return w.Estimate(15, 4, []float64{0.1, 0.3})
	}
	// Node 1 received 0.3 over G 0..4: 0.075 per unit of G.
	const r1 = 0.3 / 4
	for _, tc := range []struct {
		name string
		w    Window
		r0   float64 // node 0's ΔH/ΔG
		kept float64
	}{
		// T = 10: the read at time 2 left the window; node 0's window
		// starts at its G (1): (0.3 + 0.2 + 0.1)/(4 − 1).
		{"fixed", must(NewFixedWindow(10)), 0.6 / 3, 1},
		// Keeping 3 measures: nothing leaves; (1.0 + 0.1)/(4 − 0).
		{"improved", must(NewImprovedFixedWindow(10, 3)), 1.1 / 4, 1.5},
		// The last 2 reads: as fixed.
		{"variable", must(NewVariableWindow(2)), 0.6 / 3, 1},
		{"full history", NewFullHistory(), 1.1 / 4, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			est := feed(tc.w)
			want0 := tc.r0 / (tc.r0 + r1)
			if math.Abs(est[0]-want0) > 1e-15 || math.Abs(est[1]-(1-want0)) > 1e-15 {
				t.Errorf("estimate %v, want [%v %v]", est, want0, 1-want0)
			}
			if got := tc.w.MeasuresKept(); got != tc.kept {
				t.Errorf("measures kept %v, want %v", got, tc.kept)
			}
		})
	}
	t.Run("interpolation", func(t *testing.T) {
		// T = 10. Node 0: read at 2 with 0.5 → H = 0·8/10 + 0.5 = 0.5; at 8
		// with 0.3 → H = 0.5·4/10 + 0.3 = 0.5; at 15 with 0.2 → H =
		// 0.5·3/10 + 0.2 = 0.35. Estimate at 15: node 0 slides by 0 and
		// adds its cash: 0.45. Node 1, created at 0, unread, gap 15 ≥ T:
		// 0.3·10/15 = 0.2. Normalised: 0.45/0.65 and 0.2/0.65.
		w := must(NewInterpolation(10))
		est := feed(w)
		if math.Abs(est[0]-0.45/0.65) > 1e-15 || math.Abs(est[1]-0.2/0.65) > 1e-15 {
			t.Errorf("estimate %v, want [%v %v]", est, 0.45/0.65, 0.2/0.65)
		}
		// A gap of exactly T: both branches of the formula give c.
		w2 := must(NewInterpolation(10))
		if a, b := w2.slide(7, 10-1e-12, 2), w2.slide(7, 10, 2); math.Abs(a-b) > 1e-11 {
			t.Errorf("slide is discontinuous at T: %v vs %v", a, b)
		}
	})
	t.Run("before any read", func(t *testing.T) {
		for _, p := range policies(10, 2, 1) {
			w := p.make()
			w.Add(0, 0, 0)
			w.Add(1, 0, 0)
			w.Add(2, 0, 0)
			w.Remove(2)
			est := w.Estimate(0, 0, []float64{0.25, 0.75, 0})
			if est[0] != 0.25 || est[1] != 0.75 || est[2] != 0 {
				t.Errorf("%s: estimate %v before any read, want the cash [0.25 0.75 0]", p.name, est)
			}
		}
	})
}

func TestAdaptiveHandComputed(t *testing.T) {
	// As TestOPICHandComputed: two nodes, 0 → 1, teleport 0.2, 1/2 each.
	w := NewFullHistory()
	a, err := NewAdaptiveOPIC(0.2, w)
	if err != nil {
		t.Fatal(err)
	}
	a.AddNode()
	a.AddNode()
	a.Seed()
	if err := a.SetArc(0, 1, 1); err != nil {
		t.Fatal(err)
	}
	near := func(x, want float64) bool { return math.Abs(x-want) < 1e-15 }
	if c, _ := a.Read(0, 1); !near(c, 0.5) || !near(a.Cash(0), 0.05) || !near(a.Cash(1), 0.95) {
		t.Fatalf("after reading 0: read %v, cash %v %v; want 0.5, 0.05 0.95", c, a.Cash(0), a.Cash(1))
	}
	if i, _ := a.Step(2); i != 1 || !near(a.Cash(0), 0.525) || !near(a.Cash(1), 0.475) || !near(a.G(), 1.45) {
		t.Fatalf("greedy read %d; cash %v %v, G %v; want node 1, 0.525 0.475, 1.45", i, a.Cash(0), a.Cash(1), a.G())
	}
	// A third node; removing node 0 gives its 0.525 to the virtual page,
	// which hands it to nodes 1 and 2: 0.475 + 0.2625 and 0.2625.
	a.AddNode()
	if err := a.RemoveNode(0); err != nil {
		t.Fatal(err)
	}
	if !near(a.Cash(1), 0.7375) || !near(a.Cash(2), 0.2625) || a.Cash(0) != 0 || !near(a.TotalCash(), 1) {
		t.Fatalf("after removing 0: cash %v %v %v, total %v", a.Cash(0), a.Cash(1), a.Cash(2), a.TotalCash())
	}
	est := a.Estimate()
	if est[0] != 0 || !near(est[1]+est[2], 1) {
		t.Errorf("estimate %v after removing node 0", est)
	}
	g, ids := a.Graph()
	if g.N != 2 || g.Arcs() != 0 || !slices.Equal(ids, []int{1, 2}) {
		t.Errorf("graph of %d nodes and %d arcs, ids %v; want 2, 0, [1 2]", g.N, g.Arcs(), ids)
	}
}

// TestAdaptiveMatchesOPIC: on a static graph AdaptiveOPIC with no window is
// OPIC: the same greedy reads, the same cash and the same estimate.
func TestAdaptiveMatchesOPIC(t *testing.T) {
	g := randomGraph(t, 300, 3, 8)
	o, _ := LoadGraph(g, DefaultTeleport)
	sel, _ := NewSelector(o, Greedy, 0)
	a, err := LoadAdaptive(g, DefaultTeleport, NewFullHistory())
	if err != nil {
		t.Fatal(err)
	}
	for step := 1; step <= 20000; step++ {
		want := sel.Step()
		got, err := a.Step(float64(step))
		if err != nil || got != want {
			t.Fatalf("step %d: adaptive read %d (%v), OPIC read %d", step, got, err, want)
		}
	}
	est, ref := a.Estimate(), o.Estimate()
	for i := range ref {
		if math.Abs(est[i]-ref[i]) > 1e-12 || math.Abs(a.Cash(i)-o.Cash(i)) > 1e-12 {
			t.Fatalf("node %d: estimate %v cash %v, OPIC %v %v", i, est[i], a.Cash(i), ref[i], o.Cash(i))
		}
	}
	if math.Abs(a.G()-o.G()) > 1e-9 {
		t.Errorf("G %v, OPIC %v", a.G(), o.G())
	}
}

// TestAdaptiveTotalCashThroughChanges adds and removes nodes and arcs at
// random between greedy reads: the total cash stays 1, no cash goes
// negative, and every policy's estimate is a distribution over live nodes.
func TestAdaptiveTotalCashThroughChanges(t *testing.T) {
	for _, p := range policies(200, 4, 2) {
		t.Run(p.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(5, 5))
			a, err := LoadAdaptive(randomGraph(t, 60, 3, 6), DefaultTeleport, p.make())
			if err != nil {
				t.Fatal(err)
			}
			pick := func() int { // a random live node
				for {
					if i := rng.IntN(a.Len()); a.Live(i) {
						return i
					}
				}
			}
			for step := 1; step <= 4000; step++ {
				switch r := rng.IntN(20); {
				case r == 0 && a.LiveCount() < 120:
					j := a.AddNode()
					_ = a.SetArc(pick(), j, 1)
				case r == 1 && a.LiveCount() > 20:
					if err := a.RemoveNode(pick()); err != nil {
						t.Fatal(err)
					}
				case r < 5:
					if err := a.SetArc(pick(), pick(), float64(1+rng.IntN(3))); err != nil {
						t.Fatal(err)
					}
				case r < 8:
					u := pick()
					if out := a.Out(u); len(out) > 0 {
						if err := a.RemoveArc(u, out[rng.IntN(len(out))].To); err != nil {
							t.Fatal(err)
						}
					}
				}
				if _, err := a.Step(float64(step)); err != nil {
					t.Fatal(err)
				}
				if tc := a.TotalCash(); math.Abs(tc-1) > 1e-12 {
					t.Fatalf("step %d: total cash %.17g", step, tc)
				}
				if step%100 == 0 {
					var sum float64
					for i, e := range a.Estimate() {
						if math.IsNaN(e) || e < 0 || (!a.Live(i) && e != 0) || a.Cash(i) < -1e-15 {
							t.Fatalf("step %d node %d (live %v): estimate %v cash %v", step, i, a.Live(i), e, a.Cash(i))
						}
						sum += e
					}
					if math.Abs(sum-1) > 1e-12 {
						t.Fatalf("step %d: estimate sums to %v", step, sum)
					}
				}
			}
		})
	}
}

func TestAdaptiveErrors(t *testing.T) {
	w := NewFullHistory()
	if _, err := NewAdaptiveOPIC(1, w); err == nil {
		t.Error("teleport 1 accepted")
	}
	if _, err := NewAdaptiveOPIC(0.15, nil); err == nil {
		t.Error("nil window accepted")
	}
	a, _ := NewAdaptiveOPIC(0.15, w)
	if _, err := a.Step(1); !errors.Is(err, ErrNodeNotLive) {
		t.Errorf("step with no node: %v", err)
	}
	a.AddNode()
	a.AddNode()
	a.Seed()
	if _, err := a.Read(0, 5); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Read(1, 4); err == nil {
		t.Error("read back in time accepted")
	}
	_ = a.RemoveNode(1)
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"read removed", second(a.Read(1, 6))},
		{"read unknown", second(a.Read(7, 6))},
		{"remove twice", a.RemoveNode(1)},
		{"arc to removed", a.SetArc(0, 1, 1)},
		{"arc from removed", a.RemoveArc(1, 0)},
		{"arc weight 0", a.SetArc(0, a.AddNode(), 0)},
		{"arc weight NaN", a.SetArc(0, 0, math.NaN())},
		{"fixed window 0", second(NewFixedWindow(0))},
		{"fixed window Inf", second(NewFixedWindow(math.Inf(1)))},
		{"improved min 0", second(NewImprovedFixedWindow(10, 0))},
		{"variable 0", second(NewVariableWindow(0))},
		{"interpolation NaN", second(NewInterpolation(math.NaN()))},
	} {
		if tc.err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	if !errors.Is(a.RemoveNode(1), ErrNodeNotLive) {
		t.Error("removing a removed node is not ErrNodeNotLive")
	}
}

func second[T any](_ T, err error) error { return err }

// TestInterpolationNewPage: a node created within the window gets the
// default history for the part of the window before it existed, so a young
// node receiving cash at the same rate as an old one is estimated alike.
func TestInterpolationNewPage(t *testing.T) {
	// T = 10. Node 0, created at 0, read at 10 with 10: gap T, H = 10.
	// Node 1, created at 8, read at 10 with 2: H = 2, the same rate of 1.
	// At 10 the young nodes are node 1 (age 2, received 2) and node 2
	// (created at 9, unread, cash 0.5: rate 0.5): D = 10·(1 + 0.5)/2 =
	// 7.5. Node 1: 2 + 7.5·8/10 = 8; node 2: 0.5 + 7.5·9/10 = 7.25;
	// node 0: 10.
	w := must(NewInterpolation(10))
	w.Add(0, 0, 0)
	w.Add(1, 0, 8)
	w.Add(2, 0, 9)
	w.Record(0, 10, 10, 10)
	w.Record(1, 2, 12, 10)
	if d := w.DefaultHistory(10, []float64{0, 0, 0.5}); math.Abs(d-7.5) > 1e-12 {
		t.Errorf("default history %v, want 7.5", d)
	}
	est := w.Estimate(10, 12.5, []float64{0, 0, 0.5})
	sum := 10 + 8 + 7.25
	for i, want := range []float64{10 / sum, 8 / sum, 7.25 / sum} {
		if math.Abs(est[i]-want) > 1e-12 {
			t.Errorf("estimate %v, want node %d at %v", est, i, want)
		}
	}
	// Past T the default has slid out: at 20 node 1 (age 12) holds its
	// own cash only, as every node does when none is young.
	if d := w.DefaultHistory(20, []float64{0, 0, 0}); d != 0 {
		t.Errorf("default history at 20 = %v, want 0 (no node younger than T)", d)
	}
}

func TestWindowedImportance(t *testing.T) {
	// Three crawls, a day apart; site 2 appears in the third. Under full
	// history the importance is each site's share of all the cash read.
	readings := []CrawlReading{
		{Time: 0, Cash: []float64{0.6, 0.4}},
		{Time: 1, Cash: []float64{0.5, 0.5}},
		{Time: 2, Cash: []float64{0.2, 0.3, 0.5}},
	}
	full, err := WindowedImportance(NewFullHistory(), readings, 2)
	if err != nil {
		t.Fatal(err)
	}
	// Full history divides each site's cash by G since its creation: 1.3/3,
	// 1.2/3, and 0.5 over the 1 of the crawl that created site 2.
	raw := []float64{1.3 / 3, 1.2 / 3, 0.5 / 1}
	var s float64
	for _, v := range raw {
		s += v
	}
	for i := range raw {
		if math.Abs(full[i]-raw[i]/s) > 1e-12 {
			t.Errorf("full history %v, want %v normalised", full, raw)
		}
	}
	for _, p := range []string{PolicyFixed, PolicyImproved, PolicyVariable, PolicyInterpolation, PolicyFullHistory} {
		w, err := NewWindow(p, 2, 2, 1)
		if err != nil {
			t.Fatal(err)
		}
		est, err := WindowedImportance(w, readings, 3)
		if err != nil {
			t.Fatal(err)
		}
		var sum float64
		for _, v := range est {
			sum += v
		}
		if len(est) != 3 || math.Abs(sum-1) > 1e-12 || est[2] <= 0 {
			t.Errorf("%s: %v, want 3 sites summing to 1, site 2 above 0", p, est)
		}
	}
	if est, err := WindowedImportance(NewFullHistory(), nil, 0); err != nil || len(est) != 0 {
		t.Errorf("no readings: %v, %v", est, err)
	}
	for _, tc := range []struct {
		name     string
		readings []CrawlReading
		now      float64
		want     string
	}{
		{"back in time", []CrawlReading{{Time: 2, Cash: []float64{1}}, {Time: 1, Cash: []float64{1}}}, 3, "reading 1 at time 1 is before reading 0"},
		{"negative cash", []CrawlReading{{Time: 0, Cash: []float64{1, -0.5}}}, 1, "reading 0: site 1 has cash -0.5"},
		{"NaN cash", []CrawlReading{{Time: 0, Cash: []float64{math.NaN()}}}, 1, "site 0 has cash NaN"},
		{"infinite time", []CrawlReading{{Time: math.Inf(1), Cash: []float64{1}}}, 1, "time +Inf is not finite"},
		{"now too early", []CrawlReading{{Time: 5, Cash: []float64{1}}}, 4, "estimate at 4, before the last reading at 5"},
	} {
		if _, err := WindowedImportance(NewFullHistory(), tc.readings, tc.now); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	if _, err := NewWindow("sliding", 1, 1, 1); err == nil {
		t.Error("unknown policy accepted")
	}
}
