package crawl

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"sitesift/sites"
)

// pacer enforces politeness per site at the level of HTTP requests: at most
// one request to a site at a time, and at least the site's delay between the
// end of one (its body read) and the start of the next. It sits in the
// transport, so it also paces what the scheduler does not see: robots.txt
// fetches and redirect hops. The scheduler asks it which sites are ready, so
// the two agree.
//
// A site's delay starts at the configured one; a longer Crawl-delay raises
// it (raise) and a 429 or 503 doubles it (slowDown), up to the cap. A site
// can also be held until a time (hold): a retry's backoff.
type pacer struct {
	delay    time.Duration // the configured delay
	maxDelay time.Duration // the cap of a site's delay
	clock    Clock         // the crawl's: delays and holds are times of its schedule
	notify   func()        // called when a site may have become ready

	mu    sync.Mutex
	hosts map[string]*hostPace
}

type hostPace struct {
	busy  bool
	last  time.Time     // end of the last request
	delay time.Duration // this site's delay
	hold  time.Time     // no request before
	free  chan struct{} // closed when busy ends
}

// next is the earliest start of the next request.
func (h *hostPace) next() time.Time {
	t := h.hold
	if n := h.last.Add(h.delay); !h.last.IsZero() && n.After(t) {
		t = n
	}
	return t
}

func newPacer(delay, maxDelay time.Duration, clock Clock, notify func()) *pacer {
	return &pacer{delay: delay, maxDelay: max(maxDelay, delay), clock: clock, notify: notify, hosts: make(map[string]*hostPace)}
}

// host returns the state of site; p.mu must be held.
func (p *pacer) host(site string) *hostPace {
	h := p.hosts[site]
	if h == nil {
		h = &hostPace{delay: p.delay}
		p.hosts[site] = h
	}
	return h
}

// readyAt reports when a request to site may start; busy means one is in
// flight and the time is unknown until it ends. p.mu must be held.
func (p *pacer) readyAt(site string) (t time.Time, busy bool) {
	h := p.hosts[site]
	if h == nil {
		return time.Time{}, false
	}
	return h.next(), h.busy
}

// delayOf returns the current delay of site.
func (p *pacer) delayOf(site string) time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.host(site).delay
}

// used returns the delay the crawl keeps between two requests to site, 0
// for a site it has not asked.
func (p *pacer) used(site string) time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	if h := p.hosts[site]; h != nil {
		return h.delay
	}
	return 0
}

// raise makes the delay of site at least d (a Crawl-delay), up to the cap.
func (p *pacer) raise(site string, d time.Duration) {
	p.mu.Lock()
	h := p.host(site)
	h.delay = max(h.delay, min(d, p.maxDelay))
	p.mu.Unlock()
}

// slowDown doubles the delay of site, from half a second at least, up to
// the cap: the site answered 429 or 503.
func (p *pacer) slowDown(site string) {
	p.mu.Lock()
	h := p.host(site)
	h.delay = min(max(2*h.delay, minSlowDown), p.maxDelay)
	p.mu.Unlock()
}

// minSlowDown is the least delay of a site that asked to be spared.
const minSlowDown = 500 * time.Millisecond

// hold keeps requests to site from starting before t.
func (p *pacer) hold(site string, t time.Time) {
	p.mu.Lock()
	h := p.host(site)
	if t.After(h.hold) {
		h.hold = t
	}
	p.mu.Unlock()
	if p.notify != nil {
		p.notify()
	}
}

// acquire waits until a request to site may start and marks it in flight.
func (p *pacer) acquire(ctx context.Context, site string) error {
	for {
		p.mu.Lock()
		h := p.host(site)
		now := p.clock.Now()
		next := h.next()
		if !h.busy && !now.Before(next) {
			h.busy = true
			h.free = make(chan struct{})
			p.mu.Unlock()
			return nil
		}
		var (
			free <-chan struct{}
			tick <-chan time.Time
		)
		if h.busy {
			free = h.free
		} else {
			tick = p.clock.After(next.Sub(now))
		}
		p.mu.Unlock()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-free:
		case <-tick:
		}
	}
}

// release ends the request to site acquired before; the next may start
// after the site's delay.
func (p *pacer) release(site string) {
	p.mu.Lock()
	h := p.host(site)
	h.busy = false
	h.last = p.clock.Now()
	close(h.free)
	p.mu.Unlock()
	if p.notify != nil {
		p.notify()
	}
}

// pacedTransport is the http.RoundTripper of the crawl: it paces every
// request with the pacer and gives requests made without a context the
// crawl's context, so cancelling the crawl ends them.
type pacedTransport struct {
	next      http.RoundTripper
	pacer     *pacer
	ctx       context.Context
	maxBody   int           // the most bytes of an inflated gzip body read (MaxBodySize)
	rule      sites.Rule    // the crawl's site rule, which keys politeness
	minRate   int           // bytes a second a body must come at, after rateGrace (MinTransferRate); 0 for none
	rateGrace time.Duration // rateGrace, shorter in tests
	reading   *readBudget   // bounds the bytes of the bodies read at once
}

func (t *pacedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Context().Done() == nil {
		req = req.WithContext(t.ctx)
	}
	site, err := t.rule.Of(req.URL.String())
	if err != nil {
		site = req.URL.Host
	}
	if err := t.pacer.acquire(req.Context(), site); err != nil {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		t.pacer.release(site)
		return nil, err
	}
	// The request ends when its body has been read: the delay runs from
	// there, not from the headers, so a slow download is not followed at
	// once by the next request. colly and net/http always close bodies.
	resp.Body = &releasingBody{ReadCloser: resp.Body, release: func() { t.pacer.release(site) }}
	if t.minRate > 0 {
		resp.Body = &rateBody{ReadCloser: resp.Body, min: t.minRate, grace: t.rateGrace, now: time.Now, start: time.Now()}
	}
	if !resp.Uncompressed && collyInflates(req, resp) {
		// colly caps the bytes it reads, then inflates them without bound:
		// a few megabytes of gzip would make gigabytes. The body is
		// inflated here instead, up to the same cap.
		resp.Body = &gunzipBody{raw: resp.Body, limit: int64(t.maxBody)}
		resp.Uncompressed = true
		resp.Header.Del("Content-Encoding")
		resp.Header.Del("Content-Length")
		resp.ContentLength = -1
	}
	// Counted as colly reads it, inflated: the bytes it and the capture
	// hold.
	resp.Body = t.reading.body(req.Context(), resp.Body)
	if req.URL.Path == "/robots.txt" {
		// A file that never ends would fill memory until the timeout. RFC 9309 §2.5 lets a crawler parse only
		// the first 500 KiB: the rest reads as the end of the file.
		resp.Body = struct {
			io.Reader
			io.Closer
		}{io.LimitReader(resp.Body, MaxRobotsSize), resp.Body}
	}
	return resp, nil
}

// rateGrace is how long a body may come at any pace before MinTransferRate
// applies: a server may pause before its first bytes.
const rateGrace = 5 * time.Second

// ErrTooSlow is the error of a body that came slower than MinTransferRate.
var ErrTooSlow = errors.New("crawl: the body comes too slowly")

// rateBody fails a read once, after rateGrace, the body has come at fewer
// than min bytes a second on average, so that a server that drips a byte a
// second cannot hold a fetch slot until the timeout. Its pace is the
// network's, on the system's clock (now), whatever the crawl's Clock.
type rateBody struct {
	io.ReadCloser
	min   int
	grace time.Duration
	now   func() time.Time
	start time.Time
	n     int64
}

func (b *rateBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n += int64(n)
	if el := b.now().Sub(b.start); err == nil && el > b.grace && float64(b.n) < float64(b.min)*el.Seconds() {
		return n, fmt.Errorf("%w: %d bytes in %.0fs, under %d bytes a second", ErrTooSlow, b.n, el.Seconds(), b.min)
	}
	return n, err
}

// releasingBody calls release once, when the body is closed.
type releasingBody struct {
	io.ReadCloser
	once    sync.Once
	release func()
}

func (b *releasingBody) Close() error {
	err := b.ReadCloser.Close()
	b.once.Do(b.release)
	return err
}

// collyInflates reports whether colly's HTTP backend would gunzip the body
// of resp itself (net/http inflates only the plain "gzip" it asked for, and
// then marks the response Uncompressed).
func collyInflates(req *http.Request, resp *http.Response) bool {
	ce := strings.ToLower(resp.Header.Get("Content-Encoding"))
	return strings.Contains(ce, "gzip") ||
		ce == "" && strings.Contains(strings.ToLower(resp.Header.Get("Content-Type")), "gzip") ||
		strings.HasSuffix(strings.ToLower(req.URL.Path), ".xml.gz")
}

// gunzipBody inflates a gzip body, limit bytes at most. It starts on the
// first Read, so a body that is never read (not HTML) is never inflated.
type gunzipBody struct {
	raw   io.ReadCloser
	limit int64
	r     io.Reader
}

func (b *gunzipBody) Read(p []byte) (int, error) {
	if b.r == nil {
		zr, err := gzip.NewReader(b.raw)
		if err != nil {
			return 0, fmt.Errorf("crawl: gzip body: %w", err)
		}
		b.r = io.LimitReader(zr, b.limit)
	}
	return b.r.Read(p)
}

func (b *gunzipBody) Close() error { return b.raw.Close() }
