package httpapi

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"math"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"sitesift/app/apptest"
	"sitesift/app/review"
)

func TestAgreementAPI(t *testing.T) {
	a, _ := apptest.Open(t, apptest.ReviewProject(t))
	h := New(a)
	var ag review.Agreement
	var raw struct {
		Confusion struct {
			Rater  string   `json:"rater"`
			Kind   string   `json:"kind"`
			Matrix [][4]int `json:"matrix"`
		} `json:"confusion"`
	}
	apptest.Call(t, h, "GET", "/api/agreement?rater=cleo", "", 200, &raw)
	// cleo = [3,2,2] against reference [4,2,1].
	want := [][4]int{{0, 1, 0, 0}, {0, 1, 0, 0}, {0, 0, 0, 0}, {0, 0, 1, 0}}
	if raw.Confusion.Rater != "cleo" || raw.Confusion.Kind != review.KindLibrarian || !slices.Equal(raw.Confusion.Matrix, want) {
		t.Errorf("confusion %+v", raw.Confusion)
	}
	apptest.Call(t, h, "GET", "/api/agreement?rater=opic", "", 200, &raw)
	// opic ranks s1..s4 1, 4, 3, 2 against 4, 2, 1, 3.
	want = [][4]int{{0, 0, 1, 0}, {0, 0, 0, 1}, {0, 1, 0, 0}, {1, 0, 0, 0}}
	if raw.Confusion.Kind != review.KindMeasure || !slices.Equal(raw.Confusion.Matrix, want) {
		t.Errorf("opic confusion %+v", raw.Confusion)
	}
	apptest.Call(t, h, "GET", "/api/agreement?biased=true&bias=4", "", 200, &ag)
	if ag.Bias == nil || *ag.Bias != 4 || ag.Confusion != nil || len(ag.Rows) != 9 {
		t.Errorf("biased agreement: bias %v, %d rows", ag.Bias, len(ag.Rows))
	}
	apptest.Call(t, h, "GET", "/api/agreement?rater=nobody", "", 400, nil)
	apptest.Call(t, h, "GET", "/api/agreement?biased=maybe", "", 400, nil)
	apptest.Call(t, h, "GET", "/api/agreement?bias=-1", "", 400, nil)
}

func TestSelectionAPI(t *testing.T) {
	a, _ := apptest.Open(t, apptest.ReviewProject(t))
	h := New(a)
	var sel review.Selection
	apptest.Call(t, h, "PUT", "/api/sites/s1.test/selection", `{"librarian":"ana","status":"nominated","note":"maps","subject":"cartography"}`, 200, &sel)
	if sel.Status != review.StatusNominated || sel.DecidedBy != "ana" || sel.Subject != "cartography" {
		t.Errorf("nominated: %+v", sel)
	}
	// No note or subject given: they stay.
	apptest.Call(t, h, "PUT", "/api/sites/s1.test/selection", `{"librarian":"ben","status":"approved"}`, 200, &sel)
	if sel.Status != review.StatusApproved || sel.DecidedBy != "ben" || sel.Note != "maps" || sel.Subject != "cartography" {
		t.Errorf("approved: %+v", sel)
	}
	env := apptest.Call(t, h, "PUT", "/api/sites/s2.test/selection", `{"librarian":"ana","status":"approved"}`, 409, nil)
	if env.ErrorType != "conflict" || !strings.Contains(env.Error, "candidate → approved") {
		t.Errorf("candidate → approved: %+v", env)
	}
	apptest.Call(t, h, "PUT", "/api/sites/s2.test/selection", `{"librarian":"ana","status":"maybe"}`, 400, nil)
	apptest.Call(t, h, "PUT", "/api/sites/s2.test/selection", `{"librarian":"","status":"rejected"}`, 400, nil)
	apptest.Call(t, h, "PUT", "/api/sites/nowhere.test/selection", `{"librarian":"ana","status":"rejected"}`, 404, nil)
	apptest.Call(t, h, "PUT", "/api/sites/s3.test/selection", `{"librarian":"ana","status":"rejected","note":"off topic"}`, 200, nil)

	var seeds []review.SelectedSeed
	apptest.Call(t, h, "GET", "/api/selection", "", 200, &seeds)
	if len(seeds) != 1 || seeds[0].SeedURL != "http://s1.test/" || seeds[0].Note != "maps" {
		t.Errorf("approved: %+v", seeds)
	}
	apptest.Call(t, h, "GET", "/api/selection?status=rejected", "", 200, &seeds)
	if len(seeds) != 1 || seeds[0].Site != "s3.test" {
		t.Errorf("rejected: %+v", seeds)
	}
	for format, want := range map[string]string{
		"txt": "http://s1.test/\n",
		"csv": "site,seed_url,status,nominated_by,nominated_at,approved_by,approved_at,rejected_by,rejected_at,rejected_reason,note,subject,opic,checked,page_only\ns1.test,http://s1.test/,approved,",
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, apptest.Request(h, "GET", "/api/export/selection?format="+format, nil))
		if rec.Code != 200 || !strings.HasPrefix(rec.Body.String(), want) ||
			rec.Header().Get("Content-Disposition") != `attachment; filename="project-approved.`+format+`"` {
			t.Errorf("export %s: %d %q %v", format, rec.Code, rec.Body, rec.Header())
		}
	}
	apptest.Call(t, h, "GET", "/api/export/selection?format=xml", "", 400, nil)
	apptest.Call(t, h, "GET", "/api/selection?status=all", "", 400, nil)

	// An approved site's seed as its page only, and back; refused for
	// another status.
	apptest.Call(t, h, "PUT", "/api/sites/s1.test/selection", `{"librarian":"ben","status":"approved","page_only":true}`, 200, &sel)
	if !sel.PageOnly || sel.Note != "maps" {
		t.Errorf("page only: %+v", sel)
	}
	apptest.Call(t, h, "GET", "/api/selection", "", 200, &seeds)
	if len(seeds) != 1 || !seeds[0].PageOnly {
		t.Errorf("approved, page only: %+v", seeds)
	}
	apptest.Call(t, h, "PUT", "/api/sites/s1.test/selection", `{"librarian":"ben","status":"approved","note":"kept","page_only":null}`, 200, &sel)
	if !sel.PageOnly {
		t.Errorf("page_only null: %+v, want it kept", sel)
	}
	apptest.Call(t, h, "PUT", "/api/sites/s1.test/selection", `{"librarian":"ben","status":"approved","page_only":false}`, 200, &sel)
	if sel.PageOnly {
		t.Errorf("page_only false: %+v", sel)
	}
	env = apptest.Call(t, h, "PUT", "/api/sites/s3.test/selection", `{"librarian":"ana","status":"rejected","page_only":true}`, 400, nil)
	if !strings.Contains(env.Error, "goes with the status approved") {
		t.Errorf("page only on a rejected site: %+v", env)
	}
}

func TestLibrariansAPI(t *testing.T) {
	a, _ := apptest.Open(t, apptest.ReviewProject(t))
	h := New(a)
	var l review.Librarian
	apptest.Call(t, h, "POST", "/api/librarians", `{"name":"zoé"}`, 201, &l)
	apptest.Call(t, h, "POST", "/api/librarians", `{"name":"ana"}`, 200, &l)
	if l.Name != "ana" || l.Ratings != 4 {
		t.Errorf("existing profile %+v", l)
	}
	apptest.Call(t, h, "POST", "/api/librarians", `{"name":" "}`, 400, nil)
	var ls []review.Librarian
	apptest.Call(t, h, "GET", "/api/librarians", "", 200, &ls)
	if len(ls) != 4 || ls[3].Name != "zoé" || ls[3].Ratings != 0 {
		t.Errorf("librarians %+v", ls)
	}
}

func TestSearchFacetsAPI(t *testing.T) {
	a, _ := apptest.Open(t, apptest.ReviewProject(t))
	h := New(a)
	var res review.SearchResult
	apptest.Call(t, h, "GET", "/api/search?q=maps", "", 200, &res)
	// "maps" (stemmed "map"): s4.test 2 pages, s1.test 1, hub.test 1, x.test 1.
	if len(res.Facets) != 4 || res.Facets[0].Site != "s4.test" || res.Facets[0].Count != 2 {
		t.Errorf("facets %+v", res.Facets)
	}
	apptest.Call(t, h, "GET", "/api/search?q=maps+site:s4.test", "", 200, &res)
	if res.Total != 2 || len(res.Facets) != 1 {
		t.Errorf("site: query: total %d facets %+v", res.Total, res.Facets)
	}
	apptest.Call(t, h, "GET", "/api/search?q=site:", "", 400, nil)
}

func TestRatingsImportAPI(t *testing.T) {
	a, p, _ := apptest.OpenProject(t, apptest.ReviewProject(t))
	h := New(a)
	var res review.RatingsImport
	// dan is no librarian of the project: the import asks first, listing
	// the names, and adds them once asked with new_librarians=1.
	env := apptest.Call(t, h, "POST", "/api/ratings/import?name=dan.csv", "librarian,site,rating\nDan,s3.test,1\nana,s3.test,2\n", 409, nil)
	var refusal review.RatingsRefusal
	if json.Unmarshal(env.Data, &refusal) != nil || !slices.Equal(refusal.NewLibrarians, []string{"Dan"}) ||
		!strings.Contains(env.Error, "dan.csv refused, nothing imported") {
		t.Errorf("a file naming a new librarian: %+v", env)
	}
	if libs, err := a.Review.Librarians(context.Background()); err != nil || slices.ContainsFunc(libs, func(l review.Librarian) bool { return l.Name == "Dan" }) {
		t.Errorf("the refused import added a librarian: %+v %v", libs, err)
	}
	apptest.Call(t, h, "POST", "/api/ratings/import?new_librarians=1", "librarian,site,rating\ndan,s3.test,1\n", 200, &res)
	if res.Added != 1 || res.Rows != 1 {
		t.Errorf("import %+v", res)
	}
	body := "librarian,site,rating,note,colour\n"
	env = apptest.Call(t, h, "POST", "/api/ratings/import?name=mine.csv", body, 400, nil)
	if !strings.Contains(env.Error, "ratings mine.csv refused") || !strings.Contains(env.Error, `column 5 is no column of a ratings file`) {
		t.Errorf("unknown column: %+v", env)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, apptest.Request(h, "POST", "/api/ratings/import", strings.NewReader(
		"librarian,site,rating,note\ndan,s1.test,0,\ndan,s2.test,3,\ndan,gone.test,3,\ndan,s4.test,3\n")))
	var e struct {
		Status    string `json:"status"`
		ErrorType string `json:"error_type"`
		Data      struct {
			BadLines []review.BadLine `json:"bad_lines"`
			TotalBad int              `json:"total_bad"`
		} `json:"data"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || rec.Code != 400 || e.ErrorType != "bad_request" {
		t.Fatalf("bad file: %d %s", rec.Code, rec.Body)
	}
	var lines []int
	for _, l := range e.Data.BadLines {
		lines = append(lines, l.Line)
	}
	if !slices.Equal(lines, []int{2, 4, 5}) || e.Data.TotalBad != 3 {
		t.Errorf("bad lines %+v", e.Data)
	}
	if _, err := p.Store.Selection(context.Background(), "s2.test"); err != nil {
		t.Fatal(err)
	}
	rs, _ := p.Store.Ratings(context.Background())
	for _, r := range rs {
		if r.Librarian == "dan" && r.Site != "s3.test" {
			t.Errorf("a refused file imported %+v", r)
		}
	}

	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, apptest.Request(h, "GET", "/api/ratings/export", nil))
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "text/csv; charset=utf-8" ||
		!strings.HasPrefix(rec.Body.String(), "\uFEFFlibrarian,site,rating,note\n") || !strings.Contains(rec.Body.String(), "dan,s3.test,1,\n") {
		t.Errorf("export: %d %v\n%s", rec.Code, rec.Header(), rec.Body)
	}
}

func TestReviewQueue(t *testing.T) {
	a, _ := apptest.Open(t, apptest.ReviewProject(t))
	apptest.AddLibrarians(t, a, "dan")
	h := New(a)
	var q review.ReviewQueue
	// dan has rated nothing: every site, by OPIC.
	q = review.ReviewQueue{}
	apptest.Call(t, h, "GET", "/api/review/queue?librarian=dan&limit=3", "", 200, &q)
	if q.Total != 7 || len(q.Rows) != 3 || q.Rows[0].Site != "s2.test" || q.Rows[0].Status != review.StatusCandidate {
		t.Errorf("dan's queue %+v", q)
	}
	// ana has rated s1–s4.
	q = review.ReviewQueue{}
	apptest.Call(t, h, "GET", "/api/review/queue?librarian=ana&order=importance", "", 200, &q)
	if q.Total != 3 || slices.ContainsFunc(q.Rows, func(r review.QueueItem) bool { return r.Site == "s1.test" }) {
		t.Errorf("ana's queue %+v", q)
	}
	q = review.ReviewQueue{}
	apptest.Call(t, h, "GET", "/api/review/queue?librarian=ana&order=importance&q=s5", "", 200, &q)
	if q.Total != 1 || q.Rows[0].Site != "s5.test" {
		t.Errorf("ana's queue filtered by s5: %+v", q)
	}
	q = review.ReviewQueue{}
	apptest.Call(t, h, "GET", "/api/review/queue?librarian=cleo&order=biased", "", 200, &q)
	for i, r := range q.Rows {
		if r.Biased == nil || (i > 0 && *r.Biased > *q.Rows[i-1].Biased) {
			t.Fatalf("biased queue not in biased order: %+v", q.Rows)
		}
	}
	q = review.ReviewQueue{}
	apptest.Call(t, h, "GET", "/api/review/queue?librarian=dan&order=search&q=maps", "", 200, &q)
	var got []string
	for _, r := range q.Rows {
		got = append(got, r.Site)
		if r.Title == "" {
			t.Errorf("search row without a title: %+v", r)
		}
	}
	slices.Sort(got)
	if want := []string{"hub.test", "s1.test", "s4.test", "x.test"}; !slices.Equal(got, want) || q.Total != 4 {
		t.Errorf("search queue %v (total %d), want %v", got, q.Total, want)
	}
	q = review.ReviewQueue{}
	apptest.Call(t, h, "GET", "/api/review/queue?librarian=dan&order=community", "", 200, &q)
	if q.Total != 7 || len(q.Rows) != 7 {
		t.Errorf("community queue %+v", q)
	}
	grouped := false
	for i, r := range q.Rows {
		if r.Community != nil {
			grouped = true
			if i > 0 && (q.Rows[i-1].Community == nil || *q.Rows[i-1].Community > *r.Community) {
				t.Errorf("community queue out of groups: %+v", q.Rows)
			}
		}
	}
	if !grouped {
		t.Errorf("no site of the community queue has a community: %+v", q.Rows)
	}
	// Rating takes a site off the queue.
	apptest.Call(t, h, "PUT", "/api/sites/s2.test/rating", `{"librarian":"dan","rating":2}`, 200, nil)
	q = review.ReviewQueue{}
	apptest.Call(t, h, "GET", "/api/review/queue?librarian=dan", "", 200, &q)
	if q.Total != 6 || q.Rows[0].Site == "s2.test" {
		t.Errorf("after rating s2: %+v", q)
	}
	for _, bad := range []string{
		"/api/review/queue",
		"/api/review/queue?librarian=dan&order=colour",
		"/api/review/queue?librarian=dan&order=search",
		"/api/review/queue?librarian=dan&order=search&q=%22unclosed",
		"/api/review/queue?librarian=dan&limit=0",
		"/api/review/queue?librarian=dan&limit=501",
	} {
		apptest.Call(t, h, "GET", bad, "", 400, nil)
	}
}

func TestReviewPage(t *testing.T) {
	a, proj, _ := apptest.OpenProject(t, apptest.ReviewProject(t))
	apptest.AddLibrarians(t, a, "dan")
	ctx := context.Background()
	if _, err := proj.Store.SnapshotOPIC(ctx); err != nil {
		t.Fatal(err)
	}
	h := New(a)
	var p review.ReviewPage
	// dan has not rated s1: the three ratings are withheld, counted.
	apptest.Call(t, h, "GET", "/api/sites/s1.test/review?librarian=dan", "", 200, &p)
	if p.Rating != nil || len(p.Ratings) != 0 || p.OthersRated != 3 {
		t.Errorf("before rating: own %v, others %v, withheld %d", p.Rating, p.Ratings, p.OthersRated)
	}
	if p.PagesCount != 2 || p.InSites != 3 || len(p.InLinks) != 3 || len(p.OutLinks) != 0 ||
		len(p.TopPages) != 2 || p.TopPages[0].URL != "http://s1.test/" || p.TopPages[0].InLinks != 3 ||
		p.TopPages[0].Text == "" || len(p.OPICSeries) != 1 || math.Abs(p.OPICSeries[0].OPIC-0.1) > 1e-12 ||
		p.Selection.Status != review.StatusCandidate {
		t.Errorf("review page %+v", p)
	}
	var raw map[string]json.RawMessage
	apptest.Call(t, h, "GET", "/api/sites/s1.test/review?librarian=dan", "", 200, &raw)
	for _, k := range []string{"communities", "ratings", "top_pages", "in_links", "out_links", "opic_series"} {
		if s := string(raw[k]); s == "" || s == "null" {
			t.Errorf("%s = %s, want a list", k, s)
		}
	}
	// The site page withholds them too, for a librarian who has not rated.
	var d struct {
		Ratings []review.Rating `json:"ratings"`
	}
	apptest.Call(t, h, "GET", "/api/sites/s1.test?librarian=dan", "", 200, &d)
	if len(d.Ratings) != 0 {
		t.Errorf("site page shows dan %d ratings before he rates", len(d.Ratings))
	}
	apptest.Call(t, h, "GET", "/api/sites/s1.test", "", 200, &d)
	if len(d.Ratings) != 3 {
		t.Errorf("site page without librarian: %d ratings, want all 3", len(d.Ratings))
	}

	apptest.Call(t, h, "PUT", "/api/sites/s1.test/rating", `{"librarian":"dan","rating":4,"note":"unique maps"}`, 200, nil)
	apptest.Call(t, h, "GET", "/api/sites/s1.test/review?librarian=dan", "", 200, &p)
	if p.Rating == nil || p.Rating.Note != "unique maps" || len(p.Ratings) != 3 || p.OthersRated != 0 {
		t.Errorf("after rating: own %+v, others %v", p.Rating, p.Ratings)
	}
	for _, o := range p.Ratings {
		if o.Librarian == "dan" {
			t.Errorf("own rating among the others: %+v", p.Ratings)
		}
	}
	apptest.Call(t, h, "GET", "/api/sites/s1.test/review", "", 400, nil)
	apptest.Call(t, h, "GET", "/api/sites/nowhere.test/review?librarian=dan", "", 404, nil)
}

// The crawl sink records OPIC snapshots, the last at the end of the crawl.
func TestCrawlOPICSnapshots(t *testing.T) {
	_, proj, h := testProject(t)
	var list review.SiteList
	apptest.Call(t, h, "GET", "/api/sites?limit=1", "", 200, &list)
	top := list.Rows[0]
	series, err := proj.Store.OPICSeries(context.Background(), top.Site)
	if err != nil || len(series) == 0 {
		t.Fatalf("series of %s = %v, %v", top.Site, series, err)
	}
	if last := series[len(series)-1]; math.Abs(last.OPIC-top.OPIC) > 1e-12 {
		t.Errorf("last snapshot of %s = %v, want its final OPIC %v", top.Site, last.OPIC, top.OPIC)
	}
	var p review.ReviewPage
	apptest.Call(t, h, "POST", "/api/librarians", `{"name":"snap-test"}`, 201, nil)
	apptest.Call(t, h, "GET", "/api/sites/"+url.PathEscape(top.Site)+"/review?librarian=snap-test", "", 200, &p)
	if len(p.OPICSeries) != len(series) || len(p.TopPages) == 0 {
		t.Errorf("review page of %s: %d points, %d top pages", top.Site, len(p.OPICSeries), len(p.TopPages))
	}
}

// blindRoutes are the routes that hand out librarians' ratings or notes,
// and what each must not hold while the reader has not rated s5.test:
// ben's rating of it (2) and his note on it.
var blindRoutes = []struct{ name, path string }{
	{"site page", "/api/sites/s5.test"},
	{"site page of the reader", "/api/sites/s5.test?librarian=%s"},
	{"review card", "/api/sites/s5.test/review"},
	{"review queue", "/api/review/queue"},
	{"audit log of the site", "/api/audit?site=s5.test"},
	{"audit log", "/api/audit"},
	{"audit log of ben", "/api/audit?librarian=ben"},
	{"ratings export", "/api/ratings/export"},
	{"ratings file", "/api/export/ratings"},
	{"ratings CSV", "/api/export/ratings.csv"},
	{"sites table", "/api/export/sites"},
	{"sites table JSON", "/api/export/sites?format=json"},
	{"biased ranking", "/api/rank/biased"},
}

// benSees tells whether body shows ben's rating or note of s5.test.
func benSees(t *testing.T, route, body string) bool {
	t.Helper()
	if strings.Contains(body, "benssoupnote") {
		return true
	}
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	if json.Unmarshal([]byte(body), &env) == nil && len(env.Data) > 0 {
		// A JSON answer: any rating object of ben's of s5, or a sites
		// table row of s5 that carries ben's rating.
		return regexp.MustCompile(`"librarian":"ben","site":"s5.test","rating":2`).MatchString(body) ||
			regexp.MustCompile(`"site":"s5.test","biased_pagerank":[^}]*"mean_rating":[0-9]`).MatchString(body) ||
			regexp.MustCompile(`"site":"s5.test"[^}]*"ratings":\{"ben":2`).MatchString(body)
	}
	var table []struct {
		Site    string         `json:"site"`
		Ratings map[string]int `json:"ratings"`
		Mean    *float64       `json:"mean_rating"`
	}
	if json.Unmarshal([]byte(body), &table) == nil { // the sites table in JSON
		for _, r := range table {
			if r.Site == "s5.test" {
				return r.Ratings["ben"] != 0 || r.Mean != nil && *r.Mean != 0
			}
		}
		t.Fatalf("%s: no row of s5.test:\n%s", route, body)
	}
	rows, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(body, "\ufeff"))).ReadAll()
	if err != nil || len(rows) == 0 {
		t.Fatalf("%s: neither JSON nor CSV: %v\n%s", route, err, body)
	}
	ben, mean := slices.Index(rows[0], "ben"), slices.Index(rows[0], "mean_rating")
	for _, r := range rows[1:] {
		switch {
		case rows[0][0] == "librarian" && r[0] == "ben" && r[1] == "s5.test": // the ratings file
			return true
		case r[0] == "s5.test" && ben >= 0 && (r[ben] != "" || mean >= 0 && r[mean] != ""): // the sites table
			return true
		}
	}
	return false
}

// On a team server no route hands a librarian another's rating or note of
// a site she has not rated, whatever her role; once she has rated it every
// route shows them.
func TestTeamRatingsBlindOnEveryRoute(t *testing.T) {
	ts := newTeamServer(t)
	ben := ts.login("ben")
	ts.want(ben, "PUT", "/api/sites/s5.test/note", `{"note":"benssoupnote"}`, 200, "")
	// ana (curator), cleo (approver) and dora (admin) have not rated s5.
	for _, who := range []string{"ana", "cleo", "dora"} {
		s := ts.login(who)
		for _, r := range blindRoutes {
			path := strings.ReplaceAll(r.path, "%s", who)
			rec := ts.want(s, "GET", path, "", 200, "")
			if benSees(t, r.name, rec.Body.String()) {
				t.Errorf("%s (%s) reads ben's rating or note of s5 from %s before rating it:\n%s", who, r.name, path, rec.Body)
			}
		}
	}
	// ben himself sees his own, everywhere.
	for _, r := range blindRoutes {
		if r.name == "review queue" {
			continue // his queue leaves out the sites he rated
		}
		path := strings.ReplaceAll(r.path, "%s", "ben")
		if rec := ts.want(ben, "GET", path, "", 200, ""); !benSees(t, r.name, rec.Body.String()) {
			t.Errorf("ben (%s) does not see his own rating of s5 in %s:\n%s", r.name, path, rec.Body)
		}
	}
	// Once ana has rated s5, every route but her queue shows ben's.
	ana := ts.login("ana")
	ts.want(ana, "PUT", "/api/sites/s5.test/rating", `{"rating":1}`, 200, "")
	for _, r := range blindRoutes {
		if r.name == "review queue" {
			continue
		}
		path := strings.ReplaceAll(r.path, "%s", "ana")
		if rec := ts.want(ana, "GET", path, "", 200, ""); !benSees(t, r.name, rec.Body.String()) {
			t.Errorf("ana (%s) does not see ben's rating of s5 in %s once she rated it:\n%s", r.name, path, rec.Body)
		}
	}
	// A note alone is no rating: cleo's note leaves her blind.
	cleo := ts.login("cleo")
	ts.want(cleo, "PUT", "/api/sites/s5.test/note", `{"note":"looks like soup"}`, 200, "")
	for _, r := range blindRoutes {
		path := strings.ReplaceAll(r.path, "%s", "cleo")
		if rec := ts.want(cleo, "GET", path, "", 200, ""); benSees(t, r.name, rec.Body.String()) {
			t.Errorf("cleo (%s) reads ben's rating of s5 from %s with a note alone:\n%s", r.name, path, rec.Body)
		}
	}
}
