package crawl

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"golang.org/x/net/publicsuffix"

	"sitesift/sites"
)

// Scopes of a crawl, as Browsertrix and Heritrix users know them: which
// URLs the crawl fetches, measured from its seeds.
const (
	ScopePage   = "page"   // the seeds only
	ScopePrefix = "prefix" // URLs under a seed's directory (its URL up to the last /)
	ScopeHost   = "host"   // URLs on a seed's host
	ScopeDomain = "domain" // URLs on a seed's registered domain
	ScopeAny    = "any"    // every URL (the default)
)

// scope decides which URLs a crawl fetches. Links out of it still count in
// the site graph — they are part of importance — but are not fetched,
// unless within maxHops links of an in-scope page.
type scope struct {
	mode             string
	prefixes         []string
	hosts, domains   map[string]bool
	pages            map[string]bool
	include, exclude []*regexp.Regexp
	maxHops          int // links out of scope a URL may be from an in-scope page
	maxDepth         int // links from a seed; 0 for no limit
}

// ParseScope checks a scope name; "" is ScopeAny.
func ParseScope(s string) (string, error) {
	switch s {
	case "":
		return ScopeAny, nil
	case ScopePage, ScopePrefix, ScopeHost, ScopeDomain, ScopeAny:
		return s, nil
	}
	return "", fmt.Errorf("crawl: unknown scope %q (want page, prefix, host, domain or any)", s)
}

// newScope returns the scope of cfg around the normalised seeds.
func newScope(cfg config, seeds []string) *scope {
	s := &scope{mode: cfg.scope, include: cfg.include, exclude: cfg.exclude, maxHops: cfg.maxHops, maxDepth: cfg.maxDepth,
		hosts: map[string]bool{}, domains: map[string]bool{}, pages: map[string]bool{}}
	for _, n := range seeds {
		u := mustParse(n)
		s.pages[n] = true
		s.hosts[u.Host] = true
		s.domains[registered(u.Hostname())] = true
		if i := strings.LastIndexByte(n, '/'); i >= len(u.Scheme)+3 {
			s.prefixes = append(s.prefixes, n[:i+1])
		}
	}
	return s
}

// registered is the registered domain of a host name, or the name itself
// when it has none (an IP address, localhost).
func registered(host string) string {
	if d, err := publicsuffix.EffectiveTLDPlusOne(host); err == nil {
		return d
	}
	return host
}

// in reports whether the normalised URL n (parsed as u) is in scope: the
// scope's rule or an include expression takes it, and no exclude one
// drops it.
func (s *scope) in(n string, u *url.URL) bool {
	for _, re := range s.exclude {
		if re.MatchString(n) {
			return false
		}
	}
	for _, re := range s.include {
		if re.MatchString(n) {
			return true
		}
	}
	switch s.mode {
	case ScopePage:
		return s.pages[n]
	case ScopePrefix:
		for _, p := range s.prefixes {
			if strings.HasPrefix(n, p) {
				return true
			}
		}
		return false
	case ScopeHost:
		return s.hosts[u.Host]
	case ScopeDomain:
		return s.domains[registered(u.Hostname())]
	}
	return true
}

// Kinds of URL a crawl leaves out, counted in Status.Dropped.
const (
	DropOutOfScope = "out-of-scope"      // out of the scope, beyond MaxHops
	DropTooDeep    = "too-deep"          // more links from a seed than MaxDepth
	DropPathDepth  = "path-depth"        // more path segments than MaxPathDepth
	DropRepeats    = "repeated-segments" // a path that repeats itself: /a/b/a/b/a/b
	DropQueries    = "query-variants"    // a path with more query strings than MaxQueryVariants
	DropCalendar   = "calendar"          // a date out of range, or too many dated URLs on a site
	// Links that are no link between sites either: left out of the page's
	// links, so of the site graph, as well as not fetched.
	DropShare   = "share-button" // the endpoint of a share button (sites.IsShareLink)
	DropMedia   = "media"        // an image, video, audio, font, style sheet or script (sites.IsMedia)
	DropPrivate = "private-host" // a host that is no public one (sites.HostKind), not a seed's and without AllowPrivate
)

// privateLink reports whether the link u (normalised) leads to a host off
// the public Internet (sites.HostKind) that the crawl may not fetch: such a
// link is the author's machine or LAN, never a site. c.mu must be held.
func (c *Crawler) privateLink(u *url.URL) bool {
	return sites.HostKind(u.Hostname()) != "" && !c.guard.allowsHost(u)
}

// trapGuard keeps a crawl out of the traps of the web: endless calendars,
// ever deeper or self-repeating paths, a page with endless query strings.
// Its counts grow with the distinct URLs of the crawl, which its frontier
// holds anyway.
type trapGuard struct {
	maxPathDepth, maxQueries, maxCalendar int
	queries                               map[string]int   // site+path → distinct query strings seen
	calendar                              map[string]int   // site → dated URLs seen
	now                                   func() time.Time // the crawl's clock, whose year bounds the calendar
}

func newTrapGuard(cfg config) *trapGuard {
	return &trapGuard{maxPathDepth: cfg.maxPathDepth, maxQueries: cfg.maxQueryVariants, maxCalendar: cfg.maxCalendar,
		queries: map[string]int{}, calendar: map[string]int{}, now: cfg.clock.Now}
}

// Dates in URLs. A four-digit number is a year only where a date is
// written: followed by a month in the path (2024/05/12, 2135-01), as the
// value of a query parameter (?date=2135-01-02), or as a year parameter
// (?year=1234). Other numbers — /product/4711, /id/1234567, a port — are
// not years. A year of this era (19xx, 20xx) takes a month of one or two
// digits after -, /, _ or . anywhere in the path (report-2024.5, 2024/5/),
// as it always did. Any other year must look like a date beyond doubt: it
// begins a path segment and - or / and a two-digit month follow it
// (/2135/01/02/, /calendar/2912-05), because /4711/2 is more likely a
// product's second page and 1234.10 a version than a month. A date keeps a
// few lookalikes out (/page/1000/10/ reads as October 1000): the price of
// stopping calendars that run centuries ahead or back.
var (
	eraDateRE   = regexp.MustCompile(`(?:^|[^0-9])((?:19|20)[0-9]{2})[-/_.](?:0?[1-9]|1[0-2])(?:[^0-9]|$)`)
	pathDateRE  = regexp.MustCompile(`(?:^|/)([1-9][0-9]{3})[-/](?:0[1-9]|1[0-2])(?:[^0-9]|$)`)
	queryDateRE = regexp.MustCompile(`(?:^|[&;])[^=&;]*=([1-9][0-9]{3})-(?:0[1-9]|1[0-2])(?:[^0-9]|$)`)
	yearRE      = regexp.MustCompile(`(?:^|[&;])(?:y|yr|year)=([0-9]{4})(?:[^0-9]|$)`)
)

// calendarAhead and calendarBack are how far, in years, a dated URL may be
// from this year: a calendar a year ahead is a plan, one further ahead a
// trap; a century back covers the archives a librarian crawls.
const (
	calendarAhead = 1
	calendarBack  = 100
)

// dateYear returns the year of the date in the path or query of u, or 0
// when it has none.
func dateYear(u *url.URL) int {
	path, query := u.EscapedPath(), u.RawQuery
	for _, f := range []struct {
		re *regexp.Regexp
		in string
	}{{eraDateRE, path}, {pathDateRE, path}, {queryDateRE, query}, {yearRE, query}} {
		if m := f.re.FindStringSubmatch(f.in); m != nil {
			y, _ := strconv.Atoi(m[1])
			return y
		}
	}
	return 0
}

// check returns why the new URL u of site must not be fetched, or "". It
// counts the URL towards its path's query strings and its site's dates, so
// it is called once per distinct URL.
func (g *trapGuard) check(site string, u *url.URL) string {
	segs := strings.Split(strings.Trim(u.EscapedPath(), "/"), "/")
	if repeats(segs) {
		return DropRepeats
	}
	if len(segs) > g.maxPathDepth {
		return DropPathDepth
	}
	if u.RawQuery != "" {
		key := site + u.EscapedPath()
		if g.queries[key] >= g.maxQueries {
			return DropQueries
		}
		g.queries[key]++
	}
	if y := dateYear(u); y != 0 {
		this := g.now().Year()
		if y < this-calendarBack || y > this+calendarAhead || g.calendar[site] >= g.maxCalendar {
			return DropCalendar
		}
		g.calendar[site]++
	}
	return ""
}

// repeats reports whether a path repeats a run of one to three segments
// three times in a row: /a/a/a, /a/b/a/b/a/b, /x/a/b/c/a/b/c/a/b/c.
func repeats(segs []string) bool {
	for n := 1; n <= 3; n++ {
		for i := 0; i+3*n <= len(segs); i++ {
			same := true
			for k := i; k < i+2*n && same; k++ {
				same = segs[k] == segs[k+n] && segs[k] != ""
			}
			if same {
				return true
			}
		}
	}
	return false
}

// admits decides whether the link l (parsed as u) found on a page at depth
// and hops from an in-scope page may be queued, and with which hops; it
// returns why not otherwise. c.mu must be held.
func (c *Crawler) admits(l string, u *url.URL, site string, depth, hops int) (newHops int, drop string) {
	if c.scope.maxDepth > 0 && depth > c.scope.maxDepth {
		return 0, DropTooDeep
	}
	newHops = 0
	if !c.scope.in(l, u) {
		if hops+1 > c.scope.maxHops {
			return 0, DropOutOfScope
		}
		newHops = hops + 1
	}
	if drop := c.traps.check(site, u); drop != "" {
		return 0, drop
	}
	return newHops, ""
}
