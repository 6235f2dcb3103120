package communities

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"

	"sitesift/app/fault"
	"sitesift/app/internal/memo"
	"sitesift/app/project"
	"sitesift/app/ranking"
	"sitesift/importance"
	"sitesift/sites"
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
	// Topic is the label of the core: its key phrases (see
	// [KeyPhraseLabel]), or its most distinctive words when its pages hold
	// no key phrase ([TopicLabel]), empty when its sites have no indexed
	// page; Name is Topic, or the seed's site when there is no topic.
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
