package crawl

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"runtime"
	"sync"
	"time"

	"golang.org/x/net/http/httpproxy"

	"sitesift/importance"
	"sitesift/sites"
)

// Crawler is a polite crawler that computes the importance of the sites it
// meets with OPIC as it goes and uses it to choose what to fetch next. It
// runs one crawl: make a new one for the next.
//
// Its methods are safe for concurrent use; Status, Top, Pause and Resume are
// meant to be called while Run runs.
type Crawler struct {
	cfg    config
	proxy  func(*http.Request) (*url.URL, error)
	pacer  *pacer
	robots *robotsCache
	guard  *guard // which addresses may be dialled; its host set is written before Run starts fetching

	wake     chan struct{} // the scheduler may have something to do
	flushNow chan struct{} // a full batch is waiting
	workers  sync.WaitGroup
	// extracting holds a token for each page being parsed: main-content
	// extraction costs tens of milliseconds of CPU a page, so no more
	// pages are parsed at once than there are cores to run them, whatever
	// the fetches in flight.
	extracting chan struct{}
	parse      func(page *url.URL, p boundedPage) document // parsePage; tests watch it
	reading    *readBudget                                 // bounds the bodies read at once

	mu        sync.Mutex // guards everything below, the frontier and OPIC
	state     State
	started   bool
	front     *frontier
	opic      *importance.OPIC
	rng       *rand.Rand
	cycleLast int // id of the site Cycle chose last
	inflight  int
	pages     int
	okPages   int // pages fetched fine (no error class)
	endReason string
	truncated int             // pages whose body was cut at MaxBodySize
	dropped   map[string]int  // distinct URLs left out, by why (DropOutOfScope …)
	leftOut   map[string]bool // links left out of pages' links (see leaveOut), counted once each
	scope     *scope          // set by Run from the seeds
	traps     *trapGuard
	byClass   map[string]int // failed fetches by class, robots.txt's refusals included
	errs      int
	disallow  int
	badLinks  int
	refused   int
	retries   int
	retrying  int // sites whose retry URL waits
	// seedsOpen counts the seeds being fetched or waiting to be tried
	// again: until they and the queued ones are done, no discovered URL
	// is fetched (see pick).
	seedsOpen int
	idleRead  int // idle sites read
	lastError string
	start     time.Time
	end       time.Time
	pending   []sites.Page // recorded, not yet handed to the batch function
	// pendingBytes are the bytes of pending's texts and links (see
	// pageBytes); parseBytes those of the pages fetched and waiting for
	// their turn to be parsed or being parsed.
	pendingBytes, parseBytes int

	// templateOut are the template's links to other sites not followed
	// (see FollowLinks), with their sites; templateSites counts them by
	// site.
	templateOut   map[string]*siteQueue
	templateSites map[int]int

	// Captures (capture.go): a failed one stops the crawl through cancelRun.
	cancelRun  context.CancelCauseFunc
	captureErr *CaptureError
}

// CheckOptions returns the error [New] would give for opts, without
// making a crawler: a caller can check a crawl's settings before it makes
// anything for it.
func CheckOptions(opts ...Option) error {
	_, err := configure(opts)
	return err
}

// configure applies opts to the default configuration.
func configure(opts []Option) (config, error) {
	cfg := defaultConfig()
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return cfg, err
		}
	}
	if cfg.maxFailures == 0 {
		cfg.maxFailures = cfg.maxPages
	}
	return cfg, nil
}

// New returns a crawler configured by opts; see each option for its default.
// Without a [Proxy] option it reads the proxy environment variables now.
func New(opts ...Option) (*Crawler, error) {
	cfg, err := configure(opts)
	if err != nil {
		return nil, err
	}
	o, err := importance.NewOPIC(cfg.teleport)
	if err != nil {
		return nil, fmt.Errorf("crawl: %w", err)
	}
	cfg.logger = cfg.logger.With("component", "crawl")
	c := &Crawler{
		cfg:      cfg,
		wake:     make(chan struct{}, 1),
		flushNow: make(chan struct{}, 1),
		// One extraction per core the process may use.
		extracting: make(chan struct{}, runtime.GOMAXPROCS(0)),
		parse:      parsePage,
		reading:    newReadBudget(maxReadingBytes),
		state:      StateIdle,
		front:      newFrontier(),
		byClass:    map[string]int{},
		dropped:    map[string]int{},
		leftOut:    map[string]bool{},
		traps:      newTrapGuard(cfg),
		scope:      newScope(cfg, nil), // Run sets the seeds
		opic:       o,
		rng:        rand.New(rand.NewPCG(uint64(cfg.seed), 0x5175_5e5f_7c4a_11e5)),
		// The first Cycle choice is the first site discovered.
		cycleLast: -1,
	}
	c.templateOut, c.templateSites = map[string]*siteQueue{}, map[int]int{}
	c.guard = newGuard(cfg.allowPrivate)
	if cfg.proxy != nil {
		c.proxy = http.ProxyURL(cfg.proxy)
		c.guard.allowProxy(cfg.proxy.Hostname()) // the operator chose it
	} else {
		envProxy := httpproxy.FromEnvironment()
		for _, p := range []string{envProxy.HTTPProxy, envProxy.HTTPSProxy} {
			if u, err := url.Parse(p); err == nil && u.Hostname() != "" {
				c.guard.allowProxy(u.Hostname())
			}
		}
		// http.ProxyFromEnvironment reads the environment once per
		// process; reading it per crawler lets a long-running app (and the
		// tests) change it between crawls.
		env := httpproxy.FromEnvironment().ProxyFunc()
		c.proxy = func(r *http.Request) (*url.URL, error) { return env(r.URL) }
	}
	c.pacer = newPacer(cfg.delay, cfg.maxDelay, cfg.clock, c.signal)
	c.robots = newRobotsCache()
	return c, nil
}

// signal wakes the scheduler without blocking.
func (c *Crawler) signal() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// Run crawls from seeds until MaxPages pages are fetched fine or MaxFailures
// fetches failed, nothing is left to
// fetch, ctx is cancelled or the batch function fails. It returns nil, ctx's
// error or the batch function's error, after the last batch was handed over
// and every fetch it started has ended. Seeds are normalised with
// sites.Parse and lose their tracking parameters (sites.StripTracking), as
// links do; an invalid one is an error before anything is fetched.
// With the [Resume] option the crawl continues its prior, whose frontier is
// queued before the seeds; the URLs of the [Revisit] option come after the
// frontier and before the seeds, and seeds may then be empty.
func (c *Crawler) Run(ctx context.Context, seeds []string) error {
	if len(seeds) == 0 && len(c.cfg.revisit) == 0 {
		return errors.New("crawl: no seeds")
	}
	norm := make([]string, 0, len(seeds))
	for _, s := range seeds {
		// A seed pasted from a shared link is the page, as its links are.
		u, err := sites.Canonical(s)
		if err != nil {
			return fmt.Errorf("crawl: seed %q: %w", s, err)
		}
		norm = append(norm, u)
	}

	c.mu.Lock()
	if c.started {
		c.mu.Unlock()
		return errors.New("crawl: Run called twice; a Crawler runs one crawl")
	}
	c.started = true
	// A seed on a private address (an intranet, a test server) may be
	// crawled: the operator asked for it.
	for _, n := range norm {
		c.guard.allowSeed(mustParse(n))
	}
	c.scope = newScope(c.cfg, norm)
	restored := c.resume()
	c.queueRevisits()
	for _, n := range norm {
		s := c.site(c.cfg.siteRule.OfURL(mustParse(n)))
		c.front.push(s, queuedURL{url: n, seed: true})
	}
	if !restored {
		// Each known site (the seeds' sites, when there is no prior)
		// starts with the same cash.
		c.opic.Seed()
	}
	c.state = StateRunning
	c.start = c.cfg.clock.Now()
	c.mu.Unlock()

	c.cfg.logger.Info("crawl started", "seeds", len(norm), "strategy", c.cfg.strategy,
		"max_pages", c.cfg.maxPages, "parallel", c.cfg.parallel, "delay", c.cfg.delay,
		"extractors", cap(c.extracting))

	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	c.mu.Lock()
	c.cancelRun = cancel
	c.mu.Unlock()
	f := newFetcher(runCtx, c)

	var (
		stopFlush = make(chan struct{})
		flushErr  = make(chan error, 1)
	)
	if c.cfg.onBatch != nil {
		go func() { flushErr <- c.flushLoop(ctx, cancel, stopFlush) }()
	} else {
		flushErr <- nil
	}

	c.schedule(runCtx, f)
	c.workers.Wait()
	f.close()
	close(stopFlush)
	batchErr := <-flushErr
	if batchErr == nil {
		batchErr = c.captureFailure()
	}

	c.mu.Lock()
	switch {
	case batchErr != nil:
		c.state, c.endReason = StateFailed, EndFailed
	case ctx.Err() != nil:
		c.state, c.endReason = StateStopped, EndStopped
	case c.okPages == 0 && len(c.byClass) > 0:
		c.state, c.endReason = StateDone, EndSeedsFailed
	case c.okPages >= c.cfg.maxPages:
		c.state, c.endReason = StateDone, EndLimit
	case c.errs >= c.cfg.maxFailures:
		c.state, c.endReason = StateDone, EndFailLimit
	default:
		c.state, c.endReason = StateDone, EndExhausted
	}
	c.end = c.cfg.clock.Now()
	pages, errs, elapsed := c.pages, c.errs, c.end.Sub(c.start)
	c.mu.Unlock()
	c.cfg.logger.Info("crawl ended", "state", c.state, "pages", pages, "errors", errs, "elapsed", elapsed)

	if batchErr != nil {
		return batchErr
	}
	return ctx.Err()
}

func mustParse(normalised string) *url.URL {
	u, err := sites.Parse(normalised)
	if err != nil {
		panic(fmt.Sprintf("crawl: normalised URL %q does not parse: %v", normalised, err))
	}
	return u
}

// isDone reports whether the page at the normalised URL u was fetched, is
// being fetched or was dropped by this crawl, or counts as fetched by a
// resumed one. It takes c.mu.
func (c *Crawler) isDone(u string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.front.done(u)
}

// site returns the frontier's site named name, adding it, and an OPIC node
// for it, when it is new. c.mu must be held.
func (c *Crawler) site(name string) *siteQueue {
	s, added := c.front.site(name)
	if added {
		if id := c.opic.AddNode(); id != s.id {
			panic(fmt.Sprintf("crawl: OPIC node %d for site %d %q", id, s.id, name))
		}
		if w, ok := c.cfg.shares[name]; ok {
			c.opic.SetShare(s.id, w) // checked by the Shares option
		}
	}
	return s
}

// schedule starts fetches until the crawl ends or ctx is cancelled.
func (c *Crawler) schedule(ctx context.Context, f *fetcher) {
	for {
		c.mu.Lock()
		if ctx.Err() != nil {
			if c.inflight > 0 || c.cfg.onBatch != nil {
				c.state = StateStopping
			}
			c.mu.Unlock()
			return
		}
		if c.inflight == 0 && (c.capped() || c.front.queued == 0 && c.retrying == 0) {
			c.mu.Unlock()
			return
		}
		var wait time.Duration = -1
		if c.state == StateRunning && c.inflight < c.cfg.parallel &&
			c.okPages+c.inflight < c.cfg.maxPages && c.errs+c.inflight < c.cfg.maxFailures && !c.backlogged() {
			s, w := c.pick(c.cfg.clock.Now())
			if s != nil {
				c.dispatch(ctx, f, s)
				c.mu.Unlock()
				continue
			}
			wait = w
		}
		c.mu.Unlock()

		// Nothing to start now: wait for a fetch to end, Pause/Resume, a
		// batch to be taken, or the politeness delay of a site to pass.
		var tick <-chan time.Time
		if wait >= 0 {
			tick = c.cfg.clock.After(wait)
		}
		select {
		case <-ctx.Done():
		case <-c.wake:
		case <-tick:
		}
	}
}

// capped reports whether the crawl reached its page cap or its failure cap.
// c.mu must be held.
func (c *Crawler) capped() bool {
	return c.okPages >= c.cfg.maxPages || c.errs >= c.cfg.maxFailures
}

// maxQueuedBytes is how many bytes of pages waiting to be handed to the
// batch function, and how many bytes of pages waiting to be parsed, stop new
// fetches until they are fewer: the memory a crawl holds for them does not
// grow with Parallel or with a batch function that lags.
const maxQueuedBytes = 16 << 20

// backlogged reports whether the batch function or the parsers lag so far
// behind that new fetches should wait for them. c.mu must be held.
func (c *Crawler) backlogged() bool {
	return c.cfg.onBatch != nil && (len(c.pending) >= 4*c.cfg.batchSize || c.pendingBytes >= maxQueuedBytes) ||
		c.parseBytes >= maxQueuedBytes
}

// queueParse counts n more bytes of pages fetched and not yet parsed (fewer
// when n < 0), and wakes the scheduler when they are fewer.
func (c *Crawler) queueParse(n int) {
	c.mu.Lock()
	c.parseBytes += n
	c.mu.Unlock()
	if n < 0 {
		c.signal()
	}
}

// pick chooses by the strategy a site ready to be fetched from at now: it has
// URLs waiting, no fetch of the crawler in flight and no request in flight or
// due to wait for politeness. When none is ready it returns how long until
// the first one is, or -1 when that depends on a request in flight. c.mu must
// be held.
func (c *Crawler) pick(now time.Time) (*siteQueue, time.Duration) {
	var (
		best  *siteQueue
		bestC float64
		ready []*siteQueue  // Random and Cycle
		wait  time.Duration = -1
	)
	// While seeds wait, only the sites that have one are fetched from, so
	// that every seed is asked for before a discovered URL, whatever the
	// strategy.
	seedsFirst := c.front.seeds > 0 || c.seedsOpen > 0
	c.pacer.mu.Lock()
	for _, s := range c.front.sites {
		if s.waiting == 0 && s.retry == nil || s.busy || s.closed ||
			seedsFirst && s.seeds == 0 && (s.retry == nil || !s.retry.seed) {
			continue
		}
		at, busy := c.pacer.readyAt(s.name)
		if busy {
			continue
		}
		if d := at.Sub(now); d > 0 {
			if wait < 0 || d < wait {
				wait = d
			}
			continue
		}
		switch c.cfg.strategy {
		case Greedy:
			// Ties go to the site discovered first.
			if cash := c.opic.Cash(s.id); best == nil || cash > bestC {
				best, bestC = s, cash
			}
		default:
			ready = append(ready, s)
		}
	}
	c.pacer.mu.Unlock()

	switch c.cfg.strategy {
	case Random:
		if len(ready) > 0 {
			best = ready[c.rng.IntN(len(ready))]
		}
	case Cycle:
		if len(ready) > 0 {
			// ready is in order of discovery: take the first after the last
			// one chosen, wrapping around.
			best = ready[0]
			for _, s := range ready {
				if s.id > c.cycleLast {
					best = s
					break
				}
			}
			c.cycleLast = best.id
		}
	}
	if best != nil {
		return best, 0
	}
	return nil, wait
}

// dispatch starts fetching the URL of s to try again, if any, else the
// oldest URL waiting in s. c.mu must be held.
func (c *Crawler) dispatch(ctx context.Context, f *fetcher, s *siteQueue) {
	var q retryURL
	if s.retry != nil && (s.seeds == 0 || s.retry.seed) {
		// A site's seeds go before its discovered URL to try again.
		q, s.retry = *s.retry, nil
		c.retrying--
		if q.seed {
			c.seedsOpen--
		}
	} else {
		p, ok := c.front.pop(s)
		if !ok {
			return // cannot happen: s.waiting > 0
		}
		q.queuedURL = p
	}
	if q.seed {
		c.seedsOpen++
	}
	s.busy = true
	c.inflight++
	c.workers.Add(1)
	go func() {
		defer c.workers.Done()
		start := time.Now()
		r := f.fetch(ctx, q.url)
		r.took = time.Since(start)
		if q.retries < maxRetries && transient(r) {
			if r.status == http.StatusTooManyRequests || r.status == http.StatusServiceUnavailable {
				c.pacer.slowDown(s.name)
			}
			r.retryAt = c.cfg.clock.Now().Add(f.retryWait(s.name, q.retries+1, r.retryAfter))
			r.kind = fetchRetry
		}
		var doc document
		if r.kind == fetchedPage && r.html {
			// Parsed here, out of the scheduler and without the crawl's
			// lock, while the site waits out its politeness delay. What
			// is parsed is bounded first, so that what waits for its turn
			// is no more than what will be parsed; the body is the
			// parser's alone, freed once its tree is built.
			read := len(r.body)
			c.reading.add(read)
			p := bound(r.body)
			r.body = nil
			c.reading.add(len(p.html) - read)
			c.queueParse(len(p.html))
			c.extracting <- struct{}{}
			doc = c.parse(r.page, p)
			<-c.extracting
			c.queueParse(-len(p.html))
			c.reading.add(-len(p.html))
		}
		c.mu.Lock()
		c.finish(s, q, r, doc)
		c.mu.Unlock()
		c.signal()
	}()
}

// retryLater keeps q to be fetched again from s once s is free at at.
// c.mu must be held.
func (c *Crawler) retryLater(s *siteQueue, q retryURL, at time.Time) {
	c.retries++
	if s.closed {
		return
	}
	s.retry = &q
	c.retrying++
	if q.seed {
		c.seedsOpen++
	}
	c.pacer.hold(s.name, at)
}

// closeSite closes s, which reached its page cap, with its retry.
// c.mu must be held.
func (c *Crawler) closeSite(s *siteQueue) {
	c.front.closeSite(s)
	if s.retry != nil {
		if s.retry.seed {
			c.seedsOpen--
		}
		s.retry = nil
		c.retrying--
	}
}

// flushLoop hands batches to the batch function until stop is closed, then
// hands over the rest. A failure cancels the crawl through cancel.
func (c *Crawler) flushLoop(ctx context.Context, cancel context.CancelCauseFunc, stop <-chan struct{}) error {
	// Every batch is delivered even after Run's context is cancelled: the
	// pages were fetched, and a stopped crawl keeps its results.
	ctx = context.WithoutCancel(ctx)
	tick := time.NewTicker(c.cfg.flushInterval)
	defer tick.Stop()
	for {
		final := false
		select {
		case <-stop:
			final = true
		case <-c.flushNow:
		case <-tick.C:
		}
		c.mu.Lock()
		pages := c.pending
		if len(pages) == 0 && !final {
			c.mu.Unlock()
			continue
		}
		c.pending, c.pendingBytes = nil, 0
		states := c.states()
		c.mu.Unlock()
		c.signal() // the scheduler may have waited for the backlog to shrink

		if err := c.cfg.onBatch(ctx, pages, states); err != nil {
			err = fmt.Errorf("crawl: batch of %d pages: %w", len(pages), err)
			c.cfg.logger.Error("batch failed, stopping the crawl", "err", err)
			c.mu.Lock()
			c.lastError = err.Error()
			c.mu.Unlock()
			cancel(err)
			return err
		}
		if final {
			return nil
		}
	}
}
