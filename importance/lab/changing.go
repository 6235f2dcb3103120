package lab

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"sitesift/importance"
)

// The changing graph of the Adaptive OPIC experiment. The paper's synthetic
// experiments vary "change rates, types of changes" on its power-law graph
// model and leave the details out; sitesift's model keeps the graph's
// statistics steady while the importance of individual nodes moves:
//
//   - Popularity. Every live node holds a popularity rank 1..N. Whenever an
//     arc gets a new target, the target is drawn as [importance.Synthetic]
//     draws them, with probability ∝ rank^−α (α = 1/(γ − 1), γ =
//     [importance.SyntheticInExponent]), so the in-degree law stays the
//     generator's power law. The starting ranks follow the in-degrees of
//     the generated graph (ties in random order).
//   - Arc rewiring. An arc u→v chosen uniformly is pointed at a new target
//     w: a link edited to point elsewhere.
//   - Node replacement. A node chosen uniformly disappears with its arcs,
//     and a new node takes its popularity rank: a page goes, a new one
//     appears. The new node gets fresh out-arcs (the generator's out-degree
//     law: dangling with probability [importance.SyntheticDangling], else a
//     Poisson number of distinct targets) and no in-arc; the arcs that
//     pointed at the old node are pointed at new targets (their authors
//     fix the broken links), so the number of arcs stays about constant.
//     The new node then gains in-arcs as arcs are rewired — slowly, as the
//     paper observes of new pages.
//
// changeRate r sets both at a steady pace, on the clock of reads: every N
// reads (N the number of nodes, one read per node on average), r·N nodes
// are replaced and r·A arcs rewired (A the number of arcs at the start).
// The changes are spread evenly, a few before each read.

// changingGraph is a graph that changes under an AdaptiveOPIC, with the
// bookkeeping to draw uniform nodes and arcs and to find a node's in-arcs.
type changingGraph struct {
	a      *importance.AdaptiveOPIC
	rng    *rand.Rand
	lambda float64 // Poisson mean of a non-dangling node's out-degree

	// Arcs live in slots; a free slot has from = −1.
	from, to []int32
	free     []int32
	arcs     int
	in, out  [][]int32 // slots by target, by source (indexed by node id)
	inPos    []int32   // position of each slot in in[to]
	outPos   []int32   // position of each slot in out[from]

	nodes   []int32 // live node ids
	nodePos []int32 // position of each live node in nodes
	byRank  []int32 // node id of popularity rank r+1
	rankOf  []int32 // popularity rank − 1 by node id
	zipf    func(u float64) int

	nodeRate, arcRate float64 // changes per read
	nodeDebt, arcDebt float64 // changes due, not yet made
	replaced, rewired int     // changes made so far
	lost              int     // new arcs that found no target (see popular)
}

// newChangingGraph loads g into a, sets up popularity from g's in-degrees,
// and plans changeRate as described above.
func newChangingGraph(a *importance.AdaptiveOPIC, g *importance.Graph, avgOut, changeRate float64, rng *rand.Rand) *changingGraph {
	n := g.N
	c := &changingGraph{
		a: a, rng: rng, lambda: avgOut / (1 - importance.SyntheticDangling),
		in: make([][]int32, n), out: make([][]int32, n),
		nodes: make([]int32, n), nodePos: make([]int32, n),
		byRank: make([]int32, n), rankOf: make([]int32, n),
		zipf: zipfRanks(n, 1/(importance.SyntheticInExponent-1)),
	}
	indeg := make([]int, n)
	for u := range n {
		c.nodes[u], c.nodePos[u] = int32(u), int32(u)
		for k := g.Offsets[u]; k < g.Offsets[u+1]; k++ {
			c.link(int32(u), g.Targets[k])
			indeg[g.Targets[k]]++
		}
	}
	perm := rng.Perm(n)
	order := make([]int32, n)
	for r, v := range perm {
		order[r] = int32(v)
	}
	slices.SortStableFunc(order, func(x, y int32) int { return cmp.Compare(indeg[y], indeg[x]) })
	for r, v := range order {
		c.byRank[r], c.rankOf[v] = v, int32(r)
	}
	if n > 0 {
		c.nodeRate = changeRate
		c.arcRate = changeRate * float64(c.arcs) / float64(n)
	}
	return c
}

// link records the arc u→v in a free slot. The AdaptiveOPIC is told by the
// caller (at load time it already has the arc).
func (c *changingGraph) link(u, v int32) {
	var s int32
	if k := len(c.free); k > 0 {
		s, c.free = c.free[k-1], c.free[:k-1]
		c.from[s], c.to[s] = u, v
	} else {
		s = int32(len(c.from))
		c.from, c.to = append(c.from, u), append(c.to, v)
		c.inPos, c.outPos = append(c.inPos, 0), append(c.outPos, 0)
	}
	c.inPos[s] = int32(len(c.in[v]))
	c.in[v] = append(c.in[v], s)
	c.outPos[s] = int32(len(c.out[u]))
	c.out[u] = append(c.out[u], s)
	c.arcs++
}

// unlink frees slot s, removing its arc from the in and out lists.
func (c *changingGraph) unlink(s int32) {
	u, v := c.from[s], c.to[s]
	c.in[v] = removeAt(c.in[v], c.inPos[s], c.inPos)
	c.out[u] = removeAt(c.out[u], c.outPos[s], c.outPos)
	c.from[s], c.to[s] = -1, -1
	c.free = append(c.free, s)
	c.arcs--
}

// removeAt removes list[p] by moving the last element there, and updates
// the moved slot's position.
func removeAt(list []int32, p int32, pos []int32) []int32 {
	last := list[len(list)-1]
	list[p], pos[last] = last, p
	return list[:len(list)-1]
}

// has reports whether u already links to v.
func (c *changingGraph) has(u, v int32) bool {
	for _, s := range c.out[u] {
		if c.to[s] == v {
			return true
		}
	}
	return false
}

// popular draws a target for a new arc from u by popularity: not u and
// not already linked from u. It gives up (−1) after a few tries, which
// only happens when u already links to most of the popular nodes.
func (c *changingGraph) popular(u int32) int32 {
	for range 16 {
		v := c.byRank[c.zipf(c.rng.Float64())-1]
		if v != u && !c.has(u, v) {
			return v
		}
	}
	return -1
}

// addArc links u to a popular target, in the graph and in the OPIC.
func (c *changingGraph) addArc(u int32) error {
	v := c.popular(u)
	if v < 0 {
		c.lost++
		return nil
	}
	c.link(u, v)
	return c.a.SetArc(int(u), int(v), 1)
}

// rewire points a uniformly chosen arc at a new popular target.
func (c *changingGraph) rewire() error {
	if c.arcs == 0 {
		return nil
	}
	var s int32
	for {
		s = int32(c.rng.IntN(len(c.from)))
		if c.from[s] >= 0 {
			break
		}
	}
	u, v := c.from[s], c.to[s]
	if err := c.a.RemoveArc(int(u), int(v)); err != nil {
		return err
	}
	c.unlink(s)
	c.rewired++
	return c.addArc(u)
}

// replace removes a uniformly chosen node and adds a new one in its
// popularity rank, as described above.
func (c *changingGraph) replace() error {
	if len(c.nodes) < 2 {
		return nil
	}
	old := c.nodes[c.rng.IntN(len(c.nodes))]
	for len(c.out[old]) > 0 {
		c.unlink(c.out[old][len(c.out[old])-1])
	}
	var sources []int32
	for len(c.in[old]) > 0 {
		s := c.in[old][len(c.in[old])-1]
		sources = append(sources, c.from[s])
		c.unlink(s)
	}
	if err := c.a.RemoveNode(int(old)); err != nil {
		return err
	}
	p := c.nodePos[old]
	id := c.a.AddNode()
	if id != len(c.in) {
		return fmt.Errorf("lab: changing graph: new node id %d, want %d", id, len(c.in))
	}
	nid := int32(id)
	c.in, c.out = append(c.in, nil), append(c.out, nil)
	c.nodes[p] = nid
	c.nodePos = append(c.nodePos, p)
	r := c.rankOf[old]
	c.byRank[r] = nid
	c.rankOf = append(c.rankOf, r)
	c.replaced++
	// The broken links are repaired first, so that they may find the new
	// node too (with its rank's probability).
	for _, u := range sources {
		if err := c.addArc(u); err != nil {
			return err
		}
	}
	if c.rng.Float64() >= importance.SyntheticDangling {
		for range importance.Poisson(c.rng, c.lambda) {
			if err := c.addArc(nid); err != nil {
				return err
			}
		}
	}
	return nil
}

// change makes the changes due before one more read.
func (c *changingGraph) change() error {
	c.nodeDebt += c.nodeRate
	c.arcDebt += c.arcRate
	for ; c.nodeDebt >= 1; c.nodeDebt-- {
		if err := c.replace(); err != nil {
			return fmt.Errorf("lab: replace a node: %w", err)
		}
	}
	for ; c.arcDebt >= 1; c.arcDebt-- {
		if err := c.rewire(); err != nil {
			return fmt.Errorf("lab: rewire an arc: %w", err)
		}
	}
	return nil
}

// zipfRanks returns a sampler of ranks 1..n with P(r) ∝ r^−α (0 < α < 1),
// inverting the CDF of the density ∝ x^−α on [1, n+1): the law
// importance.Synthetic draws its targets from.
func zipfRanks(n int, alpha float64) func(u float64) int {
	e := 1 - alpha
	top := math.Pow(float64(n)+1, e) - 1
	return func(u float64) int {
		return min(max(int(math.Pow(1+u*top, 1/e)), 1), n)
	}
}
