package sites

import "time"

// Page is one fetched page, as the crawler hands it over and the store keeps it.
type Page struct {
	URL         string // normalised absolute URL (after redirects)
	Site        string // Of(URL)
	Status      int    // HTTP status; 0 when the fetch failed before a response
	ContentType string // media type without parameters, e.g. "text/html"
	Title       string // <title>, trimmed; empty for non-HTML
	// Text is the page's main content, what its authors wrote, without the
	// template around it (navigation, footers, share buttons, cookie
	// banners); white space collapsed; empty for non-HTML. It is what search
	// finds and what snippets, excerpts and topic labels are made of.
	Text string
	// FullText is the readable text of the whole body, template included,
	// white space collapsed: kept to be shown, never indexed.
	FullText string
	// Language is the ISO 639-1 code of the main text's language ("fr"),
	// "" when it could not be told.
	Language string
	// Published is the date the page says it was published, zero when it
	// says none.
	Published time.Time
	// Links are the page's editorial links: those inside its main content,
	// which its authors wrote. Normalised absolute http(s) URLs,
	// deduplicated, in document order.
	Links []string
	// TemplateLinks are the page's other links (navigation, header, footer,
	// sidebars, share widgets, "related" boxes), by the same rules and
	// never one of Links.
	TemplateLinks []string
	Depth         int       // links followed from a seed
	FetchedAt     time.Time // when the response arrived
	Err           string    // why the fetch failed, if it did
	// ErrClass is the class of the failure (ErrDNS …), "" for a page
	// fetched fine.
	ErrClass string
	// Via is the URL of the page whose link led to this one, "" for a seed
	// (and for a URL a continued crawl took from the project's frontier).
	Via string
	// Size is the length of the body received, in bytes.
	Size int
	// Took is how long the fetch took, from the request to the body read.
	Took time.Duration
}

// Classes of a failed fetch, as Heritrix operators sort them: the network
// failures (the host cannot be reached), an answer that is an error, or a
// URL robots.txt keeps the crawler from.
const (
	ErrDNS        = "dns"        // the host name does not resolve
	ErrConnect    = "connect"    // connection refused, reset or unreachable
	ErrTimeout    = "timeout"    // no answer in time
	ErrTLS        = "tls"        // the TLS handshake or certificate failed
	ErrIncomplete = "incomplete" // an answer whose body could not be read whole
	ErrHTTP4xx    = "http-4xx"   // a 4xx status
	ErrHTTP5xx    = "http-5xx"   // a 5xx status
	ErrRobots     = "robots"     // disallowed by robots.txt (or it stayed unreachable), not fetched
	ErrSlow       = "slow"       // robots.txt asks for a Crawl-delay over the cap, not fetched
	// ErrRedirectChain is a redirect chain longer than the crawl's bound,
	// cut there: its intermediate pages and hosts are not recorded.
	ErrRedirectChain = "redirect-chain"
	ErrOther         = "other" // any other failure
	// ErrRedirect is no failure: the URL redirected to another, recorded
	// under its own URL. Keeping the source means a continued crawl does
	// not ask for it again.
	ErrRedirect = "redirect"
)

// Crawl statuses of a site, from what the crawl got of its pages.
const (
	SiteOK           = "ok"            // at least one page fetched fine
	SiteDead         = "dead"          // every fetch failed: DNS, connection, timeout…
	SiteRobotsClosed = "robots-closed" // robots.txt disallowed every URL tried
	SiteErrorsOnly   = "errors-only"   // it answered, with errors only (4xx, 5xx, broken bodies)
	SiteSlow         = "slow"          // Crawl-delay over the cap: not crawled
	SiteNotFetched   = "not-fetched"   // known from links only
)

// Failed reports whether a site of this crawl status gave nothing worth
// archiving: dead, closed to robots or errors only. Such sites stay in the
// ranking but are left out of seed lists and the review queue by default.
func Failed(status string) bool {
	return status == SiteDead || status == SiteRobotsClosed || status == SiteErrorsOnly
}

// SiteState is the OPIC state of one site at a point of the crawl.
type SiteState struct {
	Site    string
	Cash    float64
	History float64
	// OutOfScope and Trapped count the distinct URLs of the site the crawl
	// found and left out: out of its scope (or too deep), or by a trap
	// guard. DelayMS is the delay between two requests to the site the
	// crawl kept, in milliseconds.
	OutOfScope, Trapped, DelayMS int
}

// Edge is a weighted link of the site graph: Weight is the number of distinct
// crawled pages of From that link to at least one page of To.
type Edge struct {
	From, To string
	Weight   float64
}
