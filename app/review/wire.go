package review

import (
	"time"

	"sitesift/app/export"
	"sitesift/app/internal/wire"
	"sitesift/app/ranking"
	"sitesift/sites/store"
)

// The types of this file are what the API and the command line's JSON say
// of sites, ratings and the selection: the field names on the wire are
// decided here, not by the store's rows, which carry none. Each converter
// takes a stored row field by field, so that a field the store adds does
// not reach the wire unseen.

// Rating is one librarian's judgement of a site: 1 (not worth archiving) to
// 4 (must archive), with an optional note; or a note alone, kept before
// (or without) a rating, whose Rating is 0.
type Rating struct {
	Librarian string    `json:"librarian"`
	Site      string    `json:"site"`
	Rating    int       `json:"rating"`
	Note      string    `json:"note"`
	RatedAt   time.Time `json:"rated_at"`
}

// Librarian is a librarian's profile: a name chosen in the app or given with
// --librarian. sitesift is a desktop tool, so a profile has no password; it
// only keeps one librarian's ratings and decisions apart from another's.
type Librarian struct {
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"created_at"`
	// Ratings is the number of sites the librarian has rated (notes
	// without a rating are not counted).
	Ratings int `json:"ratings"`
}

// Selection is the selection state of one site.
type Selection struct {
	Site string `json:"site"`
	// Status is one of the Status constants; a site never decided upon is
	// a candidate.
	Status  string `json:"status"`
	Note    string `json:"note"`
	Subject string `json:"subject"`
	// DecidedBy and DecidedAt tell who last changed the status, and when;
	// empty and zero while the site has never left candidate.
	DecidedBy string    `json:"decided_by"`
	DecidedAt time.Time `json:"decided_at,omitzero"`
	// NominatedBy and NominatedAt tell who nominated the site, and when,
	// for a nominated or approved site (and a rejected one that had been
	// nominated). NominatorUnknown is true for a site approved before
	// nominators were kept: it was nominated, by someone not recorded.
	NominatedBy      string    `json:"nominated_by"`
	NominatedAt      time.Time `json:"nominated_at,omitzero"`
	NominatorUnknown bool      `json:"nominator_unknown,omitempty"`
	// ApprovedBy and ApprovedAt tell who approved the site, and when.
	ApprovedBy string    `json:"approved_by"`
	ApprovedAt time.Time `json:"approved_at,omitzero"`
	// RejectedBy, RejectedAt and RejectedReason tell who rejected the
	// site, when and why (the reason may be empty).
	RejectedBy     string    `json:"rejected_by"`
	RejectedAt     time.Time `json:"rejected_at,omitzero"`
	RejectedReason string    `json:"rejected_reason"`
	// PageOnly is true for an approved site whose seed is handed to
	// crawlers as that page alone, not as its whole site.
	PageOnly bool `json:"page_only"`
}

// RatingsImport tells what [store.Store.ImportRatings] changed.
type RatingsImport struct {
	// Rows is the number of ratings given.
	Rows int `json:"rows"`
	// Added ratings were new; Changed ones replaced a different rating or
	// note; Unchanged ones were there already, rated_at included.
	Added     int `json:"added"`
	Changed   int `json:"changed"`
	Unchanged int `json:"unchanged"`
	// NewLibrarians are the profiles the import created, sorted.
	NewLibrarians []string `json:"new_librarians"`
}

// TopPage is one of the most important crawled pages of a site, as the
// review page shows it.
type TopPage struct {
	URL   string `json:"url"`
	Title string `json:"title"`
	// Text is the start of the page's text, at most TopPageText characters.
	Text  string `json:"text"`
	Depth int    `json:"depth"`
	// InLinks is the number of crawled pages of other sites that link to it.
	InLinks int `json:"in_links"`
}

// OPICPoint is one point of a site's importance over the crawl.
type OPICPoint struct {
	// Pages is the number of crawled pages of the project when the
	// snapshot was taken: the crawl step.
	Pages int       `json:"pages"`
	At    time.Time `json:"at"`
	// OPIC is the site's share of all OPIC importance then.
	OPIC float64 `json:"opic"`
}

// SiteArchiveInfo is what the project knows of a site from archives and
// the Common Crawl graph.
type SiteArchiveInfo struct {
	URLs           int       `json:"urls"`
	Captures       int       `json:"captures"`
	First          time.Time `json:"first,omitzero"`
	Last           time.Time `json:"last,omitzero"`
	InlinksOutside int       `json:"cc_inlinks_outside,omitempty"`
	CCHarmonic     *float64  `json:"cc_harmonic,omitempty"`
	CCPageRank     *float64  `json:"cc_pagerank,omitempty"`
}

// PageRow is one crawled page of a site, as listed in [SiteDetail].
type PageRow struct {
	URL         string `json:"url"`
	Title       string `json:"title"`
	Status      int    `json:"status"`
	ContentType string `json:"content_type"`
	// ErrorClass is why the fetch failed (sites.ErrDNS …), "" when it did
	// not.
	ErrorClass string `json:"error_class"`
}

// SiteReport counts what the crawl got of a site: the pages fetched fine,
// the failed fetches by class (sites.ErrDNS …, robots.txt's refusals
// apart) and the URLs robots.txt kept the crawler from.
type SiteReport struct {
	PagesOK       int            `json:"pages_ok"`
	ErrorsByClass map[string]int `json:"errors_by_class"`
	RobotsBlocked int            `json:"robots_blocked"`
	// OutOfScope and Trapped count the distinct URLs of the site the crawls
	// found and left out (out of scope or too deep; by a trap guard);
	// DelayMS is the delay between two requests the last crawl kept there.
	OutOfScope int `json:"out_of_scope"`
	// Redirects counts the URLs of the site that redirected elsewhere.
	Redirects int `json:"redirects"`
	Trapped   int `json:"trapped"`
	DelayMS   int `json:"delay_ms"`
}

// SelectedSite is a site of [store.Store.Selections]: its selection state and its
// importance, what a seed list of selected sites carries.
type SelectedSite struct {
	Selection
	// OPIC is the site's share of all OPIC importance (see SiteRow.OPIC).
	OPIC float64 `json:"opic"`
	// PageRank is the site's PageRank (see SiteRow.PageRank).
	PageRank float64 `json:"pagerank"`
	// Platform tells a platform site (see SiteRow.Platform).
	Platform bool `json:"platform"`
	// Standing places the site among all sites; the app fills it.
	ranking.Standing
}

// Page is one stored page with its texts, as a librarian reads it:
// its main text (what search finds) and the whole page's text, kept
// apart and never indexed.
type Page struct {
	URL    string `json:"url"`
	Site   string `json:"site"`
	Status int    `json:"status"`
	Title  string `json:"title"`
	// Text is the page's main content. A page fetched before the main
	// content was told from its template (migration 0017) holds its whole
	// text here, and an empty FullText.
	Text string `json:"text"`
	// FullText is the whole body's text, template included; "" for a page
	// fetched before it was kept, and for one without text.
	FullText string `json:"full_text"`
	// Language is the ISO 639-1 code of the main text's language, "" when
	// it could not be told.
	Language string `json:"language"`
	// Published is the date the page says it was published, zero when it
	// says none.
	Published time.Time `json:"published,omitzero"`
	FetchedAt time.Time `json:"fetched_at,omitzero"`
	// EditorialLinks counts the page's links inside its main content;
	// TemplateLinks its others, including RepeatedLinks: those inside its
	// main content to a URL most pages of its site link to, which the
	// site graph takes for the template's (see [store.Store.RepetitionRule]).
	EditorialLinks int `json:"editorial_links"`
	TemplateLinks  int `json:"template_links"`
	RepeatedLinks  int `json:"repeated_links"`
}

// SiteCount is one entry of the site facet.
type SiteCount struct {
	Site  string `json:"site"`
	Count int    `json:"count"`
}

// SiteDetail is everything the site page shows. The counts of the embedded
// row are complete; the lists are capped at [store.MaxDetailRows].
type SiteDetail struct {
	Site        string  `json:"site"`
	OPIC        float64 `json:"opic"`
	PageRank    float64 `json:"pagerank"`
	PagesCount  int     `json:"pages_count"`
	Errors      int     `json:"errors"`
	CrawlStatus string  `json:"crawl_status"`
	InSites     int     `json:"in_sites"`
	OutSites    int     `json:"out_sites"`
	Rating      *int    `json:"rating"`
	// The lists are never null on the wire, which the page iterates
	// without a check; "pages" is the list, so the row's count is
	// "pages_count".
	Pages    []PageRow          `json:"pages"`
	InLinks  []ranking.SiteLink `json:"in_links"`
	OutLinks []ranking.SiteLink `json:"out_links"`
	Ratings  []Rating           `json:"ratings"`
	Report   SiteReport         `json:"report"`
	Platform bool               `json:"platform"`
	// PlatformListed is true when the list of platforms names the site;
	// PlatformChosen when a librarian chose for this project whether it is
	// one (Platform says what was chosen).
	PlatformListed bool `json:"platform_listed"`
	PlatformChosen bool `json:"platform_chosen"`
	ranking.Standing
}

// detail is the site page of a stored detail.
func detail(d store.SiteDetail) SiteDetail {
	return SiteDetail{Site: d.Site, OPIC: d.OPIC, PageRank: d.PageRank, PagesCount: d.SiteRow.Pages, Errors: d.Errors,
		CrawlStatus: d.CrawlStatus, InSites: d.InSites, OutSites: d.OutSites, Rating: d.Rating,
		Pages:   export.List(wire.Each(d.Pages, func(p store.PageRow) PageRow { return PageRow(p) })),
		InLinks: export.List(ranking.Links(d.InLinks)), OutLinks: export.List(ranking.Links(d.OutLinks)),
		Ratings: export.List(ratings(d.Ratings)), Report: SiteReport(d.Report),
		Platform: d.Platform, PlatformListed: d.PlatformListed, PlatformChosen: d.PlatformChosen,
		Standing: ranking.Standing(d.Standing)}
}

// selectedSite is the selected site of a stored one.
func selectedSite(s store.SelectedSite) SelectedSite {
	return SelectedSite{Selection: Selection(s.Selection), OPIC: s.OPIC, PageRank: s.PageRank, Platform: s.Platform,
		Standing: ranking.Standing(s.Standing)}
}

// ratings is each stored rating as a [Rating].
func ratings(rs []store.Rating) []Rating {
	return wire.Each(rs, func(r store.Rating) Rating { return Rating(r) })
}

// SelectionUpdate is what [Service.SetSelection] changes of a site's
// selection state (see [store.SelectionUpdate]).
type SelectionUpdate = store.SelectionUpdate

// The selection statuses a site moves through, for the adapters to name.
const (
	StatusCandidate = store.StatusCandidate
	StatusNominated = store.StatusNominated
	StatusApproved  = store.StatusApproved
	StatusRejected  = store.StatusRejected
)

// Statuses returns the selection statuses in their workflow order.
func Statuses() []string { return store.Statuses() }

// SiteQuery asks [Service.Sites] for a page of the sites table (see
// [store.SiteQuery]).
type SiteQuery = store.SiteQuery
