package crawling

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"sitesift/app/fault"
	"sitesift/app/internal/jobs"
	"sitesift/app/project"
	"sitesift/app/ranking"
	"sitesift/crawl"
	"sitesift/sites"
	"sitesift/sites/crawllog"
	"sitesift/sites/store"
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
	// ones; nil fields keep the stored settings (see App.Settings).
	SettingsUpdate
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
// of the settings are beside Settings.
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
	s := Settings{Parallel: DefaultParallel, MaxDelayMS: math.MaxInt32, Window: DefaultWindow, WindowSize: DefaultWindowSize}
	if r.MaxDelayMS != nil {
		s.MaxDelayMS = DefaultMaxDelayMS
	}
	_, err := r.SettingsUpdate.apply(s)
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
	s, err := r.SettingsUpdate.apply(defaultSettings())
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

// Status is the live state of the current (or last) crawl.
type CrawlStatus struct {
	State    string `json:"state"`
	Strategy string `json:"strategy"`
	// Pages counts the responses, error pages included; PagesOK the pages
	// fetched fine, which MaxPages caps and the project keeps as pages (a
	// failed fetch or an error answer is not a page). Errors counts the
	// failures, which MaxFailures caps.
	Pages       int     `json:"pages"`
	PagesOK     int     `json:"pages_ok"`
	MaxPages    int     `json:"max_pages"`
	MaxFailures int     `json:"max_failures"`
	PagesPerSec float64 `json:"pages_per_sec"`
	Sites       int     `json:"sites"`
	Queue       int     `json:"queue"`
	Errors      int     `json:"errors"`
	BadLinks    int     `json:"bad_links"` // links dropped: no valid host or port, too long, too many
	Refused     int     `json:"refused"`   // URLs on loopback, private or link-local addresses, not fetched
	Retries     int     `json:"retries"`   // fetches tried again after a timeout, a connection failure, a 5xx or a 429
	ElapsedSec  float64 `json:"elapsed_sec"`
	LastError   string  `json:"last_error"`
	// Top are the sites of highest OPIC importance, at most ranking.TopShown, but
	// the platform sites, which the Sites page hides too; TopPlatforms
	// counts those it left out: the platforms ranked above its last site
	// (all of them when it holds fewer than ranking.TopShown).
	Top          []ranking.SiteScore `json:"top"`
	TopPlatforms int                 `json:"top_platforms"`
	// EndReason says why the crawl ended: limit (the page cap was
	// reached), failure-limit (the failure cap was reached), exhausted (nothing left to fetch), stopped, seeds-failed
	// (no page could be fetched fine) or failed; "" before it ends.
	EndReason string `json:"end_reason"`
	// ErrorsByClass counts the failed fetches, error answers and robots.txt
	// refusals of the crawl by class (dns, connect, timeout, tls,
	// incomplete, http-4xx, http-5xx, robots, other).
	ErrorsByClass map[string]int `json:"errors_by_class"`
	// Dropped counts the distinct URLs found and left out, by why:
	// out-of-scope, too-deep, and the traps path-depth, repeated-segments,
	// query-variants and calendar.
	Dropped map[string]int `json:"dropped"`
	// Truncated counts the pages whose body was cut at the size cap (10
	// MiB): kept as pages, flagged in their error message.
	Truncated int `json:"truncated"`
	// Recrawl is what a recrawl found; absent for a crawl.
	Recrawl *RecrawlReport `json:"recrawl,omitempty"`
}

// Why a crawl ended, as CrawlStatus.EndReason says it.
const (
	EndLimit       = crawl.EndLimit       // the page cap was reached
	EndFailLimit   = crawl.EndFailLimit   // the failure cap was reached
	EndExhausted   = crawl.EndExhausted   // nothing was left to fetch
	EndStopped     = crawl.EndStopped     // stopped
	EndSeedsFailed = crawl.EndSeedsFailed // no page could be fetched fine
	EndFailed      = crawl.EndFailed      // saving failed
)

// Crawl states: the crawler's own and those of the app around it.
const (
	StateRunning  = string(crawl.StateRunning)
	StatePaused   = string(crawl.StatePaused)
	StateIdle     = "idle"
	StateStopping = "stopping"
	StateStopped  = "stopped"
	StateDone     = "done"
	StateFailed   = "failed"
	// StateInterrupted is the last crawl of a process that was killed.
	StateInterrupted = store.CrawlInterrupted
)

// crawlJobs runs the App's crawls and recrawls, one at a time, keeping
// the last. A job's request is the crawl itself, which its status reads
// while it runs; its result is its end state (StateDone, StateStopped or
// StateFailed) and its error what went wrong, a crawl done whose last
// PageRank failed included.
type crawlJobs = jobs.Runner[*crawlJob, struct{}, string]

type crawlStatus = jobs.Status[*crawlJob, struct{}, string]

type crawlJob struct {
	req     CrawlRequest
	recrawl *recrawlJob // nil for a crawl
	crawler *crawl.Crawler

	mu       sync.Mutex
	stopping bool
}

// ErrCrawlRunning is returned when a crawl is asked for while one runs.
var ErrCrawlRunning = errors.New("a crawl is already running")

// Start starts a crawl and returns at once; follow it with
// CrawlStatus, stop it with StopCrawl.
func (svc *Service) Start(req CrawlRequest) (CrawlStatus, error) {
	js, err := svc.startCrawl(req)
	if err != nil {
		return CrawlStatus{}, err
	}
	return svc.jobStatus(js), nil
}

// Run runs a crawl to its end, calling progress about every interval.
// Cancelling ctx stops the crawl; what was fetched until then is kept.
func (svc *Service) Run(ctx context.Context, req CrawlRequest, interval time.Duration, progress func(CrawlStatus)) (CrawlStatus, error) {
	js, err := svc.startCrawl(req)
	if err != nil {
		return CrawlStatus{}, err
	}
	done, err := svc.crawls.Done(js.ID)
	if err != nil {
		return CrawlStatus{}, err
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			svc.Stop()
			<-done
		case <-t.C:
			if progress != nil {
				if js, err := svc.crawls.Get(js.ID); err == nil {
					progress(svc.jobStatus(js))
				}
			}
			continue
		case <-done:
		}
		end, err := svc.crawls.Wait(context.Background(), js.ID)
		if err != nil {
			return CrawlStatus{}, err
		}
		st := svc.jobStatus(end)
		if progress != nil {
			progress(st)
		}
		return st, end.Err
	}
}

func (svc *Service) startCrawl(req CrawlRequest) (crawlStatus, error) {
	if err := svc.refuseImported(context.Background()); err != nil {
		return crawlStatus{}, err
	}
	var rj *recrawlJob
	var recrawlPrior crawl.Prior
	if req.Recrawl {
		var err error
		if rj, recrawlPrior, err = svc.startRecrawl(&req); err != nil {
			return crawlStatus{}, err
		}
	}
	req.withDefaults()
	seeds, strategy, err := req.validate()
	if err != nil {
		return crawlStatus{}, err
	}
	settings, err := svc.Settings(context.Background())
	if err != nil {
		return crawlStatus{}, err
	}
	if settings, err = req.SettingsUpdate.apply(settings); err != nil {
		return crawlStatus{}, err
	}
	if err := checkContact(settings, seeds); err != nil {
		return crawlStatus{}, err
	}
	// The site rule is the project's, chosen before its first sites: a
	// crawl of a new project may choose it, and must do so before the
	// crawler maps its first URL.
	if err := svc.store.SetSiteRule(context.Background(), sites.Rule(settings.SiteRule)); err != nil {
		return crawlStatus{}, err
	}
	// One crawl starts at a time: the check and the start below are under
	// one lock, and what lies between opens the crawl's journal and WARC
	// files, which a second crawl must not open too.
	svc.mu.Lock()
	defer svc.mu.Unlock()
	if _, ok := svc.crawls.Running(); ok {
		return crawlStatus{}, fault.Conflict(ErrCrawlRunning)
	}
	j := &crawlJob{req: req, recrawl: rj}
	s := &sink{svc: svc, recrawl: rj}
	opts := []crawl.Option{
		crawl.MaxPages(req.MaxPages),
		crawl.MaxFailures(cmp.Or(req.MaxFailures, req.MaxPages)),
		crawl.MaxPagesPerSite(req.MaxPagesPerSite),
		crawl.Delay(ms(settings.DelayMS)),
		crawl.Parallel(settings.Parallel),
		crawl.MaxDelay(ms(settings.MaxDelayMS)),
		crawl.UserAgent(settings.EffectiveUserAgent),
		crawl.From(settings.from()),
		crawl.WithStrategy(strategy),
		crawl.Teleport(svc.teleport),
		crawl.Logger(svc.baseLog),
		crawl.OnBatch(s.save),
		crawl.AllowPrivate(req.AllowPrivate),
		crawl.SiteRule(svc.store.SiteRule()),
		// The online OPIC hands cash along the links of the graph the
		// project ranks on, as the offline ranking after the crawl does.
		crawl.AllLinksForImportance(settings.Links == string(store.AllLinks)),
	}
	opts = append(opts, req.scopeOptions()...)
	if req.IdleReads != nil {
		opts = append(opts, crawl.IdleReads(*req.IdleReads))
	}
	if req.Proxy != "" {
		opts = append(opts, crawl.Proxy(req.Proxy))
	}
	if req.Bias != 0 {
		shares, err := svc.crawlShares(context.Background(), req.Bias)
		if err != nil {
			return crawlStatus{}, err
		}
		opts = append(opts, crawl.Shares(shares))
	}
	// A project that has pages continues its crawl: its OPIC state goes on
	// and no URL is fetched twice, so the store never mixes the states of a
	// fresh OPIC with stale ones of the sites the new crawl does not reach.
	states, edges, fetched, frontier, err := svc.store.Prior(context.Background())
	if err != nil {
		return crawlStatus{}, err
	}
	switch {
	case rj != nil:
		opts = append(opts, crawl.Resume(recrawlPrior), crawl.Revisit(rj.urls))
	case len(fetched) > 0:
		if req.FreshFrontier {
			frontier = nil
		}
		opts = append(opts, crawl.Resume(crawl.Prior{States: states, Edges: edges, Fetched: fetched, Frontier: frontier}))
	}
	warcs, err := svc.openWARCs(req, settings)
	if err != nil {
		return crawlStatus{}, err
	}
	if warcs != nil {
		opts = append(opts, crawl.OnCapture(warcs.Write))
	}
	journalFile := project.JournalFile
	if rj != nil {
		journalFile = project.RecrawlJournalFile
	}
	jl, err := project.OpenJournal(svc.project.Dir, journalFile, svc.log)
	if err != nil {
		closeWARCs(warcs)
		return crawlStatus{}, err
	}
	opts = append(opts, crawl.OnRecord(jl.Write))
	abandon := func() { // the crawl does not start: nothing was written
		closeWARCs(warcs)
		jl.Close(true)
	}
	c, err := crawl.New(opts...)
	if err != nil {
		abandon()
		return crawlStatus{}, fault.Invalid(err)
	}
	j.crawler = c
	bg := context.Background()
	// The crawl starts: what it changed of the settings is kept for the
	// next ones, and its record says what it used.
	if _, err := svc.SetSettings(bg, req.SettingsUpdate); err != nil {
		abandon()
		return crawlStatus{}, err
	}
	rec := req
	rec.SettingsUpdate = settings.update()
	if rj != nil {
		rec.Seeds = nil // the project's pages: the round says which
	}
	id, err := svc.store.StartCrawl(bg, rec)
	if err != nil {
		abandon()
		return crawlStatus{}, err
	}
	s.crawler, s.crawl = c, id
	kind := "crawl"
	if rj != nil {
		kind = "recrawl"
	}
	js, err := svc.crawls.Start(kind, j, func(ctx context.Context, _ func(struct{})) (string, error) {
		err := c.Run(ctx, seeds)
		final := StateDone
		j.mu.Lock()
		switch {
		case j.stopping && errors.Is(err, context.Canceled):
			final, err = StateStopped, nil
		case err != nil:
			final = StateFailed
			svc.log.Error("crawl failed", "err", err)
		}
		j.mu.Unlock()
		// Every record of a crawl that ended or was stopped is saved (the
		// last batch is flushed whatever the end); a failed save keeps the
		// journal for the next open.
		if jerr := jl.Close(err == nil); jerr != nil {
			svc.log.Error("crawl journal", "err", jerr)
		}
		if werr := closeWARCs(warcs); werr != nil {
			svc.log.Error("closing the WARC files", "err", werr)
			final, err = StateFailed, errors.Join(err, werr)
		}
		// A recrawl that ended (not stopped, not failed) closes its round;
		// one stopped or killed is continued by the next recrawl.
		if rj != nil && final == StateDone {
			if rerr := svc.finishRecrawl(bg, rj); rerr != nil {
				svc.log.Error("finishing the recrawl", "err", rerr)
				final, err = StateFailed, errors.Join(err, rerr)
			}
		}
		// The last PageRank, on the final graph, whatever the end.
		if perr := svc.ranking.UpdatePageRank(bg); perr != nil {
			svc.log.Error("pagerank", "err", perr)
			err = errors.Join(err, perr)
		}
		if _, serr := svc.store.SnapshotOPIC(bg); serr != nil { // the series ends at the final state
			svc.log.Error("OPIC snapshot", "err", serr)
		}
		cs := c.Status()
		if ferr := svc.store.FinishCrawl(bg, id, final, cs.EndReason, cs.Pages, cs.Retries); ferr != nil {
			err = errors.Join(err, ferr)
		}
		return final, err
	})
	if err != nil { // the app is closing: the crawl never ran
		abandon()
		if ferr := svc.store.FinishCrawl(bg, id, StateFailed, "the app closed before the crawl started", 0, 0); ferr != nil {
			err = errors.Join(err, ferr)
		}
		return crawlStatus{}, fault.Conflict(fmt.Errorf("crawl: %w", err))
	}
	return js, nil
}

// crawlShares returns the teleport shares of a biased crawl: 1 + bias for
// the sites librarians rated ranking.FavouredRating or more on average (the others
// keep the default 1), as in the biased PageRank (BiasVector).
func (svc *Service) crawlShares(ctx context.Context, bias float64) (map[string]float64, error) {
	rs, err := svc.store.Ratings(ctx)
	if err != nil {
		return nil, err
	}
	shares := map[string]float64{}
	for site, m := range ranking.MeanRatings(rs) {
		if m >= ranking.FavouredRating {
			shares[site] = 1 + bias
		}
	}
	return shares, nil
}

// sink saves what the crawler hands over: pages, links and OPIC state in one
// store transaction, the pages into the index in one batch, and every few
// seconds a fresh PageRank. The crawler calls it from one goroutine.
type sink struct {
	svc       *Service
	lastRank  time.Time
	lastSnap  time.Time
	snapPages int  // pages saved since the last snapshot
	logFailed bool // the crawl log could not be written (said once)
	// crawler and crawl are the crawl and its record, set before it runs:
	// each batch records the crawl's progress, which a kill then keeps.
	crawler *crawl.Crawler
	crawl   int64
	// recrawl is the recrawl the sink saves, nil for a crawl.
	recrawl *recrawlJob
}

// The sink records every site's OPIC share, the points of a site's
// importance over the crawl on its review page, every opicSnapshotEvery or
// every opicSnapshotPages pages, whichever comes first: a fast crawl still
// gets a curve, a slow one a point every few seconds. The store thins old
// snapshots, so a long crawl stays bounded.
const (
	opicSnapshotEvery = 3 * time.Second
	opicSnapshotPages = 50
)

func (s *sink) save(ctx context.Context, pages []sites.Page, states []sites.SiteState) error {
	// The final flush comes after cancellation: it must still be written.
	ctx = context.WithoutCancel(ctx)
	if s.recrawl != nil {
		if err := s.saveRecrawl(ctx, pages, states); err != nil {
			return err
		}
	} else {
		if err := s.svc.store.SaveCrawlBatch(ctx, pages, states); err != nil {
			return err
		}
		if err := project.IndexPages(ctx, s.svc.store, s.svc.index, pages); err != nil {
			return err
		}
	}
	if s.crawler != nil {
		st := s.crawler.Status()
		if err := s.svc.store.CrawlProgress(ctx, s.crawl, st.Pages, st.Retries); err != nil {
			return err
		}
	}
	// The log is for operators; the store is the record, so a log that
	// cannot be written costs lines, not the crawl.
	if err := crawllog.Append(s.svc.project.CrawlLog(), pages, time.Now()); err != nil && !s.logFailed {
		s.logFailed = true
		s.svc.log.Error("crawl log", "err", err)
	}
	s.snapPages += len(pages)
	if time.Since(s.lastSnap) > opicSnapshotEvery || s.snapPages >= opicSnapshotPages {
		s.lastSnap, s.snapPages = time.Now(), 0
		// A failed snapshot costs a point of a chart, not the crawl.
		if _, err := s.svc.store.SnapshotOPIC(ctx); err != nil {
			s.svc.log.Error("OPIC snapshot", "err", err)
		}
	}
	if time.Since(s.lastRank) > 2*time.Second {
		s.lastRank = time.Now()
		return s.svc.ranking.UpdatePageRank(ctx)
	}
	return nil
}

// jobStatus returns the status of crawl job js.
func (svc *Service) jobStatus(js crawlStatus) CrawlStatus {
	j := js.Request
	cs := j.crawler.Status()
	st := CrawlStatus{
		State:         string(cs.State),
		Strategy:      j.req.Strategy,
		Pages:         cs.Pages,
		PagesOK:       cs.PagesOK,
		MaxPages:      j.req.MaxPages,
		MaxFailures:   cs.MaxFailures,
		PagesPerSec:   cs.PagesPerSec,
		Sites:         cs.Sites,
		Queue:         cs.Queue,
		Errors:        cs.Errors,
		BadLinks:      cs.BadLinks,
		Refused:       cs.Refused,
		Retries:       cs.Retries,
		ElapsedSec:    cs.Elapsed.Seconds(),
		LastError:     cs.LastError,
		Top:           []ranking.SiteScore{},
		EndReason:     cs.EndReason,
		ErrorsByClass: cs.ErrorsByClass,
		Dropped:       cs.Dropped,
		Truncated:     cs.Truncated,
	}
	var top10 []ranking.SiteScore
	if j.recrawl != nil {
		st.Recrawl = j.recrawl.snapshot()
		top10 = j.recrawl.finalTop()
	}
	if top10 == nil {
		for _, t := range j.crawler.Top(0) {
			top10 = append(top10, ranking.SiteScore{Site: t.Site, OPIC: t.OPIC})
		}
	}
	top, platforms, err := svc.ranking.TopWithoutPlatforms(context.Background(), ranking.TopShown, ranking.RankingOf(top10))
	if err != nil {
		// The list is for reading: shown with its platforms rather than not at all.
		svc.log.Error("crawl status: platform sites", "err", err)
		top, platforms = top10[:min(len(top10), ranking.TopShown)], 0
	}
	st.Top, st.TopPlatforms = append(st.Top, top...), platforms
	j.mu.Lock()
	defer j.mu.Unlock()
	switch {
	case js.State != jobs.Running:
		st.State = js.Result
	case j.stopping:
		st.State = StateStopping
	case j.recrawl != nil && cs.State != crawl.StateRunning && cs.State != crawl.StatePaused && cs.State != crawl.StateIdle:
		// The crawler ended, the recrawl's round is being closed: it is
		// not done until its importance is set.
		st.State = StateStopping
	}
	return st
}

// Status returns the state of the running or last crawl.
func (svc *Service) Status() CrawlStatus {
	js, ok := svc.crawls.Last()
	if !ok {
		return svc.lastCrawl()
	}
	return svc.jobStatus(js)
}

// lastCrawl is the status of the project's last crawl before this process
// started, read from the store once (a client following the event stream
// asks twice a second): its end state, pages, speed and the top sites by
// importance. It is idle for a project never crawled.
func (svc *Service) lastCrawl() CrawlStatus {
	svc.lastOnce.Do(func() {
		svc.last = CrawlStatus{State: StateIdle, Top: []ranking.SiteScore{}, ErrorsByClass: map[string]int{}, Dropped: map[string]int{}}
		ctx := context.Background()
		crawls, err := svc.store.Crawls(ctx)
		if err != nil || len(crawls) == 0 {
			return
		}
		c := crawls[0]
		st := CrawlStatus{State: c.State, Pages: c.Pages, Retries: c.Retries, Top: []ranking.SiteScore{}, EndReason: c.EndReason,
			ErrorsByClass: map[string]int{}, Dropped: map[string]int{}}
		if byClass, err := svc.store.Fetches(ctx, c.StartedAt); err == nil {
			st.PagesOK = byClass[""]
			delete(byClass, "")
			delete(byClass, sites.ErrRedirect) // no failure: the live status does not count them either
			st.ErrorsByClass = byClass
			// The failures the crawl counted against its cap: every class
			// but the URLs robots.txt closed and the sites it asked to
			// crawl too slowly, which were never fetched.
			for class, n := range byClass {
				if class != sites.ErrRobots && class != sites.ErrSlow {
					st.Errors += n
				}
			}
		}
		if c.FinishedAt.IsZero() { // the process that ran it was killed
			st.State = StateInterrupted
			if st.Pages == 0 { // a crawl of an older version, which recorded no progress
				if n, _, err := svc.store.Stats(ctx); err == nil {
					st.Pages = n
				}
			}
		} else {
			st.ElapsedSec = c.FinishedAt.Sub(c.StartedAt).Seconds()
			if st.ElapsedSec > 0 {
				st.PagesPerSec = float64(c.Pages) / st.ElapsedSec
			}
		}
		var req CrawlRequest
		if json.Unmarshal(c.Settings, &req) == nil {
			st.Strategy, st.MaxPages, st.MaxFailures = req.Strategy, req.MaxPages, cmp.Or(req.MaxFailures, req.MaxPages)
			if req.Recrawl {
				st.Recrawl = svc.lastRecrawl(ctx)
			}
		}
		if _, n, err := svc.store.Stats(ctx); err == nil {
			st.Sites = n
		}
		top, platforms, err := svc.ranking.TopWithoutPlatforms(ctx, ranking.TopShown, func(offset, limit int) ([]ranking.SiteScore, error) {
			_, rows, err := svc.store.ListSites(ctx, store.SiteQuery{Sort: "opic", Desc: true, Offset: offset, Limit: limit})
			out := make([]ranking.SiteScore, len(rows))
			for i, r := range rows {
				out[i] = ranking.SiteScore{Site: r.Site, OPIC: r.OPIC}
			}
			return out, err
		})
		if err == nil {
			st.Top, st.TopPlatforms = append(st.Top, top...), platforms
		}
		svc.last = st
	})
	return svc.last
}

func (svc *Service) running() (crawlStatus, error) {
	js, ok := svc.crawls.Running()
	if !ok {
		return js, fault.Conflict(errors.New("no crawl is running"))
	}
	return js, nil
}

// Pause pauses the running crawl: fetches under way finish, no new one starts.
func (svc *Service) Pause() (CrawlStatus, error) {
	js, err := svc.running()
	if err != nil {
		return CrawlStatus{}, err
	}
	js.Request.crawler.Pause()
	return svc.jobStatus(js), nil
}

// Resume resumes a paused crawl.
func (svc *Service) Resume() (CrawlStatus, error) {
	js, err := svc.running()
	if err != nil {
		return CrawlStatus{}, err
	}
	js.Request.crawler.Resume()
	return svc.jobStatus(js), nil
}

// Stop stops the running crawl; what was fetched is kept.
func (svc *Service) Stop() (CrawlStatus, error) {
	js, err := svc.running()
	if err != nil {
		return CrawlStatus{}, err
	}
	j := js.Request
	j.mu.Lock()
	j.stopping = true
	j.mu.Unlock()
	if err := svc.crawls.Cancel(js.ID); err != nil && !errors.Is(err, jobs.ErrNotRunning) {
		return CrawlStatus{}, err
	}
	return svc.jobStatus(js), nil
}

// Continuation is what a crawl started now would continue: a project that
// has pages continues its crawl (see [Service.Start]).
type Continuation struct {
	Continues bool `json:"continues"`
	// LastCrawl is when the project's last crawl started.
	LastCrawl time.Time `json:"last_crawl"`
	// Pages counts the pages fetched fine so far, Fetches every fetch kept
	// (failures included), Waiting the links found and not fetched, which
	// the crawl goes on with unless it asks for a fresh frontier.
	Pages   int `json:"pages"`
	Fetches int `json:"fetches"`
	Waiting int `json:"waiting"`
}

// Continuation says whether a crawl started now continues the project's
// crawl, and what it would go on from.
func (svc *Service) Continuation(ctx context.Context) (Continuation, error) {
	var c Continuation
	crawls, err := svc.store.Crawls(ctx)
	if err != nil || len(crawls) == 0 {
		return c, err
	}
	c.LastCrawl = crawls[0].StartedAt
	byClass, err := svc.store.Fetches(ctx, time.Time{})
	if err != nil {
		return c, err
	}
	for class, n := range byClass {
		c.Fetches += n
		if class == "" {
			c.Pages = n
		}
	}
	if c.Waiting, err = svc.store.FrontierSize(ctx); err != nil {
		return c, err
	}
	c.Continues = c.Fetches > 0
	return c, nil
}

// String says it as the command line and the app do: "continues the crawl
// of 2026-11-24 10:00: 120 pages fetched, 830 waiting".
func (c Continuation) String() string {
	if !c.Continues {
		return "starts a new crawl"
	}
	return fmt.Sprintf("continues the crawl of %s: %d pages fetched, %d waiting",
		c.LastCrawl.Local().Format("2006-01-02 15:04"), c.Pages, c.Waiting)
}

// CrawlErrorsRequest asks for the failed fetches of a crawl.
type CrawlErrorsRequest struct {
	// Crawl is the id of the crawl; 0 is the latest.
	Crawl int64
	// Site and Class keep one site and one error class (sites.ErrDNS …).
	Site, Class string
	// Offset skips rows; Limit caps them: 0 is 50, at most 500.
	Offset, Limit int
}

// CrawlErrors is a page of a crawl's failed fetches, latest first.
type CrawlErrors struct {
	Crawl int64              `json:"crawl"` // 0 when the project has no crawl
	Total int                `json:"total"`
	Rows  []store.FetchError `json:"rows"`
}

// CrawlErrors lists the fetches of a crawl that failed, answered an error
// or were refused by robots.txt: those made while it ran.
func (svc *Service) CrawlErrors(ctx context.Context, req CrawlErrorsRequest) (CrawlErrors, error) {
	switch {
	case req.Limit == 0:
		req.Limit = 50
	case req.Limit < 0 || req.Limit > 500:
		return CrawlErrors{}, fault.Invalid(fmt.Errorf("crawl errors: limit %d must lie in 1..500", req.Limit))
	}
	if req.Offset < 0 {
		return CrawlErrors{}, fault.Invalid(fmt.Errorf("crawl errors: offset %d is negative", req.Offset))
	}
	out := CrawlErrors{Rows: []store.FetchError{}}
	crawls, err := svc.store.Crawls(ctx)
	if err != nil {
		return CrawlErrors{}, err
	}
	if len(crawls) == 0 && req.Crawl == 0 {
		return out, nil
	}
	i := slices.IndexFunc(crawls, func(c store.Crawl) bool { return c.ID == req.Crawl || req.Crawl == 0 })
	if i < 0 {
		return CrawlErrors{}, fault.NotFound(fmt.Errorf("crawl errors: no crawl %d", req.Crawl))
	}
	c := crawls[i]
	out.Crawl = c.ID
	q := store.FetchErrorQuery{Since: c.StartedAt, Site: req.Site, Class: req.Class, Offset: req.Offset, Limit: req.Limit}
	if i > 0 {
		q.Until = crawls[i-1].StartedAt // a crawl killed without its end runs until the next began
	}
	if !c.FinishedAt.IsZero() {
		q.Until = c.FinishedAt.Add(time.Millisecond)
	}
	if out.Total, out.Rows, err = svc.store.FetchErrors(ctx, q); err != nil {
		return CrawlErrors{}, err
	}
	for i, e := range out.Rows {
		if e.Error == "" && e.Status > 0 {
			out.Rows[i].Error = fmt.Sprintf("%d %s", e.Status, http.StatusText(e.Status))
		}
	}
	return out, nil
}

// ErrImportedGraph is returned (wrapped, as a conflict) when a crawl is asked
// of a project that holds an imported site graph.
var ErrImportedGraph = errors.New("the project holds an imported site graph")

// refuseImported returns a conflict error when the project holds an
// imported graph: a crawl would add page-counted edges to a graph whose
// weights mean something else, and continue an OPIC that never read a page.
func (svc *Service) refuseImported(ctx context.Context) error {
	has, err := svc.store.HasImport(ctx)
	if err != nil {
		return err
	}
	if has {
		return fault.Conflict(fmt.Errorf("crawl: %w (sitesift import); crawl into a new project", ErrImportedGraph))
	}
	return nil
}
