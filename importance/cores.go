package importance

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
)

// CoreOptions sets up [ExtractSeeds], after the seeds paper (Daneshpajouh,
// Mohammadi Nasiri, Ghodsi), sections 2.2–2.4.
type CoreOptions struct {
	// HITS is the ranking run before each extraction; default exactly 60
	// iterations, as in the paper.
	HITS HITSOptions
	// CoverDensity, in percent, is the least cover density
	// 100·|E(Hubs, Authorities)| / (|Hubs|·|Authorities|) a core may have
	// (Extract-Bipartite-Cores-with-Fixed-CoverDensity). 100, the default,
	// asks for complete bipartite cores. Used when CoreSize is 0.
	CoverDensity float64
	// CoreSize > 0 selects Extract-Bipartite-Cores-with-Fixed-Size: a core
	// grows until it has CoreSize members (hubs plus authorities),
	// NewMembers hubs then NewMembers authorities at a time.
	CoreSize   int
	NewMembers int // default 1
	// MinHubs and MinAuthorities are the fewest hubs and authorities a core
	// must have to count as a community; 2 each in DefaultCoreOptions, 0
	// or 1 for no minimum. One hub with its out-links is complete bipartite
	// only trivially: it says that a site links somewhere, not that several
	// sites agree on what to link to, which is what the paper's community
	// is (section 2.3: "all the authority pages are from the same
	// community"). A core grown from the best authority that falls short
	// is dropped, and the next authority by rank is tried as the start, up
	// to MaxCoreStarts of them.
	MinHubs, MinAuthorities int
}

// MaxCoreStarts bounds the authorities, best first, from which one round of
// ExtractSeeds tries to grow a core that has CoreOptions.MinHubs hubs and
// MinAuthorities authorities; a round that finds none ends the extraction.
const MaxCoreStarts = 200

// DefaultCoreOptions is the paper's setting: HITS with 60 iterations, cover
// density 100, and cores of at least 2 hubs and 2 authorities.
func DefaultCoreOptions() CoreOptions {
	return CoreOptions{HITS: DefaultHITSOptions(), CoverDensity: 100, NewMembers: 1, MinHubs: 2, MinAuthorities: 2}
}

// Core is one extracted bipartite core.
type Core struct {
	Hubs        []int // node ids, in the order they joined
	Authorities []int
	// Seed is the core's hub with the highest hub score, the node proposed
	// as a crawl seed. The paper picks a hub "arbitrarily"; the best hub
	// makes the choice deterministic and favours the hub most likely to
	// lead to the core's authorities.
	Seed      int
	SeedHub   float64 // Seed's hub score in the ranking the core came from
	Density   float64 // cover density of the core, in percent
	Arcs      int     // |E(Hubs, Authorities)|
	Iteration int     // 0 for the first core extracted
}

// ErrNoCore is returned when no core can be extracted any more: every arc
// of the graph has been removed with earlier cores, or the graph has none.
var ErrNoCore = errors.New("importance: no bipartite core left")

// ExtractSeeds runs the paper's Extract-Seeds: repeat HITS-Ranking on the
// graph, extract the best bipartite core, take its best hub as a seed, and
// remove the core's hubs and authorities with their arcs, until count
// seeds. It returns the cores in the order found; fewer than count, with no
// error, when the graph runs out of arcs or no core grown from what is left
// has enough hubs and authorities (the cores found are still right;
// [ExtractSeedsEnd] tells which).
//
// Each round costs O(HITS iterations · (N + arcs)) plus the growth of its
// core, which only looks at the arcs of the core's members, once per start
// tried (at most MaxCoreStarts, a constant); in all O(count · (N + arcs)),
// with no quadratic step.
func ExtractSeeds(g *Graph, count int, opt CoreOptions) ([]Core, error) {
	return ExtractSeedsContext(context.Background(), g, count, opt)
}

// ExtractSeedsContext is ExtractSeeds that stops between two rounds once
// ctx is done, returning the cores found so far and ctx's error.
func ExtractSeedsContext(ctx context.Context, g *Graph, count int, opt CoreOptions) ([]Core, error) {
	cores, _, err := ExtractSeedsEnd(ctx, g, count, opt)
	return cores, err
}

// SeedsEnd is why an extraction ended.
type SeedsEnd int

// Ends of an extraction. Fewer cores than asked come from either of two
// ends, which a librarian acts on differently: a graph used up needs more
// crawling, a graph whose links are left in cores too small might give
// more cores with lower MinHubs and MinAuthorities.
const (
	// EndCount: the extraction found as many cores as asked.
	EndCount SeedsEnd = iota
	// EndNoLinks: no link was left outside the cores found.
	EndNoLinks
	// EndSmallCores: links were left, but no core grown from the best
	// MaxCoreStarts authorities among them had MinHubs hubs and
	// MinAuthorities authorities (with cover density 100, among those
	// with MinHubs in-neighbours of MinAuthorities out-links: no other
	// can start such a core). On a site graph: no core of enough hub sites
	// and authority sites.
	EndSmallCores
)

// String names e as the API does: "count", "no_links", "small_cores".
func (e SeedsEnd) String() string {
	switch e {
	case EndNoLinks:
		return "no_links"
	case EndSmallCores:
		return "small_cores"
	}
	return "count"
}

// ExtractSeedsEnd is ExtractSeedsContext that also tells why it ended.
func ExtractSeedsEnd(ctx context.Context, g *Graph, count int, opt CoreOptions) ([]Core, SeedsEnd, error) {
	if count <= 0 {
		return nil, EndCount, fmt.Errorf("importance: seed count %d must be positive", count)
	}
	if opt.NewMembers <= 0 {
		opt.NewMembers = 1
	}
	if opt.CoreSize == 0 && !(opt.CoverDensity > 0 && opt.CoverDensity <= 100) {
		return nil, EndCount, fmt.Errorf("importance: cover density %v not in (0, 100]", opt.CoverDensity)
	}
	if opt.CoreSize < 0 || (opt.CoreSize > 0 && opt.CoreSize < 2) {
		return nil, EndCount, fmt.Errorf("importance: core size %d must be at least 2", opt.CoreSize)
	}
	if err := checkMinSides(opt); err != nil {
		return nil, EndCount, err
	}
	// The graph of a round is the graph without the members of earlier
	// cores: sub, and in its reversal, both built once and then cut down
	// in place, so that a round reads its arcs without copying the graph
	// again. Weights are kept only where HITS weighs arcs.
	removed := make([]bool, g.N)
	var cores []Core
	var sub, in Graph
	var vec hitsVectors // reused round after round: a round allocates no graph or vector
	for len(cores) < count {
		if err := ctx.Err(); err != nil {
			return cores, EndCount, err
		}
		if len(cores) == 0 {
			subgraphInto(&sub, g, removed, opt.HITS.Weighted)
			reverseInto(&in, &sub, opt.HITS.Weighted)
		} else {
			dropNodes(&sub, removed)
			dropNodes(&in, removed)
		}
		if sub.Arcs() == 0 {
			return cores, EndNoLinks, nil
		}
		r, err := hits(&sub, &in, opt.HITS, &vec, hitsWorkers(sub.Arcs()))
		if err != nil && !errors.Is(err, ErrHITSNotConverged) {
			return cores, EndCount, err
		}
		c, err := extractCore(&sub, &in, r.Hub, r.Authority, opt)
		if errors.Is(err, ErrNoCore) {
			return cores, EndSmallCores, nil // sub has arcs: every start fell short
		}
		if err != nil {
			return cores, EndCount, err
		}
		c.Iteration = len(cores)
		cores = append(cores, c)
		for _, v := range c.Hubs {
			removed[v] = true
		}
		for _, v := range c.Authorities {
			removed[v] = true
		}
	}
	return cores, EndCount, nil
}

// subgraphInto makes s the graph g without the arcs that touch a removed
// node, reusing s's slices; node ids are kept, removed nodes become
// isolated. s has g's weights and OutW if weights is set, else neither:
// the graphs of an extraction are weighed only where HITS weighs arcs.
func subgraphInto(s *Graph, g *Graph, removed []bool, weights bool) {
	s.N = g.N
	s.Offsets = resize(s.Offsets, g.N+1)
	if cap(s.Targets) < len(g.Targets) {
		s.Targets = make([]int32, 0, len(g.Targets))
	}
	s.Targets, s.Weights, s.OutW = s.Targets[:0], nil, nil
	if weights {
		s.Weights, s.OutW = make([]float64, 0, len(g.Targets)), make([]float64, g.N)
	}
	for u := 0; u < g.N; u++ {
		s.Offsets[u] = len(s.Targets)
		if removed[u] {
			continue
		}
		for k := g.Offsets[u]; k < g.Offsets[u+1]; k++ {
			if v := g.Targets[k]; !removed[v] {
				s.Targets = append(s.Targets, v)
				if weights {
					s.Weights = append(s.Weights, g.Weights[k])
					s.OutW[u] += g.Weights[k]
				}
			}
		}
	}
	s.Offsets[g.N] = len(s.Targets)
}

// dropNodes removes from g, in place, the arcs that touch a removed node,
// keeping the order of the others: the graph subgraphInto would make of
// g, without a copy. When g has weights they go with their arcs, and OutW
// is summed again.
func dropNodes(g *Graph, removed []bool) {
	weights := g.Weights != nil
	w := 0
	for u := 0; u < g.N; u++ {
		lo, hi := g.Offsets[u], g.Offsets[u+1]
		g.Offsets[u] = w
		if weights {
			g.OutW[u] = 0
		}
		if removed[u] {
			continue
		}
		for k := lo; k < hi; k++ {
			if v := g.Targets[k]; !removed[v] {
				g.Targets[w] = v
				if weights {
					g.Weights[w] = g.Weights[k]
					g.OutW[u] += g.Weights[k]
				}
				w++
			}
		}
	}
	g.Offsets[g.N] = w
	g.Targets = g.Targets[:w]
	if weights {
		g.Weights = g.Weights[:w]
	}
}

// resize returns a slice of length n, reusing x's array when it is large enough.
func resize[T any](x []T, n int) []T {
	if cap(x) < n {
		return make([]T, n)
	}
	return x[:n]
}

// checkMinSides checks the least core shape of opt.
func checkMinSides(opt CoreOptions) error {
	switch {
	case opt.MinHubs < 0 || opt.MinAuthorities < 0:
		return fmt.Errorf("importance: least hubs %d and authorities %d of a core must not be negative", opt.MinHubs, opt.MinAuthorities)
	case opt.CoreSize > 0 && opt.CoreSize < max(opt.MinHubs, 1)+max(opt.MinAuthorities, 1):
		return fmt.Errorf("importance: core size %d is below the least core of %d hubs and %d authorities",
			opt.CoreSize, max(opt.MinHubs, 1), max(opt.MinAuthorities, 1))
	}
	return nil
}

// ExtractCore extracts one bipartite core of g from its HITS hub and
// authority vectors h and a (Extract-Bipartite-Cores-with-Fixed-Size or
// -CoverDensity, after opt).
//
// It starts from the node with the highest authority and grows the core in
// rounds, as the paper's Figures 1 and 2 do: each round adds a hub, the
// best-ranked (by h) in-neighbour of the authorities not yet in the core,
// then an authority, the best-ranked (by a) out-neighbour of the hubs not
// yet in the core. (The figures print the authority step with the roles of
// v and w mixed up; read literally it would only pick nodes already in the
// set.) Ties go to the lower node id.
//
// With a cover density (Figure 2), a member joins only if the core keeps
// that density: the paper checks after adding, which returns a core just
// under the density asked (with the default 100, not the complete
// bipartite core the paper says the procedure finds). A candidate that
// would lower it is passed over for the next best; with density 100 it can
// never join later (it misses a member already there, and members are
// never removed), below 100 passing it over for good is a greedy
// simplification. A step whose side has no candidate at all adds nothing,
// as the paper's "Find Top" over an empty set does, and the round goes on;
// growth stops at the first step, hub or authority, whose side has
// candidates but none that keeps the density (where the paper's loop would
// see the density fall and end), or after a round that added nothing. So
// one side never grows on alone once the other is blocked, which would
// turn one hub and its out-links into a "core" complete only trivially;
// it grows alone only while the other side has no candidate left at all.
//
// With a fixed size (Figure 1), a round adds up to NewMembers hubs then up
// to NewMembers authorities, with no density check, until the core has
// CoreSize members or neither side has a candidate left.
//
// A core with fewer than opt.MinHubs hubs or opt.MinAuthorities
// authorities is no community: it is dropped and grown again from the next
// authority by rank, up to MaxCoreStarts starts; ErrNoCore when none
// reaches the minimum. With cover density 100, an authority that cannot
// start a complete core of that size (see canStartComplete) is no start.
func ExtractCore(g *Graph, h, a []float64, opt CoreOptions) (Core, error) {
	if len(h) != g.N || len(a) != g.N {
		return Core{}, fmt.Errorf("importance: hub and authority vectors of %d and %d entries for %d nodes", len(h), len(a), g.N)
	}
	if opt.NewMembers <= 0 {
		opt.NewMembers = 1
	}
	if err := checkMinSides(opt); err != nil {
		return Core{}, err
	}
	var in Graph
	reverseInto(&in, g, false)
	return extractCore(g, &in, h, a, opt)
}

// extractCore grows one core of g; in is g reversed.
func extractCore(g, in *Graph, h, a []float64, opt CoreOptions) (Core, error) {
	// The starts: nodes with an in-arc (a node with none cannot be an
	// authority), best authority first, ties to the lower id.
	var starts rankHeap
	complete := opt.CoreSize == 0 && opt.CoverDensity >= 100
	for v := 0; v < g.N; v++ {
		if in.Offsets[v+1] > in.Offsets[v] && (!complete || canStartComplete(g, in, v, opt)) {
			starts = append(starts, ranked{v, a[v]})
		}
	}
	if len(starts) == 0 {
		return Core{}, ErrNoCore
	}
	heap.Init(&starts)
	for try := 0; try < MaxCoreStarts && starts.Len() > 0; try++ {
		first := heap.Pop(&starts).(ranked).node
		cb := coreBuilder{g: g, in: in, h: h, a: a, isHub: map[int]bool{}, isAuth: map[int]bool{},
			hubArcs: map[int]int{}, authArcs: map[int]int{}}
		cb.addAuthority(first)
		if opt.CoreSize > 0 {
			cb.growToSize(opt)
		} else {
			cb.growDense(opt)
		}
		if len(cb.hubs) < opt.MinHubs || len(cb.auths) < opt.MinAuthorities || len(cb.hubs) == 0 {
			continue
		}
		c := Core{Hubs: cb.hubs, Authorities: cb.auths, Arcs: cb.arcs, Density: cb.density(0, 0), Seed: -1}
		for _, u := range cb.hubs {
			if c.Seed < 0 || h[u] > h[c.Seed] {
				c.Seed = u
			}
		}
		c.SeedHub = h[c.Seed]
		return c, nil
	}
	return Core{}, ErrNoCore
}

// canStartComplete reports whether a complete core grown from authority v
// can have opt.MinHubs hubs and opt.MinAuthorities authorities: every hub
// of such a core links to all its authorities, v among them, so v needs
// MinHubs in-neighbours of MinAuthorities out-links or more. The starts
// that cannot are skipped, not tried and dropped: on a crawl's site graph,
// mostly stars of sites no other links to, their leaves would use up the
// MaxCoreStarts tries ahead of a small core ranked below them, and the
// extraction would end on EndSmallCores with that core left.
func canStartComplete(g, in *Graph, v int, opt CoreOptions) bool {
	need := max(opt.MinHubs, 1)
	if in.Offsets[v+1]-in.Offsets[v] < need {
		return false
	}
	for k := in.Offsets[v]; k < in.Offsets[v+1] && need > 0; k++ {
		if u := in.Targets[k]; g.Offsets[u+1]-g.Offsets[u] >= max(opt.MinAuthorities, 1) {
			need--
		}
	}
	return need == 0
}

// growDense grows a cover-density core: a hub, then an authority, each
// round, until a step's side is blocked (it has candidates, none of which
// keeps the density) or a round adds nothing.
func (cb *coreBuilder) growDense(opt CoreOptions) {
	for {
		hub, blocked := cb.grow(true, opt)
		if blocked {
			return
		}
		auth, blocked := cb.grow(false, opt)
		if blocked || !hub && !auth {
			return
		}
	}
}

// growToSize grows a fixed-size core: NewMembers hubs, then NewMembers
// authorities, each round, until it has CoreSize members or neither side
// has a candidate left.
func (cb *coreBuilder) growToSize(opt CoreOptions) {
	for cb.size() < opt.CoreSize {
		grew := false
		for _, hub := range []bool{true, false} {
			for range opt.NewMembers {
				if cb.size() >= opt.CoreSize {
					break
				}
				if added, _ := cb.grow(hub, opt); !added {
					break
				}
				grew = true
			}
		}
		if !grew {
			return
		}
	}
}

// coreBuilder grows one core. Candidates wait in two max-heaps: hubs (in-
// neighbours of the authorities) by h, authorities (out-neighbours of the
// hubs) by a; a node already taken, or passed over, is skipped when it
// comes out. hubArcs[u] counts the arcs from u to the core's authorities,
// authArcs[v] those from the core's hubs to v, so that the density a
// candidate would leave is known without reading its arcs again.
type coreBuilder struct {
	g, in       *Graph
	h, a        []float64
	hubs, auths []int
	isHub       map[int]bool
	isAuth      map[int]bool
	hubArcs     map[int]int
	authArcs    map[int]int
	arcs        int // |E(hubs, auths)|
	hubCand     rankHeap
	authCand    rankHeap
}

func (cb *coreBuilder) size() int { return len(cb.hubs) + len(cb.auths) }

// density is the cover density, in percent, with extra hubs and authorities
// and extra arcs between the sets.
func (cb *coreBuilder) density(extraArcs, extraNodes int) float64 {
	nh, na := len(cb.hubs), len(cb.auths)
	if extraNodes > 0 {
		nh++
	} else if extraNodes < 0 {
		na++
	}
	if nh == 0 || na == 0 {
		return 100
	}
	return 100 * float64(cb.arcs+extraArcs) / float64(nh*na)
}

func (cb *coreBuilder) addAuthority(v int) {
	cb.auths = append(cb.auths, v)
	cb.isAuth[v] = true
	cb.arcs += cb.authArcs[v]
	for k := cb.in.Offsets[v]; k < cb.in.Offsets[v+1]; k++ {
		u := int(cb.in.Targets[k])
		cb.hubArcs[u]++
		if !cb.isHub[u] && cb.hubArcs[u] == 1 && cb.h[u] > 0 {
			heap.Push(&cb.hubCand, ranked{u, cb.h[u]})
		}
	}
}

func (cb *coreBuilder) addHub(u int) {
	cb.hubs = append(cb.hubs, u)
	cb.isHub[u] = true
	cb.arcs += cb.hubArcs[u]
	for k := cb.g.Offsets[u]; k < cb.g.Offsets[u+1]; k++ {
		v := int(cb.g.Targets[k])
		cb.authArcs[v]++
		if !cb.isAuth[v] && cb.authArcs[v] == 1 && cb.a[v] > 0 {
			heap.Push(&cb.authCand, ranked{v, cb.a[v]})
		}
	}
}

// grow adds the best candidate hub (or authority) that keeps the cover
// density (any candidate with a fixed size), and tells whether it added
// one, and when it did not, whether there were candidates, all of which
// would have lowered the density (the side is blocked).
func (cb *coreBuilder) grow(hub bool, opt CoreOptions) (added, blocked bool) {
	cand, arcs, side := &cb.authCand, cb.authArcs, -1
	if hub {
		cand, arcs, side = &cb.hubCand, cb.hubArcs, 1
	}
	for cand.Len() > 0 {
		v := heap.Pop(cand).(ranked).node
		// A node stands on one side only, so that the core is bipartite.
		if cb.isHub[v] || cb.isAuth[v] {
			continue
		}
		if opt.CoreSize == 0 && cb.density(arcs[v], side) < opt.CoverDensity {
			blocked = true
			continue // passed over for good; see ExtractCore
		}
		if hub {
			cb.addHub(v)
		} else {
			cb.addAuthority(v)
		}
		return true, false
	}
	return false, blocked
}

type ranked struct {
	node  int
	score float64
}

// rankHeap is a max-heap on score, ties to the lower node id.
type rankHeap []ranked

func (r rankHeap) Len() int { return len(r) }
func (r rankHeap) Less(i, j int) bool {
	return r[i].score > r[j].score || r[i].score == r[j].score && r[i].node < r[j].node
}
func (r rankHeap) Swap(i, j int) { r[i], r[j] = r[j], r[i] }
func (r *rankHeap) Push(x any)   { *r = append(*r, x.(ranked)) }
func (r *rankHeap) Pop() any {
	old := *r
	x := old[len(old)-1]
	*r = old[:len(old)-1]
	return x
}

// reverseInto makes r the graph g with every arc turned around, reusing
// r's slices; the arcs into a node are in increasing order of source. The
// weights go with the arcs, and OutW sums them, if weights is set (g must
// have them), else r has neither.
func reverseInto(r *Graph, g *Graph, weights bool) {
	r.N = g.N
	r.Offsets = resize(r.Offsets, g.N+1)
	clear(r.Offsets)
	r.Targets = resize(r.Targets, len(g.Targets))
	r.Weights, r.OutW = nil, nil
	if weights {
		r.Weights, r.OutW = make([]float64, len(g.Targets)), make([]float64, g.N)
	}
	for _, v := range g.Targets {
		r.Offsets[v+1]++
	}
	for v := 0; v < g.N; v++ {
		r.Offsets[v+1] += r.Offsets[v]
	}
	fill := append([]int(nil), r.Offsets[:g.N]...)
	for u := 0; u < g.N; u++ {
		for k := g.Offsets[u]; k < g.Offsets[u+1]; k++ {
			v := g.Targets[k]
			r.Targets[fill[v]] = int32(u)
			if weights {
				r.Weights[fill[v]] = g.Weights[k]
				r.OutW[v] += g.Weights[k]
			}
			fill[v]++
		}
	}
}
