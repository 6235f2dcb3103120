package app

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"sync"

	"sitesift/importance"
	"sitesift/sites"
)

// Community is one bipartite core found by the seeds method (the seeds
// paper, Daneshpajouh et al.): its hubs and authorities as URLs, and the hub
// proposed as a crawl seed.
type Community struct {
	// Core is the core's index in the order of extraction, from 0.
	Core int `json:"core"`
	// Seed is the core's hub with the highest hub score (see
	// importance.Core.Seed); Site is its site.
	Seed string `json:"seed"`
	Site string `json:"site"`
	// Hubs and Authorities are in the order they joined the core.
	Hubs        []string `json:"hubs"`
	Authorities []string `json:"authorities"`
	// CoverDensity is 100·|E(Hubs, Authorities)| / (|Hubs|·|Authorities|).
	CoverDensity float64 `json:"cover_density"`
	// HubScore is the seed's hub score in the HITS ranking the core was
	// extracted from.
	HubScore float64 `json:"hub_score"`
}

// DefaultCommunityCount is the number of seeds asked for when a caller
// does not say: the seeds paper's evaluation extracts 10.
const DefaultCommunityCount = 10

// MaxCommunityCount bounds the seeds one request may ask for: every seed is
// one HITS run over the whole graph.
const MaxCommunityCount = 1000

// communityGraph is the graph the method runs on, with what is needed to
// name its nodes and to tell whether it changed.
type communityGraph struct {
	urls []string
	g    *importance.Graph
	// imported is true for a project whose graph is an imported site
	// graph: its nodes are http://NAME/ and their site is NAME.
	imported bool
	// hash identifies the graph (nodes and arcs), so that an extraction
	// can be reused while the graph has not changed.
	hash uint64
	// rule is the project's site rule.
	rule sites.Rule
}

// site returns the site of node v.
func (cg *communityGraph) site(v int) string {
	u := cg.urls[v]
	if cg.imported {
		// An imported name may hold a path (polblogs has
		// "townhall.com/clog"); sites.Of would cut it to the host.
		return strings.TrimSuffix(strings.TrimPrefix(u, "http://"), "/")
	}
	if s, err := cg.rule.Of(u); err == nil {
		return s
	}
	return ""
}

// loadCommunityGraph reads the page graph of the project (see
// store.PageGraph) into an importance.Graph.
func (a *App) loadCommunityGraph(ctx context.Context) (*communityGraph, error) {
	urls, arcs, err := a.store.PageGraph(ctx)
	if err != nil {
		return nil, err
	}
	// Counted after the graph is read: no pages now means none then, so
	// the graph is an imported site graph. Pages saved since can only be
	// a crawl's on a project that had no graph, and the home URL of a
	// crawled site gives its name back through sites.Of.
	pages, _, err := a.store.Stats(ctx)
	if err != nil {
		return nil, err
	}
	edges := make([]importance.WeightedEdge, len(arcs))
	h := fnv.New64a()
	var buf [8]byte
	for _, u := range urls {
		h.Write([]byte(u))
		h.Write([]byte{0})
	}
	for i, arc := range arcs {
		edges[i] = importance.WeightedEdge{From: int(arc[0]), To: int(arc[1]), Weight: 1}
		binary.LittleEndian.PutUint32(buf[:4], uint32(arc[0]))
		binary.LittleEndian.PutUint32(buf[4:], uint32(arc[1]))
		h.Write(buf[:])
	}
	g, err := importance.NewGraph(len(urls), edges)
	if err != nil {
		return nil, fmt.Errorf("communities: %w", err)
	}
	return &communityGraph{urls: urls, g: g, imported: pages == 0, hash: h.Sum64(), rule: a.store.SiteRule()}, nil
}

// communityMemo keeps the last extraction: the communities page asks for
// the cores, then for the graph coloured by them, then exports a list
// edited from them, and each extraction costs count HITS runs.
type communityMemo struct {
	mu     sync.Mutex
	valid  bool
	hash   uint64
	count  int
	opt    importance.CoreOptions
	result []Community
}

// CoreSettings are the settings of an extraction a person gave, nil for
// those not given: the cover density a core must keep (in percent), or a
// fixed core size with the members added per step, and the HITS iterations
// run before each core.
type CoreSettings struct {
	Density        *float64
	CoreSize       *int
	NewMembers     *int
	HITSIterations *int
	// MinHubs and MinAuthorities are the least core a community may be
	// (importance.CoreOptions); 2 and 2 when not given.
	MinHubs        *int
	MinAuthorities *int
}

// Options checks the settings and returns them over
// importance.DefaultCoreOptions. A core grows by density or to a size, so
// density and core size exclude each other, and new members go with a core
// size. name gives what the caller calls each setting ("density",
// "core_size", "new_members", "hits_iterations", "min_hubs",
// "min_authorities"), for the errors.
func (s CoreSettings) Options(name func(setting string) string) (importance.CoreOptions, error) {
	opt := importance.DefaultCoreOptions()
	switch {
	case s.Density != nil && s.CoreSize != nil:
		return opt, badRequest(fmt.Errorf("%s and %s are exclusive (a core grows by density or to a size)", name("density"), name("core_size")))
	case s.NewMembers != nil && s.CoreSize == nil:
		return opt, badRequest(fmt.Errorf("%s goes with %s", name("new_members"), name("core_size")))
	case s.NewMembers != nil && *s.NewMembers <= 0:
		return opt, badRequest(fmt.Errorf("%s %d must be positive", name("new_members"), *s.NewMembers))
	}
	if s.Density != nil {
		opt.CoverDensity = *s.Density
	}
	if s.CoreSize != nil {
		opt.CoreSize = *s.CoreSize
	}
	opt.NewMembers = 1
	if s.NewMembers != nil {
		opt.NewMembers = *s.NewMembers
	}
	if s.HITSIterations != nil {
		opt.HITS.MaxIter = *s.HITSIterations
	}
	if s.MinHubs != nil {
		opt.MinHubs = *s.MinHubs
	}
	if s.MinAuthorities != nil {
		opt.MinAuthorities = *s.MinAuthorities
	}
	return opt, CheckCoreOptions(opt)
}

// CheckCoreOptions returns a bad-request error when opt is not a setting the
// extraction accepts.
func CheckCoreOptions(opt importance.CoreOptions) error {
	switch {
	case opt.HITS.MaxIter <= 0:
		return badRequest(fmt.Errorf("communities: HITS iterations %d must be positive", opt.HITS.MaxIter))
	case opt.CoreSize < 0 || opt.CoreSize == 1:
		return badRequest(fmt.Errorf("communities: core size %d must be at least 2", opt.CoreSize))
	case opt.CoreSize == 0 && !(opt.CoverDensity > 0 && opt.CoverDensity <= 100):
		return badRequest(fmt.Errorf("communities: cover density %v must lie in (0, 100]", opt.CoverDensity))
	case opt.NewMembers < 0:
		return badRequest(fmt.Errorf("communities: new members %d must be positive", opt.NewMembers))
	case opt.MinHubs < 1 || opt.MinAuthorities < 1:
		return badRequest(fmt.Errorf("communities: least hubs %d and authorities %d of a core must be at least 1", opt.MinHubs, opt.MinAuthorities))
	case opt.CoreSize > 0 && opt.CoreSize < opt.MinHubs+opt.MinAuthorities:
		return badRequest(fmt.Errorf("communities: core size %d is below the least core of %d hubs and %d authorities",
			opt.CoreSize, opt.MinHubs, opt.MinAuthorities))
	}
	return nil
}

// Communities runs the seeds method on the project's page graph (see
// store.PageGraph: links between pages of different sites; an imported site
// graph as it is) and returns up to count cores, in the order extracted,
// each with its seed. opt is importance.DefaultCoreOptions for the paper's
// setting. Fewer than count cores come back when the graph runs out of
// links. The result is deterministic: the same graph and options give the
// same cores; the last one is kept and reused while the graph is unchanged.
func (a *App) Communities(ctx context.Context, count int, opt importance.CoreOptions) ([]Community, error) {
	if count <= 0 {
		return nil, badRequest(fmt.Errorf("communities: count %d must be positive", count))
	}
	if err := CheckCoreOptions(opt); err != nil {
		return nil, err
	}
	if opt.NewMembers == 0 {
		opt.NewMembers = 1
	}
	cg, err := a.loadCommunityGraph(ctx)
	if err != nil {
		return nil, err
	}
	return a.extract(ctx, cg, count, opt)
}

// extract returns the communities of cg, from the memo when it holds them.
func (a *App) extract(ctx context.Context, cg *communityGraph, count int, opt importance.CoreOptions) ([]Community, error) {
	m := &a.communities
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.valid && m.hash == cg.hash && m.count == count && m.opt == opt {
		return cloneCommunities(m.result), nil
	}
	cores, err := importance.ExtractSeedsContext(ctx, cg.g, count, opt)
	if err != nil {
		return nil, fmt.Errorf("communities: %w", err)
	}
	out := make([]Community, len(cores))
	for i, c := range cores {
		out[i] = Community{
			Core: i, Seed: cg.urls[c.Seed], Site: cg.site(c.Seed),
			Hubs: nodeURLs(cg, c.Hubs), Authorities: nodeURLs(cg, c.Authorities),
			CoverDensity: c.Density, HubScore: c.SeedHub,
		}
	}
	m.valid, m.hash, m.count, m.opt, m.result = true, cg.hash, count, opt, out
	return cloneCommunities(out), nil
}

// currentCommunities returns the extraction the app shows: the last one
// computed if the graph has not changed since, else the paper's setting
// with [DefaultCommunityCount] seeds.
func (a *App) currentCommunities(ctx context.Context) (*communityGraph, []Community, error) {
	cg, err := a.loadCommunityGraph(ctx)
	if err != nil {
		return nil, nil, err
	}
	m := &a.communities
	m.mu.Lock()
	if m.valid && m.hash == cg.hash {
		out := cloneCommunities(m.result)
		m.mu.Unlock()
		return cg, out, nil
	}
	m.mu.Unlock()
	out, err := a.extract(ctx, cg, DefaultCommunityCount, importance.DefaultCoreOptions())
	return cg, out, err
}

func nodeURLs(cg *communityGraph, ids []int) []string {
	out := make([]string, len(ids))
	for i, v := range ids {
		out[i] = cg.urls[v]
	}
	return out
}

// cloneCommunities copies the memo's result so that callers may edit
// theirs.
func cloneCommunities(cs []Community) []Community {
	out := make([]Community, len(cs))
	for i, c := range cs {
		c.Hubs = slices.Clone(c.Hubs)
		c.Authorities = slices.Clone(c.Authorities)
		out[i] = c
	}
	return out
}

// EditedSeeds matches a seed list a librarian edited (seeds added or
// removed from an extraction) with the current extraction: a URL that is a
// hub or authority of a core gets that core; one that is not (added by
// hand) gets Core -1 and no hubs or authorities. Every URL must be an
// absolute http(s) URL; the first that is not is a bad-request error naming
// it. URLs are normalised and repeats dropped, first one kept.
func (a *App) EditedSeeds(ctx context.Context, urls []string) ([]Community, error) {
	if len(urls) == 0 {
		return nil, badRequest(errors.New("seeds: empty seed list"))
	}
	norm := make([]string, 0, len(urls))
	seen := map[string]bool{}
	for i, raw := range urls {
		u, err := sites.Normalize(raw)
		if err != nil {
			return nil, badRequest(fmt.Errorf("seed %d %q: %w", i+1, raw, err))
		}
		if !seen[u] {
			seen[u] = true
			norm = append(norm, u)
		}
	}
	cg, current, err := a.currentCommunities(ctx)
	if err != nil {
		return nil, err
	}
	member := map[string]int{}
	for i, c := range current {
		for _, u := range append(slices.Clone(c.Hubs), c.Authorities...) {
			member[u] = i
		}
	}
	out := make([]Community, len(norm))
	for i, u := range norm {
		site, _ := cg.rule.Of(u)
		if v, found := slices.BinarySearch(cg.urls, u); found {
			site = cg.site(v)
		}
		k, ok := member[u]
		if !ok {
			out[i] = Community{Core: -1, Seed: u, Site: site, Hubs: []string{}, Authorities: []string{}}
			continue
		}
		c := current[k]
		out[i] = Community{Core: c.Core, Seed: u, Site: site, Hubs: c.Hubs, Authorities: c.Authorities,
			CoverDensity: c.CoverDensity}
		// The hub score is known for the core's own seed only.
		if u == c.Seed {
			out[i].HubScore = c.HubScore
		}
	}
	return out, nil
}
