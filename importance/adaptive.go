package importance

import (
	"container/heap"
	"errors"
	"fmt"
	"math"
	"slices"
)

// Adaptive OPIC (OPIC paper, section 3.2) follows the importance of a graph
// that changes: instead of the whole history of a node, a window policy
// keeps only its recent measures, and the estimate is the node's share of
// the cash that flowed during that window.
//
// The clock. G, the sum of all the cash ever read, grows by the cash of
// every read; the paper's theorem makes ΔH/ΔG over any interval (ΔH the
// cash a node received, ΔG the cash read in total) tend to the node's
// importance, so "it is convenient to think of G as the clock". Windows
// are sized on an explicit clock (now) chosen by the caller: wall time as
// in Xyleme (a window of three months), or the number of reads (a constant
// crawl speed). Each measure keeps the value of G at its read, and every
// estimate is computed on the G clock.
//
// The estimate. A node i whose window starts at G = g₀ — the G value just
// after the read that precedes its oldest kept measure, or at the node's
// creation — is estimated at
//
//	(Σ cash of the kept measures + C[i]) / (G − g₀)
//
// with C[i] its current cash and G the current value. The numerator is
// exactly the cash i received since g₀ (a read resets the cash to 0, every
// read after g₀ is kept, and C[i] is what came in since the last), so this
// is the paper's ΔH/ΔG with, as in section 2, the current cash added
// for a "marginally better estimate". Ending the window at now rather than
// at the last read matters on a changing graph: a node that lost its
// in-links is read rarely (its cash grows slowly), and its estimate must
// fall even while it is not read. The estimates of all live nodes are then
// normalised to sum 1.

// Window is a window policy of Adaptive OPIC: what a node keeps of its
// history, and how its importance is estimated from it. [AdaptiveOPIC]
// calls Add, Remove and Record as the graph changes and nodes are read.
type Window interface {
	// Add starts the record of node i, created when G was g at time now.
	Add(i int, g, now float64)
	// Remove forgets node i; its estimate is 0 from then on.
	Remove(i int)
	// Record keeps the measure of a read of node i at time now: cash is
	// what the read moved to the history, g the value of G just after it.
	Record(i int, cash, g, now float64)
	// Estimate returns the importance of every node (indexed by id, 0 for
	// removed nodes) at time now, given the current G and every node's
	// current cash, normalised to sum 1 over the live nodes. Before any
	// cash has flowed it is the distribution of the cash.
	Estimate(now, g float64, cash []float64) []float64
	// MeasuresKept returns the average number of measures (a cash and a G
	// value) kept per live node: the memory the policy costs.
	MeasuresKept() float64
}

// measure is one read of a node: the cash read, G just after, and the time.
type measure struct {
	cash, g, t float64
}

// measureLog is the per-node history shared by the policies that keep
// measures: the kept measures, oldest first, and the start of each node's
// window on the G clock (g₀ above).
type measureLog struct {
	m     [][]measure
	start []float64
	live  []bool
	nLive int
}

func (l *measureLog) add(i int, g float64) {
	for len(l.m) <= i {
		l.m = append(l.m, nil)
		l.start = append(l.start, 0)
		l.live = append(l.live, false)
	}
	if !l.live[i] {
		l.nLive++
	}
	l.m[i], l.start[i], l.live[i] = nil, g, true
}

func (l *measureLog) remove(i int) {
	if i < len(l.live) && l.live[i] {
		l.m[i], l.live[i] = nil, false
		l.nLive--
	}
}

func (l *measureLog) known(i int) bool { return i >= 0 && i < len(l.live) && l.live[i] }

// dropOldest forgets node i's oldest measure; its window now starts where
// that read left the node: with no cash, at the measure's G.
func (l *measureLog) dropOldest(i int) {
	l.start[i] = l.m[i][0].g
	l.m[i][0] = measure{}
	l.m[i] = l.m[i][1:]
}

// estimate is the windowed ΔH/ΔG of every live node, normalised.
func (l *measureLog) estimate(g float64, cash []float64) []float64 {
	est := make([]float64, len(l.m))
	for i, ms := range l.m {
		if !l.live[i] {
			continue
		}
		if span := g - l.start[i]; span > 0 {
			var received float64
			for _, m := range ms {
				received += m.cash
			}
			if i < len(cash) {
				received += cash[i]
			}
			est[i] = received / span
		}
	}
	return normalizeOrCash(est, l.live, cash)
}

func (l *measureLog) kept() float64 {
	if l.nLive == 0 {
		return 0
	}
	var k int
	for i, ms := range l.m {
		if l.live[i] {
			k += len(ms)
		}
	}
	return float64(k) / float64(l.nLive)
}

// normalizeOrCash scales est to sum 1; when nothing has flowed yet (all 0)
// it falls back on the distribution of the live nodes' cash, as OPIC's own
// estimate does before the first read.
func normalizeOrCash(est []float64, live []bool, cash []float64) []float64 {
	var s float64
	for _, v := range est {
		s += v
	}
	if s == 0 {
		for i := range est {
			if live[i] && i < len(cash) {
				est[i] = cash[i]
			}
		}
	}
	normalize1(est)
	return est
}

func checkSpan(policy string, T float64) error {
	if !(T > 0) || math.IsInf(T, 0) {
		return fmt.Errorf("importance: %s window %v must be positive and finite", policy, T)
	}
	return nil
}

// FixedWindow is the Fixed Window policy: for every node, the cash and G of
// all its reads since now − T. With a minimum M > 0 it is Improved Fixed
// Window, which keeps at least the last M measures of a node however old
// they are: rarely read nodes then estimate over several reads rather than
// one, which the paper found to converge better.
type FixedWindow struct {
	T   float64 // window length on the explicit clock
	M   int     // minimum measures kept per node (0: plain Fixed Window)
	log measureLog
}

// NewFixedWindow returns the Fixed Window policy of length T.
func NewFixedWindow(T float64) (*FixedWindow, error) {
	if err := checkSpan("fixed", T); err != nil {
		return nil, err
	}
	return &FixedWindow{T: T}, nil
}

// NewImprovedFixedWindow returns the Improved Fixed Window policy: Fixed
// Window of length T keeping at least m ≥ 1 measures per node (the paper
// uses 3).
func NewImprovedFixedWindow(T float64, m int) (*FixedWindow, error) {
	if err := checkSpan("improved fixed", T); err != nil {
		return nil, err
	}
	if m < 1 {
		return nil, fmt.Errorf("importance: improved fixed window minimum %d must be at least 1", m)
	}
	return &FixedWindow{T: T, M: m}, nil
}

// Add implements [Window].
func (w *FixedWindow) Add(i int, g, now float64) { w.log.add(i, g) }

// Remove implements [Window].
func (w *FixedWindow) Remove(i int) { w.log.remove(i) }

// Record implements [Window].
func (w *FixedWindow) Record(i int, cash, g, now float64) {
	if !w.log.known(i) {
		return
	}
	w.log.m[i] = append(w.log.m[i], measure{cash, g, now})
	w.expire(i, now)
}

// expire drops node i's measures older than now − T, down to the minimum.
func (w *FixedWindow) expire(i int, now float64) {
	for len(w.log.m[i]) > w.M && w.log.m[i][0].t < now-w.T {
		w.log.dropOldest(i)
	}
}

// Estimate implements [Window]; it also drops the measures that have left
// the window.
func (w *FixedWindow) Estimate(now, g float64, cash []float64) []float64 {
	for i := range w.log.m {
		if w.log.live[i] {
			w.expire(i, now)
		}
	}
	return w.log.estimate(g, cash)
}

// MeasuresKept implements [Window]. Measures expire when a node is read or
// at an Estimate, so call it after Estimate for the count at that time.
func (w *FixedWindow) MeasuresKept() float64 { return w.log.kept() }

// VariableWindow is the Variable Window policy: for every node, the cash
// and G of its last K reads, whenever they happened. Memory is bounded (K
// measures a node), and the time span adapts to the node: short for the
// often read important nodes, long for the others.
type VariableWindow struct {
	K   int
	log measureLog
}

// NewVariableWindow returns the Variable Window policy of k ≥ 1 measures.
func NewVariableWindow(k int) (*VariableWindow, error) {
	if k < 1 {
		return nil, fmt.Errorf("importance: variable window of %d measures, want at least 1", k)
	}
	return &VariableWindow{K: k}, nil
}

// Add implements [Window].
func (w *VariableWindow) Add(i int, g, now float64) { w.log.add(i, g) }

// Remove implements [Window].
func (w *VariableWindow) Remove(i int) { w.log.remove(i) }

// Record implements [Window].
func (w *VariableWindow) Record(i int, cash, g, now float64) {
	if !w.log.known(i) {
		return
	}
	for len(w.log.m[i]) >= max(w.K, 1) {
		w.log.dropOldest(i)
	}
	w.log.m[i] = append(w.log.m[i], measure{cash, g, now})
}

// Estimate implements [Window].
func (w *VariableWindow) Estimate(now, g float64, cash []float64) []float64 {
	return w.log.estimate(g, cash)
}

// MeasuresKept implements [Window].
func (w *VariableWindow) MeasuresKept() float64 { return w.log.kept() }

// Kept returns the number of measures node i holds.
func (w *VariableWindow) Kept(i int) int {
	if !w.log.known(i) {
		return 0
	}
	return len(w.log.m[i])
}

// Interpolation is the policy Xyleme used on the web: for every node only
// two numbers, an interpolated history H[i] — the cash the node received in
// the T time units before its last read — and the time of that read. When
// node i is read at time t with cash c, its previous read being at t':
//
//	H[i] = H[i]·(T − (t − t'))/T + c   if t − t' < T
//	H[i] = c·T/(t − t')                otherwise
//
// How sitesift reads the formula: H[i] covered [t' − T, t'], and cash is
// assumed to arrive at a steady rate. Sliding the window to [t − T, t]
// keeps the part of the old window still inside, the fraction
// (T − (t − t'))/T of H[i], and adds c, all received in (t', t]. When the
// gap is T or more the old window is wholly outside, and of c, spread over
// t − t', only the last T's worth, c·T/(t − t'), is inside. The two cases
// agree at t − t' = T.
//
// The estimate applies the same update at now with the current cash, so
// that an unread node's window also slides, and H[i]/T is then the cash the
// node received per unit of time over [now − T, now]. Normalised over the
// nodes — their sum is the growth of G over the window, per unit of time —
// it is ΔH/ΔG. Unlike the other policies it is measured on the explicit
// clock; run it with now = G to have the paper's G clock.
//
// New pages. The paper (section 3, "Expanding the graph"): "We assign to
// each new page a default history that corresponds to the importance of
// recently introduced pages. Experiments confirmed this to be a good
// estimate. The reason is that important pages are discovered first,
// whereas new or recently introduced pages are often the least important
// ones." A node created at t₀ less than T before now has been in the window
// [now − T, now] for a = now − t₀ only; the rest, T − a, is filled with
// the default history, at the rate of the recently introduced nodes:
//
//	estimate·T = H[i] slid to now + D·(T − a)/T,   D = T·median rate
//
// where the median rate is taken over the nodes created in the last T
// (those young nodes themselves, read or not) of the cash each received
// since its creation — read into its history plus its current cash —
// divided by its age. The median, not the mean: importance follows a power
// law, and the mean rate of the new nodes is set by the few that turn out
// important, while the paper's default stands for a typical new page,
// "often the least important". Counting the unread nodes too keeps D from
// leaning on the nodes that Greedy read first because they gathered cash
// fastest. The nodes there from the start (the first creation) are no new
// pages: no window before them has passed, so they get no default and do
// not count in D, and a new node's default fills only the part of the
// window after the start (T − a becomes min(T, now − start) − a).
// Without the default a young node was charged for the time
// before it existed with nothing: its cash divided by the whole window, it
// was underestimated by a/T. With a window much longer than the nodes live
// (most nodes young), the default fills most of every window and flattens
// the estimates towards the median: see the README's lab windows table.
type Interpolation struct {
	T       float64
	h       []float64 // H[i], the interpolated history
	last    []float64 // time of the last read, or of the node's creation
	created []float64 // time of the node's creation
	got     []float64 // cash read from the node since its creation
	live    []bool
	n       int
	// start is the time of the first node's creation: the window holds
	// no time before it.
	start   float64
	started bool
}

// NewInterpolation returns the Interpolation policy of window T.
func NewInterpolation(T float64) (*Interpolation, error) {
	if err := checkSpan("interpolation", T); err != nil {
		return nil, err
	}
	return &Interpolation{T: T}, nil
}

// Add implements [Window].
func (w *Interpolation) Add(i int, g, now float64) {
	for len(w.h) <= i {
		w.h = append(w.h, 0)
		w.last = append(w.last, 0)
		w.created = append(w.created, 0)
		w.got = append(w.got, 0)
		w.live = append(w.live, false)
	}
	if !w.live[i] {
		w.n++
	}
	if !w.started {
		w.start, w.started = now, true
	}
	w.h[i], w.last[i], w.created[i], w.got[i], w.live[i] = 0, now, now, 0, true
}

// Remove implements [Window].
func (w *Interpolation) Remove(i int) {
	if i < len(w.live) && w.live[i] {
		w.h[i], w.got[i], w.live[i] = 0, 0, false
		w.n--
	}
}

// slide returns H after cash c arrived during the gap dt since the last read.
func (w *Interpolation) slide(h, dt, c float64) float64 {
	if dt < w.T {
		return h*(w.T-dt)/w.T + c
	}
	return c * w.T / dt
}

// Record implements [Window].
func (w *Interpolation) Record(i int, cash, g, now float64) {
	if i < 0 || i >= len(w.live) || !w.live[i] {
		return
	}
	w.h[i] = w.slide(w.h[i], max(0, now-w.last[i]), cash)
	w.last[i] = now
	w.got[i] += cash
}

// DefaultHistory returns D, the default history of a node at time now
// given every node's current cash (see [Interpolation]): T times the median
// rate at which the nodes created in (now − T, now), after the start,
// received cash; 0 when there is none.
func (w *Interpolation) DefaultHistory(now float64, cash []float64) float64 {
	var rates []float64
	for i, live := range w.live {
		if age := now - w.created[i]; live && w.created[i] > w.start && age > 0 && age < w.T {
			got := w.got[i]
			if i < len(cash) {
				got += cash[i]
			}
			rates = append(rates, got/age)
		}
	}
	if len(rates) == 0 {
		return 0
	}
	slices.Sort(rates)
	m := len(rates) / 2
	med := rates[m]
	if len(rates)%2 == 0 {
		med = (rates[m-1] + rates[m]) / 2
	}
	return w.T * med
}

// Estimate implements [Window].
func (w *Interpolation) Estimate(now, g float64, cash []float64) []float64 {
	d := w.DefaultHistory(now, cash)
	est := make([]float64, len(w.h))
	for i := range est {
		if w.live[i] && i < len(cash) {
			h := w.slide(w.h[i], max(0, now-w.last[i]), cash[i])
			// The window holds no time before the start; a node there
			// since the start has nothing to fill.
			if fill := min(w.T, now-w.start) - max(0, now-w.created[i]); fill > 0 {
				h += d * fill / w.T
			}
			est[i] = h / w.T
		}
	}
	return normalizeOrCash(est, w.live, cash)
}

// MeasuresKept implements [Window]: one measure, H[i] and its time.
func (w *Interpolation) MeasuresKept() float64 {
	if w.n == 0 {
		return 0
	}
	return 1
}

// FullHistory is no window at all: plain OPIC, whose history sums every
// read since the node was created and never forgets. It is the baseline
// the windows are measured against on a changing graph.
type FullHistory struct {
	log measureLog // one running-sum measure per node
}

// NewFullHistory returns the window-less policy.
func NewFullHistory() *FullHistory { return &FullHistory{} }

// Add implements [Window].
func (w *FullHistory) Add(i int, g, now float64) {
	w.log.add(i, g)
	w.log.m[i] = []measure{{}}
}

// Remove implements [Window].
func (w *FullHistory) Remove(i int) { w.log.remove(i) }

// Record implements [Window]: H[i] += cash.
func (w *FullHistory) Record(i int, cash, g, now float64) {
	if w.log.known(i) {
		w.log.m[i][0].cash += cash
	}
}

// Estimate implements [Window]: (H[i] + C[i]) / (G − G at creation),
// normalised.
func (w *FullHistory) Estimate(now, g float64, cash []float64) []float64 {
	return w.log.estimate(g, cash)
}

// MeasuresKept implements [Window].
func (w *FullHistory) MeasuresKept() float64 { return w.log.kept() }

// Window policy names, as NewWindow takes them.
const (
	PolicyFixed         = "fixed"
	PolicyImproved      = "improved"
	PolicyVariable      = "variable"
	PolicyInterpolation = "interpolation"
	PolicyFullHistory   = "full-history"
)

// NewWindow returns a fresh window policy by name: PolicyFixed (window T),
// PolicyImproved (window T, at least m measures a node), PolicyVariable
// (the last k measures), PolicyInterpolation (window T) or
// PolicyFullHistory (no window). The parameters a policy does not use are
// ignored.
func NewWindow(policy string, T float64, k, m int) (Window, error) {
	switch policy {
	case PolicyFixed:
		return NewFixedWindow(T)
	case PolicyImproved:
		return NewImprovedFixedWindow(T, m)
	case PolicyVariable:
		return NewVariableWindow(k)
	case PolicyInterpolation:
		return NewInterpolation(T)
	case PolicyFullHistory:
		return NewFullHistory(), nil
	}
	return nil, fmt.Errorf("importance: unknown window policy %q (want %s, %s, %s, %s or %s)", policy,
		PolicyFixed, PolicyImproved, PolicyVariable, PolicyInterpolation, PolicyFullHistory)
}

// CrawlReading is what one crawl read of every site, for
// [WindowedImportance].
type CrawlReading struct {
	// Time is when the crawl ran, on the caller's clock (days, or the
	// crawl's number); a reading is never before the one it follows.
	Time float64
	// Cash[i] is the cash the crawl's reads of site i moved to the site's
	// history: its OPIC history at the crawl's end less that at its start,
	// 0 when the crawl did not read it. Site i exists from the first
	// reading whose Cash holds index i.
	Cash []float64
}

// WindowedImportance returns the importance of every site at time now
// under the window policy w (fresh: from NewWindow, used once), from the
// readings of successive crawls, oldest first: each crawl's reads are one
// measure per site, taken at the crawl's Time, with G, the clock of the
// cash, advanced by all the cash the crawl read. A site appears at the Time
// of the first reading that holds it (so Interpolation gives it its default
// history for the window before). The result has one entry per site known
// to the last reading, normalised to sum 1 (all 0 when no cash was ever
// read); windows are measured on the Time clock. An error names the
// reading and site of a cash that is negative or not finite, a reading
// that goes back in time, or a now before the last reading.
//
//	w, _ := importance.NewWindow(importance.PolicyInterpolation, 90, 0, 0) // 90 days
//	imp, err := importance.WindowedImportance(w, readings, today)
func WindowedImportance(w Window, readings []CrawlReading, now float64) ([]float64, error) {
	n, g := 0, 0.0
	for k, r := range readings {
		if math.IsNaN(r.Time) || math.IsInf(r.Time, 0) {
			return nil, fmt.Errorf("importance: reading %d: time %v is not finite", k, r.Time)
		}
		if k > 0 && r.Time < readings[k-1].Time {
			return nil, fmt.Errorf("importance: reading %d at time %v is before reading %d at %v", k, r.Time, k-1, readings[k-1].Time)
		}
		for i, c := range r.Cash {
			if !(c >= 0) || math.IsInf(c, 0) {
				return nil, fmt.Errorf("importance: reading %d: site %d has cash %v, want a finite value ≥ 0", k, i, c)
			}
		}
	}
	if len(readings) > 0 && now < readings[len(readings)-1].Time {
		return nil, fmt.Errorf("importance: estimate at %v, before the last reading at %v", now, readings[len(readings)-1].Time)
	}
	for _, r := range readings {
		for ; n < len(r.Cash); n++ {
			w.Add(n, g, r.Time)
		}
		for _, c := range r.Cash {
			g += c
		}
		for i, c := range r.Cash {
			if c > 0 {
				w.Record(i, c, g, r.Time)
			}
		}
	}
	est := w.Estimate(now, g, make([]float64, n))
	return est[:n], nil
}

// ErrNodeNotLive is returned when an operation names a node that was never
// added or has been removed.
var ErrNodeNotLive = errors.New("importance: node not live")

// AdaptiveOPIC runs OPIC on a graph that changes while it runs — nodes and
// arcs are added and removed between reads — and feeds every read to a
// [Window]. The cash moves as in [OPIC]: a read hands the node's cash to its
// out-neighbours in proportion to the arc weights, less the teleport share,
// which goes to the virtual page (all of it from a node with no live
// out-arc), and the virtual page hands its cash out to all live nodes.
//
// The total of the cash stays 1 through every change: a removed node's
// cash goes to the virtual page, which hands it out to the others; a
// removed arc (or an arc to a removed node) just stops receiving, its share
// going to the source's other arcs. Node ids are dense, in order of
// addition, and never reused.
//
// The virtual page's cash is handed out lazily, as in [OPIC]: uniform is
// what each live node has been credited since the start, and seen[i] its
// value when node i last settled, so node i's cash is cash[i] + uniform −
// seen[i].
type AdaptiveOPIC struct {
	teleport float64
	window   Window
	now      float64 // the clock, as of the last read or change

	cash    []float64
	seen    []float64
	uniform float64
	virtual float64 // cash of the virtual page not yet handed out
	g       float64 // G: the total cash read
	live    []bool
	nLive   int
	out     [][]Arc
	outW    []float64 // sum of the weights of out[i]
	reads   []int64
	greedy  cashHeap
}

// NewAdaptiveOPIC returns an empty computation with the given teleport
// share, in [0, 1), feeding window w. The virtual page holds all the cash
// until the first nodes are added and [AdaptiveOPIC.Seed] is called.
func NewAdaptiveOPIC(teleport float64, w Window) (*AdaptiveOPIC, error) {
	if !(teleport >= 0 && teleport < 1) {
		return nil, fmt.Errorf("importance: teleport %v not in [0, 1)", teleport)
	}
	if w == nil {
		return nil, errors.New("importance: adaptive opic needs a window")
	}
	a := &AdaptiveOPIC{teleport: teleport, window: w, virtual: 1}
	a.greedy.a = a
	return a, nil
}

// LoadAdaptive returns an AdaptiveOPIC over the nodes and arcs of g, each
// node holding 1/N of the cash, at time 0.
func LoadAdaptive(g *Graph, teleport float64, w Window) (*AdaptiveOPIC, error) {
	a, err := NewAdaptiveOPIC(teleport, w)
	if err != nil {
		return nil, err
	}
	for range g.N {
		a.AddNode()
	}
	for u := range g.N {
		for k := g.Offsets[u]; k < g.Offsets[u+1]; k++ {
			if err := a.SetArc(u, int(g.Targets[k]), g.Weights[k]); err != nil {
				return nil, fmt.Errorf("importance: load adaptive: %w", err)
			}
		}
	}
	a.Seed()
	return a, nil
}

// Len returns the number of node ids handed out, live or removed.
func (a *AdaptiveOPIC) Len() int { return len(a.cash) }

// LiveCount returns the number of live nodes.
func (a *AdaptiveOPIC) LiveCount() int { return a.nLive }

// Live reports whether node i exists and has not been removed.
func (a *AdaptiveOPIC) Live(i int) bool { return i >= 0 && i < len(a.live) && a.live[i] }

// G returns the total cash read so far, the paper's clock.
func (a *AdaptiveOPIC) G() float64 { return a.g }

// Now returns the time of the last read.
func (a *AdaptiveOPIC) Now() float64 { return a.now }

// Window returns the window the reads are fed to.
func (a *AdaptiveOPIC) Window() Window { return a.window }

// Cash returns node i's current cash (0 for a removed node).
func (a *AdaptiveOPIC) Cash(i int) float64 {
	if !a.Live(i) {
		return 0
	}
	return a.cash[i] + a.uniform - a.seen[i]
}

// Reads returns how many times node i was read.
func (a *AdaptiveOPIC) Reads(i int) int64 { return a.reads[i] }

// VirtualCash returns the cash held by the virtual page (non-zero only
// while no node is live).
func (a *AdaptiveOPIC) VirtualCash() float64 { return a.virtual }

// TotalCash returns the cash of all live nodes plus the virtual page's; it
// is 1 up to rounding at every step and through every change.
func (a *AdaptiveOPIC) TotalCash() float64 {
	s := a.virtual
	for i := range a.cash {
		s += a.Cash(i)
	}
	return s
}

// AddNode adds a node with no cash and no out-arc and returns its id.
func (a *AdaptiveOPIC) AddNode() int {
	i := len(a.cash)
	a.cash = append(a.cash, 0)
	a.seen = append(a.seen, a.uniform)
	a.live = append(a.live, true)
	a.out = append(a.out, nil)
	a.outW = append(a.outW, 0)
	a.reads = append(a.reads, 0)
	a.nLive++
	a.greedy.pos = append(a.greedy.pos, -1)
	heap.Push(&a.greedy, i)
	a.window.Add(i, a.g, a.now)
	return i
}

// Seed hands the virtual page's cash out to the live nodes: call it once
// the first nodes are added, so that each starts with 1/n.
func (a *AdaptiveOPIC) Seed() { a.handOut() }

// RemoveNode removes node i and its out-arcs; its cash goes to the virtual
// page and on to the remaining nodes. Arcs to i stop receiving.
func (a *AdaptiveOPIC) RemoveNode(i int) error {
	if !a.Live(i) {
		return fmt.Errorf("importance: remove node %d: %w", i, ErrNodeNotLive)
	}
	a.virtual += a.Cash(i)
	heap.Remove(&a.greedy, a.greedy.pos[i])
	a.cash[i], a.seen[i] = 0, 0
	a.live[i] = false
	a.out[i], a.outW[i] = nil, 0
	a.nLive--
	a.window.Remove(i)
	a.handOut()
	return nil
}

// SetArc sets the weight of the arc from → to to w > 0, adding the arc if
// it is new. Self-arcs are ignored, as in [OPIC]. O(out-degree of from).
func (a *AdaptiveOPIC) SetArc(from, to int, w float64) error {
	if !a.Live(from) || !a.Live(to) {
		return fmt.Errorf("importance: set arc %d→%d: %w", from, to, ErrNodeNotLive)
	}
	if !(w > 0) || math.IsInf(w, 0) {
		return fmt.Errorf("importance: set arc %d→%d: weight %v not positive and finite", from, to, w)
	}
	if from == to {
		return nil
	}
	for k, arc := range a.out[from] {
		if arc.To == to {
			a.outW[from] += w - arc.Weight
			a.out[from][k].Weight = w
			return nil
		}
	}
	a.out[from] = append(a.out[from], Arc{To: to, Weight: w})
	a.outW[from] += w
	return nil
}

// RemoveArc removes the arc from → to, if there is one.
// O(out-degree of from).
func (a *AdaptiveOPIC) RemoveArc(from, to int) error {
	if !a.Live(from) {
		return fmt.Errorf("importance: remove arc %d→%d: %w", from, to, ErrNodeNotLive)
	}
	for k, arc := range a.out[from] {
		if arc.To == to {
			a.dropArc(from, k)
			return nil
		}
	}
	return nil
}

// dropArc removes the k-th out-arc of node i (the order of arcs is free).
func (a *AdaptiveOPIC) dropArc(i, k int) {
	arcs := a.out[i]
	a.outW[i] -= arcs[k].Weight
	arcs[k] = arcs[len(arcs)-1]
	a.out[i] = arcs[:len(arcs)-1]
	if len(a.out[i]) == 0 {
		a.outW[i] = 0 // no rounding residue on a node that is now dangling
	}
}

// Out returns node i's out-arcs, which may still include arcs to removed
// nodes (they are dropped when i is next read); the slice must not be
// modified.
func (a *AdaptiveOPIC) Out(i int) []Arc { return a.out[i] }

// Read performs one OPIC step on node i at time now (not before the last
// read): its cash is recorded in the window with the new value of G and
// handed on. It returns the cash read.
func (a *AdaptiveOPIC) Read(i int, now float64) (float64, error) {
	if !a.Live(i) {
		return 0, fmt.Errorf("importance: read node %d: %w", i, ErrNodeNotLive)
	}
	if now < a.now || math.IsNaN(now) {
		return 0, fmt.Errorf("importance: read node %d at time %v, before the last read at %v", i, now, a.now)
	}
	a.now = now
	// Arcs to removed nodes stop receiving: drop them now, so that i's
	// cash goes to its live out-neighbours only.
	for k := 0; k < len(a.out[i]); {
		if a.live[a.out[i][k].To] {
			k++
		} else {
			a.dropArc(i, k)
		}
	}
	c := a.cash[i] + a.uniform - a.seen[i]
	a.cash[i], a.seen[i] = 0, a.uniform
	a.fix(i)
	a.g += c
	a.reads[i]++
	if w := a.outW[i]; w > 0 {
		share := (1 - a.teleport) * c / w
		for _, arc := range a.out[i] {
			a.cash[arc.To] += share * arc.Weight
			a.fix(arc.To)
		}
		a.virtual += a.teleport * c
	} else {
		a.virtual += c
	}
	a.handOut()
	a.window.Record(i, c, a.g, now)
	return c, nil
}

// Step reads the live node with the most cash (the Greedy strategy of the
// paper, ties to the lower id) at time now and returns it.
func (a *AdaptiveOPIC) Step(now float64) (int, error) {
	if a.nLive == 0 {
		return -1, fmt.Errorf("importance: step: %w (no node left)", ErrNodeNotLive)
	}
	i := a.greedy.ids[0]
	_, err := a.Read(i, now)
	return i, err
}

// Estimate returns the window's estimate of the importance of every node
// at the time of the last read (see [Window.Estimate]).
func (a *AdaptiveOPIC) Estimate() []float64 {
	cash := make([]float64, len(a.cash))
	for i := range cash {
		cash[i] = a.Cash(i)
	}
	return a.window.Estimate(a.now, a.g, cash)
}

// Graph returns the current graph of live nodes and arcs, renumbered
// densely, and ids: ids[k] is the AdaptiveOPIC id of node k. Its PageRank
// (same teleport) is what the estimates follow.
func (a *AdaptiveOPIC) Graph() (*Graph, []int) {
	dense := make([]int, len(a.live))
	var ids []int
	for i, l := range a.live {
		dense[i] = -1
		if l {
			dense[i] = len(ids)
			ids = append(ids, i)
		}
	}
	var edges []WeightedEdge
	for _, i := range ids {
		for _, arc := range a.out[i] {
			if a.live[arc.To] {
				edges = append(edges, WeightedEdge{From: dense[i], To: dense[arc.To], Weight: arc.Weight})
			}
		}
	}
	g, err := NewGraph(len(ids), edges)
	if err != nil {
		// Ids and weights were checked as the arcs were set.
		panic(fmt.Sprintf("importance: adaptive graph: %v", err))
	}
	return g, ids
}

func (a *AdaptiveOPIC) handOut() {
	if a.nLive == 0 || a.virtual == 0 {
		return
	}
	a.uniform += a.virtual / float64(a.nLive)
	a.virtual = 0
	// Fold uniform into the explicit cash once it passes 1/n, as OPIC
	// does, so that its rounding is not multiplied by n. Every key moves
	// by the same amount, but rounding could swap two near-equal ones, so
	// the heap is rebuilt: O(n) about every n reads.
	if a.uniform*float64(a.nLive) > 1 {
		for i := range a.cash {
			if a.live[i] {
				a.cash[i] += a.uniform - a.seen[i]
			}
			a.seen[i] = 0
		}
		a.uniform = 0
		heap.Init(&a.greedy)
	}
}

// fix restores the greedy order after node i's cash changed.
func (a *AdaptiveOPIC) fix(i int) {
	if p := a.greedy.pos[i]; p >= 0 {
		heap.Fix(&a.greedy, p)
	}
}

// cashHeap is a max-heap of the live nodes on their cash (the part that
// differs between nodes: cash[i] − seen[i]), ties to the lower id.
type cashHeap struct {
	a   *AdaptiveOPIC
	ids []int
	pos []int // position of each node in ids, −1 when not in the heap
}

func (h *cashHeap) Len() int { return len(h.ids) }

func (h *cashHeap) Less(x, y int) bool {
	i, j := h.ids[x], h.ids[y]
	ki, kj := h.a.cash[i]-h.a.seen[i], h.a.cash[j]-h.a.seen[j]
	return ki > kj || (ki == kj && i < j)
}

func (h *cashHeap) Swap(x, y int) {
	h.ids[x], h.ids[y] = h.ids[y], h.ids[x]
	h.pos[h.ids[x]], h.pos[h.ids[y]] = x, y
}

func (h *cashHeap) Push(v any) {
	i := v.(int)
	h.pos[i] = len(h.ids)
	h.ids = append(h.ids, i)
}

func (h *cashHeap) Pop() any {
	last := len(h.ids) - 1
	i := h.ids[last]
	h.ids = h.ids[:last]
	h.pos[i] = -1
	return i
}
