package httpapi

import (
	"net/http/httptest"
	"testing"

	"sitesift/app"
	"sitesift/app/apptest"
	"sitesift/sites/store"
)

// TestFailedSitesAPI: the sites listing filters by crawl status; the review
// queue and the seeds by importance leave the failed sites out unless
// include_failed is set.
func TestFailedSitesAPI(t *testing.T) {
	a, _ := apptest.Open(t, apptest.FailuresProject(t))
	h := New(a)
	var list app.SiteList
	apptest.Call(t, h, "GET", "/api/sites?status=errors-only", "", 200, &list)
	if list.Total != 1 || list.Rows[0].Site != "broken.test" || list.Rows[0].CrawlStatus != "errors-only" || list.Rows[0].Errors != 1 {
		t.Errorf("status=errors-only: %+v", list)
	}
	apptest.Call(t, h, "GET", "/api/sites?status=sleepy", "", 400, nil)
	var d struct {
		CrawlStatus string           `json:"crawl_status"`
		Report      store.SiteReport `json:"report"`
		Pages       []store.PageRow  `json:"pages"`
	}
	apptest.Call(t, h, "GET", "/api/sites/dead.test", "", 200, &d)
	if d.CrawlStatus != "dead" || d.Report.ErrorsByClass["dns"] != 1 || d.Pages[0].ErrorClass != "dns" {
		t.Errorf("dead.test: %+v", d)
	}
	var q app.ReviewQueue
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
	_, h := testApp(t)
	var st app.CrawlStatus
	apptest.Call(t, h, "GET", "/api/crawl", "", 200, &st)
	want := 0
	for _, n := range st.ErrorsByClass {
		want += n
	}
	var all app.CrawlErrors
	apptest.Call(t, h, "GET", "/api/crawl/errors", "", 200, &all)
	if all.Crawl == 0 || all.Total != want || len(all.Rows) != want || want == 0 {
		t.Fatalf("errors of the last crawl: %+v; want the %d of its status %v", all, want, st.ErrorsByClass)
	}
	first := all.Rows[0]
	if first.Error == "" || first.Class == "" || first.Site == "" {
		t.Errorf("an error row lacks its message, class or site: %+v", first)
	}
	var some app.CrawlErrors
	apptest.Call(t, h, "GET", "/api/crawl/errors?class="+first.Class+"&site="+first.Site, "", 200, &some)
	if some.Total != 1 || some.Rows[0].URL != first.URL {
		t.Errorf("errors of class %s on %s: %+v", first.Class, first.Site, some)
	}
	apptest.Call(t, h, "GET", "/api/crawl/errors?class=nosuch", "", 200, &some)
	if some.Total != 0 || some.Rows == nil {
		t.Errorf("an unknown class: %+v", some)
	}
	apptest.Call(t, h, "GET", "/api/crawl/errors?crawl=999", "", 404, nil)
	apptest.Call(t, h, "GET", "/api/crawl/errors?limit=501", "", 400, nil)

	empty := New(apptest.Empty(t))
	apptest.Call(t, empty, "GET", "/api/crawl/errors", "", 200, &some)
	if some.Crawl != 0 || some.Total != 0 {
		t.Errorf("a project never crawled: %+v", some)
	}
}
