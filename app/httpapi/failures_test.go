package httpapi

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"sitesift/app"
	"sitesift/app/apptest"
	"sitesift/app/crawling"
	"sitesift/app/exports"
	"sitesift/app/project"
	"sitesift/app/review"
)

// TestFailedSitesAPI: the sites listing filters by crawl status; the review
// queue and the seeds by importance leave the failed sites out unless
// include_failed is set.
func TestFailedSitesAPI(t *testing.T) {
	a, _ := apptest.Open(t, apptest.FailuresProject(t))
	apptest.AddLibrarians(t, a, "ana")
	h := New(a)
	var list review.SiteList
	apptest.Call(t, h, "GET", "/api/sites?status=errors-only", "", 200, &list)
	if list.Total != 1 || list.Rows[0].Site != "broken.test" || list.Rows[0].CrawlStatus != "errors-only" || list.Rows[0].Errors != 1 {
		t.Errorf("status=errors-only: %+v", list)
	}
	apptest.Call(t, h, "GET", "/api/sites?status=sleepy", "", 400, nil)
	var d struct {
		CrawlStatus string            `json:"crawl_status"`
		Report      review.SiteReport `json:"report"`
		Pages       []review.PageRow  `json:"pages"`
	}
	apptest.Call(t, h, "GET", "/api/sites/dead.test", "", 200, &d)
	if d.CrawlStatus != "dead" || d.Report.ErrorsByClass["dns"] != 1 || d.Pages[0].ErrorClass != "dns" {
		t.Errorf("dead.test: %+v", d)
	}
	var q review.ReviewQueue
	apptest.Call(t, h, "GET", "/api/review/queue?librarian=ana", "", 200, &q)
	if q.Total != 1 || q.Excluded != 3 {
		t.Errorf("queue: %+v", q)
	}
	apptest.Call(t, h, "GET", "/api/review/queue?librarian=ana&include_failed=true", "", 200, &q)
	if q.Total != 4 || q.Excluded != 0 {
		t.Errorf("queue with include_failed: %+v", q)
	}
	apptest.Call(t, h, "GET", "/api/review/queue?librarian=ana&include_failed=maybe", "", 400, nil)
	for path, want := range map[string]string{
		"/api/export/seeds?method=importance&count=9":                     "http://ok.test/\n",
		"/api/export/seeds?method=importance&count=1&include_failed=true": "http://dead.test/\n",
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, apptest.Request(h, "GET", path, nil))
		if rec.Code != 200 || rec.Body.String() != want {
			t.Errorf("%s: %d %q, want %q", path, rec.Code, rec.Body, want)
		}
	}
}

// TestCrawlErrorsAPI: the failed fetches of the last crawl, filtered by
// class and site, each with a message.
func TestCrawlErrorsAPI(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			fmt.Fprint(w, `<title>Home</title><a href="/gone1">1</a> <a href="/gone2">2</a> <a href="/fine">3</a>`)
		case "/fine":
			fmt.Fprint(w, `<title>Fine</title>`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	a := apptest.Empty(t)
	h := New(a)
	var some crawling.CrawlErrors
	apptest.Call(t, h, "GET", "/api/crawl/errors", "", 200, &some)
	if some.Crawl != 0 || some.Total != 0 {
		t.Errorf("a project never crawled: %+v", some)
	}
	st, err := a.Crawling.Run(context.Background(), crawling.CrawlRequest{Seeds: []string{srv.URL + "/"},
		SettingsUpdate: project.SettingsUpdate{DelayMS: app.Set(0)}}, time.Second, nil)
	if err != nil || st.ErrorsByClass["http-4xx"] < 2 {
		t.Fatalf("crawl: %+v, %v", st, err)
	}
	var all crawling.CrawlErrors
	apptest.Call(t, h, "GET", "/api/crawl/errors", "", 200, &all)
	if all.Crawl == 0 || all.Total < 2 || len(all.Rows) != all.Total {
		t.Fatalf("errors of the last crawl: %+v; status %v", all, st.ErrorsByClass)
	}
	first := all.Rows[0]
	if first.Error != "404 Not Found" || first.Class != "http-4xx" || first.Site == "" {
		t.Errorf("an error row lacks its message, class or site: %+v", first)
	}
	apptest.Call(t, h, "GET", "/api/crawl/errors?class=http-4xx&site="+first.Site+"&limit=1", "", 200, &some)
	if some.Total != all.Total || len(some.Rows) != 1 || some.Rows[0].URL != first.URL {
		t.Errorf("errors of class http-4xx on %s, one a page: %+v", first.Site, some)
	}
	apptest.Call(t, h, "GET", "/api/crawl/errors?class=nosuch", "", 200, &some)
	if some.Total != 0 || some.Rows == nil {
		t.Errorf("an unknown class: %+v", some)
	}
	apptest.Call(t, h, "GET", "/api/crawl/errors?crawl=999", "", 404, nil)
	apptest.Call(t, h, "GET", "/api/crawl/errors?limit=501", "", 400, nil)
}

// TestExportLeftOutAPI: a download that left sites out says how many and
// why in a header, and GET /api/export/{what}/left-out tells it without
// the file, for the Export page.
func TestExportLeftOutAPI(t *testing.T) {
	a, _ := apptest.Open(t, apptest.FailuresProject(t))
	h := New(a)
	const want = "left out 3 sites: 1 dead (every fetch failed), 1 errors only, 1 closed to robots"
	for _, path := range []string{"/api/export/heritrix-precedence", "/api/export/top-k", "/api/export/seeds?method=importance"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, apptest.Request(h, "GET", path, nil))
		if rec.Code != 200 || rec.Header().Get(LeftOutHeader) != want || strings.Contains(rec.Body.String(), "dead.test") {
			t.Errorf("%s: %d %q %v", path, rec.Code, rec.Body, rec.Header())
		}
	}
	var lo struct {
		LeftOut []exports.LeftOut `json:"left_out"`
		Text    string            `json:"text"`
	}
	apptest.Call(t, h, "GET", "/api/export/heritrix-precedence/left-out", "", 200, &lo)
	if lo.Text != want || len(lo.LeftOut) != 3 || lo.LeftOut[0] != (exports.LeftOut{Reason: exports.LeftOutDead, Sites: 1}) {
		t.Errorf("left-out: %+v", lo)
	}
	apptest.Call(t, h, "GET", "/api/export/heritrix-precedence/left-out?include_failed=true", "", 200, &lo)
	if lo.Text != "" || len(lo.LeftOut) != 0 {
		t.Errorf("left-out with the failed sites: %+v", lo)
	}
	apptest.Call(t, h, "GET", "/api/export/nothing/left-out", "", 400, nil)
}
