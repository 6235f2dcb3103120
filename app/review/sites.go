package review

import (
	"context"
	"errors"
	"fmt"
	"sitesift/app/export"
	"sitesift/app/fault"
	"sitesift/app/internal/wire"
	"sitesift/app/project"
	"sitesift/app/ranking"
	"sitesift/sites/index"
	"sitesift/sites/store"
)

// Sites lists sites, sorted, filtered and paginated by the store.
func (s *Service) Sites(ctx context.Context, q SiteQuery) (SiteList, error) {
	if own, signedIn, err := project.SignedInAs(ctx, q.Librarian); signedIn {
		// On a team server the rows carry the signed-in librarian's ratings
		// alone.
		if err != nil {
			return SiteList{}, err
		}
		q.Librarian = own
	} else if q.Librarian != "" {
		// The librarian's ratings fill the rows: "ana" reads Ana's.
		if l, err := s.store.LibrarianProfile(ctx, q.Librarian); err == nil {
			q.Librarian = l.Name
		}
	}
	total, rows, err := s.store.ListSites(ctx, q)
	if err != nil {
		return SiteList{}, err
	}
	if rows == nil {
		rows = []store.SiteRow{}
	}
	if err := s.ranking.PlaceRows(ctx, rows); err != nil {
		return SiteList{}, err
	}
	names := make([]string, len(rows))
	for i, r := range rows {
		names[i] = r.Site
	}
	archive, err := s.store.SitesArchiveOf(ctx, names)
	if err != nil {
		return SiteList{}, err
	}
	graph, err := s.ranking.LinkGraph(ctx)
	if err != nil {
		return SiteList{}, err
	}
	platforms, err := s.store.PlatformCount(ctx)
	if err != nil {
		return SiteList{}, err
	}
	list := SiteList{Total: total, Offset: q.Offset, Limit: q.Limit, Rows: ranking.Rows(rows), Graph: graph, Platforms: platforms}
	if len(archive) > 0 {
		list.Archive = make(map[string]SiteArchiveInfo, len(archive))
		for name, info := range archive {
			list.Archive[name] = SiteArchiveInfo(info)
		}
	}
	return list, nil
}

// SiteList is one page of the sites table.
type SiteList struct {
	Total  int               `json:"total"`
	Offset int               `json:"offset"`
	Limit  int               `json:"limit"`
	Rows   []ranking.SiteRow `json:"rows"`
	// Archive is what imported archives (CDX) and the Common Crawl graph
	// say of the listed sites, by name, for those they name.
	Archive map[string]SiteArchiveInfo `json:"archive,omitempty"`
	// Graph is the site graph the importance and the degrees come from.
	Graph ranking.LinkGraph `json:"graph"`
	// Platforms is the number of the project's platform sites, whatever
	// the query: what the Sites page says it hides or shows apart.
	Platforms int `json:"platforms"`
}

// Site returns one site's detail; librarian selects whose rating is shown as
// its Rating. With a librarian, the other librarians' ratings are withheld
// until that librarian has rated the site (as on the review page), so that
// they judge it unswayed; without one, every rating is shown. On a team
// server the librarian is the signed-in one, named or not (see [sight]).
func (s *Service) Site(ctx context.Context, name, librarian string) (SiteDetail, error) {
	if _, signedIn := project.IdentityFrom(ctx); librarian != "" || signedIn {
		var err error
		if librarian, err = s.Librarian(ctx, librarian); err != nil {
			return SiteDetail{}, err
		}
	}
	name = s.project.SiteName(name)
	d, err := s.store.Site(ctx, name, librarian)
	if err != nil {
		return SiteDetail{}, s.noSite(ctx, name, err)
	}
	st, err := s.ranking.Standings(ctx)
	if err != nil {
		return SiteDetail{}, err
	}
	d.Standing = store.Standing(st.OfSite(d.Platform, d.OPIC, d.PageRank))
	ranking.ScoreLinks(st, d.InLinks)
	ranking.ScoreLinks(st, d.OutLinks)
	// Until the librarian has rated the site the others' ratings are
	// withheld, their own note alone shown.
	d.Ratings = sightOf(reader(ctx, librarian), d.Ratings).filter(d.Ratings)
	return detail(d), nil
}

// CheckRating returns a bad-request error unless value is a rating, a
// whole number from 1 to 4.
func CheckRating(value int) error {
	if value < store.MinRating || value > store.MaxRating {
		return fault.Invalid(fmt.Errorf("rating %d is not 1, 2, 3 or 4 (a note alone is kept with a note, not a rating)", value))
	}
	return nil
}

// Rate records a librarian's rating (1–4) of a site. The librarian must
// be a profile of the project (see [Service.Librarian]).
func (s *Service) Rate(ctx context.Context, librarian, site string, value int, note string) (Rating, error) {
	if err := CheckRating(value); err != nil {
		return Rating{}, err
	}
	name, err := s.Librarian(ctx, librarian)
	if err != nil {
		return Rating{}, err
	}
	site = s.project.SiteName(site)
	r, err := s.store.SetRating(ctx, name, site, value, note, ratingAudit(ctx, name, store.AuditRating, site))
	return Rating(r), s.noSite(ctx, site, err)
}

// Rerate records a librarian's rating (1–4) of a site, keeping the note
// already stored.
func (s *Service) Rerate(ctx context.Context, librarian, site string, value int) (Rating, error) {
	if err := CheckRating(value); err != nil {
		return Rating{}, err
	}
	name, err := s.Librarian(ctx, librarian)
	if err != nil {
		return Rating{}, err
	}
	site = s.project.SiteName(site)
	r, err := s.store.Rerate(ctx, name, site, value, ratingAudit(ctx, name, store.AuditRating, site))
	return Rating(r), s.noSite(ctx, site, err)
}

// Unrate removes a librarian's rating of a site.
func (s *Service) Unrate(ctx context.Context, librarian, site string) error {
	name, err := s.Librarian(ctx, librarian)
	if err != nil {
		return err
	}
	site = s.project.SiteName(site)
	err = s.store.DeleteRating(ctx, name, site, ratingAudit(ctx, name, store.AuditUnrating, site))
	return s.noSite(ctx, site, err)
}

// SearchResult is one page of search results.
type SearchResult struct {
	Total  uint64      `json:"total"`
	TookMS float64     `json:"took_ms"`
	Hits   []SearchHit `json:"hits"`
	// Facets are the sites with the most hits, most first, when the query
	// asked for them (index.Query.FacetSites); empty otherwise.
	Facets []SiteCount `json:"facets"`
	// Ignored are the query's words too common to search for, left out of
	// the search (index.Result.Ignored).
	Ignored []string `json:"ignored"`
	// MaxScore is the best hit's score over all hits, not only this
	// page's: what Relevance is a share of.
	MaxScore float64 `json:"max_score"`
}

// SearchFacetSites is the number of sites of the facet of GET /api/search.
const SearchFacetSites = 10

// SearchHit is one matching page.
type SearchHit struct {
	URL   string  `json:"url"`
	Site  string  `json:"site"`
	Title string  `json:"title"`
	Score float64 `json:"score"`
	// Relevance is Score as 0–100 of the best hit's over all hits
	// ([Score100]): the best match of the query is 100.
	Relevance int    `json:"relevance"`
	Snippet   string `json:"snippet"`
	// Language is the page's language (ISO 639-1), as its main text was
	// told and indexed; "" when unknown.
	Language string `json:"language"`
}

// Search runs a full-text query over the crawled pages: every plain word
// required unless q.Any. A query that cannot run is a bad request whose
// message says why in plain words (an [*index.QueryError], whose details
// name the problem and the character it is at).
func (s *Service) Search(ctx context.Context, q index.Query) (SearchResult, error) {
	res, err := s.search(ctx, q)
	if errors.Is(err, index.ErrBadQuery) {
		return SearchResult{}, fault.Invalid(err)
	}
	if err != nil {
		return SearchResult{}, err
	}
	out := SearchResult{Total: res.Total, TookMS: float64(res.Took.Microseconds()) / 1000, Hits: make([]SearchHit, len(res.Hits)),
		Facets: export.List(wire.Each(res.Sites, func(c index.SiteCount) SiteCount { return SiteCount(c) })), Ignored: export.List(res.Ignored), MaxScore: res.MaxScore}
	for i, h := range res.Hits {
		out.Hits[i] = SearchHit{URL: h.URL, Site: h.Site, Title: h.Title, Score: h.Score, Snippet: h.Snippet,
			Language: h.Language, Relevance: ranking.Score100(h.Score, res.MaxScore)}
	}
	return out, nil
}

// Warm ranks the sites and counts them in the background, so that the
// first page of the sites table a window or a browser asks for does not
// wait for it (over a second at a million sites). A listing asked for
// meanwhile waits for it rather than ranking the sites a second time.
func (s *Service) Warm() {
	go func() {
		_, _ = s.Sites(context.Background(), SiteQuery{Sort: "opic", Desc: true, Limit: 1})
	}()
}
