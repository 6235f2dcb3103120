package ranking

import (
	"sitesift/app/internal/wire"
	"sitesift/sites/store"
)

// The types of this file are what the API and the command line's JSON say
// of a site's importance: the field names on the wire are decided here, not
// by the store's rows, which carry none.

// SiteRow is one site in a listing.
type SiteRow struct {
	Site string `json:"site"`
	// OPIC is the site's share of all OPIC importance at OPIC's fixpoint
	// over the site graph (importance.Fixpoint); the shares of all sites
	// sum to 1.
	OPIC     float64 `json:"opic"`
	PageRank float64 `json:"pagerank"`
	// Pages is the number of pages of the site fetched fine; a failed fetch
	// is not a page.
	Pages int `json:"pages"`
	// Errors is the number of fetches of the site that failed or answered
	// an error (robots-blocked URLs are not fetches).
	Errors int `json:"errors"`
	// CrawlStatus is what the crawl got of the site (sites.SiteOK …).
	CrawlStatus string `json:"crawl_status"`
	// InSites and OutSites count the other sites linking to it and linked
	// from it.
	InSites  int `json:"in_sites"`
	OutSites int `json:"out_sites"`
	// Rating is the rating of SiteQuery.Librarian, nil when there is none.
	Rating *int `json:"rating"`
	// Platform is true of a platform site: one the list of platforms names
	// (sites.IsPlatform) unless a librarian moved it out, or one a
	// librarian moved in.
	Platform bool `json:"platform"`
	// Standing places the site among all sites; the store leaves it zero
	// and the app fills it (ranking.Standings).
	Standing
}

// Row is the listing row of a stored site row.
func Row(r store.SiteRow) SiteRow {
	return SiteRow{Site: r.Site, OPIC: r.OPIC, PageRank: r.PageRank, Pages: r.Pages, Errors: r.Errors,
		CrawlStatus: r.CrawlStatus, InSites: r.InSites, OutSites: r.OutSites, Rating: r.Rating,
		Platform: r.Platform, Standing: Standing(r.Standing)}
}

// Rows is [Row] of each stored row, nil for nil.
func Rows(rs []store.SiteRow) []SiteRow { return wire.Each(rs, Row) }

// Standing is a site's place among all the project's sites by OPIC and by
// PageRank, in numbers a reader can compare: the rank (1 is the highest
// value; sites of equal value share a rank, and the next rank skips as many,
// as in 1, 2, 2, 4) and the score, 100 × value / highest value, rounded to
// a whole number (the top site scores 100). Zero means not computed.
// OPICTies is the number of other sites that share the OPIC rank: 0 when
// the site's value is its own.
type Standing struct {
	OPICRank      int `json:"opic_rank"`
	OPICScore     int `json:"opic_score"`
	OPICTies      int `json:"opic_ties"`
	PageRankRank  int `json:"pagerank_rank"`
	PageRankScore int `json:"pagerank_score"`
}

// SiteLink is a neighbour in the site graph: the other site, the weight of
// the edge and the other site's normalised OPIC.
type SiteLink struct {
	Site   string  `json:"site"`
	Weight float64 `json:"weight"`
	OPIC   float64 `json:"opic"`
	// OPICScore is the other site's OPIC as 0–100 of the top site's
	// (Standing.OPICScore); the app fills it.
	OPICScore int `json:"opic_score"`
}

// Links is each stored link as a [SiteLink], nil for nil.
func Links(ls []store.SiteLink) []SiteLink {
	return wire.Each(ls, func(l store.SiteLink) SiteLink { return SiteLink(l) })
}
