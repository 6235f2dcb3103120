package httpapi

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"sitesift/app"
	"sitesift/app/apptest"
	"sitesift/app/crawling"
	"sitesift/app/project"
	"sitesift/app/ranking"
	"sitesift/app/review"
)

func TestMain(m *testing.M) { apptest.Main(m) }

// testApp opens the crawled project with a frontend of one file.
func testApp(t *testing.T) (*app.App, http.Handler) {
	t.Helper()
	a, _, h := testProject(t)
	return a, h
}

// testProject is testApp that also returns the project; opts are added to
// the handler's.
func testProject(t *testing.T, opts ...Option) (*app.App, *project.Project, http.Handler) {
	t.Helper()
	p, err := project.Open(apptest.CrawledProject(t), false, project.SearchTimeout(project.NoSearchTimeout))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	a := app.New(app.Options{Project: p})
	t.Cleanup(a.Close)
	opts = append([]Option{Assets(fstest.MapFS{"index.html": {Data: []byte("<title>sitesift</title>")}})}, opts...)
	return a, p, New(a, opts...)
}

func TestSitesAPI(t *testing.T) {
	_, h := testApp(t)
	var list review.SiteList
	apptest.Call(t, h, "GET", "/api/sites?limit=500", "", 200, &list)
	if list.Total < 30 || len(list.Rows) != list.Total {
		t.Fatalf("total %d, %d rows; want ≥ 30 sites, all in one page", list.Total, len(list.Rows))
	}
	var opic, pr float64
	for i, r := range list.Rows {
		opic += r.OPIC
		pr += r.PageRank
		if i > 0 && r.OPIC > list.Rows[i-1].OPIC {
			t.Fatalf("rows not sorted by opic: %v after %v", r, list.Rows[i-1])
		}
	}
	if math.Abs(opic-1) > 1e-9 || math.Abs(pr-1) > 1e-9 {
		t.Errorf("opic sums to %v, pagerank to %v; want 1", opic, pr)
	}
	var page review.SiteList
	apptest.Call(t, h, "GET", "/api/sites?sort=site&order=asc&offset=2&limit=3", "", 200, &page)
	if len(page.Rows) != 3 || page.Rows[0].Site > page.Rows[1].Site {
		t.Errorf("sorted page by site = %+v", page.Rows)
	}
	apptest.Call(t, h, "GET", "/api/sites?q=portal", "", 200, &page)
	for _, r := range page.Rows {
		if !strings.Contains(r.Site, "portal") {
			t.Errorf("filter q=portal returned %s", r.Site)
		}
	}
	env := apptest.Call(t, h, "GET", "/api/sites?sort=colour", "", 400, nil)
	if env.ErrorType != "bad_request" || env.Error == "" {
		t.Errorf("bad sort: %+v", env)
	}
	apptest.Call(t, h, "GET", "/api/sites?limit=x", "", 400, nil)

	top := list.Rows[0].Site
	var detail struct {
		Site       string `json:"site"`
		PagesCount int    `json:"pages_count"`
		Pages      []struct {
			URL    string `json:"url"`
			Status int    `json:"status"`
		} `json:"pages"`
		InLinks []struct {
			Site   string  `json:"site"`
			Weight float64 `json:"weight"`
		} `json:"in_links"`
	}
	apptest.Call(t, h, "GET", "/api/sites/"+url.PathEscape(top), "", 200, &detail)
	if detail.Site != top || detail.PagesCount == 0 || len(detail.Pages) != detail.PagesCount || len(detail.InLinks) == 0 {
		t.Errorf("detail of %s = %+v", top, detail)
	}
	apptest.Call(t, h, "GET", "/api/sites/no-such-site.test", "", 404, nil)
}

func TestRatingAPI(t *testing.T) {
	_, h := testApp(t)
	var list review.SiteList
	apptest.Call(t, h, "GET", "/api/sites?limit=2", "", 200, &list)
	site := list.Rows[1].Site
	path := "/api/sites/" + url.PathEscape(site) + "/rating"
	apptest.Call(t, h, "PUT", path, `{"librarian":"api-test","rating":3}`, 404, nil)
	apptest.Call(t, h, "POST", "/api/librarians", `{"name":"api-test"}`, 201, nil)
	apptest.Call(t, h, "PUT", path, `{"librarian":"api-test","rating":3}`, 200, nil)
	apptest.Call(t, h, "GET", "/api/sites?limit=2&librarian=api-test", "", 200, &list)
	if r := list.Rows[1].Rating; r == nil || *r != 3 {
		t.Fatalf("rating after PUT = %v, want 3", r)
	}
	for _, body := range []string{`{"librarian":"api-test","rating":5}`, `{"librarian":"","rating":2}`, `{"librarian":"x","rating":2,"colour":1}`, `not json`} {
		apptest.Call(t, h, "PUT", path, body, 400, nil)
	}
	apptest.Call(t, h, "PUT", "/api/sites/no-such-site.test/rating", `{"librarian":"api-test","rating":2}`, 404, nil)
	apptest.Call(t, h, "DELETE", path+"?librarian=api-test", "", 200, nil)
	apptest.Call(t, h, "GET", "/api/sites?limit=2&librarian=api-test", "", 200, &list)
	if list.Rows[1].Rating != nil {
		t.Errorf("rating after DELETE = %v", *list.Rows[1].Rating)
	}
	var info app.ProjectInfo
	apptest.Call(t, h, "GET", "/api/project", "", 200, &info)
	if info.Pages == 0 || info.Sites == 0 || !contains(info.Librarians, "api-test") {
		t.Errorf("project info %+v", info)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestSearchAPI(t *testing.T) {
	_, h := testApp(t)
	var res review.SearchResult
	apptest.Call(t, h, "GET", "/api/search?q=directory", "", 200, &res)
	if res.Total == 0 || len(res.Hits) == 0 || res.Hits[0].Title == "" {
		t.Fatalf("search directory: %+v", res)
	}
	site := res.Hits[0].Site
	apptest.Call(t, h, "GET", "/api/search?q=directory&site="+url.QueryEscape(site), "", 200, &res)
	for _, hit := range res.Hits {
		if hit.Site != site {
			t.Errorf("site filter %s returned %s", site, hit.URL)
		}
	}
	apptest.Call(t, h, "GET", "/api/search?q=", "", 400, nil)

	// Every word is required unless any=1.
	apptest.Call(t, h, "GET", "/api/search?q=directory+zzxqvnope", "", 200, &res)
	if res.Total != 0 {
		t.Errorf("directory zzxqvnope (all words) found %d pages, want 0", res.Total)
	}
	apptest.Call(t, h, "GET", "/api/search?q=directory+zzxqvnope&any=1", "", 200, &res)
	if res.Total == 0 {
		t.Errorf("directory zzxqvnope with any=1 found nothing")
	}
	apptest.Call(t, h, "GET", "/api/search?q=the+directory", "", 200, &res)
	if res.Total == 0 || len(res.Ignored) != 1 || res.Ignored[0] != "the" {
		t.Errorf("the directory: %d pages, ignored %q; want pages and [the]", res.Total, res.Ignored)
	}
	for _, tt := range []struct{ q, problem, message string }{
		{"the+of", "stop_words", "'the of' only has words too common to search for."},
		{"jazz+%22open", "syntax", `Unbalanced quote: the " at character 6 has no closing quote.`},
		{"jazz+-", "syntax", `A lone "-" at character 6: write it right before a word, as in -jazz (pages must not have the word).`},
	} {
		env := apptest.Call(t, h, "GET", "/api/search?q="+tt.q, "", 400, nil)
		var d struct{ Problem string }
		json.Unmarshal(env.Data, &d)
		if env.Error != tt.message || d.Problem != tt.problem {
			t.Errorf("q=%s: %s %q, want %s %q", tt.q, d.Problem, env.Error, tt.problem, tt.message)
		}
	}
}

// TestSitesAPIStanding checks that the sites table's rows carry their rank
// and 0–100 score, the top site first at 100.
func TestSitesAPIStanding(t *testing.T) {
	_, h := testApp(t)
	var list struct {
		Rows []map[string]any `json:"rows"`
	}
	apptest.Call(t, h, "GET", "/api/sites?sort=opic&order=desc&limit=5", "", 200, &list)
	if len(list.Rows) == 0 {
		t.Fatal("no sites")
	}
	top := list.Rows[0]
	if top["opic_rank"] != 1.0 || top["opic_score"] != 100.0 {
		t.Errorf("top site %v: want opic_rank 1, opic_score 100", top)
	}
	for _, r := range list.Rows {
		if s, _ := r["opic_score"].(float64); s < 0 || s > 100 || r["pagerank_rank"] == nil {
			t.Errorf("row %v", r)
		}
	}
}

func TestExportAPI(t *testing.T) {
	_, h := testApp(t)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, apptest.Request(h, "GET", "/api/export/seeds?method=importance&format=csv&count=5", nil))
	if rec.Code != 200 || !strings.Contains(rec.Header().Get("Content-Disposition"), `"project-top-5.csv"`) {
		t.Fatalf("export: %d %v", rec.Code, rec.Header())
	}
	rows, err := csv.NewReader(rec.Body).ReadAll()
	if err != nil || len(rows) != 6 || strings.Join(rows[0], ",") != "seed_url,site,opic,pagerank,pages,checked,graph" || rows[1][6] != ranking.GraphEditorial {
		t.Fatalf("export csv = %v, %v", rows, err)
	}
	if !strings.HasPrefix(rows[1][0], "http://") || !strings.HasSuffix(rows[1][0], "/") {
		t.Errorf("seed url %q", rows[1][0])
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, apptest.Request(h, "GET", "/api/export/seeds?method=importance&format=txt&count=3", nil))
	if lines := strings.Split(strings.TrimSpace(rec.Body.String()), "\n"); len(lines) != 3 {
		t.Errorf("txt export has %d lines", len(lines))
	}
	apptest.Call(t, h, "GET", "/api/export/seeds?method=importance&format=xml&count=3", "", 400, nil)
	apptest.Call(t, h, "GET", "/api/export/seeds?method=importance&count=0", "", 400, nil)
}

func TestUnknownAPIAndAssets(t *testing.T) {
	_, h := testApp(t)
	env := apptest.Call(t, h, "GET", "/api/nothing-here", "", 404, nil)
	if env.Status != "error" || env.ErrorType != "not_found" {
		t.Errorf("unknown endpoint: %+v", env)
	}
	apptest.Call(t, h, "POST", "/api/sites", "", 404, nil)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, apptest.Request(h, "GET", "/", nil))
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "<title>sitesift</title>") {
		t.Errorf("GET / = %d %q", rec.Code, rec.Body)
	}
}

func TestCrawlAPI(t *testing.T) {
	apptest.CrawledProject(t)
	a := apptest.Empty(t)
	h := New(a)
	var st crawling.CrawlStatus
	apptest.Call(t, h, "GET", "/api/crawl", "", 200, &st)
	if st.State != crawling.StateIdle {
		t.Errorf("state before any crawl = %q", st.State)
	}
	env := apptest.Call(t, h, "POST", "/api/crawl", `{"seeds":["http://a.test/","mailto:x@y"]}`, 400, nil)
	if !strings.Contains(env.Error, "seed 2") {
		t.Errorf("bad seed error %q does not name the seed", env.Error)
	}
	apptest.Call(t, h, "POST", "/api/crawl/stop", "", 409, nil)
	seeds, proxy := apptest.DemoWeb(t)
	body, _ := json.Marshal(crawling.CrawlRequest{Seeds: seeds, MaxPages: 2000, MaxPagesPerSite: 30, SettingsUpdate: project.SettingsUpdate{DelayMS: app.Set(20), Parallel: app.Set(2)}, Proxy: proxy})
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, apptest.Request(h, "POST", "/api/crawl", bytes.NewReader(body)))
	if rec.Code != http.StatusAccepted {
		t.Fatalf("start crawl: %d %s", rec.Code, rec.Body)
	}
	apptest.Call(t, h, "POST", "/api/crawl", string(body), 409, nil)

	// The event stream sends the status at once: before it looks whether
	// its request went away, so a request gone already gets it, however
	// long the machine takes to get there.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ev := httptest.NewRecorder()
	h.ServeHTTP(ev, apptest.Request(h, "GET", "/api/crawl/events", nil).WithContext(ctx))
	if !strings.HasPrefix(ev.Body.String(), "event: status\ndata: {") {
		t.Errorf("event stream starts with %q", ev.Body.String())
	}
	apptest.Call(t, h, "POST", "/api/crawl/pause", "", 200, &st)
	apptest.Call(t, h, "POST", "/api/crawl/resume", "", 200, &st)
	// Stopped once it has pages (the check below wants some, not all 2000):
	// waiting for them, not for a time, holds however busy the machine.
	deadline := time.Now().Add(time.Minute)
	for st.Pages == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		apptest.Call(t, h, "GET", "/api/crawl", "", 200, &st)
	}
	apptest.Call(t, h, "POST", "/api/crawl/stop", "", 200, &st)
	deadline = time.Now().Add(time.Minute)
	for st.State != crawling.StateStopped && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		apptest.Call(t, h, "GET", "/api/crawl", "", 200, &st)
	}
	if st.State != crawling.StateStopped || st.Pages == 0 || st.Pages >= 2000 {
		t.Fatalf("after stop: %+v", st)
	}
	var info app.ProjectInfo
	apptest.Call(t, h, "GET", "/api/project", "", 200, &info)
	if info.Pages != st.PagesOK {
		t.Errorf("store has %d pages, crawl fetched %d fine: the final batch was lost", info.Pages, st.PagesOK)
	}
}

func TestCrawlStatusOfLastCrawl(t *testing.T) {
	_, h := testApp(t)
	var st crawling.CrawlStatus
	apptest.Call(t, h, "GET", "/api/crawl", "", 200, &st)
	// The page cap counts the pages fetched fine; Pages adds the error
	// answers, as many as the crawl met before the cap.
	if st.State != crawling.StateDone || st.PagesOK != 150 || st.Pages < st.PagesOK ||
		st.MaxPages != 150 || st.Strategy != "greedy" || st.Sites == 0 || len(st.Top) != 10 {
		t.Errorf("status of the project's last crawl = %+v", st)
	}
	if st.Top[0].OPIC < st.Top[9].OPIC {
		t.Errorf("top sites not by importance: %+v", st.Top)
	}
}

func TestSettingsAPI(t *testing.T) {
	a := apptest.Empty(t)
	h := New(a)
	var s project.Settings
	apptest.Call(t, h, "GET", "/api/settings", "", 200, &s)
	if s.DelayMS != project.DefaultDelayMS || s.Parallel != project.DefaultParallel || s.MaxDelayMS != project.DefaultMaxDelayMS || s.Contact != "" {
		t.Errorf("defaults: %+v", s)
	}
	apptest.Call(t, h, "PUT", "/api/settings", `{"contact": "ana@library.org", "delay_ms": 0}`, 200, &s)
	if s.Contact != "ana@library.org" || s.DelayMS != 0 || s.Parallel != project.DefaultParallel ||
		s.EffectiveUserAgent != "sitesift/"+project.Version+" (+ana@library.org)" {
		t.Errorf("after PUT: %+v", s)
	}
	env := apptest.Call(t, h, "PUT", "/api/settings", `{"parallel": 0}`, 400, nil)
	if !strings.Contains(env.Error, "parallel") {
		t.Errorf("bad parallel: %q", env.Error)
	}
	// A crawl request without politeness fields uses the stored settings;
	// without a contact the open web is refused with the way to set one.
	apptest.Call(t, h, "PUT", "/api/settings", `{"contact": ""}`, 200, &s)
	env = apptest.Call(t, h, "POST", "/api/crawl", `{"seeds": ["https://example.org/"]}`, 400, nil)
	if !strings.Contains(env.Error, "--contact") {
		t.Errorf("crawl without a contact: %q", env.Error)
	}
	apptest.Call(t, h, "GET", "/api/settings", "", 200, &s)
	if s.DelayMS != 0 {
		t.Errorf("settings after a refused crawl: %+v", s)
	}
}
