package review

import (
	"time"

	"sitesift/app/internal/wire"
	"sitesift/sites/index"
)

// Query is a full-text query of [Service.Search], as the index takes it.
type Query = index.Query

// IndexResult is what a search of the index finds: what the search
// function a [Service] is given returns.
type IndexResult = index.Result

// ErrBadQuery marks a query that cannot run (see [index.QueryError]).
var ErrBadQuery = index.ErrBadQuery

// SearchDefaultLimit is the number of hits of a query that names none.
const SearchDefaultLimit = index.DefaultLimit

// SearchTimeout bounds one search (see [index.SearchTimeout]).
const SearchTimeout = index.SearchTimeout

// QueryErrorDetails is a value of the shape of the details an answer to a
// query that cannot run carries: the problem and the character it is at.
func QueryErrorDetails() any { return (&index.QueryError{}).Details() }

// IndexResult is the index's result that r, a page of results another
// process answered, was made of, with at most facetSites sites of the
// facet: what a search of the index beside would have found.
func (r SearchResult) IndexResult(facetSites int) IndexResult {
	// Every part of the result: the best score is what each hit's
	// relevance is a share of.
	out := index.Result{Total: r.Total, Took: time.Duration(r.TookMS * float64(time.Millisecond)), MaxScore: r.MaxScore,
		Ignored: r.Ignored, Hits: make([]index.Hit, len(r.Hits))}
	// The holder's API always asks for the site facet; a query that did
	// not gets none, as from the index.
	if facetSites > 0 {
		out.Sites = wire.Each(r.Facets[:min(facetSites, len(r.Facets))], func(c SiteCount) index.SiteCount { return index.SiteCount(c) })
	}
	for i, h := range r.Hits {
		out.Hits[i] = index.Hit{URL: h.URL, Site: h.Site, Title: h.Title, Score: h.Score, Snippet: h.Snippet, Language: h.Language}
	}
	return out
}
