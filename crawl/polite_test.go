package crawl

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"sitesift/sites"
)

func TestRobotsPolicy(t *testing.T) {
	const mixed = `# groups in any order
User-agent: *
Disallow: /

user-agent: SiteSift/2.0
Disallow: /private
Allow: /private/open
Crawl-delay: 1.5

User-agent: site
Disallow: /site-only
`
	tests := []struct {
		name, robots, token, path string
		allow                     bool
	}{
		{"our group over *", mixed, "sitesift", "/", true},
		{"our group's rule", mixed, "sitesift", "/private/x", false},
		{"longest match wins", mixed, "sitesift", "/private/open/y", true},
		{"a prefix of our name is not our name", mixed, "sitesift", "/site-only", true},
		{"others get *", mixed, "otherbot", "/", false},
		{"no group: no rules", "User-agent: otherbot\nDisallow: /\n", "sitesift", "/x", true},
		{"rules before any user-agent are ignored", "Disallow: /\n", "sitesift", "/x", true},
		{"groups naming us are merged", "User-agent: sitesift\nDisallow: /a\n\nUser-agent: sitesift\nDisallow: /b\n", "sitesift", "/b", false},
		{"one group for consecutive agents", "User-agent: x\nUser-agent: sitesift\nDisallow: /a\n", "sitesift", "/a/b", false},
		{"allow wins a tie", "User-agent: *\nDisallow: /a\nAllow: /a\n", "sitesift", "/a", true},
		{"empty disallow allows all", "User-agent: *\nDisallow:\n", "sitesift", "/x", true},
		{"star", "User-agent: *\nDisallow: /*.pdf$\n", "sitesift", "/docs/a.pdf", false},
		{"dollar anchors", "User-agent: *\nDisallow: /*.pdf$\n", "sitesift", "/docs/a.pdf?x=1", true},
		{"query", "User-agent: *\nDisallow: /search?\n", "sitesift", "/search?q=1", false},
		{"percent-encoding compared alike", "User-agent: *\nDisallow: /caf%c3%a9\n", "sitesift", robotsPath("/café"), false},
		{"bad lines are skipped", "User-agent: *\nnonsense\nCrawl-delay: soon\nDisallow: /x\n", "sitesift", "/x", false},
		{"robots.txt itself", "User-agent: *\nDisallow: /\n", "sitesift", "/robots.txt", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := parseRobots([]byte(tt.robots)).policy(tt.token).allows(tt.path); got != tt.allow {
				t.Errorf("allows(%q) = %v, want %v", tt.path, got, tt.allow)
			}
		})
	}
	if d := parseRobots([]byte(mixed)).policy("sitesift").delay; d != 1500*time.Millisecond {
		t.Errorf("Crawl-delay %v, want 1.5s", d)
	}
	if got := productToken(DefaultUserAgent); got != "sitesift" {
		t.Errorf("product token %q, want sitesift", got)
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for v, want := range map[string]time.Duration{
		"": 0, "7": 7 * time.Second, "-1": 0, "soon": 0,
		now.Add(90 * time.Second).Format(http.TimeFormat): 90 * time.Second,
		now.Add(-time.Hour).Format(http.TimeFormat):       0,
	} {
		if got := parseRetryAfter(v, now); got != want {
			t.Errorf("parseRetryAfter(%q) = %v, want %v", v, got, want)
		}
	}
}

// A robots.txt that answers 404 sets no rules: every page is fetched.
func TestRobotsNotFoundAllowsAll(t *testing.T) {
	t.Parallel()
	w := newWeb(t, map[string]map[string]resp{"a.test": {
		"/": {body: page("Home", "/private/x")}, "/private/x": {body: page("X")},
		"/robots.txt": {status: http.StatusNotFound, body: "User-agent: *\nDisallow: /\n"},
	}})
	r := crawl(t, w, []string{"http://a.test/"})
	if got := r.urls(); !sameSet(got, []string{"http://a.test/", "http://a.test/private/x"}) {
		t.Errorf("pages %q, want both", got)
	}
}

// A robots.txt that answers 503 closes the site; it is fetched again after
// a backoff, and once it answers the site is crawled by its rules.
func TestRobotsUnreachableThenRecovers(t *testing.T) {
	t.Parallel()
	w := newWeb(t, map[string]map[string]resp{"a.test": {
		"/": {body: page("Home", "/private/x", "/b")}, "/b": {body: page("B")},
	}})
	w.sequence("a.test", "/robots.txt", resp{status: 503}, resp{status: 503},
		resp{ctype: "text/plain", body: "User-agent: *\nDisallow: /private\n"})
	r := crawl(t, w, []string{"http://a.test/"})
	if r.err != nil {
		t.Fatal(r.err)
	}
	if got := r.urls(); !sameSet(got, []string{"http://a.test/", "http://a.test/b"}) {
		t.Errorf("pages %q, want / and /b", got)
	}
	if p, _ := r.byURL("http://a.test/private/x"); p.ErrClass != sites.ErrRobots {
		t.Errorf("/private/x recorded as %+v, want disallowed", p)
	}
	if n := w.count("a.test", "/robots.txt"); n != 3 {
		t.Errorf("robots.txt fetched %d times, want 3", n)
	}
	if n := w.count("a.test", "/"); n != 1 {
		t.Errorf("/ fetched %d times, want once, after robots.txt answered", n)
	}
	if r.status.Retries != 2 {
		t.Errorf("Retries = %d, want 2", r.status.Retries)
	}
}

// A robots.txt that stays unreachable is fetched 1+maxRetries times; then
// the site is given up and its URLs are recorded as refused by robots.txt.
func TestRobotsUnreachableGivesUp(t *testing.T) {
	t.Parallel()
	w := newWeb(t, map[string]map[string]resp{"a.test": {
		"/": {body: page("Home")}, "/robots.txt": {status: 500},
	}})
	r := crawl(t, w, []string{"http://a.test/"})
	if n := w.count("a.test", "/robots.txt"); n != 1+maxRetries {
		t.Errorf("robots.txt fetched %d times, want %d", n, 1+maxRetries)
	}
	if w.count("a.test", "/") != 0 {
		t.Error("a page of a site whose robots.txt is unreachable was fetched")
	}
	if p, ok := r.byURL("http://a.test/"); !ok || p.ErrClass != sites.ErrRobots || p.Err == "" {
		t.Errorf("the seed was recorded as %+v, %v; want refused by robots.txt", p, ok)
	}
}

// A Crawl-delay longer than the configured delay spaces the requests to
// its site; one over the cap keeps the site from being crawled.
func TestCrawlDelay(t *testing.T) {
	t.Parallel()
	const crawlDelay = 400 * time.Millisecond
	w := newWebOnClock(t, map[string]map[string]resp{
		"a.test": {
			"/":           {body: page("Home", "/1", "/2", "http://slow.test/")},
			"/1":          {body: page("1")},
			"/2":          {body: page("2")},
			"/robots.txt": {ctype: "text/plain", body: fmt.Sprintf("User-agent: *\nCrawl-delay: %g\n", crawlDelay.Seconds())},
		},
		"slow.test": {
			"/":           {body: page("Slow")},
			"/robots.txt": {ctype: "text/plain", body: "User-agent: *\nCrawl-delay: 5\n"},
		},
	})
	r := crawl(t, w, []string{"http://a.test/"}, MaxDelay(time.Second))
	if r.err != nil {
		t.Fatal(r.err)
	}
	var at []time.Time
	for _, h := range w.requests() {
		if h.host == "a.test" {
			at = append(at, h.at)
		}
	}
	if len(at) != 4 { // robots.txt and three pages
		t.Fatalf("%d requests to a.test, want 4", len(at))
	}
	for i := 1; i < len(at); i++ {
		if gap := at[i].Sub(at[i-1]); gap < crawlDelay {
			t.Errorf("requests %d and %d to a.test %v apart, want at least the Crawl-delay %v", i-1, i, gap, crawlDelay)
		}
	}
	if n := w.count("slow.test", "/"); n != 0 {
		t.Errorf("slow.test fetched %d times; its Crawl-delay is over the cap", n)
	}
	if p, ok := r.byURL("http://slow.test/"); !ok || p.ErrClass != sites.ErrSlow || p.Err == "" {
		t.Errorf("slow.test recorded as %+v, %v; want class %q", p, ok, sites.ErrSlow)
	}
	if r.status.ErrorsByClass[sites.ErrSlow] != 1 {
		t.Errorf("errors by class %v, want one %s", r.status.ErrorsByClass, sites.ErrSlow)
	}
}

// A 503 with Retry-After is tried again after Retry-After; the site's
// delay doubles; only the final outcome is recorded.
func TestRetryAfter503(t *testing.T) {
	t.Parallel()
	const delay = 100 * time.Millisecond
	w := newWebOnClock(t, map[string]map[string]resp{"a.test": {}})
	w.sequence("a.test", "/", resp{status: 503, body: "busy", retryAfter: "1"}, resp{body: page("Home")})
	r := crawl(t, w, []string{"http://a.test/"}, Delay(delay))
	if r.err != nil {
		t.Fatal(r.err)
	}
	at := w.times("a.test", "/")
	if len(at) != 2 {
		t.Fatalf("/ fetched %d times, want 2", len(at))
	}
	// Retry-After (1s) is longer than the backoff (10 ms, times 5 for the
	// delay the 503 raised to 500 ms, ±25%) and the delay: it is the wait.
	if gap := at[1].Sub(at[0]); gap != time.Second {
		t.Errorf("retried after %v, want Retry-After's 1s", gap)
	}
	if len(r.pages) != 1 || r.pages[0].Status != 200 || r.pages[0].ErrClass != "" {
		t.Errorf("recorded %+v, want the page fetched fine once", r.pages)
	}
	if r.status.Retries != 1 || r.status.Errors != 0 || r.status.PagesOK != 1 {
		t.Errorf("status %+v, want 1 retry, no error, 1 page", r.status)
	}
	if d := r.c.pacer.delayOf("a.test"); d != max(2*delay, minSlowDown) {
		t.Errorf("a.test's delay after a 503 is %v, want it doubled to %v", d, max(2*delay, minSlowDown))
	}
}

// A fetch that keeps failing is tried 1+maxRetries times, then recorded
// with its class; the backoff between the attempts doubles.
func TestRetryGivesUp(t *testing.T) {
	t.Parallel()
	w := newWebOnClock(t, map[string]map[string]resp{"a.test": {"/": {status: 500, body: "boom"}}})
	r := crawl(t, w, []string{"http://a.test/"})
	if n := w.count("a.test", "/"); n != 1+maxRetries {
		t.Errorf("/ fetched %d times, want %d", n, 1+maxRetries)
	}
	if len(r.pages) != 1 || r.pages[0].ErrClass != sites.ErrHTTP5xx || r.pages[0].Status != 500 {
		t.Errorf("recorded %+v, want one 500", r.pages)
	}
	if r.status.Retries != maxRetries || r.status.EndReason != EndSeedsFailed {
		t.Errorf("status %+v, want %d retries and seeds-failed", r.status, maxRetries)
	}
	// On the crawl's clock the retries come when the backoff says: 10 ms
	// (the tests' RetryBackoff), 20 ms, 40 ms, each ±25%.
	at := w.times("a.test", "/")
	for i := 1; i < len(at); i++ {
		backoff := 10 * time.Millisecond << (i - 1)
		if gap := at[i].Sub(at[i-1]); gap < backoff*3/4 || gap > backoff*5/4 {
			t.Errorf("retry %d came %v after the try before, want %v ±25%%", i, gap, backoff)
		}
	}
}
