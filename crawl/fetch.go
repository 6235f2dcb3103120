package crawl

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"syscall"
	"time"

	"github.com/gocolly/colly/v2"

	"sitesift/sites"
)

// fetcher fetches one URL at a time per call with colly. colly is used as an
// HTTP client that knows robots.txt, redirects, body limits and charsets; the
// crawler keeps its own frontier, so colly's queue, visited set and link
// following are not used.
type fetcher struct {
	col       *colly.Collector
	transport *http.Transport
	// done reports whether the crawl already has the page at a normalised
	// URL, fetched or being fetched.
	done  func(u string) bool
	guard *guard
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
	skipBody   bool // not HTML: the body was not downloaded
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
}

// errMessage returns the message of r.err without the "Get URL:" prefix of
// net/http, since messages are shown after the URL.
func (r fetchResult) errMessage() string {
	if r.err == nil {
		return ""
	}
	var ue *url.Error
	if errors.As(r.err, &ue) {
		return ue.Err.Error()
	}
	return r.err.Error()
}

// parse extracts title, text and links of an HTML result.
func (r fetchResult) parse() document {
	doc, err := parseHTML(r.body, r.page, MaxTextSize)
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
	col.IgnoreRobotsTxt = false
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
	col.WithTransport(&pacedTransport{next: newCaptureTransport(c, tr), pacer: c.pacer, ctx: ctx, maxBody: cfg.maxBodySize})
	f := &fetcher{col: col, transport: tr, done: c.isDone, guard: c.guard}
	// A redirect to a page the crawl already has is not followed: the page
	// would not be recorded twice anyway, and not asking for it spares the
	// site a request. It matters most when a crawl resumes, since the store
	// keeps pages under their final URL and so the URLs that redirect to
	// them come back in the frontier. Set after WithTransport, and it
	// overrides COLLY_FOLLOW_REDIRECTS.
	col.SetRedirectHandler(func(req *http.Request, via []*http.Request) error {
		if len(via) >= 10 { // net/http's limit, which colly's own handler keeps
			return http.ErrUseLastResponse
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
		j.at = time.Now()
		j.status = r.StatusCode
		j.ctype = r.Headers.Get("Content-Type")
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
	})
	return f
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
	n := t.String()
	if a, err := sites.Parse(asked.String()); err == nil && a.String() == n {
		return ""
	}
	if !f.done(n) {
		return ""
	}
	return n
}

// close releases the idle connections of the crawl.
func (f *fetcher) close() { f.transport.CloseIdleConnections() }

// fetch GETs u (a normalised URL) and classifies the outcome.
func (f *fetcher) fetch(ctx context.Context, u string) fetchResult {
	if err := f.guard.checkURL(mustParse(u)); err != nil {
		return fetchResult{kind: fetchRefused, err: err, at: time.Now()}
	}
	j := &job{}
	cctx := colly.NewContext()
	cctx.Put(jobKey, j)
	err := f.col.Request(http.MethodGet, u, nil, cctx, nil)

	complete := j.headers && (j.gotBody || j.skipBody)
	switch {
	case ctx.Err() != nil && !complete:
		return fetchResult{kind: fetchAborted}
	case errors.Is(err, colly.ErrRobotsTxtBlocked):
		return fetchResult{kind: fetchDisallowed, at: time.Now()}
	case errors.As(err, new(*RefusedError)):
		return fetchResult{kind: fetchRefused, err: err, at: time.Now()}
	case !j.headers && err == nil:
		// OnRequest aborted it: the crawl is being cancelled.
		return fetchResult{kind: fetchAborted}
	case !j.headers:
		return fetchResult{kind: fetchFailed, err: err, at: time.Now()}
	}

	r := fetchResult{kind: fetchedPage, status: j.status, at: j.at}
	if j.skipBody && errors.Is(err, colly.ErrAbortedAfterHeaders) {
		err = nil
	}
	r.err = err
	r.page = mustParse(u)
	if j.redirected && j.final != nil {
		// A redirect can only lead to http(s); should it not parse, the
		// page stays under the URL asked for.
		if fu, perr := sites.Parse(j.final.String()); perr == nil {
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
	case errors.As(err, &dnsErr):
		return sites.ErrDNS
	case errors.As(err, &certErr), errors.As(err, &recordErr), errors.As(err, &unknownAuth),
		errors.As(err, &hostErr), errors.As(err, &invalidCert):
		return sites.ErrTLS
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
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
