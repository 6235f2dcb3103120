package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"sitesift/app"
	"sitesift/app/apptest"
	"sitesift/app/project"
	"sitesift/app/projects"
	"sitesift/app/review"
	"sitesift/sites"
)

// aWord is the i-th of many distinct words that start with "a".
func aWord(i int) string {
	b := []byte("a....")
	for k := 4; k >= 1; k-- {
		b[k] = byte('a' + i%26)
		i /= 26
	}
	return string(b)
}

// aWordsProject is a project on disk whose index holds pages with 8,000
// distinct words starting with "a", so that a* stands for thousands of
// words, as on a large crawl; it returns the app's handler as `serve`
// builds it.
func aWordsProject(t *testing.T) http.Handler {
	t.Helper()
	p, err := project.Open(filepath.Join(t.TempDir(), "project"), true, project.SearchTimeout(project.NoSearchTimeout))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	var pages []sites.Page
	for start := 0; start < 8000; start += 40 {
		var words []string
		for i := start; i < start+40; i++ {
			words = append(words, aWord(i))
		}
		pg := apptest.Page(t, fmt.Sprintf("http://words%d.test/", len(pages)))
		pg.Title, pg.Text = "Words "+words[0], "jazz "+strings.Join(words, " ")
		pages = append(pages, pg)
	}
	ctx := context.Background()
	if err := p.Store.SaveCrawlBatch(ctx, pages, nil); err != nil {
		t.Fatal(err)
	}
	if err := p.Index.Add(pages); err != nil {
		t.Fatal(err)
	}
	a := app.New(app.Options{Project: p})
	t.Cleanup(a.Close)
	return New(a)
}

// getAs sends a GET as a browser does, with headers, and returns the status
// and the envelope.
func getAs(t *testing.T, h http.Handler, ctx context.Context, path string, headers map[string]string) (int, apptest.Envelope) {
	t.Helper()
	req := apptest.Request(h, "GET", path, nil).WithContext(ctx)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var env apptest.Envelope
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil && rec.Code != 200 {
		t.Fatalf("GET %s: %v in %s", path, err, rec.Body)
	}
	return rec.Code, env
}

var (
	sameOriginHeaders = map[string]string{"Sec-Fetch-Site": "same-origin", "Origin": "http://127.0.0.1:7777"}
	// An <img src> on a page of another site: Chromium sends
	// Sec-Fetch-Site and no Origin.
	imgOfOtherSite = map[string]string{"Sec-Fetch-Site": "cross-site"}
)

// TestCostlySearchRefused drives the query that took the server's memory:
// a* 4,000 times. From the app's own page it is refused with a 400 that
// says which bound it is past, before any work; from another web site it
// is refused outright. The other bounds read as plainly.
func TestCostlySearchRefused(t *testing.T) {
	h := aWordsProject(t)
	ctx := context.Background()
	huge := "/api/search?q=" + url.QueryEscape(strings.Repeat("a* ", 4000))

	status, env := getAs(t, h, ctx, huge, sameOriginHeaders)
	var d struct{ Problem string }
	json.Unmarshal(env.Data, &d)
	if status != 400 || d.Problem != "too_long" ||
		env.Error != "The query is 11999 characters long: a search takes at most 2000. Search for fewer words." {
		t.Errorf("4,000 wildcards, same origin: %d %s %q", status, d.Problem, env.Error)
	}
	status, env = getAs(t, h, ctx, huge, imgOfOtherSite)
	if status != 403 || !strings.HasSuffix(env.Error, errCrossSiteWork.Error()) {
		t.Errorf("4,000 wildcards from another site: %d %q", status, env.Error)
	}

	many := make([]string, 65)
	for i := range many {
		many[i] = aWord(i)
	}
	for _, tt := range []struct{ q, problem, message string }{
		{"a*", "too_broad", "'a*' stands for too many words of the pages (a search takes at most 4096 in all): make it longer, as in archiv* rather than a*."},
		{"jazz /a.*/", "too_broad", "'/a.*/' stands for too many words of the pages"},
		{strings.Join(many, " "), "too_many_words", "The query has 65 words: a search takes at most 64. Leave some out."},
	} {
		status, env := getAs(t, h, ctx, "/api/search?q="+url.QueryEscape(tt.q), sameOriginHeaders)
		var d struct{ Problem string }
		json.Unmarshal(env.Data, &d)
		if status != 400 || d.Problem != tt.problem || !strings.HasPrefix(env.Error, tt.message) {
			t.Errorf("q=%.40s: %d %s %q; want 400 %s %q", tt.q, status, d.Problem, env.Error, tt.problem, tt.message)
		}
	}

	// Within the bounds a search runs, from the page or from a tool that
	// sends neither header.
	var res review.SearchResult
	apptest.Call(t, h, "GET", "/api/search?q="+url.QueryEscape("jazz aab*"), "", 200, &res)
	if res.Total == 0 {
		t.Error("jazz aab*: no hits")
	}

	// A search whose request went away stops: it reports the cancelling
	// rather than hits.
	gone, cancel := context.WithCancel(ctx)
	cancel()
	status, env = getAs(t, h, gone, "/api/search?q=jazz+aab*", sameOriginHeaders)
	if status == 200 || !strings.Contains(env.Error, context.Canceled.Error()) {
		t.Errorf("search of a request gone: %d %q, want it stopped", status, env.Error)
	}
}

// notWritten are the routes that answer with a file or a stream but write
// no file, and so take no turn.
var notWritten = map[string]string{
	"GET /api/warcs/{name}":                 "a finished WARC file of a crawl, served from disk by byte ranges",
	"GET /api/sites/{site}/captures/{file}": "a site's captures that GET /api/sites/{site}/captures cut out before, read by byte ranges",
	"GET /api/crawl/events":                 "a stream, bounded by the job feeds' own slots",
	"GET /api/jobs/events":                  "a stream, bounded by the job feeds' own slots",
	"GET /api/lab/jobs/{id}/svg":            "a lab job's result, kept in memory",
	"GET /api/lab/jobs/{id}/csv":            "a lab job's result, kept in memory",
	"GET /api/lab/jobs/{id}/files/{name}":   "a lab job's result, kept in memory",
}

// TestContractSaysEveryCost holds the contract to a cost said for every GET
// (a route added without one fails here, and is refused to other web sites
// meanwhile), and every export to the project's one turn: every route
// under /api/export/, the ratings file, and every GET that answers with a
// file but the ones that write none.
func TestContractSaysEveryCost(t *testing.T) {
	for _, r := range Contract() {
		method, path, _ := strings.Cut(r.Pattern, " ")
		switch {
		case method == http.MethodGet && r.cost == unsaid:
			t.Errorf("%s says no cost in contract.go: mark it cost: cheap (a bounded read any web site may cause) or cost: costly", r.Pattern)
		case method != http.MethodGet && r.cost != unsaid:
			t.Errorf("%s says a cost: only a GET's is read (writes are the app's own in any case)", r.Pattern)
		}
		export := strings.HasPrefix(path, "/api/export/") || strings.HasSuffix(path, "/export") ||
			method == http.MethodGet && r.Response == nil && notWritten[r.Pattern] == ""
		if export && r.turn != computeTurn {
			t.Errorf("%s writes a whole file but takes no turn: give it turn: computeTurn in contract.go", r.Pattern)
		}
		if export && r.cost == cheap {
			t.Errorf("%s writes a whole file but is marked cheap", r.Pattern)
		}
	}
}

// TestGETsRefuseOtherSites walks the contract: every GET not marked cheap
// is refused from another web site (cross-site or same-site, or an Origin
// not the app's own), HEAD as well; the cheap ones are not; the app's own
// requests (its pages, the desktop window and tools with neither header,
// an address typed) pass, and every route with a turn waits for it: with
// the turn taken and no place to wait, it is refused as busy.
func TestGETsRefuseOtherSites(t *testing.T) {
	g := newGates()
	g.compute = newGate("computation", 1, 0, time.Hour)
	g.search = newGate("search", 1, 0, time.Hour)
	_, _, h := testProject(t, func(c *config) {
		c.gates = g
		c.switcher = projects.NewSwitcher(projects.Options{})
	})
	ctx := context.Background()
	values := strings.NewReplacer("{site}", "web-directory.test", "{id}", "1", "{name}", "x.warc.gz",
		"{what}", "approved", "{file}", "seeds.txt")
	others := []map[string]string{
		imgOfOtherSite,
		{"Sec-Fetch-Site": "same-site"}, // another port of localhost
		{"Origin": "http://evil.example"},
		{"Sec-Fetch-Site": "same-origin", "Origin": "http://127.0.0.1:8888"},
	}
	refused := func(status int, env apptest.Envelope) bool {
		return status == http.StatusForbidden && strings.HasSuffix(env.Error, errCrossSiteWork.Error())
	}
	for _, r := range Contract() {
		method, pattern, _ := strings.Cut(r.Pattern, " ")
		if method != http.MethodGet {
			continue
		}
		path := values.Replace(pattern)
		for _, hd := range others {
			status, env := getAs(t, h, ctx, path, hd)
			if r.cost == cheap && refused(status, env) {
				t.Errorf("%s (cheap) with %v: refused %q", r.Pattern, hd, env.Error)
			}
			if r.cost != cheap && !refused(status, env) {
				t.Errorf("%s with %v: %d %q, want 403 from another web site", r.Pattern, hd, status, env.Error)
			}
		}
		head := apptest.Request(h, http.MethodHead, path, nil)
		head.Header.Set("Sec-Fetch-Site", "cross-site")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, head)
		if r.cost != cheap && rec.Code != http.StatusForbidden {
			t.Errorf("HEAD %s from another web site: %d, want 403", pattern, rec.Code)
		}
		if r.turn != noTurn {
			if _, err := g.of(r.turn).enter(ctx); err != nil {
				t.Fatal(err)
			}
		}
		own := ctx
		if strings.Contains(r.Body, "event-stream") { // a stream lasts as long as its request
			c, cancel := context.WithCancel(ctx)
			cancel()
			own = c
		}
		for _, hd := range []map[string]string{nil, sameOriginHeaders, {"Sec-Fetch-Site": "none"}} {
			status, env := getAs(t, h, own, path, hd)
			if refused(status, env) {
				t.Errorf("%s with %v: refused %q, want it to pass", r.Pattern, hd, env.Error)
			}
			if busy := status == http.StatusTooManyRequests && env.ErrorType == "busy"; busy != (r.turn != noTurn) {
				t.Errorf("%s with %v while its turn is taken: %d %q; want 429 busy only for a route with a turn", r.Pattern, hd, status, env.Error)
			}
		}
		if r.turn != noTurn {
			<-g.of(r.turn).running
		}
	}
}

// TestGate: one request works at a time; the next waits its turn and gets
// it; past the waiting bound, or past the wait, a request is refused with
// 429 naming what runs; one whose request went away stops waiting.
func TestGate(t *testing.T) {
	g := newGate("extraction", 1, 1, time.Hour)
	ctx := context.Background()
	leave, err := g.enter(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan error)
	go func() {
		l, err := g.enter(ctx)
		if err == nil {
			l()
		}
		got <- err
	}()
	// Once the second request waits, the one waiting place is taken: a
	// third is refused at once.
	for len(g.waiting) == 0 {
		runtime.Gosched()
	}
	_, busy := g.enter(ctx)
	var ae *apiError
	if !errors.As(busy, &ae) || ae.status != http.StatusTooManyRequests ||
		busy.Error() != "another extraction is running for this project; try again when it ends" {
		t.Errorf("third request: %v, want 429", busy)
	}
	leave()
	if err := <-got; err != nil {
		t.Errorf("the waiting request: %v, want its turn", err)
	}

	short := newGate("ranking", 1, 4, time.Millisecond)
	leave, _ = short.enter(ctx)
	if _, err := short.enter(ctx); !errors.As(err, &ae) || ae.status != http.StatusTooManyRequests {
		t.Errorf("after the longest wait: %v, want 429", err)
	}
	gone, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := g.enter(gone); err != nil {
		t.Errorf("free gate, request gone: %v", err) // a free turn is taken before anything else
	}
	long := newGate("ranking", 1, 4, time.Hour)
	long.enter(ctx)
	if _, err := long.enter(gone); !errors.Is(err, context.Canceled) {
		t.Errorf("waiting, request gone: %v, want context.Canceled", err)
	}
	leave()
}

// TestEverydayReadsNotQueued: while an extraction holds the project's turn
// and others wait for it, the review queue by importance and a site's
// review page, which every librarian reads all day, still answer; the
// queue's biased order, a ranking, takes its turn and is refused as busy.
func TestEverydayReadsNotQueued(t *testing.T) {
	g := newGates()
	g.compute = newGate("extraction", 1, 1, time.Hour)
	a, _, h := testProject(t, func(c *config) { c.gates = g })
	apptest.AddLibrarians(t, a, "ana")
	ctx := context.Background()
	if _, err := g.compute.enter(ctx); err != nil { // the extraction at work
		t.Fatal(err)
	}
	g.compute.waiting <- struct{}{} // and one waiting for its turn
	for _, path := range []string{"/api/review/queue?librarian=ana", "/api/review/queue?librarian=ana&order=importance",
		"/api/sites/web-directory.test/review?librarian=ana"} {
		if status, env := getAs(t, h, ctx, path, sameOriginHeaders); status != 200 {
			t.Errorf("GET %s during an extraction: %d %q, want 200", path, status, env.Error)
		}
	}
	if status, _ := getAs(t, h, ctx, "/api/review/queue?librarian=ana&order=biased", sameOriginHeaders); status != 429 {
		t.Errorf("biased queue during an extraction: %d, want 429", status)
	}
}

// The Export page asks at once for what each of its files leaves out: with
// an extraction at work, every one of its requests waits its turn and none
// is refused as busy (with 4 waiting places two were, and their lines went
// missing from the page).
func TestExportPageWaitsItsTurn(t *testing.T) {
	g := newGates()
	_, _, h := testProject(t, func(c *config) { c.gates = g })
	ctx := context.Background()
	leave, err := g.compute.enter(ctx) // the extraction at work
	if err != nil {
		t.Fatal(err)
	}
	whats := []string{"approved", "top-k", "heritrix-precedence", "communities", "approved", "top-k",
		"heritrix-precedence", "communities"}
	codes := make(chan int, len(whats))
	for _, what := range whats {
		go func() {
			req := apptest.Request(h, "GET", "/api/export/"+what+"/left-out", nil).WithContext(ctx)
			for k, v := range sameOriginHeaders {
				req.Header.Set(k, v)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			codes <- rec.Code
		}()
	}
	for len(g.compute.waiting)+len(codes) < len(whats) {
		runtime.Gosched()
	}
	leave()
	for range whats {
		if code := <-codes; code != http.StatusOK {
			t.Errorf("a left-out request of the Export page: %d, want 200", code)
		}
	}
}
