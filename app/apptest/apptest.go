package apptest

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"sitesift/app"
	"sitesift/app/crawling"
	"sitesift/app/plot"
	"sitesift/app/project"
	"sitesift/crawl/demoweb"
	"sitesift/importance"
	"sitesift/sites"
)

// crawled is the project CrawledProject makes once per test binary.
var crawled struct {
	once  sync.Once
	dir   string
	seeds []string
	proxy string
	err   error
}

// CrawledProject crawls the demo web once (150 pages) per test binary and
// returns the directory of a copy of that project for the caller alone,
// closed, removed when the test ends: a test may change it (add
// librarians, rate) and still find it as crawled when run again with
// -count. A package that uses it runs its tests through [Main], which
// removes the crawled original.
func CrawledProject(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "project")
	if err := os.CopyFS(dir, os.DirFS(crawl(t))); err != nil {
		t.Fatal(err)
	}
	return dir
}

// crawl crawls the demo web into the project of CrawledProject once, and
// returns its directory.
func crawl(t testing.TB) string {
	t.Helper()
	crawled.once.Do(func() {
		dir, err := os.MkdirTemp("", "sitesift-app-test-")
		if err != nil {
			crawled.err = err
			return
		}
		crawled.dir = filepath.Join(dir, "project")
		web := demoweb.New(demoweb.DefaultSeed)
		srv, err := web.Serve(context.Background(), "")
		if err != nil {
			crawled.err = err
			return
		}
		crawled.seeds, crawled.proxy = web.Seeds(), srv.URL
		p, err := project.Open(crawled.dir, true)
		if err != nil {
			crawled.err = err
			return
		}
		defer p.Close()
		a := app.New(app.Options{Project: p})
		_, crawled.err = a.Crawling.Run(context.Background(), crawling.CrawlRequest{
			Seeds: web.Seeds(), MaxPages: 150, MaxPagesPerSite: 10, SettingsUpdate: project.SettingsUpdate{DelayMS: app.Set(1), Parallel: app.Set(4)}, Proxy: srv.URL,
		}, time.Second, nil)
	})
	if crawled.err != nil {
		t.Fatal(crawled.err)
	}
	return crawled.dir
}

// DemoWeb returns the seeds and the proxy of the demo web CrawledProject
// crawled, which keeps serving until the tests end.
func DemoWeb(t testing.TB) (seeds []string, proxy string) {
	crawl(t)
	return crawled.seeds, crawled.proxy
}

// Main runs a package's tests and removes the project of CrawledProject.
func Main(m *testing.M) {
	code := m.Run()
	if crawled.dir != "" {
		os.RemoveAll(filepath.Dir(crawled.dir))
	}
	os.Exit(code)
}

// Page is a fetched page of rawURL linking to links.
func Page(t testing.TB, rawURL string, links ...string) sites.Page {
	t.Helper()
	site, err := sites.Of(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	return sites.Page{URL: rawURL, Site: site, Status: 200, ContentType: "text/html", Title: rawURL, Links: links}
}

// CommunityProject builds a project with two communities across sites and
// a site whose pages all link to each other:
//
//   - hubs http://h{1,2,3}.test/links each link to http://a{1,2,3}.test/;
//   - hubs http://g{1,2}.test/list each link to http://b{1,2}.test/;
//   - nav.test has six pages that all link to each other, a 6×6 complete
//     bipartite graph HITS would rank first if links inside a site were
//     kept; nav.test/p0 also links to a1.test, and a1.test to g1.test.
//
// OPIC states give every site its own importance, h1.test the most. The
// project is closed again, so that the command line can open it.
func CommunityProject(t testing.TB) string {
	t.Helper()
	dir, p := create(t)
	defer p.Close()
	var pages []sites.Page
	auths := []string{"http://a1.test/", "http://a2.test/", "http://a3.test/"}
	for i := 1; i <= 3; i++ {
		u := "http://h" + strconv.Itoa(i) + ".test/links"
		pages = append(pages, Page(t, u, append(slices.Clone(auths), "http://h"+strconv.Itoa(i)+".test/")...))
	}
	for i := 1; i <= 2; i++ {
		pages = append(pages, Page(t, "http://g"+strconv.Itoa(i)+".test/list", "http://b1.test/", "http://b2.test/"))
	}
	var nav []string
	for i := range 6 {
		nav = append(nav, "http://nav.test/p"+strconv.Itoa(i))
	}
	for i, u := range nav {
		links := slices.Clone(nav)
		if i == 0 {
			links = append(links, "http://a1.test/")
		}
		pages = append(pages, Page(t, u, links...))
	}
	pages = append(pages, Page(t, "http://a1.test/", "http://g1.test/list"))
	var states []sites.SiteState
	for i, s := range []string{"h1.test", "a1.test", "a2.test", "a3.test", "g1.test", "b1.test",
		"nav.test", "h2.test", "h3.test", "g2.test", "b2.test"} {
		states = append(states, sites.SiteState{Site: s, Cash: 0, History: float64(20 - i)})
	}
	if err := p.Store.SaveCrawlBatch(context.Background(), pages, states); err != nil {
		t.Fatal(err)
	}
	if _, err := app.New(app.Options{Project: p}).Ranking.UpdateImportance(context.Background()); err != nil {
		t.Fatal(err)
	}
	OPICFromStates(t, p) // the order of importance the tests expect
	return dir
}

// Empty opens a new, empty project, closed at cleanup.
func Empty(t testing.TB) *app.App {
	t.Helper()
	a, _ := EmptyProject(t)
	return a
}

// EmptyProject opens a new, empty project, closed at cleanup, and returns
// it with its app, for tests that fill its store directly.
func EmptyProject(t testing.TB) (*app.App, *project.Project) {
	t.Helper()
	_, p := create(t)
	a := app.New(app.Options{Project: p})
	t.Cleanup(func() { a.Close(); p.Close() })
	return a, p
}

// create makes a project in a new temporary directory and returns it open.
func create(t testing.TB) (string, *project.Project) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "project")
	return dir, OpenDir(t, dir, true)
}

// FailuresProject builds a project whose crawl met failures, and returns
// its directory, closed: ok.test was fetched fine and links to dead.test
// (its host did not resolve), broken.test (it answered 503) and
// closed.test (robots.txt refused it). The failed sites hold the most
// importance, so a list by importance that does not leave them out starts
// with them.
func FailuresProject(t testing.TB) string {
	t.Helper()
	dir, p := create(t)
	defer p.Close()
	fail := func(u string, status int, class string) sites.Page {
		pg := Page(t, u)
		pg.Status, pg.ErrClass, pg.Err, pg.Title = status, class, "failed: "+class, ""
		return pg
	}
	pages := []sites.Page{
		Page(t, "http://ok.test/", "http://dead.test/", "http://broken.test/", "http://closed.test/"),
		fail("http://dead.test/", 0, sites.ErrDNS),
		fail("http://broken.test/", 503, sites.ErrHTTP5xx),
		fail("http://closed.test/", 0, sites.ErrRobots),
	}
	states := []sites.SiteState{{Site: "dead.test", History: 4}, {Site: "broken.test", History: 3},
		{Site: "closed.test", History: 2}, {Site: "ok.test", History: 1}}
	if err := p.Store.SaveCrawlBatch(context.Background(), pages, states); err != nil {
		t.Fatal(err)
	}
	OPICFromStates(t, p)
	return dir
}

// Open opens the project in dir; close closes it (also at cleanup).
func Open(t testing.TB, dir string) (a *app.App, close func()) {
	t.Helper()
	a, _, close = OpenProject(t, dir)
	return a, close
}

// OpenProject is [Open] that also returns the project, for the tests that
// look into its store.
func OpenProject(t testing.TB, dir string) (a *app.App, p *project.Project, close func()) {
	t.Helper()
	p = OpenDir(t, dir, false)
	a = app.New(app.Options{Project: p})
	var once sync.Once
	close = func() { once.Do(func() { a.Close(); p.Close() }) }
	t.Cleanup(close)
	return a, p, close
}

// ReviewProject builds a project of a small web where three librarians
// rate five sites, and returns its directory, closed:
//
//	        s1 s2 s3 s4 s5
//	ana      4  3  1  2  -
//	ben      4  2  1  3  2
//	cleo     3  2  2  -  -
//
// Reference 4, 2, 1, 3 (s4's 2.5 rounds up); s5, rated by ben alone, is
// excluded. The links
//
//	hub.test → s1, s2, s4;  x.test → s1, s4;  s2.test → s1
//
// (hub.test/ and x.test/ both link to s1.test/ and s4.test/, the one
// bipartite core of two hubs and two authorities of the page graph),
// give s1, s4, s2, s3 in-linking sites 3, 2, 1, 0, and PageRank and HITS
// authority in that same order: all three rank the four sites exactly as
// the reference. OPIC is set against it: s1 0.1, s2 0.4, s3 0.3, s4 0.2 of
// the total, so its quantile ranks 1, 4, 3, 2 never equal the reference.
func ReviewProject(t testing.TB) string {
	t.Helper()
	dir, p := create(t)
	defer p.Close()
	at := time.Date(2026, 2, 1, 12, 0, 0, 0, time.UTC)
	pg := func(u, title, text string, links ...string) sites.Page {
		site, err := sites.Of(u)
		if err != nil {
			t.Fatal(err)
		}
		return sites.Page{URL: u, Site: site, Status: 200, ContentType: "text/html", Title: title, Text: text, Links: links, FetchedAt: at}
	}
	pages := []sites.Page{
		pg("http://hub.test/", "Hub of maps", "A directory of map libraries.", "http://s1.test/", "http://s2.test/", "http://s4.test/"),
		pg("http://x.test/", "Cartography news", "News about maps.", "http://s1.test/", "http://s4.test/", "http://s4.test/maps"),
		pg("http://s1.test/", "Rare maps archive", "The archive of rare maps and atlases, digitised.", "http://s1.test/about"),
		pg("http://s1.test/about", "About the archive", "Who we are."),
		pg("http://s2.test/", "Atlas shop", "Atlases for sale.", "http://s1.test/"),
		pg("http://s3.test/", "Weather", "Rain tomorrow."),
		pg("http://s4.test/", "Map society", "A society of map lovers."),
		pg("http://s4.test/maps", "Society maps", "Maps of the society."),
		pg("http://s5.test/", "Recipes", "Soup."),
	}
	states := []sites.SiteState{
		{Site: "s1.test", History: 0.1}, {Site: "s2.test", History: 0.4},
		{Site: "s3.test", History: 0.3}, {Site: "s4.test", History: 0.2},
	}
	ctx := context.Background()
	if err := p.Store.SaveCrawlBatch(ctx, pages, states); err != nil {
		t.Fatal(err)
	}
	if err := p.Index.Add(pages); err != nil {
		t.Fatal(err)
	}
	OPICFromStates(t, p)
	a := app.New(app.Options{Project: p})
	defer a.Close()
	AddLibrarians(t, a, "ana", "ben", "cleo")
	for lib, rs := range map[string][]int{"ana": {4, 3, 1, 2, 0}, "ben": {4, 2, 1, 3, 2}, "cleo": {3, 2, 2, 0, 0}} {
		for i, v := range rs {
			if v > 0 {
				if _, err := a.Review.Rate(ctx, lib, "s"+strconv.Itoa(i+1)+".test", v, ""); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return dir
}

// AddLibrarians adds the librarian profiles names to the project of a:
// rating, noting and selecting take known librarians only.
func AddLibrarians(t testing.TB, a *app.App, names ...string) {
	t.Helper()
	for _, n := range names {
		if _, _, err := a.Review.AddLibrarian(context.Background(), n); err != nil {
			t.Fatal(err)
		}
	}
}

// ReadCSV parses s as CSV, a leading UTF-8 byte-order mark skipped (the
// tables meant for a spreadsheet start with one).
func ReadCSV(t testing.TB, s string) [][]string {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(s, "\uFEFF"))).ReadAll()
	if err != nil {
		t.Fatalf("%v in\n%s", err, s)
	}
	return recs
}

// CellNear checks that column col of row holds want to 1e-9, or is empty
// for a NaN want.
func CellNear(t testing.TB, row []string, col int, want float64) {
	t.Helper()
	if math.IsNaN(want) {
		if row[col] != "" {
			t.Errorf("%s: column %d = %q, want empty", row[0], col, row[col])
		}
		return
	}
	got, err := strconv.ParseFloat(row[col], 64)
	if err != nil || math.Abs(got-want) > 1e-9 {
		t.Errorf("%s: column %d = %q, want %v", row[0], col, row[col], want)
	}
}

// Envelope is the body of an answer of the API (app/API.md), its data
// left to decode.
type Envelope struct {
	Status    string          `json:"status"`
	Data      json.RawMessage `json:"data"`
	ErrorType string          `json:"error_type"`
	Error     string          `json:"error"`
}

// Request builds a request as the app's own pages send it (API.md, "Who
// may call it"): to a loopback host, and for a write with the JSON type
// (text/csv for the ratings file) and the write token of GET /api/session.
func Request(h http.Handler, method, path string, body io.Reader) *http.Request {
	req := httptest.NewRequest(method, path, body)
	req.Host = "127.0.0.1:7777"
	if method == http.MethodGet || method == http.MethodHead {
		return req
	}
	ct := "application/json"
	if req.URL.Path == "/api/ratings/import" {
		ct = "text/csv; charset=utf-8"
	}
	req.Header.Set("Content-Type", ct)
	rec := httptest.NewRecorder()
	sess := httptest.NewRequest("GET", "/api/session", nil)
	sess.Host = req.Host
	h.ServeHTTP(rec, sess)
	var env struct {
		Data struct{ Token string } `json:"data"`
	}
	json.Unmarshal(rec.Body.Bytes(), &env)
	req.Header.Set("X-Sitesift-Token", env.Data.Token)
	return req
}

// Call performs a request as the app's pages do, fails the test unless it
// gets wantStatus, and decodes the envelope's data into out (when not nil).
func Call(t testing.TB, h http.Handler, method, path, body string, wantStatus int, out any) Envelope {
	t.Helper()
	req := Request(h, method, path, strings.NewReader(body))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != wantStatus {
		t.Fatalf("%s %s: status %d, want %d; body %s", method, path, rec.Code, wantStatus, rec.Body)
	}
	var env Envelope
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
		t.Fatalf("%s %s: %v in %s", method, path, err, rec.Body)
	}
	if out != nil {
		if err := json.Unmarshal(env.Data, out); err != nil {
			t.Fatalf("%s %s: data: %v", method, path, err)
		}
	}
	return env
}

// SeriesCount fails the test unless svg is a chart of app/plot, and
// returns the number of series it draws.
func SeriesCount(t testing.TB, svg []byte) int {
	t.Helper()
	n, err := plot.SeriesCount(svg)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// WriteSynthetic writes importance.Synthetic(n, avgOut, 1) as an edge list.
func WriteSynthetic(t testing.TB, path string, n int, avgOut float64) {
	t.Helper()
	g := importance.Synthetic(n, avgOut, 1)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for u := 0; u < g.N; u++ {
		for k := g.Offsets[u]; k < g.Offsets[u+1]; k++ {
			fmt.Fprintf(w, "site%d.example site%d.example\n", u, g.Targets[k])
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
