package importance

import (
	"fmt"
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
	next     int   // Cycle: the next node
	heap     []int // Greedy: node ids, max-heap on key
	pos      []int // Greedy: position of each node in heap
}

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
	sel := &Selector{o: o, strategy: s, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	if s == Greedy {
		n := o.Len()
		sel.heap = make([]int, n)
		sel.pos = make([]int, n)
		for i := range n {
			sel.heap[i], sel.pos[i] = i, i
		}
		for i := n/2 - 1; i >= 0; i-- {
			sel.down(i)
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
		i = s.heap[0]
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
	return i
}

// key orders nodes by cash: Cash(i) = key(i) + uniform, and uniform is the same for all.
func (s *Selector) key(i int) float64 { return s.o.cash[i] - s.o.seen[i] }

func (s *Selector) less(a, b int) bool { // a before b in the heap
	ka, kb := s.key(s.heap[a]), s.key(s.heap[b])
	return ka > kb || (ka == kb && s.heap[a] < s.heap[b])
}

func (s *Selector) swap(a, b int) {
	s.heap[a], s.heap[b] = s.heap[b], s.heap[a]
	s.pos[s.heap[a]], s.pos[s.heap[b]] = a, b
}

// fix restores the heap order after node i's key changed.
func (s *Selector) fix(i int) {
	k := s.pos[i]
	s.up(k)
	if s.pos[i] == k {
		s.down(k)
	}
}

func (s *Selector) up(k int) {
	for k > 0 {
		p := (k - 1) / 2
		if !s.less(k, p) {
			return
		}
		s.swap(k, p)
		k = p
	}
}

func (s *Selector) down(k int) {
	n := len(s.heap)
	for {
		c := 2*k + 1
		if c >= n {
			return
		}
		if c+1 < n && s.less(c+1, c) {
			c++
		}
		if !s.less(c, k) {
			return
		}
		s.swap(k, c)
		k = c
	}
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
