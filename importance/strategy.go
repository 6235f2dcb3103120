package importance

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Strategy names a page selection strategy of the OPIC paper (section 3.1).
type Strategy string

// The strategies of the paper.
const (
	Greedy Strategy = "greedy" // read the node with the most cash
	Random Strategy = "random" // read a node chosen uniformly at random
	Cycle  Strategy = "cycle"  // read the nodes in a fixed order, round and round
)

// ParseStrategy returns the strategy named s.
func ParseStrategy(s string) (Strategy, error) {
	switch st := Strategy(s); st {
	case Greedy, Random, Cycle:
		return st, nil
	}
	return "", fmt.Errorf("importance: unknown strategy %q (want greedy, random or cycle)", s)
}

// Selector chooses the next node to read on a static graph loaded into an
// OPIC. Greedy keeps the nodes in a max-heap keyed by cash, so a step costs
// O(out-degree · log N), not a scan of all nodes.
type Selector struct {
	o        *OPIC
	strategy Strategy
	rng      *rand.Rand
	next     int         // Cycle: the next node
	heap     []heapEntry // Greedy: a 4-ary max-heap on key, then on lower node
	pos      []int32     // Greedy: position of each node in heap
	folds    int         // Greedy: o.folds when the keys in heap were taken
}

// heapEntry is a node of the greedy heap with its key beside it, so that a
// sift compares entries that sit together in memory instead of reading
// cash and seen at two random places per comparison: with millions of
// nodes those reads, not the arithmetic, are what a step costs. Four
// children per entry halve the depth of a binary heap; the four are 64
// bytes, one cache line.
type heapEntry struct {
	key  float64
	node int32
}

// heapArity is the number of children of a heap entry.
const heapArity = 4

// NewSelector returns a selector over the nodes of o. The random strategy
// draws from a generator seeded with seed.
func NewSelector(o *OPIC, s Strategy, seed uint64) (*Selector, error) {
	if _, err := ParseStrategy(string(s)); err != nil {
		return nil, err
	}
	if s == Greedy && o.biased {
		// Its heap order relies on every node getting the same uniform share.
		return nil, fmt.Errorf("importance: a greedy selector needs uniform teleport shares")
	}
	if s == Greedy && o.Len() > math.MaxInt32 {
		return nil, fmt.Errorf("importance: %d nodes, more than a greedy selector holds", o.Len())
	}
	sel := &Selector{o: o, strategy: s, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	if s == Greedy {
		n := o.Len()
		sel.heap = make([]heapEntry, n)
		sel.pos = make([]int32, n)
		for i := range n {
			sel.heap[i], sel.pos[i] = heapEntry{sel.key(i), int32(i)}, int32(i)
		}
		sel.folds = o.folds
		for k := (n - 2) / heapArity; k >= 0; k-- {
			sel.down(k)
		}
	}
	return sel, nil
}

// Step selects a node, reads it and returns it.
func (s *Selector) Step() int {
	n := s.o.Len()
	var i int
	switch s.strategy {
	case Random:
		i = s.rng.IntN(n)
	case Cycle:
		i = s.next
		s.next = (s.next + 1) % n
	case Greedy:
		i = int(s.heap[0].node)
	}
	if s.strategy == Greedy {
		// Reading i empties it, then raises its out-neighbours one by one;
		// each change is sifted as it happens, since a heap repairs one
		// violation at a time. The virtual page's uniform share moves every
		// key by the same amount and leaves the order unchanged.
		s.o.changed = s.fix
	}
	s.o.Read(i)
	s.o.changed = nil
	if s.strategy == Greedy && s.folds != s.o.folds {
		s.refresh()
	}
	return i
}

// key orders nodes by cash: Cash(i) = key(i) + uniform, and uniform is the same for all.
func (s *Selector) key(i int) float64 { return s.o.acct[i].cash - s.o.acct[i].seen }

// refresh takes every key anew after the OPIC folded its uniform share into
// the cash (see handOut): each key moved by the same amount, so the heap's
// order holds as it is.
func (s *Selector) refresh() {
	for k := range s.heap {
		s.heap[k].key = s.key(int(s.heap[k].node))
	}
	s.folds = s.o.folds
}

// before says whether entry a goes before entry b: more cash, or as much and
// a lower node id.
func before(a, b heapEntry) bool {
	return a.key > b.key || (a.key == b.key && a.node < b.node)
}

// fix restores the heap order after node i's key changed.
func (s *Selector) fix(i int) {
	k := int(s.pos[i])
	s.heap[k].key = s.key(i)
	if k > 0 && before(s.heap[k], s.heap[(k-1)/heapArity]) {
		s.up(k)
	} else {
		s.down(k)
	}
}

// up moves the entry at k towards the root until its parent goes before it.
func (s *Selector) up(k int) {
	e := s.heap[k]
	for k > 0 {
		p := (k - 1) / heapArity
		if !before(e, s.heap[p]) {
			break
		}
		s.place(k, s.heap[p])
		k = p
	}
	s.place(k, e)
}

// down moves the entry at k towards the leaves until it goes before all its
// children.
func (s *Selector) down(k int) {
	e := s.heap[k]
	n := len(s.heap)
	for {
		c := heapArity*k + 1
		if c >= n {
			break
		}
		best := c
		for j := c + 1; j < min(c+heapArity, n); j++ {
			if before(s.heap[j], s.heap[best]) {
				best = j
			}
		}
		if !before(s.heap[best], e) {
			break
		}
		s.place(k, s.heap[best])
		k = best
	}
	s.place(k, e)
}

// place puts entry e at position k of the heap.
func (s *Selector) place(k int, e heapEntry) {
	s.heap[k] = e
	s.pos[e.node] = int32(k)
}

// LoadGraph returns an OPIC over the nodes and arcs of g, each node holding
// 1/N of the cash. The OPIC reads g's arcs in place: g must not change
// while it is used (adding nodes or arcs to the OPIC copies them first).
func LoadGraph(g *Graph, teleport float64) (*OPIC, error) {
	o, err := NewOPIC(teleport)
	if err != nil {
		return nil, err
	}
	o.loadCSR(g)
	o.Seed()
	return o, nil
}
