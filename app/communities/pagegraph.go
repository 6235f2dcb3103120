package communities

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	"sitesift/importance"
	"sitesift/sites"
	"sitesift/sites/store"
)

// communityGraph is the graph the method runs on, with what is needed to
// name its nodes and to tell whether it changed.
type communityGraph struct {
	urls []string
	g    *importance.Graph
	// siteNodes is true when each node is a site, http://NAME/ for the
	// site NAME (the graph of [Service.loadCommunityGraph]); false for the
	// page graph of the seeds paper's own evaluation ([Service.SeedGraphs]).
	siteNodes bool
	// imported is true for a project whose graph is an imported site
	// graph: it has no page, and a seed is made up from a site's name.
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
	if cg.siteNodes {
		// A site's name may hold a path (polblogs has
		// "townhall.com/clog"); sites.Of would cut it to the host.
		return strings.TrimSuffix(strings.TrimPrefix(u, "http://"), "/")
	}
	if s, err := cg.rule.Of(u); err == nil {
		return s
	}
	return ""
}

// loadCommunityGraph reads the graph the seeds method runs on: the site
// graph, each site a node http://NAME/ and each link between two sites
// one arc, however many pages carry it.
//
// The paper runs HITS on pages, with the links inside a site pruned
// (section 3.3.1). On a crawl that graph makes one publisher's pages,
// all linking to its network's help and footer pages, a complete core of
// pages: a "community" of one site pointing at its own template. A
// community is a core of sites, at least two hub sites agreeing on at
// least two authority sites, so the paper's method (HITS-ranking, the
// cover-density core, the core removed, again) runs on the site graph,
// the paper's pruning carried to its end: a site's pages are one node, its
// many pages one vote. Three blogs citing two news sites then make a core
// even when no two of their posts cite the same story.
//
// An imported site graph is read as the store keeps it (see
// store.ImportedSiteLinks); a crawl's as its ranking reads it.
//
// The links from and to platform sites (the project's, by the list and
// the librarians' choices) are left out: every page's template links to
// the same social networks, app stores and services, so the sites of a
// crawl of news pages all "agree" on facebook, twitter and instagram, and
// that core of template links would come first. A community is sites
// whose authors cite one another; the platforms stay nodes, without arcs,
// so they are a hub or an authority of no core. Moving a site into or out
// of the platforms changes the graph, and so the communities.
func (s *Service) loadCommunityGraph(ctx context.Context) (*communityGraph, error) {
	sg, imported, err := s.store.ImportedSiteLinks(ctx)
	if err != nil {
		return nil, err
	}
	if !imported {
		// Hook: the site graph OPIC and PageRank read; the editorial one
		// once the store keeps link kinds and reads by the links setting.
		if sg, err = s.store.SiteGraphCSR(ctx); err != nil {
			return nil, err
		}
	}
	platforms, err := s.store.PlatformSites(ctx)
	if err != nil {
		return nil, err
	}
	cg := siteCommunityGraph(withoutPlatforms(sg, platforms))
	cg.imported = imported
	cg.rule = s.store.SiteRule()
	cg.hash = graphHash(cg.urls, cg.g)
	return cg, nil
}

// loadPageSeedGraph reads the graph of the seeds paper's own setting, for
// its evaluation (the lab, [Service.SeedGraphs]): an imported site graph as
// loadCommunityGraph reads it, else the page graph of the crawl (see
// store.PageGraph), nodes in order of URL.
func (s *Service) loadPageSeedGraph(ctx context.Context) (*communityGraph, error) {
	sg, imported, err := s.store.ImportedSiteLinks(ctx)
	if err != nil {
		return nil, err
	}
	if imported {
		cg := siteCommunityGraph(sg)
		cg.imported, cg.rule = true, s.store.SiteRule()
		return cg, nil
	}
	urls, arcs, err := s.store.PageGraph(ctx)
	if err != nil {
		return nil, err
	}
	from, to := make([]int32, len(arcs)), make([]int32, len(arcs))
	for i, arc := range arcs {
		from[i], to[i] = arc[0], arc[1]
	}
	arcs = nil
	g, err := importance.FromEdgeList(len(urls), from, to, nil)
	if err != nil {
		return nil, fmt.Errorf("communities: %w", err)
	}
	return &communityGraph{urls: urls, g: g, rule: s.store.SiteRule()}, nil
}

// withoutPlatforms returns sg without the arcs from or to the sites named
// in platforms, every site kept as a node; sg itself when none of them has
// an arc. sg is not changed.
func withoutPlatforms(sg *store.Graph, platforms []string) *store.Graph {
	if len(platforms) == 0 {
		return sg
	}
	names := make(map[string]bool, len(platforms))
	for _, n := range platforms {
		names[n] = true
	}
	platform := make([]bool, len(sg.Names))
	for i, n := range sg.Names {
		platform[i] = names[n]
	}
	drop := func(u int, t int32) bool { return platform[u] || platform[t] }
	dropped := 0
	for u := range sg.Names {
		for _, t := range sg.Targets[sg.Offsets[u]:sg.Offsets[u+1]] {
			if drop(u, t) {
				dropped++
			}
		}
	}
	if dropped == 0 {
		return sg
	}
	out := &store.Graph{Names: sg.Names, IDs: sg.IDs, Offsets: make([]int, len(sg.Names)+1),
		Targets: make([]int32, 0, len(sg.Targets)-dropped)}
	if sg.Weights != nil {
		out.Weights = make([]float64, 0, len(sg.Targets)-dropped)
	}
	for u := range sg.Names {
		for k := sg.Offsets[u]; k < sg.Offsets[u+1]; k++ {
			if t := sg.Targets[k]; !drop(u, t) {
				out.Targets = append(out.Targets, t)
				if sg.Weights != nil {
					out.Weights = append(out.Weights, sg.Weights[k])
				}
			}
		}
		out.Offsets[u+1] = len(out.Targets)
	}
	return out
}

// siteCommunityGraph makes the community graph of a site graph sg: site
// NAME is the node http://NAME/, nodes are in order of URL, as the page
// graph of a crawl has them (the order ties of the extraction go by), and
// every arc counts once (weight 1), whatever sg weighs it. The
// store orders sites by id, which is nearly always the order of their
// URLs already; then sg's arrays become the graph's without a copy.
func siteCommunityGraph(sg *store.Graph) *communityGraph {
	n := len(sg.Names)
	urls := make([]string, n)
	for i, name := range sg.Names {
		urls[i] = sites.HomeURL(name)
	}
	// Node v of the graph is site order[v] of sg. URLs never tie: names
	// are unique.
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(x, y int32) int { return strings.Compare(urls[x], urls[y]) })
	offsets, targets := sg.Offsets, sg.Targets
	if !slices.IsSorted(order) {
		node := make([]int32, n) // node[s] is the node of site s
		for v, s := range order {
			node[s] = int32(v)
		}
		sorted := make([]string, n)
		offsets, targets = make([]int, n+1), make([]int32, len(sg.Targets))
		for v, s := range order {
			sorted[v] = urls[s]
			lo, hi := sg.Offsets[s], sg.Offsets[s+1]
			row := targets[offsets[v] : offsets[v]+hi-lo]
			for k, t := range sg.Targets[lo:hi] {
				row[k] = node[t]
			}
			slices.Sort(row)
			offsets[v+1] = offsets[v] + len(row)
		}
		urls = sorted
	}
	weights, outW := make([]float64, len(targets)), make([]float64, n)
	for k := range weights {
		weights[k] = 1
	}
	for v := range n {
		outW[v] = float64(offsets[v+1] - offsets[v])
	}
	g := &importance.Graph{N: n, Offsets: offsets, Targets: targets, Weights: weights, OutW: outW}
	return &communityGraph{urls: urls, g: g, siteNodes: true}
}

// graphHash identifies a community graph: its nodes' URLs and its arcs.
func graphHash(urls []string, g *importance.Graph) uint64 {
	h := fnv.New64a()
	for _, u := range urls {
		h.Write([]byte(u))
		h.Write([]byte{0})
	}
	// Each row as its length and its targets, written a block at a time.
	buf := make([]byte, 0, 64<<10)
	put := func(x uint32) {
		if len(buf) == cap(buf) {
			h.Write(buf)
			buf = buf[:0]
		}
		buf = binary.LittleEndian.AppendUint32(buf, x)
	}
	for u := range g.N {
		row := g.Targets[g.Offsets[u]:g.Offsets[u+1]]
		put(uint32(len(row)))
		for _, v := range row {
			put(uint32(v))
		}
	}
	h.Write(buf)
	return h.Sum64()
}

// PageSeedGraph returns the graph of the seeds paper's own setting (see
// loadPageSeedGraph), its node i being urls[i], for the lab's evaluation.
func (s *Service) PageSeedGraph(ctx context.Context) (urls []string, g *importance.Graph, err error) {
	cg, err := s.loadPageSeedGraph(ctx)
	if err != nil {
		return nil, nil, err
	}
	return cg.urls, cg.g, nil
}
