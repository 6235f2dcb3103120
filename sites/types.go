package sites

import "time"

// Page is one fetched page, as the crawler hands it over and the store keeps it.
type Page struct {
	URL         string    // normalised absolute URL (after redirects)
	Site        string    // Of(URL)
	Status      int       // HTTP status; 0 when the fetch failed before a response
	ContentType string    // media type without parameters, e.g. "text/html"
	Title       string    // <title>, trimmed; empty for non-HTML
	Text        string    // readable text of the body, whitespace collapsed; empty for non-HTML
	Links       []string  // normalised absolute http(s) URLs the page links to, deduplicated, in document order
	Depth       int       // links followed from a seed
	FetchedAt   time.Time // when the response arrived
	Err         string    // why the fetch failed, if it did
}

// SiteState is the OPIC state of one site at a point of the crawl.
type SiteState struct {
	Site    string
	Cash    float64
	History float64
}

// Edge is a weighted link of the site graph: Weight is the number of distinct
// crawled pages of From that link to at least one page of To.
type Edge struct {
	From, To string
	Weight   float64
}
