package review

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"sitesift/app/fault"
	"sitesift/sites/store"
)

// NoSiteError is a request naming a site the project does not hold, with
// the project's closest site names.
type NoSiteError struct {
	Site string
	// Closest are at most [MaxSiteSuggestions] of the project's sites
	// whose names are nearest to Site, nearest first.
	Closest []string
}

func (e *NoSiteError) Error() string {
	msg := "no site " + e.Site + " in this project"
	if len(e.Closest) > 0 {
		msg += " (did you mean " + strings.Join(e.Closest, ", ") + "?)"
	}
	return msg
}

// Unwrap makes it a [store.ErrNotFound].
func (e *NoSiteError) Unwrap() error { return store.ErrNotFound }

// MaxSiteSuggestions is the number of names a [NoSiteError] suggests.
const MaxSiteSuggestions = 3

// noSite turns err, the store's answer to a request about site, into a
// [NoSiteError] (fault.KindNotFound) when site is not one of the
// project's: the store's "not found" says neither which site nor what was
// meant. Any other error is returned as it is, as is a "not found" of a
// site that exists (no rating to delete).
func (s *Service) noSite(ctx context.Context, site string, err error) error {
	if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	names, lerr := s.store.SiteNames(ctx)
	if lerr != nil {
		return errors.Join(err, fmt.Errorf("listing the project's sites: %w", lerr))
	}
	if _, found := slices.BinarySearch(names, site); found {
		return err
	}
	return fault.NotFound(&NoSiteError{Site: site, Closest: ClosestSites(site, names, MaxSiteSuggestions)})
}

// ClosestSites returns at most n of names near site, nearest first: those
// within a few edits of it (a third of its length, at least 2), its
// subdomains and the sites it is a subdomain of, and those it starts
// ("9to5mac" for 9to5mac.com), ranked by edit distance, then by the length
// of the ending they share with it (the same domain, another subdomain),
// then by name.
func ClosestSites(site string, names []string, n int) []string {
	site = strings.ToLower(site)
	limit := max(2, len(site)/3)
	type near struct {
		name         string
		dist, suffix int
	}
	var found []near
	for _, name := range names {
		d := editDistance(site, name, limit)
		// Whole labels only: c.com is not news.9to5mac.com.
		related := strings.HasSuffix(name, "."+site) || strings.HasSuffix(site, "."+name) || strings.HasPrefix(name, site+".")
		if d > limit && !related {
			continue
		}
		suffix := 0
		for suffix < len(site) && suffix < len(name) && site[len(site)-1-suffix] == name[len(name)-1-suffix] {
			suffix++
		}
		found = append(found, near{name, d, suffix})
	}
	slices.SortFunc(found, func(a, b near) int {
		if a.dist != b.dist {
			return a.dist - b.dist
		}
		if a.suffix != b.suffix {
			return b.suffix - a.suffix
		}
		return strings.Compare(a.name, b.name)
	})
	out := []string{}
	for _, f := range found[:min(n, len(found))] {
		out = append(out, f.name)
	}
	return out
}

// editDistance is the Levenshtein distance of a and b in bytes, or
// limit+1 once it is sure to exceed limit: a project may hold hundreds of
// thousands of sites, and most are far from the name asked for.
func editDistance(a, b string, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			best = min(best, cur[j])
		}
		if best > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
