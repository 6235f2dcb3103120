package app

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"math"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"sitesift/sites"
	"sitesift/sites/store"
)

// The review project: the worked example of importance/agreement_test.go
// on a small web. Three librarians rate five sites:
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
// give s1, s4, s2, s3 in-linking sites 3, 2, 1, 0, and PageRank and HITS
// authority in that same order: all three rank the four sites exactly as
// the reference. OPIC is set against it: s1 0.1, s2 0.4, s3 0.3, s4 0.2 of
// the total, so its quantile ranks 1, 4, 3, 2 never equal the reference.
func reviewProject(t *testing.T) (*App, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "project")
	p, err := OpenProject(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	t.Cleanup(func() {
		if !closed {
			p.Close()
		}
	})
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
		pg("http://x.test/", "Cartography news", "News about maps.", "http://s1.test/", "http://s4.test/maps"),
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
	a := New(Options{Project: p})
	t.Cleanup(a.Close)
	reviewClosers[a] = func() { closed = true }
	for lib, rs := range map[string][]int{"ana": {4, 3, 1, 2, 0}, "ben": {4, 2, 1, 3, 2}, "cleo": {3, 2, 2, 0, 0}} {
		for i, v := range rs {
			if v > 0 {
				if _, err := a.Rate(ctx, lib, "s"+strconv.Itoa(i+1)+".test", v, ""); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return a, dir
}

// reviewClosers marks the review projects closed by closeProject, so that
// their cleanup does not close them twice. The tests using it are not
// parallel.
var reviewClosers = map[*App]func(){}

// closeProject closes the project under a, so that the CLI can open it.
func closeProject(t *testing.T, a *App) {
	t.Helper()
	a.Close()
	if err := a.project.Close(); err != nil {
		t.Fatal(err)
	}
	reviewClosers[a]()
	delete(reviewClosers, a)
}

func readCSV(t *testing.T, s string) [][]string {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(s)).ReadAll()
	if err != nil {
		t.Fatalf("%v in\n%s", err, s)
	}
	return recs
}

func cellNear(t *testing.T, row []string, col int, want float64) {
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

func TestAgreementCLI(t *testing.T) {
	a, dir := reviewProject(t)
	closeProject(t, a)
	code, out, stderr := runCLI(t, "agreement", "--project", dir, "--format", "csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if first, _, _ := strings.Cut(out, "\n"); first != "rater,kind,sites,score_pct,score_loo_pct,kappa_w,spearman" {
		t.Fatalf("CSV header %q", first)
	}
	nan := math.NaN()
	want := []struct {
		rater, kind, sites        string
		pct, loo, kappa, spearman float64
	}{
		// Hand-computed in importance/agreement_test.go.
		{"ana", "librarian", "4", 50, 25, 0.8, 0.8},
		{"ben", "librarian", "4", 100, 25, 1, 1},
		// cleo = [3,2,2] against means [11/3, 7/3, 4/3]: average ranks
		// [3, 1.5, 1.5] and [3, 2, 1] correlate 1.5/√3 = √3/2.
		{"cleo", "librarian", "3", 100.0 / 3, 0, 0.625, math.Sqrt(3) / 2},
		// OPIC ranks 1, 4, 3, 2 against 4, 2, 1, 3: none equal.
		// Observed quadratic disagreement (9+4+4+1)/9/4 = 1/2, expected
		// 5/18 (uniform marginals) → κw = 1 − 9/5 = −0.8; Spearman
		// 1 − 6·18/(4·15) = −0.8.
		{"opic", "measure", "4", 0, nan, -0.8, -0.8},
		{"pagerank", "measure", "4", 100, nan, 1, 1},
		{"hits_authority", "measure", "4", 100, nan, 1, 1},
		{"in_sites", "measure", "4", 100, nan, 1, 1},
	}
	recs := readCSV(t, out)[1:]
	if len(recs) != len(want) {
		t.Fatalf("%d rows, want %d:\n%s", len(recs), len(want), out)
	}
	for i, w := range want {
		r := recs[i]
		if r[0] != w.rater || r[1] != w.kind || r[2] != w.sites {
			t.Errorf("row %d = %v, want %s %s %s", i, r, w.rater, w.kind, w.sites)
			continue
		}
		cellNear(t, r, 3, w.pct)
		cellNear(t, r, 4, w.loo)
		cellNear(t, r, 5, w.kappa)
		cellNear(t, r, 6, w.spearman)
	}
	if strings.Contains(out, "#") || strings.Contains(out, "xcluded") {
		t.Errorf("the CSV holds more than its rows:\n%s", out)
	}

	code, out, _ = runCLI(t, "agreement", "--project", dir, "--rater", "cleo")
	if code != 0 || !strings.Contains(out, "Excluded: 1 sites rated by a single librarian") ||
		!strings.Contains(out, "Confusion of cleo") || !strings.Contains(out, "0.2  0.3  0.4") {
		t.Errorf("table:\n%s", out)
	}

	code, out, _ = runCLI(t, "agreement", "--project", dir, "--format", "json", "--biased")
	var ag struct {
		Excluded       int      `json:"excluded"`
		ReferenceSites int      `json:"reference_sites"`
		Bias           *float64 `json:"bias"`
		Favoured       int      `json:"favoured"`
		Rows           []struct {
			Rater       string     `json:"rater"`
			ScoreLOOPct *float64   `json:"score_loo_pct"`
			ScorePct    *float64   `json:"score_pct"`
			Thresholds  []*float64 `json:"thresholds"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &ag); err != nil || code != 0 {
		t.Fatalf("json: %v\n%s", err, out)
	}
	// s1 alone has a mean rating ≥ 3 (11/3); s4's is 2.5.
	if ag.Excluded != 1 || ag.ReferenceSites != 4 || ag.Bias == nil || *ag.Bias != DefaultBias || ag.Favoured != 1 || len(ag.Rows) != 9 {
		t.Fatalf("json report %+v", ag)
	}
	if ag.Rows[3].Rater != "opic" || ag.Rows[3].ScoreLOOPct != nil || len(ag.Rows[3].Thresholds) != 3 ||
		math.Abs(*ag.Rows[3].Thresholds[0]-0.2) > 1e-12 || ag.Rows[0].ScoreLOOPct == nil {
		t.Errorf("json rows %+v %+v", ag.Rows[0], ag.Rows[3])
	}
	if ag.Rows[7].Rater != MeasureBiased || ag.Rows[8].Rater != MeasureBiasedCV || ag.Rows[7].ScorePct == nil || ag.Rows[8].ScorePct == nil {
		t.Errorf("biased rows %+v %+v", ag.Rows[7], ag.Rows[8])
	}

	for _, bad := range [][]string{
		{"agreement", "--project", dir, "--format", "csv", "--rater", "ana"},
		{"agreement", "--project", dir, "--format", "xml"},
	} {
		if code, _, _ := runCLI(t, bad...); code != 2 {
			t.Errorf("%v: exit %d, want 2", bad, code)
		}
	}
	if code, _, stderr := runCLI(t, "agreement", "--project", dir, "--rater", "nobody"); code != 1 || !strings.Contains(stderr, `no rater "nobody"`) {
		t.Errorf("unknown rater: %d %s", code, stderr)
	}
}

func TestAgreementAPI(t *testing.T) {
	a, _ := reviewProject(t)
	h := a.Handler()
	var ag Agreement
	var raw struct {
		Confusion struct {
			Rater  string   `json:"rater"`
			Kind   string   `json:"kind"`
			Matrix [][4]int `json:"matrix"`
		} `json:"confusion"`
	}
	call(t, h, "GET", "/api/agreement?rater=cleo", "", 200, &raw)
	// cleo = [3,2,2] against reference [4,2,1].
	want := [][4]int{{0, 1, 0, 0}, {0, 1, 0, 0}, {0, 0, 0, 0}, {0, 0, 1, 0}}
	if raw.Confusion.Rater != "cleo" || raw.Confusion.Kind != KindLibrarian || !slices.Equal(raw.Confusion.Matrix, want) {
		t.Errorf("confusion %+v", raw.Confusion)
	}
	call(t, h, "GET", "/api/agreement?rater=opic", "", 200, &raw)
	// opic ranks s1..s4 1, 4, 3, 2 against 4, 2, 1, 3.
	want = [][4]int{{0, 0, 1, 0}, {0, 0, 0, 1}, {0, 1, 0, 0}, {1, 0, 0, 0}}
	if raw.Confusion.Kind != KindMeasure || !slices.Equal(raw.Confusion.Matrix, want) {
		t.Errorf("opic confusion %+v", raw.Confusion)
	}
	call(t, h, "GET", "/api/agreement?biased=true&bias=4", "", 200, &ag)
	if ag.Bias == nil || *ag.Bias != 4 || ag.Confusion != nil || len(ag.Rows) != 9 {
		t.Errorf("biased agreement: bias %v, %d rows", ag.Bias, len(ag.Rows))
	}
	call(t, h, "GET", "/api/agreement?rater=nobody", "", 400, nil)
	call(t, h, "GET", "/api/agreement?biased=maybe", "", 400, nil)
	call(t, h, "GET", "/api/agreement?bias=-1", "", 400, nil)
}

func TestBiasedRanking(t *testing.T) {
	a, dir := reviewProject(t)
	ctx := context.Background()
	br, err := a.BiasedPageRank(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if br.Bias != DefaultBias || br.Favoured != 1 {
		t.Errorf("bias %v, favoured %d", br.Bias, br.Favoured)
	}
	var sum float64
	for _, v := range br.Rank {
		sum += v
	}
	// s1 (mean 11/3) gains from the bias, s5 (mean 2) does not; the
	// stored, unbiased PageRank is what Plain gives.
	if math.Abs(sum-1) > 1e-9 || br.Rank["s1.test"] <= br.Plain["s1.test"] || br.Rank["s5.test"] >= br.Plain["s5.test"] {
		t.Errorf("biased %v plain %v", br.Rank, br.Plain)
	}
	closeProject(t, a)
	code, out, stderr := runCLI(t, "rank", "--project", dir, "--biased", "--format", "csv")
	if code != 0 {
		t.Fatal(stderr)
	}
	recs := readCSV(t, out)
	if strings.Join(recs[0], ",") != "site,biased_pagerank,pagerank,opic,mean_rating,favoured" ||
		recs[1][0] != "s1.test" || recs[1][5] != "true" || len(recs) != 8 {
		t.Errorf("rank --biased:\n%s", out)
	}
	if code, _, _ := runCLI(t, "rank", "--project", dir, "--biased", "--weighting", "binary"); code != 2 {
		t.Errorf("--biased --weighting binary: exit %d", code)
	}
}

func TestReviewQueue(t *testing.T) {
	a, _ := reviewProject(t)
	h := a.Handler()
	var q ReviewQueue
	// dan has rated nothing: every site, by OPIC.
	q = ReviewQueue{}
	call(t, h, "GET", "/api/review/queue?librarian=dan&limit=3", "", 200, &q)
	if q.Total != 7 || len(q.Rows) != 3 || q.Rows[0].Site != "s2.test" || q.Rows[0].Status != store.StatusCandidate {
		t.Errorf("dan's queue %+v", q)
	}
	// ana has rated s1–s4.
	q = ReviewQueue{}
	call(t, h, "GET", "/api/review/queue?librarian=ana&order=importance", "", 200, &q)
	if q.Total != 3 || slices.ContainsFunc(q.Rows, func(r QueueItem) bool { return r.Site == "s1.test" }) {
		t.Errorf("ana's queue %+v", q)
	}
	q = ReviewQueue{}
	call(t, h, "GET", "/api/review/queue?librarian=ana&order=importance&q=s5", "", 200, &q)
	if q.Total != 1 || q.Rows[0].Site != "s5.test" {
		t.Errorf("ana's queue filtered by s5: %+v", q)
	}
	q = ReviewQueue{}
	call(t, h, "GET", "/api/review/queue?librarian=cleo&order=biased", "", 200, &q)
	for i, r := range q.Rows {
		if r.Biased == nil || (i > 0 && *r.Biased > *q.Rows[i-1].Biased) {
			t.Fatalf("biased queue not in biased order: %+v", q.Rows)
		}
	}
	q = ReviewQueue{}
	call(t, h, "GET", "/api/review/queue?librarian=dan&order=search&q=maps", "", 200, &q)
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
	q = ReviewQueue{}
	call(t, h, "GET", "/api/review/queue?librarian=dan&order=community", "", 200, &q)
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
	call(t, h, "PUT", "/api/sites/s2.test/rating", `{"librarian":"dan","rating":2}`, 200, nil)
	q = ReviewQueue{}
	call(t, h, "GET", "/api/review/queue?librarian=dan", "", 200, &q)
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
		call(t, h, "GET", bad, "", 400, nil)
	}
}

func TestReviewPage(t *testing.T) {
	a, _ := reviewProject(t)
	ctx := context.Background()
	if _, err := a.store.SnapshotOPIC(ctx); err != nil {
		t.Fatal(err)
	}
	h := a.Handler()
	var p ReviewPage
	// dan has not rated s1: the three ratings are withheld, counted.
	call(t, h, "GET", "/api/sites/s1.test/review?librarian=dan", "", 200, &p)
	if p.Rating != nil || len(p.Ratings) != 0 || p.OthersRated != 3 {
		t.Errorf("before rating: own %v, others %v, withheld %d", p.Rating, p.Ratings, p.OthersRated)
	}
	if p.PagesCount != 2 || p.InSites != 3 || len(p.InLinks) != 3 || len(p.OutLinks) != 0 ||
		len(p.TopPages) != 2 || p.TopPages[0].URL != "http://s1.test/" || p.TopPages[0].InLinks != 3 ||
		p.TopPages[0].Text == "" || len(p.OPICSeries) != 1 || math.Abs(p.OPICSeries[0].OPIC-0.1) > 1e-12 ||
		p.Selection.Status != store.StatusCandidate {
		t.Errorf("review page %+v", p)
	}
	var raw map[string]json.RawMessage
	call(t, h, "GET", "/api/sites/s1.test/review?librarian=dan", "", 200, &raw)
	for _, k := range []string{"communities", "ratings", "top_pages", "in_links", "out_links", "opic_series"} {
		if s := string(raw[k]); s == "" || s == "null" {
			t.Errorf("%s = %s, want a list", k, s)
		}
	}
	// The site page withholds them too, for a librarian who has not rated.
	var d struct {
		Ratings []store.Rating `json:"ratings"`
	}
	call(t, h, "GET", "/api/sites/s1.test?librarian=dan", "", 200, &d)
	if len(d.Ratings) != 0 {
		t.Errorf("site page shows dan %d ratings before he rates", len(d.Ratings))
	}
	call(t, h, "GET", "/api/sites/s1.test", "", 200, &d)
	if len(d.Ratings) != 3 {
		t.Errorf("site page without librarian: %d ratings, want all 3", len(d.Ratings))
	}

	call(t, h, "PUT", "/api/sites/s1.test/rating", `{"librarian":"dan","rating":4,"note":"unique maps"}`, 200, nil)
	call(t, h, "GET", "/api/sites/s1.test/review?librarian=dan", "", 200, &p)
	if p.Rating == nil || p.Rating.Note != "unique maps" || len(p.Ratings) != 3 || p.OthersRated != 0 {
		t.Errorf("after rating: own %+v, others %v", p.Rating, p.Ratings)
	}
	for _, o := range p.Ratings {
		if o.Librarian == "dan" {
			t.Errorf("own rating among the others: %+v", p.Ratings)
		}
	}
	call(t, h, "GET", "/api/sites/s1.test/review", "", 400, nil)
	call(t, h, "GET", "/api/sites/nowhere.test/review?librarian=dan", "", 404, nil)
}

func TestSelectionAPI(t *testing.T) {
	a, _ := reviewProject(t)
	h := a.Handler()
	var sel store.Selection
	call(t, h, "PUT", "/api/sites/s1.test/selection", `{"librarian":"ana","status":"nominated","note":"maps","subject":"cartography"}`, 200, &sel)
	if sel.Status != store.StatusNominated || sel.DecidedBy != "ana" || sel.Subject != "cartography" {
		t.Errorf("nominated: %+v", sel)
	}
	// No note or subject given: they stay.
	call(t, h, "PUT", "/api/sites/s1.test/selection", `{"librarian":"ben","status":"approved"}`, 200, &sel)
	if sel.Status != store.StatusApproved || sel.DecidedBy != "ben" || sel.Note != "maps" || sel.Subject != "cartography" {
		t.Errorf("approved: %+v", sel)
	}
	env := call(t, h, "PUT", "/api/sites/s2.test/selection", `{"librarian":"ana","status":"approved"}`, 409, nil)
	if env.ErrorType != "conflict" || !strings.Contains(env.Error, "candidate → approved") {
		t.Errorf("candidate → approved: %+v", env)
	}
	call(t, h, "PUT", "/api/sites/s2.test/selection", `{"librarian":"ana","status":"maybe"}`, 400, nil)
	call(t, h, "PUT", "/api/sites/s2.test/selection", `{"librarian":"","status":"rejected"}`, 400, nil)
	call(t, h, "PUT", "/api/sites/nowhere.test/selection", `{"librarian":"ana","status":"rejected"}`, 404, nil)
	call(t, h, "PUT", "/api/sites/s3.test/selection", `{"librarian":"ana","status":"rejected","note":"off topic"}`, 200, nil)

	var seeds []SelectedSeed
	call(t, h, "GET", "/api/selection", "", 200, &seeds)
	if len(seeds) != 1 || seeds[0].SeedURL != "http://s1.test/" || seeds[0].Note != "maps" {
		t.Errorf("approved: %+v", seeds)
	}
	call(t, h, "GET", "/api/selection?status=rejected", "", 200, &seeds)
	if len(seeds) != 1 || seeds[0].Site != "s3.test" {
		t.Errorf("rejected: %+v", seeds)
	}
	for format, want := range map[string]string{
		"txt": "http://s1.test/\n",
		"csv": "seed_url,site,status,subject,note,decided_by,decided_at,opic\nhttp://s1.test/,s1.test,approved,cartography,maps,ben,",
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, uiRequest(h, "GET", "/api/export/selection?format="+format, nil))
		if rec.Code != 200 || !strings.HasPrefix(rec.Body.String(), want) ||
			rec.Header().Get("Content-Disposition") != `attachment; filename="approved.`+format+`"` {
			t.Errorf("export %s: %d %q %v", format, rec.Code, rec.Body, rec.Header())
		}
	}
	call(t, h, "GET", "/api/export/selection?format=xml", "", 400, nil)
	call(t, h, "GET", "/api/selection?status=all", "", 400, nil)
}

func TestLibrariansAPI(t *testing.T) {
	a, _ := reviewProject(t)
	h := a.Handler()
	var l store.Librarian
	call(t, h, "POST", "/api/librarians", `{"name":"zoé"}`, 201, &l)
	call(t, h, "POST", "/api/librarians", `{"name":"ana"}`, 200, &l)
	if l.Name != "ana" || l.Ratings != 4 {
		t.Errorf("existing profile %+v", l)
	}
	call(t, h, "POST", "/api/librarians", `{"name":" "}`, 400, nil)
	var ls []store.Librarian
	call(t, h, "GET", "/api/librarians", "", 200, &ls)
	if len(ls) != 4 || ls[3].Name != "zoé" || ls[3].Ratings != 0 {
		t.Errorf("librarians %+v", ls)
	}
}

func TestSearchFacetsAPI(t *testing.T) {
	a, _ := reviewProject(t)
	h := a.Handler()
	var res SearchResult
	call(t, h, "GET", "/api/search?q=maps", "", 200, &res)
	// "maps" (stemmed "map"): s4.test 2 pages, s1.test 1, hub.test 1, x.test 1.
	if len(res.Facets) != 4 || res.Facets[0].Site != "s4.test" || res.Facets[0].Count != 2 {
		t.Errorf("facets %+v", res.Facets)
	}
	call(t, h, "GET", "/api/search?q=maps+site:s4.test", "", 200, &res)
	if res.Total != 2 || len(res.Facets) != 1 {
		t.Errorf("site: query: total %d facets %+v", res.Total, res.Facets)
	}
	call(t, h, "GET", "/api/search?q=site:", "", 400, nil)
}

func TestRatingsImportCLI(t *testing.T) {
	a, dir := reviewProject(t)
	closeProject(t, a)
	tmp := t.TempDir()
	good := filepath.Join(tmp, "good.csv")
	os.WriteFile(good, []byte("librarian,site,rating,note\ndan,s1.test,4,\"maps, rare\"\ndan,S2.test,2,\nana,s1.test,4,\n"), 0o644)
	code, out, stderr := runCLI(t, "ratings", "import", "--project", dir, good)
	if code != 0 || out != "3 ratings: 2 added, 0 changed, 1 unchanged; new librarians: dan\n" {
		t.Fatalf("import: %d %q %q", code, out, stderr)
	}
	code, out, _ = runCLI(t, "ratings", "import", "--project", dir, good)
	if code != 0 || out != "3 ratings: 0 added, 0 changed, 3 unchanged\n" {
		t.Errorf("second import: %d %q", code, out)
	}
	bad := filepath.Join(tmp, "bad.csv")
	os.WriteFile(bad, []byte("librarian,site,rating,note\neve,s1.test,3,\neve,s2.test,5,\neve,nowhere.test,2,\neve,,2,\n"), 0o644)
	code, out, stderr = runCLI(t, "ratings", "import", "--project", dir, bad)
	wantErr := bad + ":3: rating \"5\" is not a whole number from 1 to 4\n" +
		bad + ":4: unknown site \"nowhere.test\": not a site of this project\n" +
		bad + ":5: empty site\n" +
		"sitesift: ratings import: " + bad + " refused, nothing imported: 3 bad lines\n"
	if code != 1 || out != "" || stderr != wantErr {
		t.Errorf("bad import: exit %d, stdout %q, stderr\n%s\nwant\n%s", code, out, stderr, wantErr)
	}
	code, out, _ = runCLI(t, "librarians", "--project", dir)
	if code != 0 || strings.Contains(out, "eve") || !strings.Contains(out, "dan") {
		t.Errorf("librarians after a refused import:\n%s", out)
	}

	code, out, _ = runCLI(t, "ratings", "export", "--project", dir)
	if code != 0 || !strings.HasPrefix(out, "librarian,site,rating,note\nana,s1.test,4,\nben,s1.test,4,\ncleo,s1.test,3,\ndan,s1.test,4,\"maps, rare\"\n") {
		t.Errorf("export:\n%s", out)
	}
	exported := filepath.Join(tmp, "out.csv")
	if code, _, stderr := runCLI(t, "ratings", "export", "--project", dir, exported); code != 0 {
		t.Fatal(stderr)
	}
	if b, err := os.ReadFile(exported); err != nil || string(b) != out {
		t.Errorf("export to a file differs from stdout: %v", err)
	}
	// The exported file imports into the project as it is: nothing changes.
	code, got, _ := runCLI(t, "ratings", "import", "--project", dir, exported)
	if code != 0 || !strings.Contains(got, ": 0 added, 0 changed, 14 unchanged") {
		t.Errorf("re-import of the export: %q", got)
	}
	if code, _, _ := runCLI(t, "ratings", "import", "--project", dir); code != 2 {
		t.Errorf("import without file: exit %d", code)
	}
	if code, _, _ := runCLI(t, "ratings", "merge", "--project", dir); code != 2 {
		t.Errorf("unknown subcommand: exit %d", code)
	}
}

func TestRatingsImportAPI(t *testing.T) {
	a, _ := reviewProject(t)
	h := a.Handler()
	var res store.RatingsImport
	call(t, h, "POST", "/api/ratings/import", "librarian,site,rating\ndan,s3.test,1\n", 200, &res)
	if res.Added != 1 || res.Rows != 1 {
		t.Errorf("import %+v", res)
	}
	body := "librarian,site,rating,note,colour\n"
	env := call(t, h, "POST", "/api/ratings/import?name=mine.csv", body, 400, nil)
	if !strings.Contains(env.Error, "ratings mine.csv refused") || !strings.Contains(env.Error, `unknown column "colour"`) {
		t.Errorf("unknown column: %+v", env)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, uiRequest(h, "POST", "/api/ratings/import", strings.NewReader(
		"librarian,site,rating,note\ndan,s1.test,0,\ndan,s2.test,3,\ndan,gone.test,3,\ndan,s4.test,3\n")))
	var e struct {
		Status    string `json:"status"`
		ErrorType string `json:"error_type"`
		Data      struct {
			BadLines []BadLine `json:"bad_lines"`
			TotalBad int       `json:"total_bad"`
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
	if _, err := a.store.Selection(context.Background(), "s2.test"); err != nil {
		t.Fatal(err)
	}
	rs, _ := a.store.Ratings(context.Background())
	for _, r := range rs {
		if r.Librarian == "dan" && r.Site != "s3.test" {
			t.Errorf("a refused file imported %+v", r)
		}
	}

	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, uiRequest(h, "GET", "/api/ratings/export", nil))
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "text/csv; charset=utf-8" ||
		!strings.HasPrefix(rec.Body.String(), "librarian,site,rating,note\n") || !strings.Contains(rec.Body.String(), "dan,s3.test,1,\n") {
		t.Errorf("export: %d %v\n%s", rec.Code, rec.Header(), rec.Body)
	}
}

func TestReviewCLI(t *testing.T) {
	a, dir := reviewProject(t)
	closeProject(t, a)
	for _, tc := range []struct {
		args []string
		code int
		want string // in stdout (exit 0) or stderr
	}{
		{[]string{"librarians", "add", "--project", dir, "zoé"}, 0, "librarian zoé added"},
		{[]string{"librarians", "add", "--project", dir, "zoé"}, 0, "exists already"},
		{[]string{"librarians", "list", "--project", dir}, 0, "zoé"},
		{[]string{"rate", "--project", dir, "--librarian", "zoé", "--note", "dull", "S5.test", "1"}, 0, "zoé rated s5.test 1"},
		{[]string{"rate", "--project", dir, "--librarian", "zoé", "s5.test", "5"}, 2, "not 1, 2, 3 or 4"},
		{[]string{"rate", "--project", dir, "s5.test", "3"}, 2, "--librarian NAME is required"},
		{[]string{"rate", "--project", dir, "--librarian", "zoé", "nowhere.test", "3"}, 1, "not found"},
		{[]string{"review", "--project", dir, "--librarian", "ana", "--format", "csv"}, 0,
			"site,status,opic,pagerank,pages,in_sites,out_sites\n"},
		{[]string{"review", "--project", dir, "--librarian", "ana"}, 0, "3 of 3 sites ana has not rated, by importance"},
		{[]string{"review", "--project", dir}, 2, "--librarian NAME is required"},
		{[]string{"review", "--project", dir, "--librarian", "ana", "--order", "colour"}, 1, `unknown order "colour"`},
		{[]string{"selection", "set", "--project", dir, "--librarian", "ana", "--subject", "maps", "s1.test", "nominated"}, 0, "s1.test: nominated by ana"},
		{[]string{"selection", "set", "--project", dir, "--librarian", "ben", "s1.test", "approved"}, 0, "s1.test: approved by ben"},
		{[]string{"selection", "set", "--project", dir, "--librarian", "ben", "s2.test", "approved"}, 1, "candidate → approved"},
		{[]string{"selection", "set", "--project", dir, "--librarian", "ben", "s2.test"}, 2, "give SITE and STATUS"},
		{[]string{"selection", "export", "--project", dir}, 0, "http://s1.test/\n"},
		{[]string{"selection", "export", "--project", dir, "--format", "csv"}, 0,
			"seed_url,site,status,subject,note,decided_by,decided_at,opic\nhttp://s1.test/,s1.test,approved,maps,,ben,"},
		{[]string{"selection", "export", "--project", dir, "--status", "maybe"}, 1, `unknown selection status "maybe"`},
		{[]string{"selection", "--project", dir}, 2, "want set or export"},
	} {
		code, out, stderr := runCLI(t, tc.args...)
		text := out
		if tc.code != 0 {
			text = stderr
		}
		if code != tc.code || !strings.Contains(text, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %d and %q", tc.args, code, out, stderr, tc.code, tc.want)
		}
	}
	code, out, _ := runCLI(t, "selection", "export", "--project", dir, "--format", "json")
	var seeds []map[string]any
	if err := json.Unmarshal([]byte(out), &seeds); err != nil || code != 0 || len(seeds) != 1 || seeds[0]["seed_url"] != "http://s1.test/" ||
		seeds[0]["subject"] != "maps" || seeds[0]["decided_by"] != "ben" || seeds[0]["decided_at"] == nil {
		t.Errorf("json export %v: %s", err, out)
	}
}

// The crawl sink records OPIC snapshots, the last at the end of the crawl.
func TestCrawlOPICSnapshots(t *testing.T) {
	a, h := testApp(t)
	var list SiteList
	call(t, h, "GET", "/api/sites?limit=1", "", 200, &list)
	top := list.Rows[0]
	series, err := a.store.OPICSeries(context.Background(), top.Site)
	if err != nil || len(series) == 0 {
		t.Fatalf("series of %s = %v, %v", top.Site, series, err)
	}
	if last := series[len(series)-1]; math.Abs(last.OPIC-top.OPIC) > 1e-12 {
		t.Errorf("last snapshot of %s = %v, want its final OPIC %v", top.Site, last.OPIC, top.OPIC)
	}
	var p ReviewPage
	call(t, h, "GET", "/api/sites/"+url.PathEscape(top.Site)+"/review?librarian=snap-test", "", 200, &p)
	if len(p.OPICSeries) != len(series) || len(p.TopPages) == 0 {
		t.Errorf("review page of %s: %d points, %d top pages", top.Site, len(p.OPICSeries), len(p.TopPages))
	}
}
