package crawl

import (
	"context"
	"fmt"
	"html"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"sitesift/sites"
)

// resp is a fixture response.
type resp struct {
	status     int // 200 when 0
	ctype      string
	body       string
	location   string        // Location header, for redirects
	retryAfter string        // Retry-After header
	sleep      time.Duration // before answering
}

// web is a fixture web of virtual hosts ("a.test", "b.test", ...) served by
// one httptest server that the crawler reaches as its HTTP proxy. It logs
// every request and the number of requests in flight.
type web struct {
	srv *httptest.Server
	// clock, when set, is the crawl's clock ([crawl] passes it on): the
	// requests are logged at its times, those the crawl scheduled.
	clock Clock

	mu          sync.Mutex
	hosts       map[string]map[string]resp // host → path (with query) → response
	seqs        map[string][]resp          // host + path → responses in turn (see sequence)
	hits        []hit
	inflight    int
	maxInflight int
}

type hit struct {
	host, path string
	at         time.Time
}

func newWeb(t *testing.T, hosts map[string]map[string]resp) *web {
	t.Helper()
	w := &web{hosts: hosts}
	w.srv = httptest.NewServer(http.HandlerFunc(w.serve))
	t.Cleanup(w.srv.Close)
	return w
}

// newWebOnClock returns a web whose crawls run on a stepClock: their
// schedule takes no time, and the requests are logged at the times it set.
func newWebOnClock(t *testing.T, hosts map[string]map[string]resp) *web {
	t.Helper()
	w := newWeb(t, hosts)
	w.clock = newStepClock(at2026)
	return w
}

func (w *web) serve(rw http.ResponseWriter, r *http.Request) {
	// Through a proxy the request line holds the absolute URL.
	host := r.Host
	if r.URL.IsAbs() {
		host = r.URL.Host
	}
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	path := r.URL.RequestURI()

	at := time.Now()
	if w.clock != nil {
		at = w.clock.Now()
	}
	w.mu.Lock()
	w.hits = append(w.hits, hit{host: host, path: path, at: at})
	w.inflight++
	w.maxInflight = max(w.maxInflight, w.inflight)
	site, known := w.hosts[host]
	p, ok := site[path]
	if seq := w.seqs[host+path]; len(seq) > 0 {
		n := 0
		for _, h := range w.hits {
			if h.host == host && h.path == path {
				n++
			}
		}
		p, ok = seq[min(n, len(seq))-1], true
	}
	w.mu.Unlock()
	defer func() {
		w.mu.Lock()
		w.inflight--
		w.mu.Unlock()
	}()

	switch {
	case !known:
		// What a proxy answers for a host that does not resolve.
		http.Error(rw, "no such host "+host, http.StatusBadGateway)
		return
	case !ok && path == "/robots.txt":
		http.NotFound(rw, r)
		return
	case !ok:
		p = resp{status: http.StatusNotFound, body: page("Not found")}
	}
	if p.sleep > 0 {
		select {
		case <-time.After(p.sleep):
		case <-r.Context().Done():
			return
		}
	}
	if p.location != "" {
		rw.Header().Set("Location", p.location)
	}
	if p.retryAfter != "" {
		rw.Header().Set("Retry-After", p.retryAfter)
	}
	ct := p.ctype
	if ct == "" && p.location == "" {
		ct = "text/html; charset=utf-8"
	}
	if ct != "" {
		rw.Header().Set("Content-Type", ct)
	}
	st := p.status
	if st == 0 {
		st = http.StatusOK
		if p.location != "" {
			st = http.StatusFound
		}
	}
	rw.WriteHeader(st)
	fmt.Fprint(rw, p.body)
}

// sequence makes the server answer the requests for host and path with rs
// in turn, the last one from then on.
func (w *web) sequence(host, path string, rs ...resp) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.seqs == nil {
		w.seqs = map[string][]resp{}
	}
	w.seqs[host+path] = rs
}

// times returns when the server saw the requests for host and path.
func (w *web) times(host, path string) []time.Time {
	var out []time.Time
	for _, h := range w.requests() {
		if h.host == host && h.path == path {
			out = append(out, h.at)
		}
	}
	return out
}

// requests returns the requests the server saw, in order.
func (w *web) requests() []hit {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.hits)
}

func (w *web) count(host, path string) int {
	n := 0
	for _, h := range w.requests() {
		if h.host == host && h.path == path {
			n++
		}
	}
	return n
}

// page returns an HTML page with the given title and links.
func page(title string, links ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<!doctype html><html><head><title>%s</title></head><body><h1>%s</h1>\n",
		html.EscapeString(title), html.EscapeString(title))
	for _, l := range links {
		fmt.Fprintf(&b, "<a href=\"%s\">link</a>\n", html.EscapeString(l))
	}
	b.WriteString("</body></html>")
	return b.String()
}

// result is what a crawl handed to its batch function.
type result struct {
	pages   []sites.Page
	batches [][]sites.Page
	states  [][]sites.SiteState
	err     error
	status  Status
	c       *Crawler
}

func (r *result) byURL(u string) (sites.Page, bool) {
	for _, p := range r.pages {
		if p.URL == u {
			return p, true
		}
	}
	return sites.Page{}, false
}

func (r *result) urls() []string {
	var out []string
	for _, p := range r.pages {
		if p.Err == "" || p.Status != 0 {
			out = append(out, p.URL)
		}
	}
	return out
}

// recorder returns an OnBatch option that fills r.
func (r *result) recorder() Option {
	var mu sync.Mutex // OnBatch is called from one goroutine at a time; the lock makes that checkable by -race
	return OnBatch(func(ctx context.Context, pages []sites.Page, states []sites.SiteState) error {
		mu.Lock()
		defer mu.Unlock()
		r.pages = append(r.pages, pages...)
		r.batches = append(r.batches, slices.Clone(pages))
		r.states = append(r.states, slices.Clone(states))
		return nil
	})
}

// hangTimeout is how long a test waits for what should happen at once
// before it calls it a hang: long enough for the busiest machine.
const hangTimeout = 60 * time.Second

// forever is the sleep of a page that never answers: the request ends
// only when the crawl gives it up.
const forever = 24 * time.Hour

// crawl runs a crawl of w from seeds through w as proxy and returns what it
// produced.
func crawl(t *testing.T, w *web, seeds []string, opts ...Option) *result {
	t.Helper()
	r := &result{}
	all := []Option{Proxy(w.srv.URL), Delay(0), RetryBackoff(10 * time.Millisecond), r.recorder(), FlushInterval(20 * time.Millisecond)}
	if w.clock != nil {
		all = append(all, WithClock(w.clock))
	}
	all = append(all, opts...)
	c, err := New(all...)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	r.c = c
	// Only a crawl that hangs takes this long, even on a busy machine.
	ctx, cancel := context.WithTimeout(context.Background(), hangTimeout)
	defer cancel()
	r.err = c.Run(ctx, seeds)
	r.status = c.Status()
	return r
}

// checkCash fails unless the cash of every batch's states sums to 1.
func checkCash(t *testing.T, r *result) {
	t.Helper()
	if len(r.states) == 0 {
		t.Fatal("no batch")
	}
	for i, st := range r.states {
		var sum float64
		for _, s := range st {
			sum += s.Cash
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Errorf("batch %d: total cash %v, want 1", i, sum)
		}
	}
}
