package crawl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"sync"
	"time"

	"sitesift/sites"
)

// maxRetries is how many times a fetch that failed for a passing reason
// (see transient), or a robots.txt that could not be read, is tried again
// before its last outcome stands.
const maxRetries = 3

// maxRobotsRedirects is how many redirects of a robots.txt are followed:
// the five RFC 9309 §2.3.1.2 asks for. After more, the file counts as
// unavailable.
const maxRobotsRedirects = 5

// robotsState is what the crawl knows of one host's robots.txt.
type robotsState int

const (
	robotsUnknown     robotsState = iota // not fetched yet
	robotsRead                           // fetched (or unavailable: no rules)
	robotsUnreachable                    // 5xx, 429 or no answer: the host is closed until retryAt
	robotsGaveUp                         // unreachable maxRetries+1 times: closed for this crawl
)

// robotsHost is the robots.txt of one scheme://host:port.
type robotsHost struct {
	state   robotsState
	policy  robotsPolicy
	tries   int       // fetches that found it unreachable
	retryAt time.Time // robotsUnreachable: when to fetch it again
	why     string    // robotsUnreachable, robotsGaveUp: the last failure
}

// robotsCache holds the robots.txt of every host the crawl met. A host
// belongs to one site and a site has one fetch in flight, so no two
// goroutines fetch one host's file at once; the mutex guards the map.
type robotsCache struct {
	mu    sync.Mutex
	hosts map[string]*robotsHost
}

func newRobotsCache() *robotsCache { return &robotsCache{hosts: map[string]*robotsHost{}} }

func (rc *robotsCache) host(key string) *robotsHost {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	h := rc.hosts[key]
	if h == nil {
		h = &robotsHost{}
		rc.hosts[key] = h
	}
	return h
}

// robotsVerdict is what robots.txt says of one URL.
type robotsVerdict int

const (
	robotsAllow    robotsVerdict = iota
	robotsDisallow               // a rule forbids it, or the file stayed unreachable
	robotsWait                   // the file is unreachable for now: try again at retryAt
	robotsSlow                   // its Crawl-delay is over the cap
)

// robotsCheck is the answer of fetcher.robots.
type robotsCheck struct {
	verdict robotsVerdict
	delay   time.Duration // the Crawl-delay for us, when allowed or slow
	retryAt time.Time     // robotsWait
	fetched bool          // robots.txt was fetched (again) for this check
	why     string        // robotsDisallow after giving up, robotsWait, robotsSlow
	err     error         // robots.txt got no answer: the host is unreachable
}

// robots checks u against its host's robots.txt, fetching the file first
// when the crawl has not read it or its retry is due. An unreachable file
// (5xx, 429) closes the host (RFC 9309 §2.3.1.4) and is fetched again after
// a backoff, maxRetries times at most; then the host is given up for this
// crawl. When the file got no answer at all, chk.err says why.
func (f *fetcher) robots(ctx context.Context, u *url.URL) robotsCheck {
	h := f.robotsCache.host(u.Scheme + "://" + u.Host)
	var chk robotsCheck
	if h.state == robotsUnknown || h.state == robotsUnreachable && !f.clock.Now().Before(h.retryAt) {
		chk.fetched = true
		if chk.err = f.readRobots(ctx, u, h); chk.err != nil {
			return chk
		}
	}
	switch h.state {
	case robotsUnreachable:
		chk.verdict, chk.retryAt, chk.why = robotsWait, h.retryAt, h.why
	case robotsGaveUp:
		chk.verdict, chk.why = robotsDisallow, h.why
	default:
		chk.delay = h.policy.delay
		switch {
		case h.policy.delay > f.maxDelay:
			chk.verdict = robotsSlow
			chk.why = fmt.Sprintf("robots.txt asks for a Crawl-delay of %v, over the cap of %v", h.policy.delay, f.maxDelay)
		case !h.policy.allows(robotsPath(u.EscapedPath() + queryPart(u))):
			chk.verdict = robotsDisallow
			chk.why = "disallowed by robots.txt"
		}
	}
	return chk
}

func queryPart(u *url.URL) string {
	if u.RawQuery == "" {
		return ""
	}
	return "?" + u.RawQuery
}

// readRobots fetches the robots.txt of u's host into h. It returns the
// error of a fetch that got no answer, which leaves h unknown: the host
// could not be reached, which says nothing of its robots.txt, and the URL
// fails as its own fetch would (retried as one if the failure may pass). A
// cancelled crawl leaves h as it was too.
func (f *fetcher) readRobots(ctx context.Context, u *url.URL, h *robotsHost) error {
	status, body, retryAfter, err := f.getRobots(ctx, u)
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		return err
	case status >= 200 && status < 300:
		h.state, h.policy = robotsRead, parseRobots(body).policy(f.token)
	case status >= 300 && status < 500 && status != http.StatusTooManyRequests:
		// Unavailable (§2.3.1.3): no rules. 429 asks the crawler to slow
		// down, so it counts as unreachable below.
		h.state, h.policy = robotsRead, allowAll
	default:
		h.tries++
		h.why = fmt.Sprintf("robots.txt unreachable: %d %s", status, http.StatusText(status))
		if h.tries > maxRetries {
			h.state = robotsGaveUp
			h.why += fmt.Sprintf(" (%d tries)", h.tries)
			return nil
		}
		h.state = robotsUnreachable
		h.retryAt = f.clock.Now().Add(f.retryWait(f.rule.OfURL(u), h.tries, retryAfter))
	}
	return nil
}

// getRobots GETs the robots.txt of u's host, through the crawl's paced
// transport (so it is paced, capped at MaxRobotsSize and guarded), following
// maxRobotsRedirects redirects. It returns the status of the last answer
// (3xx when there were too many redirects) and up to MaxRobotsSize bytes of
// its body; a body cut short is parsed as far as it was read.
func (f *fetcher) getRobots(ctx context.Context, u *url.URL) (status int, body []byte, retryAfter time.Duration, err error) {
	ru := &url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/robots.txt"}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, ru.String(), nil)
	if err != nil {
		return 0, nil, 0, err
	}
	f.setHeaders(req.Header)
	resp, err := f.robotsClient.Do(req)
	if err != nil {
		return 0, nil, 0, err
	}
	defer resp.Body.Close()
	body, rerr := io.ReadAll(resp.Body)
	if rerr != nil && resp.StatusCode >= 200 && resp.StatusCode < 300 && len(body) == 0 {
		return 0, nil, 0, rerr
	}
	return resp.StatusCode, body, parseRetryAfter(resp.Header.Get("Retry-After"), f.clock.Now()), nil
}

// errText is an error's message without net/http's "Get URL:" prefix.
func errText(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}

// transient reports whether a fetch failed for a reason that may pass — a
// timeout, a connection refused or reset, a 5xx or a 429 — so that it is
// worth trying again.
func transient(r fetchResult) bool {
	switch r.kind {
	case fetchFailed:
		c := errClass(r.err)
		return c == sites.ErrTimeout || c == sites.ErrConnect
	case fetchedPage:
		return r.status >= 500 || r.status == http.StatusTooManyRequests
	}
	return false
}

// retryWait is how long site waits before try number try+1 (try ≥ 1): the
// backoff base doubled at each try, times how much the site's delay has
// grown over the configured one, with ±25% jitter so that sites that failed
// together do not come back together — or the site's Retry-After, capped
// at the max delay, when that is longer.
func (f *fetcher) retryWait(site string, try int, retryAfter time.Duration) time.Duration {
	scale := 1.0
	if base := f.pacer.delay; base > 0 {
		scale = max(1, float64(f.pacer.delayOf(site))/float64(base))
	}
	d := time.Duration(float64(f.backoff) * float64(int(1)<<min(try-1, 20)) * scale * (0.75 + 0.5*rand.Float64()))
	return max(d, min(retryAfter, f.maxDelay))
}
