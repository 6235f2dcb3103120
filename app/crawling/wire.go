package crawling

import (
	"time"

	"sitesift/sites/store"
)

// The types of this file are what the API says of failed fetches and of
// recrawls: the field names on the wire are decided here, not by the
// store's rows, which carry none.

// FetchError is a fetch that failed, answered an error or was refused by
// robots.txt.
type FetchError struct {
	URL       string    `json:"url"`
	Site      string    `json:"site"`
	Status    int       `json:"status"` // 0 when there was no answer
	Class     string    `json:"class"`  // sites.ErrDNS …
	Error     string    `json:"error"`
	FetchedAt time.Time `json:"fetched_at"`
}

// GonePage is a page a recrawl found gone: kept with its title, without its
// out-links.
type GonePage struct {
	URL    string    `json:"url"`
	Title  string    `json:"title"`
	Status int       `json:"status"` // 404 or 410; a redirect's own status, or 0
	Why    string    `json:"why"`    // "gone: 404", "gone: redirected to …"
	GoneAt time.Time `json:"gone_at"`
}

// SiteRound is a site's part in one round, for its page.
type SiteRound struct {
	Round     int       `json:"round"`
	StartedAt time.Time `json:"started_at"`
	// Reading is the site's share of the cash read in the round;
	// Importance its importance after the round under the window policy
	// (round 0: its OPIC importance then, its reading).
	Reading    float64 `json:"reading"`
	Importance float64 `json:"importance"`
	RecrawlCounts
}

// RecrawlCounts count what the fetches of a recrawl found: pages whose
// digest (title, text and links) is the stored one, pages with another
// digest, pages not stored before (or back after they were gone), pages
// gone (404, 410, or moved by a redirect), and fetches of the project's
// pages that failed otherwise, which change nothing. A page still gone,
// and a new URL whose fetch failed, count nowhere.
type RecrawlCounts struct {
	Unchanged int `json:"unchanged"`
	Changed   int `json:"changed"`
	New       int `json:"new"`
	Gone      int `json:"gone"`
	Failed    int `json:"failed"`
}

// Add adds o's counts to c.
func (c *RecrawlCounts) Add(o store.RecrawlCounts) {
	s := store.RecrawlCounts(*c)
	s.Add(o)
	*c = RecrawlCounts(s)
}

// siteRound is the round of a stored one.
func siteRound(r store.SiteRound) SiteRound {
	return SiteRound{Round: r.Round, StartedAt: r.StartedAt, Reading: r.Reading, Importance: r.Importance,
		RecrawlCounts: RecrawlCounts(r.RecrawlCounts)}
}
