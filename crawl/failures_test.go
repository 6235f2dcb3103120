package crawl

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"sitesift/sites"
)

func TestErrClass(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&net.DNSError{Err: "no such host", Name: "x.invalid", IsNotFound: true}, sites.ErrDNS},
		{&net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}, sites.ErrConnect},
		{fmt.Errorf("read: %w", syscall.ECONNRESET), sites.ErrConnect},
		{context.DeadlineExceeded, sites.ErrTimeout},
		{&net.OpError{Op: "dial", Net: "tcp", Err: timeoutErr{}}, sites.ErrTimeout},
		{fmt.Errorf("get: %w", x509.UnknownAuthorityError{}), sites.ErrTLS},
		{errors.New("something else"), sites.ErrOther},
	} {
		if got := errClass(tc.err); got != tc.want {
			t.Errorf("errClass(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
	for _, tc := range []struct {
		status int
		body   error
		want   string
	}{{200, nil, ""}, {301, nil, ""}, {404, nil, sites.ErrHTTP4xx}, {503, nil, sites.ErrHTTP5xx},
		{200, errors.New("unexpected EOF"), sites.ErrIncomplete}, {410, errors.New("x"), sites.ErrHTTP4xx}} {
		if got := pageClass(tc.status, tc.body); got != tc.want {
			t.Errorf("pageClass(%d, %v) = %q, want %q", tc.status, tc.body, got, tc.want)
		}
	}
}

type timeoutErr struct{}

func (timeoutErr) Error() string   { return "i/o timeout" }
func (timeoutErr) Timeout() bool   { return true }
func (timeoutErr) Temporary() bool { return true }

// TestCrawlRecordsFailures: every fetch that gave no page is recorded with
// its class — an error status, a URL robots.txt refuses, a host the proxy
// cannot reach — counted by class, and not counted as a page fetched fine.
func TestCrawlRecordsFailures(t *testing.T) {
	w := newWeb(t, map[string]map[string]resp{
		"a.test": {
			"/":           {body: page("Home", "/missing", "/boom", "/private/x", "http://gone.test/")},
			"/boom":       {status: 500, body: "boom"},
			"/robots.txt": {ctype: "text/plain", body: "User-agent: *\nDisallow: /private\n"},
		},
	})
	r := crawl(t, w, []string{"http://a.test/"})
	if r.err != nil {
		t.Fatal(r.err)
	}
	want := map[string]string{
		"http://a.test/": "", "http://a.test/missing": sites.ErrHTTP4xx, "http://a.test/boom": sites.ErrHTTP5xx,
		// The proxy answers 502 for robots.txt too: unreachable, so the
		// site stays closed (RFC 9309 §2.3.1.4) until the crawl gives up.
		"http://a.test/private/x": sites.ErrRobots, "http://gone.test/": sites.ErrRobots,
	}
	for u, class := range want {
		p, ok := r.byURL(u)
		if !ok {
			t.Errorf("%s not recorded", u)
			continue
		}
		if p.ErrClass != class {
			t.Errorf("%s: class %q, want %q (status %d, err %q)", u, p.ErrClass, class, p.Status, p.Err)
		}
	}
	if w.count("a.test", "/private/x") != 0 {
		t.Error("a URL robots.txt disallows was fetched")
	}
	st := r.status
	wantByClass := map[string]int{sites.ErrHTTP4xx: 1, sites.ErrHTTP5xx: 1, sites.ErrRobots: 2}
	if st.PagesOK != 1 || fmt.Sprint(st.ErrorsByClass) != fmt.Sprint(wantByClass) || st.EndReason != EndExhausted {
		t.Errorf("status: %d pages fine, errors %v, end %q; want 1, %v, %q", st.PagesOK, st.ErrorsByClass, st.EndReason,
			wantByClass, EndExhausted)
	}
}

// TestCrawlEndReasons: a crawl says why it ended — every seed failed (here
// a closed port: connection refused), the page cap, nothing left.
func TestCrawlEndReasons(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() + "/"
	ln.Close()
	r := &result{}
	c, err := New(Delay(0), RetryBackoff(time.Millisecond), r.recorder(), FlushInterval(20*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hangTimeout)
	defer cancel()
	if err := c.Run(ctx, []string{closed}); err != nil {
		t.Fatal(err)
	}
	st := c.Status()
	if st.EndReason != EndSeedsFailed || st.ErrorsByClass[sites.ErrConnect] != 1 || st.PagesOK != 0 || st.Retries != maxRetries {
		t.Errorf("a seed on a closed port: %+v; want seeds-failed with one connect error after %d retries", st, maxRetries)
	}
	if p, ok := r.byURL(closed); !ok || p.ErrClass != sites.ErrConnect || p.Err == "" {
		t.Errorf("the failed seed was recorded as %+v, %v", p, ok)
	}

	w := newWeb(t, map[string]map[string]resp{
		"a.test": {"/": {body: page("Home", "/1", "/2", "/3")}, "/1": {body: page("1")}, "/2": {body: page("2")}, "/3": {body: page("3")}},
	})
	if st := crawl(t, w, []string{"http://a.test/"}, MaxPages(2)).status; st.EndReason != EndLimit {
		t.Errorf("a crawl capped at 2 of 4 pages ended %q, want %q", st.EndReason, EndLimit)
	}
	if st := crawl(t, w, []string{"http://a.test/"}).status; st.EndReason != EndExhausted || st.PagesOK != 4 {
		t.Errorf("a crawl of all 4 pages ended %q with %d pages, want %q with 4", st.EndReason, st.PagesOK, EndExhausted)
	}
}

// TestTruncatedBody: a page over MaxBodySize is kept, cut, and flagged.
func TestTruncatedBody(t *testing.T) {
	big := "<html><head><title>Big</title></head><body>" + strings.Repeat("<p>words</p>", 5000) + "</body></html>"
	w := newWeb(t, map[string]map[string]resp{"a.test": {"/": {body: big}}})
	r := crawl(t, w, []string{"http://a.test/"}, MaxBodySize(10_000))
	p, ok := r.byURL("http://a.test/")
	if r.err != nil || !ok || p.ErrClass != "" || p.Size != 10_000 || !strings.HasPrefix(p.Err, "body truncated at 10000 bytes") ||
		p.Title != "Big" || r.status.Truncated != 1 || r.status.PagesOK != 1 {
		t.Errorf("a page over the cap: %+v (size %d), status %+v, %v", p.Err, p.Size, r.status, r.err)
	}
}

// TestMinTransferRate: a server that drips its page cannot hold a fetch
// slot: once the grace is over, a body slower than the least rate ends.
func TestMinTransferRate(t *testing.T) {
	drip := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		f := w.(http.Flusher)
		for i := 0; i < 100 && r.Context().Err() == nil; i++ {
			w.Write([]byte("."))
			f.Flush()
			time.Sleep(20 * time.Millisecond)
		}
	}))
	defer drip.Close()
	grace := func(c *config) error { c.rateGrace = 200 * time.Millisecond; return nil }
	c, err := New(Delay(0), MinTransferRate(1000), grace, FlushInterval(20*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(context.Background(), []string{drip.URL + "/"}); err != nil {
		t.Fatal(err)
	}
	// Whole, the page would come in 2s and be fine: it is cut, and says why.
	st := c.Status()
	if st.ErrorsByClass[sites.ErrIncomplete] != 1 || !strings.Contains(st.LastError, ErrTooSlow.Error()) {
		t.Errorf("a dripping page: errors %v, last error %q; want it cut as too slow, incomplete", st.ErrorsByClass, st.LastError)
	}
}

// TestRateBody: during the grace a body may come at any pace; after it,
// the first read that leaves the average under the least rate fails with
// ErrTooSlow. The reads come at the times of a fake clock, 10 bytes each.
func TestRateBody(t *testing.T) {
	const s = time.Second
	for _, tc := range []struct {
		name  string
		reads []time.Duration // when each read returns
		fails int             // the read that fails, -1 for none
	}{
		{"slow within the grace", []time.Duration{1 * s, 5 * s}, -1},
		{"slow after the grace", []time.Duration{1 * s, 5*s + time.Millisecond}, 1},
		{"at the least rate", []time.Duration{1 * s, 2 * s, 3 * s, 4 * s, 5 * s, 6 * s, 7 * s, 8 * s}, -1},
		{"falls behind", []time.Duration{1 * s, 2 * s, 3 * s, 4 * s, 5 * s, 6 * s, 8 * s}, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			now := at2026
			b := &rateBody{ReadCloser: io.NopCloser(strings.NewReader(strings.Repeat("x", 1000))), min: 10, grace: 5 * s,
				now: func() time.Time { return now }, start: at2026}
			buf := make([]byte, 10)
			for i, at := range tc.reads {
				now = at2026.Add(at)
				_, err := b.Read(buf)
				if want := i == tc.fails; errors.Is(err, ErrTooSlow) != want || !want && err != nil {
					t.Errorf("read %d at %v: %v, want too slow %v", i, at, err, want)
				}
			}
		})
	}
}
