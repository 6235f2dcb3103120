package httpapi

// testApp opens the crawled project with a frontend of one file.
func testApp(t *testing.T) (*App, http.Handler) {
	t.Helper()
	p, err := OpenProject(crawledProject(t), false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	a := New(Options{Project: p, Assets: fstest.MapFS{"index.html": {Data: []byte("<title>sitesift</title>")}}})
	t.Cleanup(a.Close)
	return a, a.Handler()
}

// uiRequest builds a request as the app's own pages send it: to a loopback
// host, and for a write with the JSON (or upload) type and the write token
// of GET /api/session.
func uiRequest(h http.Handler, method, path string, body io.Reader) *http.Request {
	req := httptest.NewRequest(method, path, body)
	req.Host = "127.0.0.1:7777"
	if method == http.MethodGet || method == http.MethodHead {
		return req
	}
	ct := "application/json"
	if t, ok := uploads[req.URL.Path]; ok {
		ct = t + "; charset=utf-8"
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
	req.Header.Set(TokenHeader, env.Data.Token)
	return req
}

// call performs a request and decodes the envelope's data into out.
func call(t *testing.T, h http.Handler, method, path, body string, wantStatus int, out any) envelope {
	t.Helper()
	req := uiRequest(h, method, path, strings.NewReader(body))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != wantStatus {
		t.Fatalf("%s %s: status %d, want %d; body %s", method, path, rec.Code, wantStatus, rec.Body)
	}
	var env struct {
		envelope
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
		t.Fatalf("%s %s: %v in %s", method, path, err, rec.Body)
	}
	if out != nil {
		if err := json.Unmarshal(env.Data, out); err != nil {
			t.Fatalf("%s %s: data: %v", method, path, err)
		}
	}
	return env.envelope
}

func TestSitesAPI(t *testing.T) {
	_, h := testApp(t)
	var list SiteList
	call(t, h, "GET", "/api/sites?limit=500", "", 200, &list)
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
	var page SiteList
	call(t, h, "GET", "/api/sites?sort=site&order=asc&offset=2&limit=3", "", 200, &page)
	if len(page.Rows) != 3 || page.Rows[0].Site > page.Rows[1].Site {
		t.Errorf("sorted page by site = %+v", page.Rows)
	}
	call(t, h, "GET", "/api/sites?q=portal", "", 200, &page)
	for _, r := range page.Rows {
		if !strings.Contains(r.Site, "portal") {
			t.Errorf("filter q=portal returned %s", r.Site)
		}
	}
	env := call(t, h, "GET", "/api/sites?sort=colour", "", 400, nil)
	if env.ErrorType != "bad_request" || env.Error == "" {
		t.Errorf("bad sort: %+v", env)
	}
	call(t, h, "GET", "/api/sites?limit=x", "", 400, nil)

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
	call(t, h, "GET", "/api/sites/"+url.PathEscape(top), "", 200, &detail)
	if detail.Site != top || detail.PagesCount == 0 || len(detail.Pages) != detail.PagesCount || len(detail.InLinks) == 0 {
		t.Errorf("detail of %s = %+v", top, detail)
	}
	call(t, h, "GET", "/api/sites/no-such-site.test", "", 404, nil)
}

func TestRatingAPI(t *testing.T) {
	_, h := testApp(t)
	var list SiteList
	call(t, h, "GET", "/api/sites?limit=2", "", 200, &list)
	site := list.Rows[1].Site
	path := "/api/sites/" + url.PathEscape(site) + "/rating"
	call(t, h, "PUT", path, `{"librarian":"api-test","rating":3}`, 200, nil)
	call(t, h, "GET", "/api/sites?limit=2&librarian=api-test", "", 200, &list)
	if r := list.Rows[1].Rating; r == nil || *r != 3 {
		t.Fatalf("rating after PUT = %v, want 3", r)
	}
	for _, body := range []string{`{"librarian":"api-test","rating":5}`, `{"librarian":"","rating":2}`, `{"librarian":"x","rating":2,"colour":1}`, `not json`} {
		call(t, h, "PUT", path, body, 400, nil)
	}
	call(t, h, "PUT", "/api/sites/no-such-site.test/rating", `{"librarian":"api-test","rating":2}`, 404, nil)
	call(t, h, "DELETE", path+"?librarian=api-test", "", 200, nil)
	call(t, h, "GET", "/api/sites?limit=2&librarian=api-test", "", 200, &list)
	if list.Rows[1].Rating != nil {
		t.Errorf("rating after DELETE = %v", *list.Rows[1].Rating)
	}
	var info ProjectInfo
	call(t, h, "GET", "/api/project", "", 200, &info)
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
	var res SearchResult
	call(t, h, "GET", "/api/search?q=directory", "", 200, &res)
	if res.Total == 0 || len(res.Hits) == 0 || res.Hits[0].Title == "" {
		t.Fatalf("search directory: %+v", res)
	}
	site := res.Hits[0].Site
	call(t, h, "GET", "/api/search?q=directory&site="+url.QueryEscape(site), "", 200, &res)
	for _, hit := range res.Hits {
		if hit.Site != site {
			t.Errorf("site filter %s returned %s", site, hit.URL)
		}
	}
	call(t, h, "GET", "/api/search?q=", "", 400, nil)
}

func TestExportAPI(t *testing.T) {
	_, h := testApp(t)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, uiRequest(h, "GET", "/api/export/seeds?method=importance&format=csv&count=5", nil))
	if rec.Code != 200 || !strings.Contains(rec.Header().Get("Content-Disposition"), "seeds.csv") {
		t.Fatalf("export: %d %v", rec.Code, rec.Header())
	}
	rows, err := csv.NewReader(rec.Body).ReadAll()
	if err != nil || len(rows) != 6 || strings.Join(rows[0], ",") != "seed_url,site,opic,pagerank,pages" {
		t.Fatalf("export csv = %v, %v", rows, err)
	}
	if !strings.HasPrefix(rows[1][0], "http://") || !strings.HasSuffix(rows[1][0], "/") {
		t.Errorf("seed url %q", rows[1][0])
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, uiRequest(h, "GET", "/api/export/seeds?method=importance&format=txt&count=3", nil))
	if lines := strings.Split(strings.TrimSpace(rec.Body.String()), "\n"); len(lines) != 3 {
		t.Errorf("txt export has %d lines", len(lines))
	}
	call(t, h, "GET", "/api/export/seeds?method=importance&format=xml&count=3", "", 400, nil)
	call(t, h, "GET", "/api/export/seeds?method=importance&count=0", "", 400, nil)
}

func TestUnknownAPIAndAssets(t *testing.T) {
	_, h := testApp(t)
	env := call(t, h, "GET", "/api/nothing-here", "", 404, nil)
	if env.Status != "error" || env.ErrorType != "not_found" {
		t.Errorf("unknown endpoint: %+v", env)
	}
	call(t, h, "POST", "/api/sites", "", 404, nil)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, uiRequest(h, "GET", "/", nil))
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "<title>sitesift</title>") {
		t.Errorf("GET / = %d %q", rec.Code, rec.Body)
	}
}

func TestCrawlAPI(t *testing.T) {
	crawledProject(t)
	p, err := OpenProject(t.TempDir(), true)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	a := New(Options{Project: p})
	defer a.Close()
	h := a.Handler()
	var st CrawlStatus
	call(t, h, "GET", "/api/crawl", "", 200, &st)
	if st.State != StateIdle {
		t.Errorf("state before any crawl = %q", st.State)
	}
	env := call(t, h, "POST", "/api/crawl", `{"seeds":["http://a.test/","mailto:x@y"]}`, 400, nil)
	if !strings.Contains(env.Error, "seed 2") {
		t.Errorf("bad seed error %q does not name the seed", env.Error)
	}
	call(t, h, "POST", "/api/crawl/stop", "", 409, nil)
	body, _ := json.Marshal(CrawlRequest{Seeds: crawled.seeds, MaxPages: 2000, MaxPagesPerSite: 30, DelayMS: 20, Parallel: 2, Proxy: crawled.proxy})
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, uiRequest(h, "POST", "/api/crawl", bytes.NewReader(body)))
	if rec.Code != http.StatusAccepted {
		t.Fatalf("start crawl: %d %s", rec.Code, rec.Body)
	}
	call(t, h, "POST", "/api/crawl", string(body), 409, nil)

	// The event stream sends the status at once.
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	ev := httptest.NewRecorder()
	h.ServeHTTP(ev, uiRequest(h, "GET", "/api/crawl/events", nil).WithContext(ctx))
	if !strings.HasPrefix(ev.Body.String(), "event: status\ndata: {") {
		t.Errorf("event stream starts with %q", ev.Body.String())
	}
	call(t, h, "POST", "/api/crawl/pause", "", 200, &st)
	call(t, h, "POST", "/api/crawl/resume", "", 200, &st)
	time.Sleep(300 * time.Millisecond)
	call(t, h, "POST", "/api/crawl/stop", "", 200, &st)
	deadline := time.Now().Add(10 * time.Second)
	for st.State != StateStopped && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		call(t, h, "GET", "/api/crawl", "", 200, &st)
	}
	if st.State != StateStopped || st.Pages == 0 || st.Pages >= 2000 {
		t.Fatalf("after stop: %+v", st)
	}
	var info ProjectInfo
	call(t, h, "GET", "/api/project", "", 200, &info)
	if info.Pages != st.Pages {
		t.Errorf("store has %d pages, crawl fetched %d: the final batch was lost", info.Pages, st.Pages)
	}
}

func TestCrawlStatusOfLastCrawl(t *testing.T) {
	_, h := testApp(t)
	var st CrawlStatus
	call(t, h, "GET", "/api/crawl", "", 200, &st)
	if st.State != StateDone || st.Pages != 150 || st.MaxPages != 150 || st.Strategy != "greedy" || st.Sites == 0 || len(st.Top) != 10 {
		t.Errorf("status of the project's last crawl = %+v", st)
	}
	if st.Top[0].OPIC < st.Top[9].OPIC {
		t.Errorf("top sites not by importance: %+v", st.Top)
	}
}
