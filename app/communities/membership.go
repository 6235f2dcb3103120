package communities

import (
	"context"
	"sitesift/app/internal/memo"
	"slices"
)

// SiteCommunity is a community a site belongs to.
type SiteCommunity struct {
	// Core is the community's index in the extraction; Seed its seed URL.
	Core int    `json:"core"`
	Seed string `json:"seed"`
	// Role is "hub" or "authority": how the site's pages take part in it
	// ("hub" when they do both).
	Role string `json:"role"`
}

// membershipMemo keeps the site → communities map of the review page and
// queue while the project's page and site counts stay the same: finding
// the current extraction reads the whole page graph, too slow for a page a
// librarian leaves after a few seconds. Counts stay the same between crawls,
// when reviewing happens.
type membershipMemo = memo.Memo[membershipKey, map[string][]SiteCommunity]

// membershipKey tells whether the memo is still good: the project's size
// and the communities page's own memo (a new extraction there changes the
// current one).
type membershipKey struct {
	pages, sites int
	extracted    bool
	extraction   extractionKey
}

// Membership maps each site to the communities of the current extraction
// (see App.Communities) its pages belong to, in the order of extraction.
// The map is shared: callers must not change it.
func (s *Service) Membership(ctx context.Context) (map[string][]SiteCommunity, error) {
	pages, nsites, err := s.store.Stats(ctx)
	if err != nil {
		return nil, err
	}
	key := func() membershipKey {
		x, _, ok := s.extraction.Peek()
		return membershipKey{pages: pages, sites: nsites, extracted: ok, extraction: x}
	}
	return s.membership.Get(ctx, memo.Equal(key()), func(ctx context.Context) (map[string][]SiteCommunity, membershipKey, error) {
		member, err := s.findMembership(ctx)
		// findMembership may have run the first extraction: key the memo
		// on the state after it, or the next call would miss.
		return member, key(), err
	})
}

func (s *Service) findMembership(ctx context.Context) (map[string][]SiteCommunity, error) {
	cg, cs, err := s.current(ctx)
	if err != nil {
		return nil, err
	}
	// The node index of every member URL, found in one pass over the graph.
	node := map[string]int{}
	for _, c := range cs {
		for _, u := range append(slices.Clone(c.Hubs), c.Authorities...) {
			node[u] = -1
		}
	}
	for i, u := range cg.urls {
		if _, ok := node[u]; ok {
			node[u] = i
		}
	}
	out := map[string][]SiteCommunity{}
	add := func(c Community, urls []string, role string) {
		for _, u := range urls {
			i := node[u]
			if i < 0 {
				continue
			}
			site := cg.site(i)
			if site == "" {
				continue
			}
			if l := out[site]; len(l) > 0 && l[len(l)-1].Core == c.Core {
				continue // hub and authority of one core: hub it is
			}
			out[site] = append(out[site], SiteCommunity{Core: c.Core, Seed: c.Seed, Role: role})
		}
	}
	for _, c := range cs {
		add(c, c.Hubs, "hub")
		add(c, c.Authorities, "authority")
	}
	return out, nil
}
