package review

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"sitesift/app/communities"
	"sitesift/app/export"
	"sitesift/app/internal/wire"
	"sitesift/app/project"
	"sitesift/app/ranking"
	"sitesift/sites/store"
)

// Librarians returns every librarian's profile, sorted by name.
func (s *Service) Librarians(ctx context.Context) ([]Librarian, error) {
	ls, err := s.store.LibrarianProfiles(ctx)
	return wire.Each(ls, func(l store.Librarian) Librarian { return Librarian(l) }), err
}

// AddLibrarian adds a librarian profile, or returns the existing one of
// that name, in any case, with created false: "ana" after "Ana" is Ana.
//
// On a team server, adding a librarian is an admin's.
func (s *Service) AddLibrarian(ctx context.Context, name string) (Librarian, bool, error) {
	if err := project.Require(ctx, project.RoleAdmin, "add a librarian"); err != nil {
		return Librarian{}, false, err
	}
	l, created, err := s.store.AddLibrarian(ctx, strings.TrimSpace(name), func(_, added *store.Librarian) (store.AuditEntry, error) {
		return project.AuditEntry(ctx, "", store.AuditLibrarian, "", nil, Librarian(*added))
	})
	return Librarian(l), created, err
}

// LibrarianMerges returns the librarian profiles merged into another
// whose name differed only in case, when the project was first opened by a
// version that keeps names one profile whatever their case.
func (s *Service) LibrarianMerges(ctx context.Context) ([]store.LibrarianMerge, error) {
	return s.store.LibrarianMerges(ctx)
}

// Note keeps a librarian's note on a site without touching their rating:
// a note can be written before (or without) rating the site. An empty note
// removes it. A note alone is not a rating: agreement, the biased ranking
// and the ratings table leave it out; the ratings file carries it with an
// empty rating cell.
func (s *Service) Note(ctx context.Context, librarian, site, note string) (Rating, error) {
	name, err := s.Librarian(ctx, librarian)
	if err != nil {
		return Rating{}, err
	}
	site = s.project.SiteName(site)
	r, err := s.store.SetNote(ctx, name, site, note, ratingAudit(ctx, name, store.AuditNote, site))
	return Rating(r), s.noSite(ctx, site, err)
}

// ReviewPage is everything a librarian needs to judge one site.
type ReviewPage struct {
	Site       string  `json:"site"`
	OPIC       float64 `json:"opic"`
	PageRank   float64 `json:"pagerank"`
	PagesCount int     `json:"pages_count"`
	InSites    int     `json:"in_sites"`
	OutSites   int     `json:"out_sites"`
	// TopPages are its most important pages (see store.TopPages).
	TopPages []TopPage `json:"top_pages"`
	// InLinks are the sites linking to it, OutLinks those it links to,
	// heaviest first, each with its OPIC importance.
	InLinks  []ranking.SiteLink `json:"in_links"`
	OutLinks []ranking.SiteLink `json:"out_links"`
	// OPICSeries is its importance over the crawl.
	OPICSeries []OPICPoint `json:"opic_series"`
	// Communities are those of the current extraction it belongs to.
	Communities []communities.SiteCommunity `json:"communities"`
	Selection   Selection                   `json:"selection"`
	// Rating is the librarian's own rating, null before they rate or
	// write a note (a note alone has rating 0).
	Rating *Rating `json:"rating"`
	// Ratings are the other librarians' ratings (and notes), given only
	// once the librarian has rated the site, so that they judge it
	// unswayed; until then it is empty and OthersRated says how many
	// ratings are waiting (0: no one else has rated it).
	Ratings     []Rating `json:"ratings"`
	OthersRated int      `json:"others_rated"`
	// Standing is the site's rank and 0–100 score among all sites.
	ranking.Standing
	// Archive is what imported archives and the Common Crawl graph say of
	// the site; null when they say nothing.
	Archive *SiteArchiveInfo `json:"archive"`
	// CrawlStatus is what the crawl got of the site (sites.SiteOK …);
	// Errors counts its failed fetches and ErrorsByClass splits them by
	// class (sites.ErrHTTP4xx …), so that a site with no page fetched fine
	// says why.
	CrawlStatus   string         `json:"crawl_status"`
	Errors        int            `json:"errors"`
	ErrorsByClass map[string]int `json:"errors_by_class"`
}

// ReviewTopPages is the number of pages a review page shows.
const ReviewTopPages = 8

// ReviewExcerpt is the length of a top page's text excerpt, in characters.
const ReviewExcerpt = 300

// Review returns the review page of site for librarian.
func (s *Service) Review(ctx context.Context, site, librarian string) (ReviewPage, error) {
	librarian, err := s.Librarian(ctx, librarian)
	if err != nil {
		return ReviewPage{}, fmt.Errorf("review %q: %w", site, err)
	}
	site = s.project.SiteName(site)
	d, err := s.store.Site(ctx, site, librarian)
	if err != nil {
		return ReviewPage{}, s.noSite(ctx, site, err)
	}
	p := ReviewPage{Site: d.Site, OPIC: d.OPIC, PageRank: d.PageRank, PagesCount: d.SiteRow.Pages,
		InSites: d.InSites, OutSites: d.OutSites,
		CrawlStatus: d.CrawlStatus, Errors: d.Errors, ErrorsByClass: d.Report.ErrorsByClass}
	st, err := s.ranking.Standings(ctx)
	if err != nil {
		return ReviewPage{}, err
	}
	p.Standing = st.OfSite(d.Platform, d.OPIC, d.PageRank)
	ranking.ScoreLinks(st, d.InLinks)
	ranking.ScoreLinks(st, d.OutLinks)
	p.InLinks, p.OutLinks = ranking.Links(d.InLinks), ranking.Links(d.OutLinks)
	top, err := s.store.TopPages(ctx, site, ReviewTopPages)
	if err != nil {
		return ReviewPage{}, err
	}
	p.TopPages = wire.Each(top, func(t store.TopPage) TopPage { return TopPage(t) })
	for i := range p.TopPages {
		p.TopPages[i].Text = excerpt(p.TopPages[i].Text, ReviewExcerpt)
	}
	series, err := s.store.OPICSeries(ctx, site)
	if err != nil {
		return ReviewPage{}, err
	}
	p.OPICSeries = wire.Each(series, func(o store.OPICPoint) OPICPoint { return OPICPoint(o) })
	sel, err := s.store.Selection(ctx, site)
	if err != nil {
		return ReviewPage{}, err
	}
	p.Selection = Selection(sel)
	if ar, err := s.store.SitesArchiveOf(ctx, []string{site}); err != nil {
		return ReviewPage{}, err
	} else if info, ok := ar[site]; ok {
		p.Archive = new(SiteArchiveInfo(info))
	}
	member, err := s.communities.Membership(ctx)
	if err != nil {
		return ReviewPage{}, err
	}
	p.Communities = export.List(slices.Clone(member[site]))
	// The others' ratings are withheld until the librarian has rated the
	// site (see [sight]); OthersRated counts them meanwhile, their notes
	// alone left out.
	v := sightOf(reader(ctx, librarian), d.Ratings)
	p.Ratings = []Rating{}
	for _, r := range d.Ratings {
		switch {
		case v.own(r.Librarian):
			p.Rating = new(Rating(r))
		case v.sees(r.Librarian, r.Site):
			p.Ratings = append(p.Ratings, Rating(r))
		case r.Rating > 0:
			p.OthersRated++
		}
	}
	return p, nil
}

// excerpt cuts text to at most n characters, at a space when one is near
// the end, with an ellipsis when it cut.
func excerpt(text string, n int) string {
	r := []rune(text)
	if len(r) <= n {
		return text
	}
	cut := n
	for i := n; i > n*3/4; i-- {
		if r[i] == ' ' {
			cut = i
			break
		}
	}
	return string(r[:cut]) + "…"
}

func orEmptySlice[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// Librarian returns the stored name of librarian profile name, whatever
// its case (see [project.Project.Librarian]).
func (s *Service) Librarian(ctx context.Context, name string) (string, error) {
	return s.project.Librarian(ctx, name)
}
