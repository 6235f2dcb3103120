package crawl

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/url"
	"regexp"
	"strings"
	"time"

	"sitesift/importance"
	"sitesift/sites"
)

// Strategy is the rule that chooses, among the sites ready to be fetched, the
// one whose next page is fetched.
type Strategy string

// The strategies of [ParseStrategy] and the [WithStrategy] option.
const (
	// Greedy fetches from the ready site with the most OPIC cash: the cash
	// of a site is the importance it has received and not yet passed on,
	// so reading the richest site first is OPIC's own greedy policy.
	Greedy Strategy = "greedy"
	// Random fetches from a ready site chosen uniformly at random with the
	// crawler's seeded generator.
	Random Strategy = "random"
	// Cycle fetches from the ready sites in turn, in order of discovery.
	Cycle Strategy = "cycle"
)

// ParseStrategy returns the strategy named s ("greedy", "random" or
// "cycle", case-insensitive); an empty s is [Greedy].
func ParseStrategy(s string) (Strategy, error) {
	switch st := Strategy(strings.ToLower(strings.TrimSpace(s))); st {
	case "":
		return Greedy, nil
	case Greedy, Random, Cycle:
		return st, nil
	}
	return "", fmt.Errorf("crawl: unknown strategy %q (want greedy, random or cycle)", s)
}

// BatchFunc receives the pages recorded since its previous call, in fetch
// order, and the OPIC state of every known site after those pages were read.
// See [OnBatch].
type BatchFunc func(ctx context.Context, pages []sites.Page, states []sites.SiteState) error

// Option configures a [Crawler]; pass options to [New].
type Option func(*config) error

// Defaults of the options.
const (
	DefaultMaxPages        = 500
	DefaultMaxPagesPerSite = 50
	DefaultMaxRedirects    = 5
	DefaultDelay           = time.Second
	DefaultParallel        = 4
	DefaultUserAgent       = "sitesift/0.1 (+https://sitesift.invalid/bot)"
	DefaultBatchSize       = 20
	DefaultFlushInterval   = time.Second
	DefaultTimeout         = 20 * time.Second
	DefaultMaxBodySize     = 10 << 20
	DefaultIdleReads       = 4
	DefaultMaxDelay        = 30 * time.Second
	DefaultRetryBackoff    = time.Second
	// MaxTextChars caps [sites.Page.Text] and [sites.Page.FullText], in
	// characters (runes): several times the longest articles (a long read
	// of 20,000 words is about 130,000 characters), and at most 1,000,000
	// bytes of UTF-8, within what a page's text is read to (maxRest).
	MaxTextChars = 250_000
	// MaxTitleSize caps [sites.Page.Title], in bytes.
	MaxTitleSize = 1000
	// MaxLinks caps the links kept of one page; the rest are dropped and
	// counted in [Status.BadLinks].
	MaxLinks = 10_000
	// MaxLinkBytes caps the bytes of the links kept of one page; the rest
	// are dropped and counted in [Status.BadLinks].
	MaxLinkBytes = 1 << 20
	// MaxURLSize is the longest link kept, in bytes (after normalisation);
	// longer ones are dropped and counted in [Status.BadLinks].
	MaxURLSize = 4096
	// MaxRobotsSize is how much of a robots.txt is read: 500 KiB, the
	// least RFC 9309 requires a crawler to parse.
	MaxRobotsSize = 500 << 10
	// MaxNodes caps the HTML nodes (elements, texts, comments) of one page
	// that are parsed; the rest of the page is not read, its links are
	// counted in [Status.BadLinks].
	MaxNodes = 50_000
	// maxErrSize caps the error message kept with a page.
	maxErrSize = 1000
)

type config struct {
	maxPages         int
	maxFailures      int // 0: maxPages
	maxRedirects     int
	maxPagesPerSite  int
	homePages        bool // HomePages (home.go)
	delay            time.Duration
	parallel         int
	strategy         Strategy
	proxy            *url.URL
	teleport         float64
	userAgent        string
	logger           *slog.Logger
	seed             int64
	batchSize        int
	flushInterval    time.Duration
	onBatch          BatchFunc
	onRecord         func(sites.Page)
	timeout          time.Duration
	maxBodySize      int
	idleReads        int
	prior            *Prior
	revisit          []string // revisit.go
	shares           map[string]float64
	allowPrivate     bool
	siteRule         sites.Rule
	scope            string
	include, exclude []*regexp.Regexp
	maxHops          int
	maxDepth         int
	maxPathDepth     int
	maxQueryVariants int
	maxCalendar      int
	minTransferRate  int
	rateGrace        time.Duration
	onCapture        CaptureFunc // capture.go
	from             string
	maxDelay         time.Duration
	retryBackoff     time.Duration
	clock            Clock // clock.go
	// allLinksForImportance: OPIC counts template links too.
	allLinksForImportance bool
	follow                Follow
}

func defaultConfig() config {
	return config{
		maxPages:         DefaultMaxPages,
		maxPagesPerSite:  DefaultMaxPagesPerSite,
		maxRedirects:     DefaultMaxRedirects,
		delay:            DefaultDelay,
		parallel:         DefaultParallel,
		strategy:         Greedy,
		teleport:         importance.DefaultTeleport,
		userAgent:        DefaultUserAgent,
		siteRule:         sites.RuleHost,
		scope:            ScopeAny,
		maxPathDepth:     DefaultMaxPathDepth,
		maxQueryVariants: DefaultMaxQueryVariants,
		maxCalendar:      DefaultMaxCalendar,
		minTransferRate:  DefaultMinTransferRate,
		rateGrace:        rateGrace,
		logger:           slog.New(slog.NewTextHandler(io.Discard, nil)),
		seed:             1,
		batchSize:        DefaultBatchSize,
		flushInterval:    DefaultFlushInterval,
		timeout:          DefaultTimeout,
		maxBodySize:      DefaultMaxBodySize,
		idleReads:        DefaultIdleReads,
		maxDelay:         DefaultMaxDelay,
		retryBackoff:     DefaultRetryBackoff,
		clock:            systemClock{},
		follow:           FollowEditorial,
	}
}

// MaxPages sets how many pages fetched fine the crawl records before it
// stops (default 500). Failures — fetches that fail before a response, error
// statuses, broken bodies — count against [MaxFailures] instead; robots.txt
// refusals and redirects do not count. Each seed is asked for before any
// discovered URL, so a page cap smaller than the seeds still reaches them
// all unless they give that many pages.
func MaxPages(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("crawl: max pages %d < 1", n)
		}
		c.maxPages = n
		return nil
	}
}

// MaxFailures sets how many failed fetches — no response, an error status
// (4xx, 5xx), a broken body — end the crawl, with the end reason
// [EndFailLimit] (default: the page cap, [MaxPages]). Retries of a passing
// failure count once, when they give up.
func MaxFailures(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("crawl: max failures %d < 1", n)
		}
		c.maxFailures = n
		return nil
	}
}

// MaxRedirects sets how many redirects one fetch follows, whatever hosts
// they lead to (default [DefaultMaxRedirects]). A longer chain is cut before
// its next hop and the fetch fails with a [RedirectChainError], of the class
// sites.ErrRedirectChain, recorded under the URL asked for: the hosts it
// went through get no page, so a rogue chain cannot fill the crawl with
// hosts that answered nothing but redirects.
func MaxRedirects(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("crawl: max redirects %d < 1", n)
		}
		c.maxRedirects = n
		return nil
	}
}

// MaxPagesPerSite sets how many pages of one site the crawl records at most
// (default 50).
func MaxPagesPerSite(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("crawl: max pages per site %d < 1", n)
		}
		c.maxPagesPerSite = n
		return nil
	}
}

// Delay sets the politeness delay: the least time between the end of one
// request to a site (its response read) and the start of the next request to
// the same site, robots.txt and redirect hops included (default 1s). Zero
// leaves only the rule of one request per site at a time.
func Delay(d time.Duration) Option {
	return func(c *config) error {
		if d < 0 {
			return fmt.Errorf("crawl: negative delay %v", d)
		}
		c.delay = d
		return nil
	}
}

// Parallel sets how many sites are fetched at once (default 4); each site
// has at most one request in flight.
func Parallel(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("crawl: parallel %d < 1", n)
		}
		c.parallel = n
		return nil
	}
}

// MaxDelay sets the longest delay between two requests to one site the
// crawl accepts (default 30s). A Crawl-delay in robots.txt longer than the
// configured delay is honoured up to it; a site asking for more is not
// crawled, and its URLs are recorded with the class sites.ErrSlow. A
// Retry-After is honoured up to it, and doubling the delay of a site that
// answered 429 or 503 stops there. A configured delay longer than it wins.
func MaxDelay(d time.Duration) Option {
	return positive("max delay", d, func(c *config) *time.Duration { return &c.maxDelay })
}

// RetryBackoff sets the wait before the first retry of a fetch that failed
// for a passing reason — a timeout, a connection refused or reset, a 5xx or
// a 429 — or of a robots.txt that could not be read (default 1s). The wait
// doubles at each of the 3 retries and grows with the site's delay; a
// longer Retry-After wins.
func RetryBackoff(d time.Duration) Option {
	return positive("retry backoff", d, func(c *config) *time.Duration { return &c.retryBackoff })
}

// positive is an option that sets the duration field returns to d, which
// must be positive; what names the option in the error.
func positive(what string, d time.Duration, field func(*config) *time.Duration) Option {
	return func(c *config) error {
		if d <= 0 {
			return fmt.Errorf("crawl: %s %v <= 0", what, d)
		}
		*field(c) = d
		return nil
	}
}

// From sets the From header of every request (default none): the e-mail
// address of the operator, for a site's webmaster to write to. An empty
// address sends none.
func From(addr string) Option {
	return func(c *config) error {
		if strings.ContainsAny(addr, "\r\n") {
			return fmt.Errorf("crawl: From address %q spans lines", addr)
		}
		c.from = strings.TrimSpace(addr)
		return nil
	}
}

// DefaultMinTransferRate is the least pace of a body, in bytes a second
// after its first 5 s (see MinTransferRate).
const DefaultMinTransferRate = 1024

// MinTransferRate sets the least pace of a body, in bytes a second on
// average once it has taken 5 s (default DefaultMinTransferRate; 0 for
// none): a slower body ends the fetch with ErrTooSlow, classed as a
// timeout, so that a server that drips cannot hold a fetch slot.
func MinTransferRate(bytesPerSec int) Option {
	return nonNegative("min transfer rate", bytesPerSec, func(c *config) *int { return &c.minTransferRate })
}

// Defaults of the trap guards.
const (
	DefaultMaxPathDepth     = 16  // path segments
	DefaultMaxQueryVariants = 100 // distinct query strings of one path
	DefaultMaxCalendar      = 200 // dated URLs (2024/05/12, ?year=2024) of one site
)

// Scope sets which URLs the crawl fetches, measured from its seeds:
// ScopePage, ScopePrefix, ScopeHost, ScopeDomain or ScopeAny (default).
// Links out of the scope still count in the site graph but are not fetched
// (see MaxHops).
func Scope(scope string) Option {
	return func(c *config) error {
		s, err := ParseScope(scope)
		c.scope = s
		return err
	}
}

// Include adds regular expressions of URLs to fetch whatever the scope;
// Exclude, of URLs never to fetch (it wins over Include). Both match the
// normalised URL anywhere unless anchored.
func Include(exprs ...string) Option {
	return regexps("include", exprs, func(c *config) *[]*regexp.Regexp { return &c.include })
}

// Exclude: see [Include].
func Exclude(exprs ...string) Option {
	return regexps("exclude", exprs, func(c *config) *[]*regexp.Regexp { return &c.exclude })
}

func regexps(what string, exprs []string, list func(*config) *[]*regexp.Regexp) Option {
	return func(c *config) error {
		for _, e := range exprs {
			re, err := regexp.Compile(e)
			if err != nil {
				return fmt.Errorf("crawl: %s %q: %w", what, e, err)
			}
			*list(c) = append(*list(c), re)
		}
		return nil
	}
}

// MaxHops lets the crawl fetch URLs out of the scope up to n links away
// from an in-scope page (default 0: none).
func MaxHops(n int) Option {
	return nonNegative("max hops", n, func(c *config) *int { return &c.maxHops })
}

// MaxDepth caps the links followed from a seed (default 0: no cap).
func MaxDepth(n int) Option {
	return nonNegative("max depth", n, func(c *config) *int { return &c.maxDepth })
}

// TrapGuards sets the trap guards: the most path segments of a URL
// (default DefaultMaxPathDepth), the most distinct query strings of one
// path (DefaultMaxQueryVariants) and the most dated URLs of one site
// (DefaultMaxCalendar; a date more than a century back or more than a
// year ahead of the crawl's clock is always left out). A path repeating a
// run of segments three times (/a/b/a/b/a/b) is always left out.
func TrapGuards(maxPathDepth, maxQueryVariants, maxCalendar int) Option {
	return func(c *config) error {
		if maxPathDepth < 1 || maxQueryVariants < 1 || maxCalendar < 1 {
			return fmt.Errorf("crawl: trap guards %d, %d, %d must be positive", maxPathDepth, maxQueryVariants, maxCalendar)
		}
		c.maxPathDepth, c.maxQueryVariants, c.maxCalendar = maxPathDepth, maxQueryVariants, maxCalendar
		return nil
	}
}

func nonNegative(what string, n int, field func(*config) *int) Option {
	return func(c *config) error {
		if n < 0 {
			return fmt.Errorf("crawl: %s %d is negative", what, n)
		}
		*field(c) = n
		return nil
	}
}

// SiteRule sets how URLs map to sites: the sites of pages and links, the
// sites OPIC reads and politeness paces (default [sites.RuleHost]). A
// project's crawls use the project's rule.
func SiteRule(r sites.Rule) Option {
	return func(c *config) error {
		if _, err := sites.ParseRule(string(r)); err != nil || r == "" {
			return fmt.Errorf("crawl: unknown site rule %q", r)
		}
		c.siteRule = r
		return nil
	}
}

// AllowPrivate lets the crawl connect to loopback, private, link-local and
// other non-public addresses (default false: such a URL is refused, counted
// in [Status.Refused] and not fetched, unless a seed names its host and
// port). Set it to crawl an intranet or a test server from links found on
// the way.
func AllowPrivate(allow bool) Option {
	return func(c *config) error {
		c.allowPrivate = allow
		return nil
	}
}

// WithStrategy sets the crawl order (default [Greedy]).
func WithStrategy(s Strategy) Option {
	return func(c *config) error {
		st, err := ParseStrategy(string(s))
		if err != nil {
			return err
		}
		c.strategy = st
		return nil
	}
}

// Proxy sends every request through the HTTP proxy at rawURL ("http://host:port";
// https and socks5 proxies work too). It overrides the environment; an empty
// rawURL keeps the default, which honours HTTP_PROXY, HTTPS_PROXY and
// NO_PROXY as net/http's ProxyFromEnvironment does, read when [New] is called.
func Proxy(rawURL string) Option {
	return func(c *config) error {
		if strings.TrimSpace(rawURL) == "" {
			c.proxy = nil
			return nil
		}
		u, err := url.Parse(strings.TrimSpace(rawURL))
		if err != nil {
			return fmt.Errorf("crawl: proxy %q: %w", rawURL, err)
		}
		switch u.Scheme {
		case "http", "https", "socks5", "socks5h":
		default:
			return fmt.Errorf("crawl: proxy %q: scheme must be http, https or socks5", rawURL)
		}
		if u.Host == "" {
			return fmt.Errorf("crawl: proxy %q: no host", rawURL)
		}
		c.proxy = u
		return nil
	}
}

// Teleport sets OPIC's teleport share, in [0, 1) (default
// importance.DefaultTeleport).
func Teleport(t float64) Option {
	return func(c *config) error {
		if !(t >= 0 && t < 1) {
			return fmt.Errorf("crawl: teleport %v not in [0, 1)", t)
		}
		c.teleport = t
		return nil
	}
}

// Shares sets the OPIC teleport share of sites (default 1 for every site):
// the virtual page hands its cash out in proportion to the shares, so a
// site with share 10 gets ten times the teleport cash of another, is read
// sooner by the greedy order, and ranks higher. This is how the crawl is
// biased towards what librarians value (importance.OPIC.SetShare).
func Shares(shares map[string]float64) Option {
	return func(c *config) error {
		for site, w := range shares {
			if !(w > 0) || math.IsInf(w, 0) {
				return fmt.Errorf("crawl: teleport share %v of %s must be positive and finite", w, site)
			}
		}
		c.shares = shares
		return nil
	}
}

// UserAgent sets the User-Agent header (default [DefaultUserAgent]). Its
// product token — its leading letters, hyphens and underscores, "sitesift"
// in "sitesift/0.1 (+…)" — is the name matched, case-insensitively, against
// robots.txt's user-agent lines.
func UserAgent(ua string) Option {
	return func(c *config) error {
		if strings.TrimSpace(ua) == "" {
			return fmt.Errorf("crawl: empty user agent")
		}
		if strings.ContainsAny(ua, "\r\n") {
			return fmt.Errorf("crawl: user agent %q spans lines", ua)
		}
		if productToken(ua) == "" {
			return fmt.Errorf("crawl: user agent %q does not start with a product name", ua)
		}
		c.userAgent = ua
		return nil
	}
}

// Logger sets the logger (default nil: discard).
func Logger(l *slog.Logger) Option {
	return func(c *config) error {
		if l == nil {
			l = slog.New(slog.NewTextHandler(io.Discard, nil))
		}
		c.logger = l
		return nil
	}
}

// Seed seeds the generator of the [Random] strategy (default 1), so a crawl
// of the same web is repeatable.
func Seed(seed int64) Option {
	return func(c *config) error {
		c.seed = seed
		return nil
	}
}

// BatchSize sets how many recorded pages trigger a call of the [OnBatch]
// function (default 20).
func BatchSize(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("crawl: batch size %d < 1", n)
		}
		c.batchSize = n
		return nil
	}
}

// FlushInterval sets the longest time recorded pages wait before the
// [OnBatch] function receives them (default 1s).
func FlushInterval(d time.Duration) Option {
	return func(c *config) error {
		if d <= 0 {
			return fmt.Errorf("crawl: flush interval %v <= 0", d)
		}
		c.flushInterval = d
		return nil
	}
}

// OnBatch sets the function that receives the crawl's results (default none).
// It is called from one goroutine at a time, in fetch order, with the pages
// recorded since the previous call — including fetches that failed before a
// response, as pages with Status 0 and Err set — and the OPIC state (cash,
// history) of all known sites taken at the same instant, so it accounts for
// exactly the pages handed over so far. A last call, possibly without pages,
// flushes the rest before [Crawler.Run] returns; it gets a context that is not
// cancelled even when Run's is, so the results of a stopped crawl are kept.
// An error stops the crawl and is returned by Run.
func OnBatch(f BatchFunc) Option {
	return func(c *config) error {
		c.onBatch = f
		return nil
	}
}

// OnRecord sets a function that gets every record — page, failed fetch,
// refusal, redirect — the moment the crawl makes it, before it waits for
// its batch (default none). It is called with the crawler's lock held and
// must be quick: an append to a journal, so that a kill loses no more than
// the requests in flight.
func OnRecord(f func(sites.Page)) Option {
	return func(c *config) error {
		c.onRecord = f
		return nil
	}
}

// Timeout sets the time limit of one HTTP request, redirects included
// (default 20s).
func Timeout(d time.Duration) Option {
	return func(c *config) error {
		if d <= 0 {
			return fmt.Errorf("crawl: timeout %v <= 0", d)
		}
		c.timeout = d
		return nil
	}
}

// MaxBodySize sets how many bytes of a response body are read at most; the
// rest is ignored (default [DefaultMaxBodySize]).
func MaxBodySize(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("crawl: max body size %d < 1", n)
		}
		c.maxBodySize = n
		return nil
	}
}

// IdleReads sets how many idle sites the crawler reads, at most, after each
// fetched page is read (default 4; 0 turns idle reads off).
//
// A site is idle when it has no URL waiting and none in flight, or when it
// reached its page cap ([MaxPagesPerSite]); a site that robots.txt closes or
// whose host is gone ends idle too. OPIC reads a site only when one of its
// pages is fetched, so an idle site would keep every unit of cash it
// receives: its estimate (history + cash) would grow without bound and drift
// away from the PageRank of the site graph. Reading a site needs no fetch —
// its cash goes along its known out-links, all of it to the virtual page
// when it has none — and an idle site's row of the link matrix is as
// complete as it will get in this crawl, so the crawler reads idle sites
// greedily: the idle site with the most cash, as long as that cash is at
// least what the fetched site had when it was read, k times at most.
//
// Each idle read scans every known site, as the scheduler does to choose a
// site, so a page costs O(k·sites) of work under the crawler's lock; that is
// nothing next to a fetch for the tens of thousands of sites of a
// librarian's crawl.
func IdleReads(k int) Option {
	return func(c *config) error {
		if k < 0 {
			return fmt.Errorf("crawl: idle reads %d < 0", k)
		}
		c.idleReads = k
		return nil
	}
}

// AllLinksForImportance makes the crawl's OPIC count every link of a page
// when all is true: the template's (navigation, footers, sidebars, "related"
// boxes) besides the editorial ones, inside the page's main content, which
// alone it counts by default. The frontier follows both kinds either way.
func AllLinksForImportance(all bool) Option {
	return func(c *config) error {
		c.allLinksForImportance = all
		return nil
	}
}

// Follow is which links of a page the crawl follows to other sites.
type Follow string

// The values of [ParseFollow] and the [FollowLinks] option.
const (
	// FollowEditorial follows the links a page's authors wrote, in its
	// main content, to any site, and the template's links (navigation,
	// footers, sidebars, newsletter and sign-in boxes, app badges) only
	// within the page's own site: its navigation leads to the site's
	// other pages, but its footer's shop, careers and share services are
	// not the web the librarian asked about, and on the real web they
	// fail more than anything else. The template's links still make the
	// pages' template links, and their sites are known to the crawl.
	FollowEditorial Follow = "editorial"
	// FollowAll follows every link, the template's as the authors'.
	FollowAll Follow = "all"
)

// ParseFollow returns the Follow named s ("editorial" or "all",
// case-insensitive); an empty s is [FollowEditorial].
func ParseFollow(s string) (Follow, error) {
	switch f := Follow(strings.ToLower(strings.TrimSpace(s))); f {
	case "":
		return FollowEditorial, nil
	case FollowEditorial, FollowAll:
		return f, nil
	}
	return "", fmt.Errorf("crawl: unknown follow %q (want editorial or all)", s)
}

// FollowLinks sets which links the crawl follows to other sites (default
// [FollowEditorial]). The template's links to other sites that it leaves
// out are counted in [Status.TemplateLeftOut]; one that an author links to
// too is followed.
func FollowLinks(f Follow) Option {
	return func(c *config) error {
		v, err := ParseFollow(string(f))
		if err != nil {
			return err
		}
		c.follow = v
		return nil
	}
}
