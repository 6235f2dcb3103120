package importance

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
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
// OPIC. Greedy reads the node with the most cash (ties to the lower id).
// It keeps in a max-heap only the hot nodes, those whose key (then lower
// id) reaches a threshold, the few with the most cash; the others are cold
// and kept nowhere. The richest node is always hot, so the heap's top is
// the node to read, as in a heap of all nodes. A read sends cash along its arcs to
// nodes that are mostly cold and stay so: such an arc costs one look at
// the node's cash, where a heap of millions of nodes cost a sift through
// memory that no cache holds. When no node is hot any more, or too many
// are, a pass over all nodes takes a new threshold.
type Selector struct {
	o        *OPIC
	strategy Strategy
	rng      *rand.Rand
	next     int // Cycle: the next node

	// Greedy: hot holds exactly the nodes whose entry (key, then lower
	// id) goes before threshold's or is it, as a 4-ary max-heap in that
	// order; pos[i] is node i's place in it, or -1 for a cold node.
	hot       []heapEntry
	pos       []int32
	threshold heapEntry
	size      int // the number of hot nodes a new threshold aims at
	limit     int // the number of hot nodes beyond which a new threshold is taken
	// reading is the node being read: its key falls, every other node's
	// key only rises during a read.
	reading int
	folds   int // o.folds when the keys in hot were taken
	// refills counts the passes that took a new threshold.
	refills int
}

// heapEntry is a node of the greedy heap with its key beside it, so that a
// sift compares entries that sit together in memory instead of reading
// cash and seen at two random places per comparison. Four children per
// entry halve the depth of a binary heap; the four are 64 bytes, one cache
// line.
type heapEntry struct {
	key  float64
	node int32
}

// heapArity is the number of children of a heap entry.
const heapArity = 4

// minHot is the least number of hot nodes a threshold aims at; hotShare
// the share of all nodes it aims at when that is more. The larger the
// share, the rarer the passes over all nodes and the larger the heap.
const (
	minHot   = 1024
	hotShare = 256
)

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
	sel := &Selector{o: o, strategy: s, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), reading: -1}
	if s == Greedy {
		sel.size = max(minHot, o.Len()/hotShare)
		sel.pos = make([]int32, o.Len())
		sel.refill()
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
		if len(s.hot) == 0 {
			s.refill()
		}
		i = int(s.hot[0].node)
	}
	if s.strategy == Greedy {
		// Reading i empties it, then raises its out-neighbours one by one;
		// each change is placed as it happens. The virtual page's uniform
		// share moves every key by the same amount and leaves the order
		// unchanged.
		s.reading = i
		s.o.changed = s.fix
	}
	s.o.Read(i)
	s.o.changed = nil
	if s.strategy == Greedy {
		s.reading = -1
		if s.folds != s.o.folds || len(s.hot) > s.limit {
			s.refill()
		}
	}
	return i
}

// key orders nodes by cash: Cash(i) = key(i) + uniform, and uniform is the same for all.
func (s *Selector) key(i int) float64 { return s.o.acct[i].cash - s.o.acct[i].seen }

// entry is node i with its key, as the heap orders it.
func (s *Selector) entry(i int) heapEntry { return heapEntry{s.key(i), int32(i)} }

// refill takes every key anew and a threshold that about s.size nodes
// reach, and makes the nodes that reach it the hot heap. The threshold is
// a node's key and id, the entry of a sample of nodes that a share size/n
// of the sample reaches: the order of entries has no ties, so a mass of
// equal keys (the nodes no read has sent cash to) is cut by id as the
// reads will take it. Any threshold keeps the selection exact; the sample
// only sizes the heap. It is also called after the OPIC folded its uniform
// share into the cash (see handOut), which moves every key by about the
// same amount.
func (s *Selector) refill() {
	n := s.o.Len()
	s.folds = s.o.folds
	s.refills++
	s.hot = s.hot[:0]
	if n == 0 {
		return
	}
	const samples = 2048
	sample := make([]heapEntry, 0, samples)
	if n <= samples {
		for i := range n {
			sample = append(sample, s.entry(i))
		}
	} else {
		for range samples {
			sample = append(sample, s.entry(s.rng.IntN(n)))
		}
	}
	slices.SortFunc(sample, func(a, b heapEntry) int {
		if before(a, b) {
			return -1
		}
		if before(b, a) {
			return 1
		}
		return 0
	})
	c := max(1, int(float64(len(sample))*float64(s.size)/float64(n)))
	s.threshold = sample[min(c, len(sample))-1]
	for i := range n {
		if e := s.entry(i); !before(s.threshold, e) {
			s.pos[i] = int32(len(s.hot))
			s.hot = append(s.hot, e)
		} else {
			s.pos[i] = -1
		}
	}
	// Too many hot nodes call for a new threshold, but not at once again
	// when the sample missed how many reach this one.
	s.limit = max(8*s.size, 2*len(s.hot))
	for k := (len(s.hot) - 2) / heapArity; k >= 0; k-- {
		s.down(k)
	}
}

// before says whether entry a goes before entry b: more cash, or as much and
// a lower node id.
func before(a, b heapEntry) bool {
	return a.key > b.key || (a.key == b.key && a.node < b.node)
}

// fix keeps hot exactly the nodes that reach the threshold, in heap
// order, after node i's key changed. A node other than the one being read
// only gains cash: short of the threshold it was cold before and stays so,
// which is decided from its cash alone.
func (s *Selector) fix(i int) {
	e := s.entry(i)
	cold := before(s.threshold, e)
	if cold && i != s.reading {
		return
	}
	p := int(s.pos[i])
	switch {
	case p < 0 && !cold:
		s.hot = append(s.hot, e)
		s.up(len(s.hot) - 1)
	case p < 0:
	case cold:
		s.remove(p)
	default:
		s.hot[p].key = e.key
		s.sift(p)
	}
}

// remove takes the entry at p out of the hot heap; its node turns cold.
func (s *Selector) remove(p int) {
	s.pos[s.hot[p].node] = -1
	last := len(s.hot) - 1
	if p == last {
		s.hot = s.hot[:last]
		return
	}
	s.place(p, s.hot[last])
	s.hot = s.hot[:last]
	s.sift(p)
}

// sift restores the heap order after the entry at p changed: towards the
// root when it now goes before its parent, else towards the leaves.
func (s *Selector) sift(p int) {
	if p > 0 && before(s.hot[p], s.hot[(p-1)/heapArity]) {
		s.up(p)
	} else {
		s.down(p)
	}
}

// up moves the entry at k towards the root until its parent goes before it.
func (s *Selector) up(k int) {
	e := s.hot[k]
	for k > 0 {
		p := (k - 1) / heapArity
		if !before(e, s.hot[p]) {
			break
		}
		s.place(k, s.hot[p])
		k = p
	}
	s.place(k, e)
}

// down moves the entry at k towards the leaves until it goes before all its
// children.
func (s *Selector) down(k int) {
	e := s.hot[k]
	n := len(s.hot)
	for {
		c := heapArity*k + 1
		if c >= n {
			break
		}
		best := c
		for j := c + 1; j < min(c+heapArity, n); j++ {
			if before(s.hot[j], s.hot[best]) {
				best = j
			}
		}
		if !before(s.hot[best], e) {
			break
		}
		s.place(k, s.hot[best])
		k = best
	}
	s.place(k, e)
}

// place puts entry e at position k of the hot heap.
func (s *Selector) place(k int, e heapEntry) {
	s.hot[k] = e
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
