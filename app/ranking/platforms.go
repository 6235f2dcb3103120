package ranking

import (
	"context"
	"fmt"

	"sitesift/app/project"
	"sitesift/sites/store"
)

// Platform sites: social networks, video platforms, app stores, URL
// shorteners, CDNs, comment, consent and newsletter services, and ad,
// affiliate or tracking hosts (sites/urlrules/platforms.txt, with the
// project's own choices over it).
//
// They stay in the site graph: OPIC and PageRank run on every site, as
// the papers define them, and a platform keeps the in-links it got, which
// are mostly the template's (share buttons, "follow us", embedded players,
// fonts, analytics). They are hidden afterwards: left out of the default
// ranking (the Sites page, `sitesift rank`), the review queue, the
// communities (whose graph has no link from or to a platform) and every
// export of seeds, each with a count of what it
// left out and a switch to show them. Taking them out of the graph before
// ranking would change every other site's importance by a rule the papers
// do not have, and would make the ranking depend on an editable list;
// hiding them changes what a librarian reads and nothing that is computed.

// PlatformSitesShown caps the platform sites [Service.Platforms] names.
const PlatformSitesShown = 20

// PlatformSummary is what the Crawl page says of the platform sites the
// project's crawls and imports met.
type PlatformSummary struct {
	// Count is the number of platform sites.
	Count int `json:"count"`
	// Sites are the first of them by OPIC importance, at most
	// PlatformSitesShown.
	Sites []string `json:"sites"`
	// Note says in one sentence why they are apart.
	Note string `json:"note"`
}

// PlatformNote is the sentence the UI and the command line say of
// platforms.
const PlatformNote = "Platforms (social networks, video sites, URL shorteners, CDNs, ad hosts) are kept apart: " +
	"Archive-It and Browsertrix users archive them through dedicated social media capture tools, not from a seed list."

// Platforms returns how many platform sites the project holds, and the
// first of them.
func (s *Service) Platforms(ctx context.Context) (PlatformSummary, error) {
	names, err := s.store.PlatformSites(ctx)
	if err != nil {
		return PlatformSummary{}, err
	}
	return PlatformSummary{Count: len(names), Sites: names[:min(len(names), PlatformSitesShown)], Note: PlatformNote}, nil
}

// PlatformSites returns the names of all the project's platform sites, by
// OPIC importance, highest first.
func (s *Service) PlatformSites(ctx context.Context) ([]string, error) {
	return s.store.PlatformSites(ctx)
}

// PlatformChoice is a site's place in or out of the platforms after a
// librarian moved it.
type PlatformChoice struct {
	Site     string `json:"site"`
	Platform bool   `json:"platform"`
	// Listed is whether the list of platforms names the site.
	Listed bool `json:"listed"`
}

// SetPlatform moves the site named (by the project's site rule) into the
// project's platforms, or out of them, whatever the list says; librarian,
// when not "", is recorded as who chose. The move and its audit row (the
// site's place before and after) are written in one transaction. An
// unknown site is a not-found error.
func (s *Service) SetPlatform(ctx context.Context, site string, platform bool, librarian string) (PlatformChoice, error) {
	if librarian != "" {
		var err error
		if librarian, err = s.project.Librarian(ctx, librarian); err != nil {
			return PlatformChoice{}, fmt.Errorf("platform of %s: %w", site, err)
		}
	}
	name := s.project.SiteName(site)
	audit := func(before, after *store.PlatformState) (store.AuditEntry, error) {
		return project.AuditEntry(ctx, librarian, store.AuditPlatform, name, before, after)
	}
	if err := s.store.SetPlatform(ctx, name, platform, librarian, audit); err != nil {
		return PlatformChoice{}, err
	}
	d, err := s.store.Site(ctx, name, "")
	if err != nil {
		return PlatformChoice{}, err
	}
	return PlatformChoice{Site: name, Platform: d.Platform, Listed: d.PlatformListed}, nil
}

// TopShown is how many sites the crawl status's Top lists.
const TopShown = 10

// TopWithoutPlatforms returns the first n sites of a ranking that are no
// platform sites (by the rule of the Sites page: [store.Store.PlatformsAmong]),
// and how many platform sites it passed over: those ranked above its last
// site, or all of them when it holds fewer than n. next returns the
// ranking's sites, highest first, from offset on, at most limit of them:
// fewer only at the ranking's end.
func (s *Service) TopWithoutPlatforms(ctx context.Context, n int, next func(offset, limit int) ([]SiteScore, error)) ([]SiteScore, int, error) {
	out := []SiteScore{}
	skipped := 0
	// Platforms are few among the sites of a crawl, but they are the ones
	// that rank first: a chunk of a few times n is read at once.
	chunk := max(4*n, 32)
	for offset := 0; len(out) < n; offset += chunk {
		part, err := next(offset, chunk)
		if err != nil {
			return nil, 0, err
		}
		names := make([]string, len(part))
		for i, s := range part {
			names[i] = s.Site
		}
		platform, err := s.store.PlatformsAmong(ctx, names)
		if err != nil {
			return nil, 0, err
		}
		for _, s := range part {
			if len(out) == n {
				break
			}
			if platform[s.Site] {
				skipped++
				continue
			}
			out = append(out, s)
		}
		if len(part) < chunk {
			break
		}
	}
	return out, skipped, nil
}

// SiteScore is a site with its OPIC importance as shown.
type SiteScore struct {
	Site string  `json:"site"`
	OPIC float64 `json:"opic"`
}
