package crawling

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"sitesift/app/fault"
	"sitesift/app/project"
	"sitesift/crawl"
	"sitesift/sites"
)

// CrawlRequest is what a librarian asks of a crawl.
type CrawlRequest struct {
	Seeds []string `json:"seeds"`
	// MaxPages caps the pages fetched fine; MaxFailures the failed
	// fetches and error answers, after which the crawl stops (0: MaxPages).
	MaxPages        int    `json:"max_pages"`
	MaxFailures     int    `json:"max_failures"`
	MaxPagesPerSite int    `json:"max_pages_per_site"`
	Strategy        string `json:"strategy"`
	Proxy           string `json:"proxy"`
	// SettingsUpdate changes the project's crawl settings (contact, user
	// agent, delay, parallel sites, max delay) for this crawl and the next
	// ones; nil fields keep the stored settings (see [project.Project.Settings]).
	project.SettingsUpdate
	// Bias > 0 biases the crawl towards what librarians value: a site whose
	// mean rating is at least ranking.FavouredRating gets a teleport share of
	// 1 + Bias (every other site 1), so the virtual page's cash, the greedy
	// order and OPIC favour it and its neighbourhood. 0: no bias.
	Bias float64 `json:"bias"`
	// AllowPrivate lets the crawl follow links to loopback, private and
	// link-local addresses; without it only the seeds' own hosts and ports
	// may be such addresses.
	AllowPrivate bool `json:"allow_private"`
	// Scope is which URLs the crawl fetches, measured from its seeds: page,
	// prefix, host, domain or any (""; the default). Links out of it still
	// count in the site graph but are not fetched, unless within MaxHops
	// links of an in-scope page. MaxDepth caps the links followed from a
	// seed (0: no cap). Include and Exclude are regular expressions of URLs
	// to fetch whatever the scope, and never to fetch.
	Scope    string   `json:"scope"`
	MaxHops  int      `json:"max_hops"`
	MaxDepth int      `json:"max_depth"`
	Include  []string `json:"include"`
	Exclude  []string `json:"exclude"`
	// FreshFrontier starts a crawl of a project that has one from the new
	// seeds only: what was fetched stays fetched and the OPIC state goes
	// on, but the links found and not yet fetched are not followed.
	FreshFrontier bool `json:"fresh_frontier"`
	// Follow is which links the crawl follows to other sites: editorial
	// (""; the default) follows the links in the pages' main text, which
	// their authors wrote, and the template's links (navigation, footers,
	// newsletter and sign-in boxes) only within a page's own site; all
	// follows the template's links to other sites too. A footer's shop,
	// careers and share services are not the web a librarian asks about,
	// and on the real web they fail more than anything else: followed,
	// they spend the crawl's time and its failure cap.
	Follow string `json:"follow"`

	// The WARC archive of the crawl (warc.go): NoWARC writes none;
	// WARCMaxSize is the size in bytes at which a WARC file is closed and
	// the next begun, 0 for DefaultWARCMaxSize.
	NoWARC      bool  `json:"no_warc"`
	WARCMaxSize int64 `json:"warc_max_size"`

	// IdleReads is how many idle sites OPIC reads, at most, after each
	// fetched page (see crawl.IdleReads); nil for crawl.DefaultIdleReads,
	// 0 to read sites only when their pages are fetched, as the paper's
	// OPIC does.
	IdleReads *int `json:"idle_reads,omitempty"`

	// Recrawl revisits the project's pages instead of crawling from seeds
	// (recrawl.go): it takes no seeds; MaxPages and MaxPagesPerSite left
	// at 0 leave room to revisit every page and as many new ones as a
	// crawl's defaults allow.
	Recrawl bool `json:"recrawl"`
}

// Defaults of a crawl request, for a small polite crawl on a laptop; those
// of the settings are beside [project.Settings].
const (
	DefaultMaxPages        = 500
	DefaultMaxPagesPerSite = 50
	DefaultIdleReads       = crawl.DefaultIdleReads
)

func (r *CrawlRequest) withDefaults() {
	if r.MaxPages == 0 {
		r.MaxPages = DefaultMaxPages
	}
	if r.MaxPagesPerSite == 0 {
		r.MaxPagesPerSite = DefaultMaxPagesPerSite
	}
	if r.Strategy == "" {
		r.Strategy = string(crawl.Greedy)
	}
	if r.Follow == "" {
		r.Follow = string(crawl.FollowEditorial)
	}
}

// Check returns the error a crawl of r would be refused with, so that the
// request can be checked before a project is opened or created for it. The
// checks that need the project's settings (the contact rule, a delay over
// a stored max delay) come when the crawl starts.
func (r CrawlRequest) Check() error {
	r.withDefaults()
	if _, _, err := r.validate(); err != nil {
		return err
	}
	s := project.Settings{Parallel: project.DefaultParallel, MaxDelayMS: math.MaxInt32, Window: project.DefaultWindow, WindowSize: project.DefaultWindowSize}
	if r.MaxDelayMS != nil {
		s.MaxDelayMS = project.DefaultMaxDelayMS
	}
	_, err := r.SettingsUpdate.Apply(s)
	return err
}

// CheckNew is [CrawlRequest.Check] for a crawl that creates its project:
// the project's settings are then the defaults, so the contact rule is
// checked too, before a directory is made for a crawl that would be refused.
func (r CrawlRequest) CheckNew() error {
	r.withDefaults()
	seeds, _, err := r.validate()
	if err != nil {
		return err
	}
	s, err := r.SettingsUpdate.Apply(project.DefaultSettings())
	if err != nil {
		return err
	}
	return checkContact(s, seeds)
}

// scopeOptions are the crawl options of the request's scope.
func (r *CrawlRequest) scopeOptions() []crawl.Option {
	return []crawl.Option{crawl.Scope(r.Scope), crawl.MaxHops(r.MaxHops), crawl.MaxDepth(r.MaxDepth),
		crawl.Include(r.Include...), crawl.Exclude(r.Exclude...)}
}

// validate checks the request and returns the normalised seeds.
func (r *CrawlRequest) validate() ([]string, crawl.Strategy, error) {
	var seeds []string
	for i, s := range r.Seeds {
		if strings.TrimSpace(s) == "" {
			continue
		}
		n, err := sites.Normalize(s)
		if err != nil {
			return nil, "", fault.Invalid(fmt.Errorf("seed %d %q: %w", i+1, s, err))
		}
		seeds = append(seeds, n)
	}
	if len(seeds) == 0 {
		return nil, "", fault.Invalid(errors.New("crawl: no seed URL"))
	}
	if r.MaxPages < 0 || r.MaxPagesPerSite < 0 || r.MaxFailures < 0 {
		return nil, "", fault.Invalid(errors.New("crawl: limits must not be negative"))
	}
	if r.IdleReads != nil && *r.IdleReads < 0 {
		return nil, "", fault.Invalid(fmt.Errorf("crawl: idle reads %d must not be negative", *r.IdleReads))
	}
	if !(r.Bias >= 0) || math.IsInf(r.Bias, 0) {
		return nil, "", fault.Invalid(fmt.Errorf("crawl: bias %v must be a positive number, or 0 for none", r.Bias))
	}
	st, err := crawl.ParseStrategy(r.Strategy)
	if err != nil {
		return nil, "", fault.Invalid(err)
	}
	if _, err := crawl.ParseFollow(r.Follow); err != nil {
		return nil, "", fault.Invalid(err)
	}
	if err := crawl.CheckOptions(r.scopeOptions()...); err != nil {
		return nil, "", fault.Invalid(err)
	}
	if r.Proxy != "" {
		if _, err := sites.Parse(r.Proxy); err != nil {
			return nil, "", fault.Invalid(fmt.Errorf("crawl: proxy: %w", err))
		}
	}
	return seeds, st, nil
}
