package crawl

import (
	"cmp"
	"maps"
	"slices"
	"time"

	"sitesift/sites"
)

// State is the phase a crawl is in.
type State string

// The states of a [Crawler], as [Crawler.Status] reports them.
const (
	StateIdle     State = "idle"     // Run not called yet
	StateRunning  State = "running"  // fetching
	StatePaused   State = "paused"   // no new fetch starts; in-flight ones finish
	StateStopping State = "stopping" // cancelled, waiting for in-flight fetches and the last batch
	StateDone     State = "done"     // ended: page limit reached or nothing left to fetch
	StateStopped  State = "stopped"  // ended: Run's context was cancelled
	StateFailed   State = "failed"   // ended: the batch function failed
)

// Status is a snapshot of a crawl's progress.
type Status struct {
	State    State
	Strategy Strategy
	Pages    int // responses recorded, error pages (4xx, 5xx) included
	PagesOK  int // pages fetched fine: no error status, body read whole; what MaxPages caps
	MaxPages int
	// Errors counts the failures: failed fetches plus pages with status
	// >= 400 or a broken body; what MaxFailures caps.
	Errors      int
	MaxFailures int
	Disallowed  int // URLs skipped because robots.txt forbids them
	// BadLinks counts the links dropped from fetched pages: http(s) links
	// without a valid host or port or with a URL scheme for host
	// ("http://http://…"), longer than MaxURLSize, beyond MaxLinks or
	// MaxLinkBytes on one page, or past its first MaxNodes nodes. They are
	// never fetched nor stored.
	BadLinks int
	// Refused counts the URLs not fetched because their host is a
	// loopback, private or link-local address (see [AllowPrivate]).
	Refused int
	// Retries counts the fetches tried again after a passing failure (a
	// timeout, a connection refused or reset, a 5xx, a 429) and the
	// robots.txt files fetched again after they could not be read.
	Retries   int
	IdleReads int // reads of idle sites (see the IdleReads option)
	Queue     int // URLs waiting to be fetched, retries included
	Sites     int // sites known: seeds and targets of links
	InFlight  int // fetches under way
	Elapsed   time.Duration
	// PagesPerSec is Pages over Elapsed.
	PagesPerSec float64
	// LastError is the latest error, as "URL: message".
	LastError string
	// ErrorsByClass counts the fetches that failed, answered an error or
	// were refused by robots.txt, by class (sites.ErrDNS …).
	ErrorsByClass map[string]int
	// EndReason says why a crawl that ended ended (EndLimit …); "" before.
	EndReason string
	// Truncated counts the pages whose body was cut at MaxBodySize: kept,
	// with the message "body truncated …" as their Err.
	Truncated int
	// Dropped counts the distinct URLs found and left out, by why:
	// DropOutOfScope, DropTooDeep, the traps (DropPathDepth …), and the
	// links that are no link between sites (DropShare, DropMedia,
	// DropPrivate), which are not among the links of their page either.
	Dropped map[string]int
	// Follow is which links the crawl follows to other sites.
	Follow Follow
	// TemplateLeftOut counts the distinct URLs of the template's links to
	// other sites that the crawl did not follow (see [FollowLinks]), and
	// TemplateSitesLeftOut their sites; a URL an author linked to as well
	// is followed and counts in neither.
	TemplateLeftOut, TemplateSitesLeftOut int
}

// Why a crawl ended.
const (
	EndLimit       = "limit"         // the page cap was reached
	EndFailLimit   = "failure-limit" // the failure cap was reached
	EndExhausted   = "exhausted"     // nothing was left to fetch
	EndStopped     = "stopped"       // the crawl was stopped (its context cancelled)
	EndSeedsFailed = "seeds-failed"  // no page could be fetched fine: every seed failed
	EndFailed      = "failed"        // saving a batch failed
)

// SiteScore is a site and its OPIC importance estimate.
type SiteScore struct {
	Site string
	OPIC float64
}

// Pause stops starting fetches; those in flight finish. It does nothing
// unless the crawl is running.
func (c *Crawler) Pause() { c.move(StateRunning, StatePaused, "crawl paused") }

// Resume undoes Pause.
func (c *Crawler) Resume() { c.move(StatePaused, StateRunning, "crawl resumed") }

// move takes the crawl from state from to state to, logging msg, and does
// nothing in another state.
func (c *Crawler) move(from, to State, msg string) {
	c.mu.Lock()
	if c.state == from {
		c.state = to
		c.cfg.logger.Info(msg)
	}
	c.mu.Unlock()
	c.signal()
}

// Status returns a snapshot of the crawl's progress.
func (c *Crawler) Status() Status {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := Status{
		State:       c.state,
		Strategy:    c.cfg.strategy,
		Pages:       c.pages,
		PagesOK:     c.okPages,
		MaxPages:    c.cfg.maxPages,
		MaxFailures: c.cfg.maxFailures,
		Errors:      c.errs,
		Disallowed:  c.disallow,
		BadLinks:    c.badLinks,
		Refused:     c.refused,
		Retries:     c.retries,
		IdleReads:   c.idleRead,
		Queue:       c.front.queued + c.retrying,
		Sites:       len(c.front.sites),
		InFlight:    c.inflight,
		LastError:   c.lastError,
		EndReason:   c.endReason,
	}
	st.Dropped = maps.Clone(c.dropped)
	st.Truncated = c.truncated
	st.Follow = c.cfg.follow
	st.TemplateLeftOut, st.TemplateSitesLeftOut = len(c.templateOut), len(c.templateSites)
	st.ErrorsByClass = make(map[string]int, len(c.byClass))
	for k, n := range c.byClass {
		st.ErrorsByClass[k] = n
	}
	if !c.start.IsZero() {
		end := c.end
		if end.IsZero() {
			end = c.cfg.clock.Now()
		}
		st.Elapsed = end.Sub(c.start)
		if sec := st.Elapsed.Seconds(); sec > 0 {
			st.PagesPerSec = float64(c.pages) / sec
		}
	}
	return st
}

// Top returns the n sites with the highest OPIC estimate (history plus
// cash, normalised to sum 1 over all known sites), highest first, ties by
// name; n <= 0 returns all.
func (c *Crawler) Top(n int) []SiteScore {
	c.mu.Lock()
	est := c.opic.Estimate()
	out := make([]SiteScore, len(est))
	for i, e := range est {
		out[i] = SiteScore{Site: c.front.sites[i].name, OPIC: e}
	}
	c.mu.Unlock()
	slices.SortFunc(out, func(a, b SiteScore) int {
		if c := cmp.Compare(b.OPIC, a.OPIC); c != 0 {
			return c
		}
		return cmp.Compare(a.Site, b.Site)
	})
	if n > 0 && n < len(out) {
		out = out[:n]
	}
	return out
}

// states returns the OPIC state of every known site. c.mu must be held.
func (c *Crawler) states() []sites.SiteState {
	out := make([]sites.SiteState, len(c.front.sites))
	for i, s := range c.front.sites {
		out[i] = sites.SiteState{Site: s.name, Cash: c.opic.Cash(i), History: c.opic.History(i),
			OutOfScope: s.outOfScope, Trapped: s.trapped, DelayMS: int(c.pacer.used(s.name).Milliseconds())}
	}
	return out
}
