package crawling

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"time"

	"sitesift/app/fault"
	"sitesift/app/internal/jobs"
	"sitesift/app/internal/wire"
	"sitesift/app/ranking"
	"sitesift/crawl"
	"sitesift/sites"
	"sitesift/sites/store"
)

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
	// Follow is which links the crawl followed to other sites: editorial
	// or all (see CrawlRequest.Follow). TemplateLinksLeftOut counts the
	// distinct URLs of the template's links to other sites it did not
	// follow, TemplateSitesLeftOut their sites; both are 0 with all, and
	// for a crawl read back from the project.
	Follow               string `json:"follow"`
	TemplateLinksLeftOut int    `json:"template_links_left_out"`
	TemplateSitesLeftOut int    `json:"template_sites_left_out"`
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

		Follow:               string(cs.Follow),
		TemplateLinksLeftOut: cs.TemplateLeftOut,
		TemplateSitesLeftOut: cs.TemplateSitesLeftOut,
	}
	if j.recrawl != nil {
		st.Recrawl = j.recrawl.snapshot()
	}
	top, platforms, err := svc.shownTop(context.Background())
	if err != nil {
		// The list is for reading: a status without it rather than none.
		svc.log.Error("crawl status: top sites", "err", err)
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
			ErrorsByClass: map[string]int{}, Dropped: map[string]int{},
			TemplateLinksLeftOut: c.TemplateLinksLeftOut, TemplateSitesLeftOut: c.TemplateSitesLeftOut}
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
			// A crawl of a version before the setting followed every link.
			st.Follow = cmp.Or(req.Follow, string(crawl.FollowAll))
			if req.Recrawl {
				st.Recrawl = svc.lastRecrawl(ctx)
			}
		}
		if _, n, err := svc.store.Stats(ctx); err == nil {
			st.Sites = n
		}
		top, platforms, err := svc.shownTop(ctx)
		if err == nil {
			st.Top, st.TopPlatforms = append(st.Top, top...), platforms
		}
		svc.last = st
	})
	return svc.last
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
	Crawl int64        `json:"crawl"` // 0 when the project has no crawl
	Total int          `json:"total"`
	Rows  []FetchError `json:"rows"`
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
	out := CrawlErrors{Rows: []FetchError{}}
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
	total, rows, err := svc.store.FetchErrors(ctx, q)
	if err != nil {
		return CrawlErrors{}, err
	}
	out.Total, out.Rows = total, wire.Each(rows, func(e store.FetchError) FetchError { return FetchError(e) })
	for i, e := range out.Rows {
		if e.Error == "" && e.Status > 0 {
			out.Rows[i].Error = fmt.Sprintf("%d %s", e.Status, http.StatusText(e.Status))
		}
	}
	return out, nil
}

// shownTop returns the first sites by the importance shown (OPIC's fixpoint,
// which a crawl updates batch by batch), the platform sites left out, and
// how many platform sites it left out: the same during a crawl, at its end
// and when its status is read back.
func (svc *Service) shownTop(ctx context.Context) ([]ranking.SiteScore, int, error) {
	return svc.ranking.TopWithoutPlatforms(ctx, ranking.TopShown, func(offset, limit int) ([]ranking.SiteScore, error) {
		_, rows, err := svc.store.ListSites(ctx, store.SiteQuery{Sort: "opic", Desc: true, Offset: offset, Limit: limit})
		out := make([]ranking.SiteScore, len(rows))
		for i, r := range rows {
			out[i] = ranking.SiteScore{Site: r.Site, OPIC: r.OPIC}
		}
		return out, err
	})
}
