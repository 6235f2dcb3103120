package communities

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"net/url"
	"slices"
	"strings"
	"unicode"

	"sitesift/app/fault"
	"sitesift/app/internal/memo"
	"sitesift/app/project"
	"sitesift/app/ranking"
	"sitesift/importance"
	"sitesift/sites"
	"sitesift/sites/index"
	"sitesift/sites/store"
)

// Community is one bipartite core of sites found by the seeds method (the
// seeds paper, Daneshpajouh et al., run on the site graph): its hub and
// authority sites as http://NAME/, the home page of one of its hub sites
// proposed as a crawl seed, and a topic label made from the words of its
// sites' pages.
type Community struct {
	// Core is the core's index in the order of extraction, from 0.
	Core int `json:"core"`
	// Seed is the home page of a hub site of the core (see [seedRule] and
	// communityGraph.seed), empty when every hub site of the core already
	// gave an earlier core its seed; Site is that site and FromHub the
	// page of it the seed was made from: its shallowest page the crawl
	// fetched, or http://NAME/ for a site of an imported graph.
	Seed    string `json:"seed"`
	Site    string `json:"site"`
	FromHub string `json:"from_hub"`
	// Topic is the label of the core's most distinctive words (see
	// [TopicLabel]), empty when its sites have no indexed page; Name is
	// Topic, or the seed's site when there is no topic.
	Topic string `json:"topic"`
	Name  string `json:"name"`
	// Hubs and Authorities are in the order they joined the core.
	Hubs        []string `json:"hubs"`
	Authorities []string `json:"authorities"`
	// CoverDensity is 100·|E(Hubs, Authorities)| / (|Hubs|·|Authorities|).
	CoverDensity float64 `json:"cover_density"`
	// HubScore is the hub score of FromHub in the HITS ranking the core
	// was extracted from. The extraction gives the score of a core's best
	// hub only, so it is 0 when the seed comes from another hub (the best
	// hub's site having given an earlier core its seed).
	HubScore float64 `json:"hub_score"`
	// HubRelative is HubScore as 0–100 of the highest HubScore of the
	// extraction ([Score100]): the first seed's is usually 100.
	HubRelative int `json:"hub_relative"`
	// OffMainEigenvector is set when HubScore is known and 0 to within
	// importance.HubZero: the core lies off the main eigenvector of its
	// HITS run (grown from a lesser start after the best fell short), and
	// its hub score says nothing of how good a hub FromHub is.
	OffMainEigenvector bool `json:"off_main_eigenvector,omitempty"`
}

// DefaultCommunityCount is the number of seeds asked for when a caller
// does not say: the seeds paper's evaluation extracts 10.
const DefaultCommunityCount = 10

// MaxCommunityCount bounds the seeds one request may ask for: every seed is
// one HITS run over the whole graph.
const MaxCommunityCount = 1000

// MaxHITSIterations bounds the HITS iterations run before each core: the
// paper's setting is 60, and HITS runs all of them (it has no tolerance
// here), each a pass over the whole graph.
const MaxHITSIterations = 1000

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
	cg := siteCommunityGraph(sg)
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

// communityMemo keeps the last extraction: the communities page asks for
// the cores, then for the graph coloured by them, then exports a list
// edited from them, and each extraction costs count HITS runs.
type communityMemo = memo.Memo[extractionKey, extraction]

// extractionKey is what an extraction is made of: the community graph (its
// hash), the number of seeds asked for and the options.
type extractionKey struct {
	hash  uint64
	count int
	opt   importance.CoreOptions
}

// extraction is the communities an extraction found and why it ended.
type extraction struct {
	result []Community
	end    importance.SeedsEnd
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
		return opt, fault.Invalid(fmt.Errorf("%s and %s are exclusive (a core grows by density or to a size)", name("density"), name("core_size")))
	case s.NewMembers != nil && s.CoreSize == nil:
		return opt, fault.Invalid(fmt.Errorf("%s goes with %s", name("new_members"), name("core_size")))
	case s.NewMembers != nil && *s.NewMembers <= 0:
		return opt, fault.Invalid(fmt.Errorf("%s %d must be positive", name("new_members"), *s.NewMembers))
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
	case opt.HITS.MaxIter <= 0 || opt.HITS.MaxIter > MaxHITSIterations:
		return fault.Invalid(fmt.Errorf("communities: HITS iterations %d must lie in 1..%d", opt.HITS.MaxIter, MaxHITSIterations))
	case opt.CoreSize < 0 || opt.CoreSize == 1:
		return fault.Invalid(fmt.Errorf("communities: core size %d must be at least 2", opt.CoreSize))
	case opt.CoreSize == 0 && !(opt.CoverDensity > 0 && opt.CoverDensity <= 100):
		return fault.Invalid(fmt.Errorf("communities: cover density %v must lie in (0, 100]", opt.CoverDensity))
	case opt.NewMembers < 0:
		return fault.Invalid(fmt.Errorf("communities: new members %d must be positive", opt.NewMembers))
	case opt.MinHubs < 1 || opt.MinAuthorities < 1:
		return fault.Invalid(fmt.Errorf("communities: least hubs %d and authorities %d of a core must be at least 1", opt.MinHubs, opt.MinAuthorities))
	case opt.CoreSize > 0 && opt.CoreSize < opt.MinHubs+opt.MinAuthorities:
		return fault.Invalid(fmt.Errorf("communities: core size %d is below the least core of %d hubs and %d authorities",
			opt.CoreSize, opt.MinHubs, opt.MinAuthorities))
	}
	return nil
}

// Extract runs the seeds method on the project's site graph (see
// [Service.loadCommunityGraph]: each link between two sites once) and returns
// up to count cores of sites, in the order extracted, each with its seed.
// opt is importance.DefaultCoreOptions for the paper's setting, whose
// least core of 2 hubs and 2 authorities is then 2 hub sites and 2
// authority sites. Fewer than count cores come back when the graph runs
// out of links, or its links left make no core of enough hub and
// authority sites ([Service.ExtractEnd] tells which). The result is
// deterministic: the same graph and options give the same cores; the last
// one is kept and reused while the graph is unchanged.
func (s *Service) Extract(ctx context.Context, count int, opt importance.CoreOptions) ([]Community, error) {
	cs, _, err := s.ExtractEnd(ctx, count, opt)
	return cs, err
}

// ExtractEnd is [Service.Extract] that also tells why the extraction
// ended, so that fewer cores than asked can be explained truly.
func (s *Service) ExtractEnd(ctx context.Context, count int, opt importance.CoreOptions) ([]Community, importance.SeedsEnd, error) {
	if count <= 0 {
		return nil, importance.EndCount, fault.Invalid(fmt.Errorf("communities: count %d must be positive", count))
	}
	if err := CheckCoreOptions(opt); err != nil {
		return nil, importance.EndCount, err
	}
	if opt.NewMembers == 0 {
		opt.NewMembers = 1
	}
	cg, err := s.loadCommunityGraph(ctx)
	if err != nil {
		return nil, importance.EndCount, err
	}
	return s.extractGraphEnd(ctx, cg, count, opt)
}

// extractGraph returns the communities of cg, from the memo when it holds them.
func (s *Service) extractGraph(ctx context.Context, cg *communityGraph, count int, opt importance.CoreOptions) ([]Community, error) {
	cs, _, err := s.extractGraphEnd(ctx, cg, count, opt)
	return cs, err
}

// extractGraphEnd is extract that also tells why the extraction ended.
func (s *Service) extractGraphEnd(ctx context.Context, cg *communityGraph, count int, opt importance.CoreOptions) ([]Community, importance.SeedsEnd, error) {
	key := extractionKey{hash: cg.hash, count: count, opt: opt}
	x, err := s.extraction.Get(ctx, memo.Equal(key), func(ctx context.Context) (extraction, extractionKey, error) {
		out, end, err := s.extractNow(ctx, cg, count, opt)
		return extraction{result: out, end: end}, key, err
	})
	if err != nil {
		return nil, importance.EndCount, err
	}
	return cloneCommunities(x.result), x.end, nil
}

// extractNow runs the extraction extractEnd keeps.
func (s *Service) extractNow(ctx context.Context, cg *communityGraph, count int, opt importance.CoreOptions) ([]Community, importance.SeedsEnd, error) {
	cores, end, err := importance.ExtractSeedsEnd(ctx, cg.g, count, opt)
	if err != nil {
		return nil, importance.EndCount, fmt.Errorf("communities: %w", err)
	}
	// Each core's seed hub first, then the seeds of their sites, read in
	// one go: a crawl's seed is a page it fetched.
	picks := make([]int, len(cores))
	var picked []string
	taken := map[string]bool{}
	for i, c := range cores {
		picks[i] = -1
		if v, ok := seedRule(cg, c, taken); ok {
			picks[i] = v
			taken[cg.site(v)] = true
			picked = append(picked, cg.site(v))
		}
	}
	var fetched map[string]string
	if !cg.imported && len(picked) > 0 {
		if fetched, err = s.project.SeedURLs(ctx, picked); err != nil {
			return nil, importance.EndCount, fmt.Errorf("communities: %w", err)
		}
	}
	out := make([]Community, len(cores))
	for i, c := range cores {
		out[i] = Community{
			Core: i, Hubs: nodeURLs(cg, c.Hubs), Authorities: nodeURLs(cg, c.Authorities),
			CoverDensity: c.Density,
		}
		if v := picks[i]; v >= 0 {
			site := cg.site(v)
			out[i].Seed, out[i].Site, out[i].FromHub = cg.seed(site, fetched), site, cg.urls[v]
			if page, ok := fetched[site]; ok {
				out[i].FromHub = page // a page of the hub site, not its node
			}
			if v == c.Seed {
				out[i].HubScore = c.SeedHub
				out[i].OffMainEigenvector = !importance.OnMainEigenvector(c.SeedHub)
			}
		}
		topic, err := s.communityTopic(ctx, cg, c)
		if err != nil {
			return nil, importance.EndCount, err
		}
		out[i].Topic, out[i].Name = topic, topic
		if topic == "" {
			out[i].Name = out[i].Site
		}
		if out[i].Name == "" {
			out[i].Name = fmt.Sprintf("Community %d", i+1)
		}
	}
	top := 0.0
	for _, c := range out {
		top = max(top, c.HubScore)
	}
	for i := range out {
		out[i].HubRelative = ranking.Score100(out[i].HubScore, top)
	}
	return out, end, nil
}

// current returns the extraction the app shows: the last one
// computed if the graph has not changed since, else the paper's setting
// with [DefaultCommunityCount] seeds.
func (s *Service) current(ctx context.Context) (*communityGraph, []Community, error) {
	cg, err := s.loadCommunityGraph(ctx)
	if err != nil {
		return nil, nil, err
	}
	if key, x, ok := s.extraction.Peek(); ok && key.hash == cg.hash {
		return cg, cloneCommunities(x.result), nil
	}
	out, err := s.extractGraph(ctx, cg, DefaultCommunityCount, importance.DefaultCoreOptions())
	return cg, out, err
}

// seedRule picks the hub whose site gives core c its seed: the core's best
// hub (importance.Core.Seed), or, when its site already gave an earlier core
// its seed (taken), the next hub in the order the hubs joined the core —
// the extraction takes them best hub score first — whose site has not. A
// site thus gives at most one seed. ok is false when every hub site of the
// core is taken, or has no site.
func seedRule(cg *communityGraph, c importance.Core, taken map[string]bool) (v int, ok bool) {
	for _, h := range append([]int{c.Seed}, c.Hubs...) {
		if h < 0 {
			continue
		}
		if s := cg.site(h); s != "" && !taken[s] {
			return h, true
		}
	}
	return 0, false
}

// seed returns the seed URL of site, fetched being the seeds of the sites
// a crawl fetched ([project.Project.SeedURLs]): the home page of the host of the
// site's shallowest page that answered 2xx, with that page's scheme. That
// host answered, where the site's name need not be a host the crawl
// fetched under the host-www and domain rules (wday.ru's pages are on
// www.wday.ru). A site the crawl fetched nothing of gets http://NAME/. An
// imported site graph has no page and no scheme: its sites get
// https://NAME/, which nearly every site answers today and which redirects
// to http where it must. A name with a path (polblogs'
// "townhall.com/clog") keeps it: the name is the site.
func (cg *communityGraph) seed(site string, fetched map[string]string) string {
	if cg.imported {
		return "https://" + site + "/"
	}
	page, ok := project.SeedOf(fetched, site)
	if u, err := url.Parse(page); ok && err == nil && u.Host != "" && (u.Scheme == "http" || u.Scheme == "https") {
		return u.Scheme + "://" + u.Host + "/"
	}
	return page
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
// removed from an extraction) with the current extraction: a URL of a site
// that is a hub or authority of a core gets that core; one that is not (added by
// hand) gets Core -1 and no hubs or authorities. Every URL must be an
// absolute http(s) URL; the first that is not is a bad-request error naming
// it. URLs are normalised and repeats dropped, first one kept.
func (s *Service) EditedSeeds(ctx context.Context, urls []string) ([]Community, error) {
	if len(urls) == 0 {
		return nil, fault.Invalid(errors.New("seeds: empty seed list"))
	}
	norm := make([]string, 0, len(urls))
	seen := map[string]bool{}
	for i, raw := range urls {
		u, err := sites.Normalize(raw)
		if err != nil {
			return nil, fault.Invalid(fmt.Errorf("seed %d %q: %w", i+1, raw, err))
		}
		if !seen[u] {
			seen[u] = true
			norm = append(norm, u)
		}
	}
	cg, current, err := s.current(ctx)
	if err != nil {
		return nil, err
	}
	// A core's members are sites: any page of one of them is of the core.
	member := map[string]int{}
	for i := len(current) - 1; i >= 0; i-- { // the first core a site is in wins
		c := current[i]
		for _, u := range append(slices.Clone(c.Hubs), c.Authorities...) {
			member[trimHome(u)] = i
		}
	}
	for i, c := range current {
		if c.Site != "" {
			member[c.Site] = i
		}
	}
	out := make([]Community, len(norm))
	for i, u := range norm {
		site, _ := cg.rule.Of(u)
		if v, found := slices.BinarySearch(cg.urls, u); found {
			site = cg.site(v)
		}
		k, ok := member[site]
		if !ok {
			out[i] = Community{Core: -1, Seed: u, Site: site, Hubs: []string{}, Authorities: []string{}}
			continue
		}
		c := current[k]
		out[i] = Community{Core: c.Core, Seed: u, Site: site, Hubs: c.Hubs, Authorities: c.Authorities,
			CoverDensity: c.CoverDensity, Topic: c.Topic, Name: c.Name}
		// The hub score is known for the core's own seed only.
		if u == c.Seed {
			out[i].HubScore, out[i].FromHub, out[i].OffMainEigenvector = c.HubScore, c.FromHub, c.OffMainEigenvector
		}
	}
	return out, nil
}

// Topic labels: see TopicLabel.
const (
	// topicPages bounds the pages read for a community's label, so that a
	// community of large sites costs no more than a search.
	topicPages = 500
	// topicWords is the number of words of a label.
	topicWords = 3
	// topicTerms bounds the words of a community weighed for its label:
	// those held by the most of its pages. A label word is on many of
	// them, and each word weighed costs a look-up in the index.
	topicTerms = 1000
)

// communityTopic returns the topic label of core c: [TopicLabel] of the
// pages of its hubs' and authorities' sites in the project's index.
func (s *Service) communityTopic(ctx context.Context, cg *communityGraph, c importance.Core) (string, error) {
	if s.index == nil {
		return "", nil
	}
	var names []string
	seen := map[string]bool{}
	for _, v := range append(slices.Clone(c.Hubs), c.Authorities...) {
		if s := cg.site(v); s != "" && !seen[s] {
			seen[s] = true
			names = append(names, s)
		}
	}
	// Words of one page only never make a label of several pages: leaving
	// them out first spares the index their look-ups.
	st, err := s.index.SiteTerms(ctx, names, topicPages, 2, topicTerms)
	if err == nil && st.Pages < 2 {
		st, err = s.index.SiteTerms(ctx, names, topicPages, 1, topicTerms)
	}
	if err != nil {
		return "", fmt.Errorf("communities: topic: %w", err)
	}
	return TopicLabel(st, topicWords), nil
}

// TopicLabel names a set of pages by its most distinctive words, the n best
// joined by " · " ("jazz · records · vinyl"); "" when no word qualifies.
//
// A word qualifies when it is a term of the index (the stop words of each
// page's language are never indexed) of at least two letters with no
// digit, not one of Bleve's stop words of its pages' language (of any
// language for pages whose language was not told, which the index
// analyses in English: "il", "che" and "то" never name a community), nor
// one of the common words and page furniture of topicStopWords, held by
// at least two of the pages when there are two or more. Words are ranked by
// Dunning's log-likelihood ratio G² on page counts: the pages of the set
// that hold the term against those of the rest of the index, a 2×2 table
// (a, n−a | c, N−n−c) with a = pages of the set holding it, n = pages of
// the set, c = other pages holding it, N = pages of the index. Only words
// over-represented in the set (a/n > c/(N−n)) count. Pages rather than
// occurrences, so that one long page repeating a word cannot name a whole
// community; G² rather than tf-idf because it weighs how often a word is
// in the set as well as how rare it is outside, and stays sound for the
// small counts of a small community. When the set is the whole index there
// is nothing to compare with, and words rank by pages, then occurrences.
// Ties go to the word first in alphabetical order. Each word is shown in
// the form written most often (see index.TermCount.Word).
func TopicLabel(st index.TermStats, n int) string {
	type scored struct {
		word         string
		g2           float64
		pages, count int
	}
	np, N := float64(st.Pages), float64(st.Docs)
	var cands []scored
	for _, t := range st.Terms {
		if !topicWord(t.Word) || index.StopWord(t.Language, t.Word) || (st.Pages >= 2 && t.Pages < 2) {
			continue
		}
		a := float64(t.Pages)
		c := max(float64(t.DocFreq)-a, 0)
		rest := N - np
		var g2 float64
		if rest > 0 {
			if a/np <= c/rest {
				continue
			}
			g2 = gSquared(a, np-a, c, rest-c)
		}
		cands = append(cands, scored{t.Word, g2, t.Pages, t.Count})
	}
	slices.SortFunc(cands, func(x, y scored) int {
		switch {
		case x.g2 != y.g2:
			return cmpDesc(x.g2, y.g2)
		case x.pages != y.pages:
			return y.pages - x.pages
		case x.count != y.count:
			return y.count - x.count
		}
		return strings.Compare(x.word, y.word)
	})
	var words []string
	seen := map[string]bool{}
	for _, c := range cands {
		if len(words) == n {
			break
		}
		if !seen[c.word] {
			seen[c.word] = true
			words = append(words, c.word)
		}
	}
	return strings.Join(words, " · ")
}

func cmpDesc(x, y float64) int {
	if x > y {
		return -1
	}
	return 1
}

// topicStopWords are common English words that say nothing of a topic and
// that the index's own stop list (Lucene's 33 English words) keeps, with the
// words of every web page's furniture; a label never shows them.
var topicStopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`about above after again against all also am any anyone
		because been before being below between both can cannot could did does doing done down
		during each either else even ever every few first for from further get gets got had has
		have having he her here hers herself him himself his how however i if into its itself
		just last less let like made make makes many may me might more most much must my myself
		near need new next nor now of off often once one only other others our ours ourselves out
		over own per please same see seen shall she should since so some still such take than
		that them themselves thence there these they thing things this those though through
		thus till too under until up upon us use used uses using very via was we well were what
		when where whether which while who whom whose why will within without would yet you
		your yours yourself yourselves gives give given going way ways able across along already
		among another around back came come comes day days done else far found gave general
		good great keep kept know known least little long lot mainly mostly never nothing
		old part put quite rather really right said say says several shows side small something
		soon sure tell told took toward towards two three whole year years
		home page pages site sites menu login contact privacy cookie cookies copyright rights
		reserved read more click search skip main content navigation link links share follow
		subscribe terms policy welcome`) {
		topicStopWords[w] = true
	}
	// Function words that Bleve's (Snowball's) Russian and Italian stop
	// lists leave out, and that are on most pages of those languages:
	// without them a Russian community was named "это · …".
	for _, w := range strings.Fields(`это этих этим который которая которое которые которых
		которым которой также ещё очень всё свой свои своих своей своего
		essere stato stata stati fa dopo molto ogni fra già ancora`) {
		topicStopWords[w] = true
	}
}

// topicWord reports whether w may stand in a topic label: two letters or
// more, no digit, and not one of [topicStopWords].
func topicWord(w string) bool {
	if topicStopWords[w] {
		return false
	}
	letters := 0
	for _, r := range w {
		switch {
		case unicode.IsDigit(r):
			return false
		case unicode.IsLetter(r):
			letters++
		}
	}
	return letters >= 2
}

// gSquared is the log-likelihood ratio G² = 2·Σ O·ln(O/E) of the 2×2 table
// (a b | c d), E being the count expected if rows and columns were
// independent; empty cells add nothing.
func gSquared(a, b, c, d float64) float64 {
	n := a + b + c + d
	if n == 0 {
		return 0
	}
	cell := func(o, row, col float64) float64 {
		if o <= 0 {
			return 0
		}
		return o * math.Log(o*n/(row*col))
	}
	return 2 * (cell(a, a+b, a+c) + cell(b, a+b, b+d) + cell(c, c+d, a+c) + cell(d, c+d, b+d))
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
