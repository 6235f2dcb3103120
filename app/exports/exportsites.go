package exports

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"sitesift/app/communities"
	"sitesift/app/review"
	"sitesift/importance"
	"sitesift/sites"
	"sitesift/sites/store"
)

// The rules every export of sites follows: which URL stands for a site
// (its seed), and which sites an export leaves out and why.

// Reasons an export leaves a site out (see [LeftOut]). The crawl statuses
// of sites.Failed are reasons of their own, so that a report says what
// went wrong.
const (
	LeftOutDead         = sites.SiteDead         // every fetch failed
	LeftOutRobotsClosed = sites.SiteRobotsClosed // robots.txt refused every URL tried
	LeftOutErrorsOnly   = sites.SiteErrorsOnly   // it answered with errors only
	LeftOutRejected     = "rejected"             // librarians rejected it
	// LeftOutPlatform: a platform site (a social network, video platform,
	// URL shortener, CDN, ad or tracking host: sites.IsPlatform and the
	// project's own choices), archived through dedicated tools.
	LeftOutPlatform = "platform"
)

// leftOutWords say what each reason means, for messages.
var leftOutWords = map[string]string{
	LeftOutDead:         "dead (every fetch failed)",
	LeftOutRobotsClosed: "closed to robots",
	LeftOutErrorsOnly:   "errors only",
	LeftOutRejected:     "rejected by librarians",
	LeftOutPlatform:     "on the platforms list (social media, video, shorteners, CDNs, ads)",
}

// LeftOut counts the sites an export left out for one reason.
type LeftOut struct {
	// Reason is one of the LeftOut… constants.
	Reason string `json:"reason"`
	Sites  int    `json:"sites"`
}

// LeftOutText says in words how many sites an export left out and why,
// "" when it left none out.
func LeftOutText(lo []LeftOut) string {
	total := 0
	parts := make([]string, len(lo))
	for i, l := range lo {
		total += l.Sites
		parts[i] = fmt.Sprintf("%d %s", l.Sites, cmp.Or(leftOutWords[l.Reason], l.Reason))
	}
	if total == 0 {
		return ""
	}
	s := "s"
	if total == 1 {
		s = ""
	}
	return fmt.Sprintf("left out %d site%s: %s", total, s, strings.Join(parts, ", "))
}

// exportFilter decides which sites an export keeps, and counts those it
// leaves out by reason.
type exportFilter struct {
	includeFailed, includeRejected, includePlatforms bool
	// platforms holds the platform sites, for the exports whose rows do
	// not say (the approved selection).
	platforms map[string]bool
	// selection holds the selection status of the sites that have one.
	selection map[string]string
	counts    map[string]int
}

// newExportFilter returns the filter of an export: by default it leaves
// out the sites whose crawl gave nothing worth archiving (sites.Failed),
// those librarians rejected and the platform sites.
func (s *Service) newExportFilter(ctx context.Context, includeFailed, includeRejected, includePlatforms bool) (*exportFilter, error) {
	f := &exportFilter{includeFailed: includeFailed, includeRejected: includeRejected, includePlatforms: includePlatforms,
		counts: map[string]int{}}
	if !includeRejected {
		var err error
		if f.selection, err = s.store.SelectionStatuses(ctx); err != nil {
			return nil, err
		}
	}
	if !includePlatforms {
		names, err := s.store.PlatformSites(ctx)
		if err != nil {
			return nil, err
		}
		f.platforms = make(map[string]bool, len(names))
		for _, n := range names {
			f.platforms[n] = true
		}
	}
	return f, nil
}

// keep reports whether the export keeps site of that crawl status, and
// counts it when it does not. A platform is counted as one, whatever
// else is wrong with it: that is why an archive crawl leaves it out.
func (f *exportFilter) keep(site, crawlStatus string) bool {
	reason := ""
	switch {
	case !f.includePlatforms && f.platforms[site]:
		reason = LeftOutPlatform
	case !f.includeFailed && sites.Failed(crawlStatus):
		reason = crawlStatus
	case !f.includeRejected && f.selection[site] == store.StatusRejected:
		reason = LeftOutRejected
	}
	if reason == "" {
		return true
	}
	f.counts[reason]++
	return false
}

// communitySeeds returns cs with no seed for the communities whose seed
// site the filter leaves out (a platform that was a hub of the core), as
// for those whose hub sites all gave an earlier core its seed; the
// communities stay, for the CSV and JSON list their sites.
func (f *exportFilter) communitySeeds(cs []communities.Community) []communities.Community {
	for i, c := range cs {
		if c.Seed != "" && !f.keep(c.Site, "") {
			cs[i].Seed = ""
		}
	}
	return cs
}

// CommunitySeeds returns cs without the seeds of platform sites (unless
// includePlatforms), and how many it left out: a core whose seed hub is a
// platform keeps its place and its sites, with no seed, as a core whose hub
// sites all gave an earlier core theirs.
func (s *Service) CommunitySeeds(ctx context.Context, cs []communities.Community, includePlatforms bool) ([]communities.Community, []LeftOut, error) {
	f, err := s.newExportFilter(ctx, true, true, includePlatforms)
	if err != nil {
		return nil, nil, err
	}
	return f.communitySeeds(cs), f.leftOut(), nil
}

// CommunitySeedsRequest asks for the seeds of the communities: of a fresh
// extraction of Count communities with Options (sitesift seeds, GET
// /api/export/seeds), or, with Current, of the Communities page's current
// extraction (the Export page's deliverable).
type CommunitySeedsRequest struct {
	Current bool
	Count   int
	Options importance.CoreOptions
	// IncludePlatforms keeps the platform sites as seeds.
	IncludePlatforms bool
	// Format is txt, csv or json.
	Format string
}

// CommunitySeedsWritten is what an export of community seeds holds beside
// its bytes.
type CommunitySeedsWritten struct {
	Written
	// Fewer, for a fresh extraction, says why it found fewer communities
	// than asked; "" when it did not.
	Fewer string
}

// ExportCommunitySeeds writes the community seeds r asks for to w, and
// says what it left out (platform sites, unless r.IncludePlatforms),
// whether it is empty and, for the current extraction, how it differs
// from the saved collections: the one way every command and page exports
// them.
func (s *Service) ExportCommunitySeeds(ctx context.Context, w io.Writer, r CommunitySeedsRequest) (CommunitySeedsWritten, error) {
	var out CommunitySeedsWritten
	var cs []communities.Community
	var err error
	if r.Current {
		cs, err = s.communities.Current(ctx)
	} else {
		var end importance.SeedsEnd
		cs, end, err = s.communities.ExtractEnd(ctx, r.Count, r.Options)
		out.Fewer = communities.FewerCommunitiesText(len(cs), r.Count, end, r.Options)
	}
	if err != nil {
		return out, err
	}
	cs, left, err := s.CommunitySeeds(ctx, cs, r.IncludePlatforms)
	if err != nil {
		return out, err
	}
	out.Written = Written{LeftOut: left, Empty: NoCommunities(len(cs))}
	if r.Current {
		var seeds []string
		for _, c := range cs {
			if c.Seed != "" {
				seeds = append(seeds, c.Seed)
			}
		}
		if out.Differs, err = s.CollectionDiffers(ctx, seeds); err != nil {
			return out, err
		}
	}
	return out, WriteCommunities(w, cs, r.Format)
}

// leftOut returns the counts, by reason, in a fixed order.
func (f *exportFilter) leftOut() []LeftOut {
	out := []LeftOut{}
	for r, n := range f.counts {
		out = append(out, LeftOut{Reason: r, Sites: n})
	}
	slices.SortFunc(out, func(x, y LeftOut) int { return strings.Compare(x.Reason, y.Reason) })
	return out
}

// approvedSeeds returns the approved selection as seeds, by OPIC
// importance, leaving out the sites whose crawl gave nothing worth
// archiving unless includeFailed, and the platform sites unless
// includePlatforms: two librarians may have approved a site that was
// moved into the platforms since.
func (s *Service) approvedSeeds(ctx context.Context, includeFailed, includePlatforms bool) ([]review.SelectedSeed, []LeftOut, error) {
	seeds, err := s.review.Selection(ctx, store.StatusApproved)
	if err != nil {
		return nil, nil, err
	}
	f, err := s.newExportFilter(ctx, includeFailed, true, includePlatforms)
	if err != nil {
		return nil, nil, err
	}
	if includeFailed && includePlatforms {
		return seeds, f.leftOut(), nil
	}
	names := make([]string, len(seeds))
	for i, s := range seeds {
		names[i] = s.Site
	}
	statuses, err := s.store.CrawlStatuses(ctx, names)
	if err != nil {
		return nil, nil, err
	}
	out := seeds[:0]
	for _, s := range seeds {
		if f.keep(s.Site, statuses[s.Site]) {
			out = append(out, s)
		}
	}
	return out, f.leftOut(), nil
}
