package importance

import (
	"fmt"
	"math"
	"slices"
)

// DefaultTeleport is the share of a node's cash that goes to the virtual page
// at each read, and PageRank's teleport probability (1 − damping).
const DefaultTeleport = 0.15

// OPIC is the state of an online page importance computation over a graph
// that may grow while it runs: nodes and weighted edges are added as a crawl
// discovers them. Node ids are dense, 0..N-1, in order of addition.
//
// The virtual page's cash is handed out to all N known nodes right after
// every read, in proportion to each node's teleport share (1 unless
// SetShare says otherwise). It is done lazily in O(1): uniform is the running
// total per unit of share that each node has been credited by the virtual
// page since the start, and acct[i].seen the value of uniform when node i
// last settled it, so node i's cash is acct[i].cash + share[i]·(uniform −
// acct[i].seen).
type OPIC struct {
	teleport float64

	// acct holds each node's explicit cash, the uniform it last settled
	// and its history: the first two are read together for every arc a
	// read follows, all three for the node read, and side by side they
	// cost one cache miss instead of two or three.
	acct    []account
	uniform float64   // total handed out by the virtual page per unit of share
	share   []float64 // teleport share of each node: the virtual page's cash goes out in proportion to it
	shares  float64   // sum of share
	biased  bool      // some share differs from 1
	virtual float64   // cash of the virtual page not yet handed out (no known node)
	g       float64   // G: the sum of all histories

	out   [][]Arc       // out-arcs by node
	outW  []float64     // sum of out-arc weights by node
	arc   []map[int]int // arc position by target, built lazily for nodes with many arcs
	reads []int64

	// csr, when not nil, holds the out-arcs instead of out and arc: a
	// static graph loaded whole ([LoadGraph]) is read in place, 12 bytes
	// an arc, instead of copied into a slice per node. The first change to
	// the arcs or nodes copies them into out (see dynamic).
	csr *Graph

	// changed, when set, is called right after node j's cash changes during
	// a read, so that a priority structure can restore its order one change
	// at a time (see Selector).
	changed func(j int)
	// folds counts the times handOut folded uniform into the cash, which
	// moves every node's key (cash − seen) by the same amount.
	folds int
}

// account is a node's cash as [OPIC] keeps it: cash, received from
// in-neighbours, and seen, the value of uniform when the node last settled
// its share of the virtual page's cash; and its history, the cash
// accumulated at its reads.
type account struct {
	cash, seen, history float64
}

// Arc is a weighted out-link of a node.
type Arc struct {
	To     int
	Weight float64
}

// NewOPIC returns an empty computation with the given teleport share, which
// must lie in [0, 1).
func NewOPIC(teleport float64) (*OPIC, error) {
	if !(teleport >= 0 && teleport < 1) {
		return nil, fmt.Errorf("importance: teleport %v not in [0, 1)", teleport)
	}
	return &OPIC{teleport: teleport, virtual: 1}, nil
}

// Len returns the number of known nodes.
func (o *OPIC) Len() int { return len(o.acct) }

// Teleport returns the teleport share.
func (o *OPIC) Teleport() float64 { return o.teleport }

// AddNode adds a node with no cash and no history and returns its id. While
// no node is known the virtual page holds all the cash; the first nodes
// added share it at the next read or [OPIC.Seed].
func (o *OPIC) AddNode() int {
	o.dynamic()
	o.acct = append(o.acct, account{seen: o.uniform})
	o.share = append(o.share, 1)
	o.shares++
	o.out = append(o.out, nil)
	o.outW = append(o.outW, 0)
	o.arc = append(o.arc, nil)
	o.reads = append(o.reads, 0)
	return len(o.acct) - 1
}

// Seed hands the virtual page's cash out to the known nodes: call it once the
// first nodes (the seeds of a crawl) are added, so each starts with 1/n.
func (o *OPIC) Seed() { o.handOut() }

// AddWeight adds w to the weight of the arc from → to, creating the arc when
// it is new. Self-arcs are ignored: OPIC over sites uses inter-site links only.
func (o *OPIC) AddWeight(from, to int, w float64) {
	if from == to || w == 0 {
		return
	}
	o.dynamic()
	if k, ok := o.arcIndex(from, to); ok {
		o.out[from][k].Weight += w
	} else {
		o.out[from] = append(o.out[from], Arc{To: to, Weight: w})
		if o.arc[from] != nil {
			o.arc[from][to] = len(o.out[from]) - 1
		}
	}
	o.outW[from] += w
}

func (o *OPIC) arcIndex(from, to int) (int, bool) {
	arcs := o.out[from]
	if o.arc[from] == nil {
		if len(arcs) < 16 {
			for k, a := range arcs {
				if a.To == to {
					return k, true
				}
			}
			return 0, false
		}
		m := make(map[int]int, len(arcs))
		for k, a := range arcs {
			m[a.To] = k
		}
		o.arc[from] = m
	}
	k, ok := o.arc[from][to]
	return k, ok
}

// Out returns node i's out-arcs; the slice must not be modified.
func (o *OPIC) Out(i int) []Arc {
	if g := o.csr; g != nil {
		lo, hi := g.Offsets[i], g.Offsets[i+1]
		arcs := make([]Arc, hi-lo)
		for k := range arcs {
			arcs[k] = Arc{To: int(g.Targets[lo+k]), Weight: g.Weights[lo+k]}
		}
		return arcs
	}
	return o.out[i]
}

// loadCSR makes g the arcs of an OPIC that has no node yet: N nodes with
// no cash, whose out-arcs are g's, read in place.
func (o *OPIC) loadCSR(g *Graph) {
	n := g.N
	o.acct = make([]account, n)
	o.reads = make([]int64, n)
	o.share = make([]float64, n)
	for i := range o.share {
		o.share[i] = 1
	}
	o.shares = float64(n)
	// Summed in row order, as AddWeight would have. g.OutW holds the same
	// sums when g was built from rows already merged (a graph read from
	// the store): it is then used in place, 8 bytes a node less, until the
	// arcs change (see dynamic).
	var outW []float64
	for u := range n {
		var w float64
		for _, x := range g.Weights[g.Offsets[u]:g.Offsets[u+1]] {
			w += x
		}
		if outW == nil && len(g.OutW) == n && g.OutW[u] == w {
			continue
		}
		if outW == nil {
			outW = make([]float64, n)
			copy(outW, g.OutW[:u])
		}
		outW[u] = w
	}
	if outW == nil {
		outW = g.OutW[:n:n]
	}
	o.outW = outW
	o.csr = g
}

// dynamic copies the arcs of a loaded graph into the per-node slices that
// AddNode and AddWeight extend; it does nothing when they are there already.
func (o *OPIC) dynamic() {
	g := o.csr
	if g == nil {
		return
	}
	o.csr = nil
	o.outW = slices.Clone(o.outW) // it may be g's
	o.out = make([][]Arc, len(o.acct))
	o.arc = make([]map[int]int, len(o.acct))
	for u := range g.N {
		lo, hi := g.Offsets[u], g.Offsets[u+1]
		row := make([]Arc, hi-lo)
		for k := range row {
			row[k] = Arc{To: int(g.Targets[lo+k]), Weight: g.Weights[lo+k]}
		}
		o.out[u] = row
	}
}

// Cash returns node i's current cash.
func (o *OPIC) Cash(i int) float64 { return o.acct[i].cash + o.share[i]*(o.uniform-o.acct[i].seen) }

// SetShare sets node i's teleport share w > 0: from now on the virtual
// page hands its cash out in proportion to the shares instead of uniformly.
// This biases importance towards chosen nodes ("importance can also be
// biased to take into account specific fields of interest", section 5);
// the estimate then converges to PageRank with the personalisation vector
// share/Σshare for both the teleport and the dangling nodes' rank. A
// greedy Selector needs uniform shares.
func (o *OPIC) SetShare(i int, w float64) error {
	if !(w > 0) || math.IsInf(w, 0) {
		return fmt.Errorf("importance: teleport share %v of node %d must be positive and finite", w, i)
	}
	o.settle(i)
	o.shares += w - o.share[i]
	o.share[i] = w
	if w != 1 {
		o.biased = true
	}
	return nil
}

// Share returns node i's teleport share.
func (o *OPIC) Share(i int) float64 { return o.share[i] }

// History returns node i's history.
func (o *OPIC) History(i int) float64 { return o.acct[i].history }

// Reads returns how many times node i was read.
func (o *OPIC) Reads(i int) int64 { return o.reads[i] }

// G returns the sum of all histories.
func (o *OPIC) G() float64 { return o.g }

// VirtualCash returns the cash held by the virtual page (non-zero only while
// no node is known).
func (o *OPIC) VirtualCash() float64 { return o.virtual }

// TotalCash returns the cash of all nodes plus the virtual page's; it is 1 up
// to rounding at every step.
func (o *OPIC) TotalCash() float64 {
	var s float64
	for i := range o.acct {
		s += o.Cash(i)
	}
	return s + o.virtual
}

// Read performs one step of OPIC on node i: its cash goes to its history and
// G, then to its out-neighbours in proportion to the arc weights, less the
// teleport share, which goes to the virtual page (all of it when i has no
// out-arc); the virtual page then hands its cash out to all nodes. It returns
// the cash that was read.
func (o *OPIC) Read(i int) float64 {
	o.settle(i)
	c := o.acct[i].cash
	o.acct[i].cash = 0
	if o.changed != nil {
		o.changed(i)
	}
	o.acct[i].history += c
	o.g += c
	o.reads[i]++
	if w := o.outW[i]; w > 0 {
		share := (1 - o.teleport) * c / w
		if g := o.csr; g != nil {
			lo, hi := g.Offsets[i], g.Offsets[i+1]
			ws := g.Weights[lo:hi]
			for k, t := range g.Targets[lo:hi] {
				o.acct[t].cash += share * ws[k]
				if o.changed != nil {
					o.changed(int(t))
				}
			}
		} else {
			for _, a := range o.out[i] {
				o.acct[a.To].cash += share * a.Weight
				if o.changed != nil {
					o.changed(a.To)
				}
			}
		}
		o.virtual += o.teleport * c
	} else {
		o.virtual += c
	}
	o.handOut()
	return c
}

// settle moves node i's share of the virtual page's cash into its cash.
// Unbiased, every share is 1 (the product the same number), and the share
// is not read: a cache miss fewer for each read of a large graph.
func (o *OPIC) settle(i int) {
	a := &o.acct[i]
	if o.biased {
		a.cash += o.share[i] * (o.uniform - a.seen)
	} else {
		a.cash += o.uniform - a.seen
	}
	a.seen = o.uniform
}

func (o *OPIC) handOut() {
	n := len(o.acct)
	if n == 0 || o.virtual == 0 {
		return
	}
	o.uniform += o.virtual / o.shares
	o.virtual = 0
	// Each rounding of uniform is felt by all n nodes, so an error of one
	// ulp(uniform) costs n·ulp(uniform) of total cash. Folding uniform into
	// the explicit cash once it exceeds 1/n keeps that below a few ulp(1)
	// per read; uniform grows by about 1/n² a read, so the O(n) fold costs
	// O(1) per read amortised. Cash(i) − key(i) shifts by the same amount for
	// every node, so a Selector's order is unchanged.
	if o.uniform*o.shares > 1 {
		for i := range o.acct {
			o.settle(i)
			o.acct[i].seen = 0
		}
		o.uniform = 0
		o.folds++
	}
}

// Estimate returns the importance of every node: (history + cash),
// normalised to sum 1 over the real nodes. Before any read it is the
// distribution of the cash.
func (o *OPIC) Estimate() []float64 {
	est := make([]float64, len(o.acct))
	var sum float64
	for i := range est {
		est[i] = o.acct[i].history + o.Cash(i)
		sum += est[i]
	}
	if sum > 0 {
		for i := range est {
			est[i] /= sum
		}
	}
	return est
}

// State is a node's cash and history, as saved and restored.
type State struct {
	Cash, History float64
}

// Restore sets the state of the nodes from a saved snapshot (one entry per
// node, in id order) and the virtual page's cash; it fails unless the total
// cash is 1 within 1e-9, so a damaged snapshot is never used.
func (o *OPIC) Restore(states []State, virtual float64) error {
	if len(states) != len(o.acct) {
		return fmt.Errorf("importance: restore %d states into %d nodes", len(states), len(o.acct))
	}
	total := virtual
	for _, s := range states {
		if s.Cash < 0 || s.History < 0 || math.IsNaN(s.Cash) || math.IsNaN(s.History) {
			return fmt.Errorf("importance: restore: invalid state %+v", s)
		}
		total += s.Cash
	}
	if math.Abs(total-1) > 1e-9 {
		return fmt.Errorf("importance: restore: total cash %v, want 1", total)
	}
	o.g = 0
	for i, s := range states {
		o.acct[i] = account{cash: s.Cash, seen: o.uniform, history: s.History}
		o.g += s.History
	}
	o.virtual = virtual
	return nil
}
