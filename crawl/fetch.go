package crawl

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gocolly/colly/v2"

	"sitesift/sites"
)

// fetcher fetches one URL at a time per call with colly. colly is used as an
// HTTP client that knows redirects, body limits and charsets; the crawler
// keeps its own frontier, so colly's queue, visited set and link following
// are not used. robots.txt is read here (polite.go), not by colly, whose
// reading lets a site whose robots.txt answers 5xx be crawled in full.
type fetcher struct {
	col       *colly.Collector
	transport *http.Transport
	// done reports whether the crawl already has the page at a normalised
	// URL, fetched or being fetched.
	done  func(u string) bool
	guard *guard
	rule  sites.Rule // the crawl's site rule
	pacer *pacer

	robotsCache  *robotsCache
	robotsClient *http.Client
	userAgent    string
	from         string // the From header: the operator's e-mail address, if given
	token        string // the product token matched against robots.txt groups
	maxDelay     time.Duration
	backoff      time.Duration
	clock        Clock // the crawl's: the times of results and retries
}

// jobKey is the colly.Context key of the *job of a request.
const jobKey = "sitesift.job"

// job gathers what colly's callbacks see of one fetch. The collector is
// synchronous, so the callbacks run in the goroutine that called fetch.
type job struct {
	sent       *url.URL // the URL colly sent; a different one later means a redirect
	headers    bool     // the final response's headers arrived
	redirected bool
	final      *url.URL
	status     int
	ctype      string
	at         time.Time
	retryAfter string // Retry-After header of the final response
	skipBody   bool   // not HTML: the body was not downloaded
	body       []byte
	gotBody    bool
	location   string // Location header of a 3xx response
}

type fetchKind int

const (
	fetchedPage       fetchKind = iota // a response: a page to record
	fetchFailed                        // no response: network error, timeout, robots.txt unreachable
	fetchDisallowed                    // robots.txt forbids the URL
	fetchAborted                       // the crawl was cancelled
	fetchRedirectDone                  // a redirect to a page the crawl already has, not followed
	fetchRefused                       // the host is a non-public address (see guard)
	fetchRobotsWait                    // robots.txt unreachable for now: try again at retryAt
	fetchSlow                          // robots.txt asks for a Crawl-delay over the cap
	fetchRetry                         // a passing failure, to be tried again at retryAt
)

// fetchResult is the outcome of one fetch.
type fetchResult struct {
	kind      fetchKind
	final     *url.URL // normalised final URL after redirects; nil when there was none
	page      *url.URL // the URL the content came from: final, or the one asked for
	status    int
	mediaType string
	html      bool
	body      []byte
	err       error // for a page: its body could not be read whole
	at        time.Time
	size      int           // bytes of body received
	took      time.Duration // from the request to the body read
	// redirect is the normalised target of a fetchRedirectDone.
	redirect string
	// retryAfter is the Retry-After of an answer, 0 without one.
	retryAfter time.Duration
	// retryAt is when a fetchRobotsWait or fetchRetry may be tried again.
	retryAt time.Time
	// robotsFetched: robots.txt was fetched for this result.
	robotsFetched bool
}

// errMessage returns the message of r.err without the "Get URL:" prefix of
// net/http, since messages are shown after the URL.
func (r fetchResult) errMessage() string {
	if r.err == nil {
		return ""
	}
	return errText(r.err)
}

// parsePage extracts what the crawler keeps of the HTML body of a page
// fetched from page, bounded (see parseHTML).
func parsePage(page *url.URL, p boundedPage) document {
	doc, err := parseBounded(p, page, MaxTextChars)
	if err != nil {
		// html.Parse fails only when reading fails, which a byte slice
		// does not: keep the page without content rather than lose it.
		return document{}
	}
	return doc
}

func newFetcher(ctx context.Context, c *Crawler) *fetcher {
	cfg := c.cfg
	col := colly.NewCollector(colly.StdlibContext(ctx))
	// NewCollector applies COLLY_* environment variables; the crawler's
	// settings must win over them (robots.txt above all).
	col.UserAgent = cfg.userAgent
	col.IgnoreRobotsTxt = true // read by the fetcher itself
	col.AllowURLRevisit = true // the frontier decides what is fetched
	col.ParseHTTPErrorResponse = true
	col.MaxBodySize = cfg.maxBodySize
	col.MaxDepth = 0
	col.MaxRequests = 0
	col.Async = false
	col.CacheDir = ""
	col.DetectCharset = false
	col.CheckHead = false
	col.AllowedDomains, col.DisallowedDomains = nil, nil
	col.URLFilters, col.DisallowedURLFilters = nil, nil
	col.SetRequestTimeout(cfg.timeout)

	tr := &http.Transport{
		Proxy: c.proxy,
		DialContext: c.guard.dialContext(&net.Dialer{
			Timeout:   10 * time.Second,
			KeepAlive: 30 * time.Second,
		}),
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          64,
		MaxIdleConnsPerHost:   2,
		IdleConnTimeout:       30 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
	paced := &pacedTransport{next: newCaptureTransport(c, tr), pacer: c.pacer, ctx: ctx, maxBody: cfg.maxBodySize,
		rule: cfg.siteRule, minRate: cfg.minTransferRate, rateGrace: cfg.rateGrace, reading: c.reading}
	col.WithTransport(paced)
	f := &fetcher{col: col, transport: tr, done: c.isDone, guard: c.guard, pacer: c.pacer, rule: cfg.siteRule,
		robotsCache: c.robots, userAgent: cfg.userAgent, from: cfg.from, token: productToken(cfg.userAgent),
		maxDelay: cfg.maxDelay, backoff: cfg.retryBackoff, clock: cfg.clock}
	f.robotsClient = &http.Client{Transport: paced, Timeout: cfg.timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > maxRobotsRedirects {
				return http.ErrUseLastResponse
			}
			if err := f.guard.checkURL(req.URL); err != nil {
				return err
			}
			f.setHeaders(req.Header)
			return nil
		}}
	// A redirect to a page the crawl already has is not followed: the page
	// would not be recorded twice anyway, and not asking for it spares the
	// site a request. It matters most when a crawl resumes, since the store
	// keeps pages under their final URL and so the URLs that redirect to
	// them come back in the frontier. Set after WithTransport, and it
	// overrides COLLY_FOLLOW_REDIRECTS.
	col.SetRedirectHandler(func(req *http.Request, via []*http.Request) error {
		if len(via) > cfg.maxRedirects {
			return newRedirectChainError(via, req.URL)
		}
		if err := f.guard.checkURL(req.URL); err != nil {
			return err
		}
		if f.redirectDone(req.URL, via[0].URL) != "" {
			return http.ErrUseLastResponse
		}
		if req.URL.Host != via[len(via)-1].URL.Host {
			req.Header.Del("Authorization")
		}
		return nil
	})

	col.OnRequest(func(r *colly.Request) {
		if ctx.Err() != nil {
			r.Abort()
			return
		}
		if f.from != "" {
			r.Headers.Set("From", f.from)
		}
		if j, ok := r.Ctx.GetAny(jobKey).(*job); ok {
			j.sent = r.URL
		}
	})
	col.OnResponseHeaders(func(r *colly.Response) {
		j, ok := r.Ctx.GetAny(jobKey).(*job)
		if !ok {
			return
		}
		j.headers = true
		j.at = f.clock.Now()
		j.status = r.StatusCode
		j.ctype = r.Headers.Get("Content-Type")
		j.retryAfter = r.Headers.Get("Retry-After")
		if r.StatusCode >= 300 && r.StatusCode < 400 {
			j.location = r.Headers.Get("Location")
		}
		// colly replaces Request.URL only when the client followed a
		// redirect.
		if r.Request.URL != j.sent {
			j.redirected = true
			j.final = r.Request.URL
		}
		if mt := mediaType(j.ctype, nil); mt != "" && !isHTML(mt) {
			// Only HTML is parsed: do not download the rest.
			j.skipBody = true
			r.Request.Abort()
		}
	})
	col.OnResponse(func(r *colly.Response) {
		if j, ok := r.Ctx.GetAny(jobKey).(*job); ok {
			j.body = r.Body
			j.gotBody = true
		}
		if len(r.Body) > collectAfterBody {
			// colly read the body into a buffer it grew by doubling:
			// as much garbage again as the body, which the parse that
			// follows would otherwise add to.
			runtime.GC()
		}
	})
	return f
}

// collectAfterBody is the size of a body past which the garbage of its read
// is collected before the page is parsed: a 10 MiB page of links then peaks
// at 129–136 MB for the whole crawl instead of 137–158 MB (docs/reliability.md).
// Bodies that large are rare, and a collection of the crawl's heap takes
// milliseconds.
const collectAfterBody = 4 << 20

// RedirectChainError is a redirect chain cut at the crawl's bound
// ([MaxRedirects]): the URLs it went through, the first the one asked for,
// and the next hop, not followed.
type RedirectChainError struct {
	Chain []string
	Next  string
}

func newRedirectChainError(via []*http.Request, next *url.URL) *RedirectChainError {
	e := &RedirectChainError{Next: next.String()}
	for _, r := range via {
		e.Chain = append(e.Chain, r.URL.String())
	}
	return e
}

func (e *RedirectChainError) Error() string {
	return fmt.Sprintf("redirect chain cut after %d hops (the bound): %s, not followed to %s",
		len(e.Chain)-1, strings.Join(e.Chain, " → "), e.Next)
}

// redirectDone returns the normalised target of a redirect to target when
// the crawl already has that page and it is not asked, the URL the fetch
// began with (sites redirect to the page asked for to set a cookie); it
// returns "" when the redirect is to be followed.
func (f *fetcher) redirectDone(target, asked *url.URL) string {
	t, err := sites.Parse(target.String())
	if err != nil {
		return "" // followed, and then classified as before
	}
	sites.StripTracking(t)
	n := t.String()
	if a, err := sites.Parse(asked.String()); err == nil && a.String() == n {
		return ""
	}
	if !f.done(n) {
		return ""
	}
	return n
}

// setHeaders sets the headers that say who is crawling.
func (f *fetcher) setHeaders(h http.Header) {
	h.Set("User-Agent", f.userAgent)
	if f.from != "" {
		h.Set("From", f.from)
	}
}

// close releases the idle connections of the crawl.
func (f *fetcher) close() { f.transport.CloseIdleConnections() }

// fetch GETs u (a normalised URL) if its host's robots.txt allows it, and
// classifies the outcome.
func (f *fetcher) fetch(ctx context.Context, u string) fetchResult {
	pu := mustParse(u)
	if err := f.guard.checkURL(pu); err != nil {
		return fetchResult{kind: fetchRefused, err: err, at: f.clock.Now()}
	}
	chk := f.robots(ctx, pu)
	switch {
	case ctx.Err() != nil:
		return fetchResult{kind: fetchAborted}
	case errors.As(chk.err, new(*RefusedError)):
		return fetchResult{kind: fetchRefused, err: chk.err, at: f.clock.Now()}
	case chk.err != nil:
		return fetchResult{kind: fetchFailed, err: chk.err, at: f.clock.Now(), robotsFetched: true}
	}
	if chk.delay > 0 && chk.verdict != robotsSlow {
		f.pacer.raise(f.rule.OfURL(pu), chk.delay)
	}
	switch chk.verdict {
	case robotsDisallow:
		return fetchResult{kind: fetchDisallowed, err: errors.New(chk.why), at: f.clock.Now(), robotsFetched: chk.fetched}
	case robotsWait:
		return fetchResult{kind: fetchRobotsWait, err: errors.New(chk.why), at: f.clock.Now(), retryAt: chk.retryAt, robotsFetched: chk.fetched}
	case robotsSlow:
		return fetchResult{kind: fetchSlow, err: errors.New(chk.why), at: f.clock.Now(), robotsFetched: chk.fetched}
	}
	r := f.get(ctx, u)
	r.robotsFetched = chk.fetched
	return r
}

// get GETs u (a normalised URL) and classifies the outcome.
func (f *fetcher) get(ctx context.Context, u string) fetchResult {
	j := &job{}
	cctx := colly.NewContext()
	cctx.Put(jobKey, j)
	err := f.col.Request(http.MethodGet, u, nil, cctx, nil)

	complete := j.headers && (j.gotBody || j.skipBody)
	switch {
	case ctx.Err() != nil && !complete:
		return fetchResult{kind: fetchAborted}
	case errors.As(err, new(*RefusedError)):
		return fetchResult{kind: fetchRefused, err: err, at: f.clock.Now()}
	case !j.headers && err == nil:
		// OnRequest aborted it: the crawl is being cancelled.
		return fetchResult{kind: fetchAborted}
	case !j.headers:
		return fetchResult{kind: fetchFailed, err: err, at: f.clock.Now()}
	}

	r := fetchResult{kind: fetchedPage, status: j.status, at: j.at, retryAfter: parseRetryAfter(j.retryAfter, j.at)}
	if j.skipBody && errors.Is(err, colly.ErrAbortedAfterHeaders) {
		err = nil
	}
	r.err = err
	r.page = mustParse(u)
	if j.redirected && j.final != nil {
		// A redirect can only lead to http(s); should it not parse, the
		// page stays under the URL asked for.
		// Its tracking parameters go, as a link's do: a shortener's
		// redirect to "/story?utm_source=…" is the page "/story".
		if fu, perr := sites.Parse(j.final.String()); perr == nil {
			sites.StripTracking(fu)
			r.final, r.page = fu, fu
		}
	}
	body := j.body
	if !j.gotBody {
		body = nil
	}
	r.size = len(body)
	if j.location != "" {
		// A 3xx as the last response: the redirect handler stopped at a
		// page the crawl has (or the chain was too long).
		if loc, lerr := r.page.Parse(j.location); lerr == nil {
			if n := f.redirectDone(loc, r.page); n != "" && n != u {
				return fetchResult{kind: fetchRedirectDone, redirect: n}
			}
		}
	}
	r.mediaType = mediaType(j.ctype, body)
	r.html = isHTML(r.mediaType) && j.gotBody
	if r.html {
		r.body = toUTF8(body, j.ctype)
	}
	return r
}

// errClass sorts the error of a fetch that got no response into the
// classes crawl operators read (sites.ErrDNS …), from the error's type
// rather than its message.
func errClass(err error) string {
	var dnsErr *net.DNSError
	var netErr net.Error
	var certErr *tls.CertificateVerificationError
	var recordErr tls.RecordHeaderError
	var unknownAuth x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var invalidCert x509.CertificateInvalidError
	switch {
	case errors.As(err, new(*RedirectChainError)):
		return sites.ErrRedirectChain
	case errors.As(err, &dnsErr):
		return sites.ErrDNS
	case errors.As(err, &certErr), errors.As(err, &recordErr), errors.As(err, &unknownAuth),
		errors.As(err, &hostErr), errors.As(err, &invalidCert):
		return sites.ErrTLS
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, ErrTooSlow), errors.As(err, &netErr) && netErr.Timeout():
		return sites.ErrTimeout
	case errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.ECONNABORTED),
		errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH), errors.Is(err, io.EOF),
		errors.Is(err, io.ErrUnexpectedEOF):
		return sites.ErrConnect
	}
	return sites.ErrOther
}

// pageClass is the class of a fetch that got a response: "" for a page
// fetched fine, else the class of its error status or of its broken body.
func pageClass(status int, bodyErr error) string {
	switch {
	case status >= 500:
		return sites.ErrHTTP5xx
	case status >= 400:
		return sites.ErrHTTP4xx
	case bodyErr != nil:
		return sites.ErrIncomplete
	}
	return ""
}

// parseRetryAfter reads a Retry-After header (RFC 9110 §10.2.3): seconds, or
// an HTTP date; 0 when absent, malformed or past.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil {
		if s <= 0 {
			return 0
		}
		return time.Duration(min(s, 1<<20)) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}
