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
}

// DefaultCoreOptions is the paper's setting: HITS with 60 iterations, cover
// density 100.
func DefaultCoreOptions() CoreOptions {
	return CoreOptions{HITS: DefaultHITSOptions(), CoverDensity: 100, NewMembers: 1}
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
// error, when the graph runs out of arcs (the cores found are still right).
//
// Each round costs O(HITS iterations · (N + arcs)) plus the core's growth,
// which only looks at the arcs of the core's members; in all
// O(count · (N + arcs)), with no quadratic step.
func ExtractSeeds(g *Graph, count int, opt CoreOptions) ([]Core, error) {
	return ExtractSeedsContext(context.Background(), g, count, opt)
}

// ExtractSeedsContext is ExtractSeeds that stops between two rounds once
// ctx is done, returning the cores found so far and ctx's error.
func ExtractSeedsContext(ctx context.Context, g *Graph, count int, opt CoreOptions) ([]Core, error) {
	if count <= 0 {
		return nil, fmt.Errorf("importance: seed count %d must be positive", count)
	}
	if opt.NewMembers <= 0 {
		opt.NewMembers = 1
	}
	if opt.CoreSize == 0 && !(opt.CoverDensity > 0 && opt.CoverDensity <= 100) {
		return nil, fmt.Errorf("importance: cover density %v not in (0, 100]", opt.CoverDensity)
	}
	if opt.CoreSize < 0 || (opt.CoreSize > 0 && opt.CoreSize < 2) {
		return nil, fmt.Errorf("importance: core size %d must be at least 2", opt.CoreSize)
	}
	alive := make([]bool, g.N)
	for i := range alive {
		alive[i] = true
	}
	var cores []Core
	var sub, in Graph // reused round after round: a round allocates no graph
	for len(cores) < count {
		if err := ctx.Err(); err != nil {
			return cores, err
		}
		subgraphInto(&sub, g, alive)
		if sub.Arcs() == 0 {
			break
		}
		r, err := HITS(&sub, opt.HITS)
		if err != nil && !errors.Is(err, ErrHITSNotConverged) {
			return cores, err
		}
		reverseInto(&in, &sub)
		c, err := extractCore(&sub, &in, r.Hub, r.Authority, opt)
		if errors.Is(err, ErrNoCore) {
			break
		}
		if err != nil {
			return cores, err
		}
		c.Iteration = len(cores)
		cores = append(cores, c)
		for _, v := range c.Hubs {
			alive[v] = false
		}
		for _, v := range c.Authorities {
			alive[v] = false
		}
	}
	return cores, nil
}

// subgraphInto makes s the graph g without the arcs that touch a removed
// node, reusing s's slices; node ids are kept, removed nodes become
// isolated.
func subgraphInto(s *Graph, g *Graph, alive []bool) {
	s.N = g.N
	s.Offsets = resize(s.Offsets, g.N+1)
	s.OutW = resize(s.OutW, g.N)
	clear(s.OutW)
	if cap(s.Targets) < len(g.Targets) {
		s.Targets = make([]int32, 0, len(g.Targets))
		s.Weights = make([]float64, 0, len(g.Weights))
	}
	s.Targets, s.Weights = s.Targets[:0], s.Weights[:0]
	for u := 0; u < g.N; u++ {
		s.Offsets[u] = len(s.Targets)
		if !alive[u] {
			continue
		}
		for k := g.Offsets[u]; k < g.Offsets[u+1]; k++ {
			if v := g.Targets[k]; alive[v] {
				s.Targets = append(s.Targets, v)
				s.Weights = append(s.Weights, g.Weights[k])
				s.OutW[u] += g.Weights[k]
			}
		}
	}
	s.Offsets[g.N] = len(s.Targets)
}

// resize returns a slice of length n, reusing x's array when it is large enough.
func resize[T any](x []T, n int) []T {
	if cap(x) < n {
		return make([]T, n)
	}
	return x[:n]
}

// ExtractCore extracts one bipartite core of g from its HITS hub and
// authority vectors h and a (Extract-Bipartite-Cores-with-Fixed-Size or
// -CoverDensity, after opt).
//
// It starts from the node with the highest authority and grows the core on
// both sides: a new hub is the best-ranked (by h) in-neighbour of the
// authorities not yet a hub; a new authority the best-ranked (by a)
// out-neighbour of the hubs not yet an authority. (The paper's Figure 1 and
// 2 print the authority step with the roles of v and w mixed up; read
// literally it would only pick nodes already in the set.) Ties go to the
// lower node id.
//
// With a cover density, a member is added only if the core keeps that
// density, and growth stops at the first side whose best candidate would
// lower it below: the paper checks after adding, which returns a core just
// under the density asked; with the default 100 that core would not be the
// complete bipartite core the paper says the procedure finds. With a fixed
// size, growth stops at the size or when neither side has a candidate left
// (a core that cannot grow).
func ExtractCore(g *Graph, h, a []float64, opt CoreOptions) (Core, error) {
	if len(h) != g.N || len(a) != g.N {
		return Core{}, fmt.Errorf("importance: hub and authority vectors of %d and %d entries for %d nodes", len(h), len(a), g.N)
	}
	if opt.NewMembers <= 0 {
		opt.NewMembers = 1
	}
	var in Graph
	reverseInto(&in, g)
	return extractCore(g, &in, h, a, opt)
}

// extractCore grows one core of g; in is g reversed.
func extractCore(g, in *Graph, h, a []float64, opt CoreOptions) (Core, error) {
	// The first authority: the highest a among nodes with an in-arc (a node
	// with none cannot be in a core).
	first := -1
	for v := 0; v < g.N; v++ {
		if in.Offsets[v+1] > in.Offsets[v] && (first < 0 || a[v] > a[first]) {
			first = v
		}
	}
	if first < 0 {
		return Core{}, ErrNoCore
	}
	cb := coreBuilder{g: g, in: in, h: h, a: a, isHub: map[int]bool{}, isAuth: map[int]bool{}}
	cb.addAuthority(first)
	for {
		grew := false
		for range opt.NewMembers {
			if opt.CoreSize > 0 && cb.size() >= opt.CoreSize {
				break
			}
			if !cb.grow(true, opt) {
				break
			}
			grew = true
		}
		for range opt.NewMembers {
			if opt.CoreSize > 0 && cb.size() >= opt.CoreSize {
				break
			}
			if !cb.grow(false, opt) {
				break
			}
			grew = true
		}
		if !grew || (opt.CoreSize > 0 && cb.size() >= opt.CoreSize) {
			break
		}
	}
	c := Core{Hubs: cb.hubs, Authorities: cb.auths, Arcs: cb.arcs, Density: cb.density(0, 0), Seed: -1}
	for _, u := range cb.hubs {
		if c.Seed < 0 || h[u] > h[c.Seed] {
			c.Seed = u
		}
	}
	if c.Seed >= 0 {
		c.SeedHub = h[c.Seed]
	}
	return c, nil
}

// coreBuilder grows one core. Candidates wait in two max-heaps: hubs (in-
// neighbours of the authorities) by h, authorities (out-neighbours of the
// hubs) by a; a node already taken is skipped when it comes out.
type coreBuilder struct {
	g, in       *Graph
	h, a        []float64
	hubs, auths []int
	isHub       map[int]bool
	isAuth      map[int]bool
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
	for k := cb.in.Offsets[v]; k < cb.in.Offsets[v+1]; k++ {
		u := int(cb.in.Targets[k])
		if cb.isHub[u] {
			cb.arcs++
		} else if cb.h[u] > 0 {
			heap.Push(&cb.hubCand, ranked{u, cb.h[u]})
		}
	}
}

func (cb *coreBuilder) addHub(u int) {
	cb.hubs = append(cb.hubs, u)
	cb.isHub[u] = true
	for k := cb.g.Offsets[u]; k < cb.g.Offsets[u+1]; k++ {
		v := int(cb.g.Targets[k])
		if cb.isAuth[v] {
			cb.arcs++
		} else if cb.a[v] > 0 {
			heap.Push(&cb.authCand, ranked{v, cb.a[v]})
		}
	}
}

// grow adds the best candidate hub (or authority) if it keeps the cover
// density, and tells whether it did.
func (cb *coreBuilder) grow(hub bool, opt CoreOptions) bool {
	cand := &cb.authCand
	if hub {
		cand = &cb.hubCand
	}
	// A node stands on one side only, so that the core is bipartite.
	for cand.Len() > 0 && (cb.isHub[(*cand)[0].node] || cb.isAuth[(*cand)[0].node]) {
		heap.Pop(cand)
	}
	if cand.Len() == 0 {
		return false
	}
	v := (*cand)[0].node
	if opt.CoreSize == 0 {
		// Arcs v would add to E(hubs, auths).
		extra := 0
		if hub {
			for k := cb.g.Offsets[v]; k < cb.g.Offsets[v+1]; k++ {
				if cb.isAuth[int(cb.g.Targets[k])] {
					extra++
				}
			}
		} else {
			for k := cb.in.Offsets[v]; k < cb.in.Offsets[v+1]; k++ {
				if cb.isHub[int(cb.in.Targets[k])] {
					extra++
				}
			}
		}
		side := -1
		if hub {
			side = 1
		}
		if cb.density(extra, side) < opt.CoverDensity {
			return false
		}
	}
	heap.Pop(cand)
	if hub {
		cb.addHub(v)
	} else {
		cb.addAuthority(v)
	}
	return true
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
// r's slices.
func reverseInto(r *Graph, g *Graph) {
	r.N = g.N
	r.Offsets = resize(r.Offsets, g.N+1)
	clear(r.Offsets)
	r.Targets = resize(r.Targets, len(g.Targets))
	r.Weights = resize(r.Weights, len(g.Weights))
	r.OutW = resize(r.OutW, g.N)
	clear(r.OutW)
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
			r.Targets[fill[v]], r.Weights[fill[v]] = int32(u), g.Weights[k]
			fill[v]++
			r.OutW[v] += g.Weights[k]
		}
	}
}
