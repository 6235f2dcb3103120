package app

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"sitesift/importance"
	"sitesift/sites"
)

// mkPage is a fetched page of rawURL linking to links.
func mkPage(t *testing.T, rawURL string, links ...string) sites.Page {
	t.Helper()
	site, err := sites.Of(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	return sites.Page{URL: rawURL, Site: site, Status: 200, ContentType: "text/html", Title: rawURL, Links: links}
}

// communityProject builds a project with two communities across sites and
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
func buildCommunityProject(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "project")
	p, err := OpenProject(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var pages []sites.Page
	auths := []string{"http://a1.test/", "http://a2.test/", "http://a3.test/"}
	for i := 1; i <= 3; i++ {
		u := "http://h" + strconv.Itoa(i) + ".test/links"
		pages = append(pages, mkPage(t, u, append(slices.Clone(auths), "http://h"+strconv.Itoa(i)+".test/")...))
	}
	for i := 1; i <= 2; i++ {
		pages = append(pages, mkPage(t, "http://g"+strconv.Itoa(i)+".test/list", "http://b1.test/", "http://b2.test/"))
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
		pages = append(pages, mkPage(t, u, links...))
	}
	pages = append(pages, mkPage(t, "http://a1.test/", "http://g1.test/list"))
	var states []sites.SiteState
	for i, s := range []string{"h1.test", "a1.test", "a2.test", "a3.test", "g1.test", "b1.test",
		"nav.test", "h2.test", "h3.test", "g2.test", "b2.test"} {
		states = append(states, sites.SiteState{Site: s, Cash: 0, History: float64(20 - i)})
	}
	if err := p.Store.SaveCrawlBatch(context.Background(), pages, states); err != nil {
		t.Fatal(err)
	}
	if err := New(Options{Project: p}).UpdatePageRank(context.Background()); err != nil {
		t.Fatal(err)
	}
	return dir
}

// openApp opens the project in dir; close closes it (also at cleanup).
func openApp(t *testing.T, dir string) (a *App, close func()) {
	t.Helper()
	p, err := OpenProject(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	a = New(Options{Project: p})
	var once sync.Once
	close = func() { once.Do(func() { a.Close(); p.Close() }) }
	t.Cleanup(close)
	return a, close
}

// communityProject is the project of buildCommunityProject, open.
func communityProject(t *testing.T) (*App, string) {
	t.Helper()
	dir := buildCommunityProject(t)
	a, _ := openApp(t, dir)
	return a, dir
}

func TestCommunitiesOnPageGraph(t *testing.T) {
	a, _ := communityProject(t)
	ctx := context.Background()
	cs, err := a.Communities(ctx, 5, importance.DefaultCoreOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 2 {
		t.Fatalf("%d communities, want 2 (the graph runs out of links): %+v", len(cs), cs)
	}
	sortedCopy := func(s []string) []string { s = slices.Clone(s); sort.Strings(s); return s }
	want := []struct{ hubs, auths []string }{
		{[]string{"http://h1.test/links", "http://h2.test/links", "http://h3.test/links"},
			[]string{"http://a1.test/", "http://a2.test/", "http://a3.test/"}},
		{[]string{"http://g1.test/list", "http://g2.test/list"}, []string{"http://b1.test/", "http://b2.test/"}},
	}
	for i, c := range cs {
		if c.Core != i || !reflect.DeepEqual(sortedCopy(c.Hubs), want[i].hubs) ||
			!reflect.DeepEqual(sortedCopy(c.Authorities), want[i].auths) {
			t.Errorf("community %d = %+v, want hubs %v authorities %v", i, c, want[i].hubs, want[i].auths)
		}
		if c.CoverDensity != 100 || !slices.Contains(c.Hubs, c.Seed) || c.HubScore <= 0 {
			t.Errorf("community %d: density %v, seed %s, hub score %v", i, c.CoverDensity, c.Seed, c.HubScore)
		}
		if site, _ := sites.Of(c.Seed); c.Site != site {
			t.Errorf("community %d: site %q, seed %q", i, c.Site, c.Seed)
		}
	}
	// Ties among equal hubs go to the lowest URL.
	if cs[0].Seed != "http://h1.test/links" || cs[1].Seed != "http://g1.test/list" {
		t.Errorf("seeds %s, %s", cs[0].Seed, cs[1].Seed)
	}
	// Deterministic: a fresh app on the same project gives the same cores.
	b := New(Options{Project: a.project})
	again, err := b.Communities(ctx, 5, importance.DefaultCoreOptions())
	if err != nil || !reflect.DeepEqual(again, cs) {
		t.Errorf("second run differs: %+v, %v", again, err)
	}
	// The memo hands out copies.
	cs[0].Hubs[0] = "changed"
	if again, _ := a.Communities(ctx, 5, importance.DefaultCoreOptions()); again[0].Hubs[0] == "changed" {
		t.Error("editing a result changed the memo")
	}
	// Fixed size: two hubs and two authorities of the first community.
	opt := importance.DefaultCoreOptions()
	opt.CoreSize, opt.NewMembers = 4, 1
	fixed, err := a.Communities(ctx, 1, opt)
	if err != nil || len(fixed) != 1 || len(fixed[0].Hubs)+len(fixed[0].Authorities) != 4 ||
		!strings.HasPrefix(fixed[0].Seed, "http://h") {
		t.Errorf("fixed size 4: %+v, %v", fixed, err)
	}
	for _, bad := range []importance.CoreOptions{{HITS: importance.DefaultHITSOptions(), CoverDensity: 0},
		{HITS: importance.DefaultHITSOptions(), CoverDensity: 120}, {HITS: importance.DefaultHITSOptions(), CoreSize: 1}} {
		if _, err := a.Communities(ctx, 2, bad); err == nil {
			t.Errorf("options %+v accepted", bad)
		}
	}
	if _, err := a.Communities(ctx, 0, importance.DefaultCoreOptions()); err == nil {
		t.Error("count 0 accepted")
	}
}

func TestCommunitiesImportedGraph(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "project")
	p, err := OpenProject(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	// A site graph with names that hold paths, as polblogs has.
	var edges []sites.Edge
	names := []string{"blog.test/x", "blog.test/y", "news.test", "mag.test", "other.test"}
	for _, h := range []string{"blog.test/x", "blog.test/y", "other.test"} {
		for _, a := range []string{"news.test", "mag.test"} {
			edges = append(edges, sites.Edge{From: h, To: a, Weight: 1})
		}
	}
	if _, err := p.Store.ImportGraph(context.Background(), "test.tsv", names, edges, 0); err != nil {
		t.Fatal(err)
	}
	a := New(Options{Project: p})
	defer a.Close()
	cs, err := a.Communities(context.Background(), 3, importance.DefaultCoreOptions())
	if err != nil || len(cs) != 1 {
		t.Fatalf("%+v, %v", cs, err)
	}
	if cs[0].Seed != "http://blog.test/x/" || cs[0].Site != "blog.test/x" || len(cs[0].Hubs) != 3 {
		t.Errorf("imported graph community %+v", cs[0])
	}
	g, err := a.Graph(context.Background(), 10, cs)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range g.Nodes {
		if n.Core != 0 {
			t.Errorf("node %+v: every site is in core 0", n)
		}
	}
}

func TestCLISeedsCommunities(t *testing.T) {
	dir := buildCommunityProject(t)
	code, out, stderr := runCLI(t, "seeds", "--project", dir, "--count", "3")
	if code != 0 || out != "http://h1.test/links\nhttp://g1.test/list\n" {
		t.Errorf("txt: %d %q %s", code, out, stderr)
	}
	code, out, stderr = runCLI(t, "seeds", "--project", dir, "--count", "3", "--format", "csv")
	if code != 0 {
		t.Fatalf("csv: %d %s", code, stderr)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rows[0], ",") != "seed_url,site,core,hubs,authorities,cover_density,hub_score" {
		t.Fatalf("csv header %q", rows[0])
	}
	if len(rows) != 3 || strings.Join(rows[1][:6], ",") != "http://h1.test/links,h1.test,0,3,3,100" ||
		strings.Join(rows[2][:6], ",") != "http://g1.test/list,g1.test,1,2,2,100" {
		t.Errorf("csv rows %q", rows[1:])
	}
	if h, err := strconv.ParseFloat(rows[1][6], 64); err != nil || !(h > 0 && h <= 1) {
		t.Errorf("hub score %q", rows[1][6])
	}
	code, out, stderr = runCLI(t, "seeds", "--project", dir, "--count", "3", "--format", "json")
	if code != 0 {
		t.Fatalf("json: %d %s", code, stderr)
	}
	var cores []map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &cores); err != nil || len(cores) != 2 {
		t.Fatalf("json %q: %v", out, err)
	}
	for _, c := range cores {
		var keys []string
		for k := range c {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if strings.Join(keys, ",") != "authorities,core,cover_density,hubs,seed" {
			t.Errorf("json core keys %v", keys)
		}
	}
	var first struct {
		Core         int      `json:"core"`
		Seed         string   `json:"seed"`
		Hubs         []string `json:"hubs"`
		Authorities  []string `json:"authorities"`
		CoverDensity float64  `json:"cover_density"`
	}
	json.Unmarshal(cores[0]["hubs"], &first.Hubs)
	json.Unmarshal(cores[0]["seed"], &first.Seed)
	json.Unmarshal(cores[0]["cover_density"], &first.CoverDensity)
	if first.Seed != "http://h1.test/links" || len(first.Hubs) != 3 || first.CoverDensity != 100 {
		t.Errorf("json first core %+v", first)
	}
	// Fixed size, and the old method.
	code, out, _ = runCLI(t, "seeds", "--project", dir, "--count", "1", "--core-size", "4", "--format", "csv")
	if rows, _ := csv.NewReader(strings.NewReader(out)).ReadAll(); code != 0 || len(rows) != 2 || rows[1][3] != "2" || rows[1][4] != "2" {
		t.Errorf("--core-size 4: %d %q", code, out)
	}
	code, out, _ = runCLI(t, "seeds", "--project", dir, "--count", "2", "--method", "importance")
	if code != 0 || out != "http://h1.test/\nhttp://a1.test/\n" {
		t.Errorf("--method importance: %d %q", code, out)
	}
}

func TestCLISeedsUsageErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nothing")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--density", "90", "--core-size", "4"}, "exclusive"},
		{[]string{"--new-members", "2"}, "--new-members goes with --core-size"},
		{[]string{"--method", "importance", "--density", "90"}, "--density goes with --method communities"},
		{[]string{"--method", "magic"}, `unknown method "magic"`},
		{[]string{"--density", "0"}, "cover density"},
		{[]string{"--density", "101"}, "cover density"},
		{[]string{"--core-size", "1"}, "core size"},
		{[]string{"--hits-iterations", "0"}, "HITS iterations"},
		{[]string{"--format", "xml"}, `unknown format "xml"`},
	} {
		args := append([]string{"seeds", "--project", missing, "--count", "3"}, tc.args...)
		code, _, stderr := runCLI(t, args...)
		if code != 2 || !strings.Contains(stderr, tc.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"export", "--project", missing}, "--what"},
		{[]string{"export", "--project", missing, "--what", "warc"}, `unknown --what "warc"`},
		{[]string{"export", "--project", missing, "--what", "heritrix-precedence", "--buckets", "0"}, "--buckets"},
	} {
		code, _, stderr := runCLI(t, tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("a refused command created %s", missing)
	}
}

func TestExportHeritrixPrecedence(t *testing.T) {
	dir := buildCommunityProject(t)
	out := filepath.Join(t.TempDir(), "precedence.txt")
	if code, _, stderr := runCLI(t, "export", "--project", dir, "--what", "heritrix-precedence", "--out", out); code != 0 {
		t.Fatalf("export: %d %s", code, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	// Heritrix's PrecedenceLoader reads "URI precedence", one space.
	line := regexp.MustCompile(`^http://[a-z0-9.]+/ ([1-9][0-9]*)$`)
	var got []int
	for _, l := range lines {
		m := line.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("line %q is not 'URI precedence'", l)
		}
		p, _ := strconv.Atoi(m[1])
		got = append(got, p)
	}
	// 11 sites with distinct OPIC in 10 buckets: rank r gets 1 + r·10/11.
	want := []int{1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	if !reflect.DeepEqual(got, want) || lines[0] != "http://h1.test/ 1" {
		t.Errorf("precedences %v (first line %q), want %v", got, lines[0], want)
	}
	code, stdout, _ := runCLI(t, "export", "--project", dir, "--what", "heritrix-precedence", "--buckets", "2")
	if code != 0 || !strings.HasPrefix(stdout, "http://h1.test/ 1\n") || !strings.HasSuffix(stdout, " 2\n") {
		t.Errorf("2 buckets: %q", stdout)
	}
}

func TestHeritrixPrecedenceTies(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "project")
	p, err := OpenProject(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var states []sites.SiteState
	for i, h := range []float64{5, 4, 4, 4, 1, 1} {
		states = append(states, sites.SiteState{Site: "s" + strconv.Itoa(i) + ".test", History: h})
	}
	if err := p.Store.SaveCrawlBatch(context.Background(), nil, states); err != nil {
		t.Fatal(err)
	}
	ps, err := New(Options{Project: p}).HeritrixPrecedence(context.Background(), 3)
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, x := range ps {
		got = append(got, x.Precedence)
	}
	// Buckets of 2 by rank; ties take the first one's: 5 | 4 4 4 | 1 1.
	if want := []int{1, 1, 1, 1, 3, 3}; !reflect.DeepEqual(got, want) {
		t.Errorf("precedences %v, want %v", got, want)
	}
}

func TestExportRatingsCSV(t *testing.T) {
	dir := buildCommunityProject(t)
	a, closeApp := openApp(t, dir)
	ctx := context.Background()
	for _, r := range []struct {
		lib, site string
		v         int
	}{{"ben", "h1.test", 4}, {"ana", "h1.test", 3}, {"ana", "a2.test", 1}, {"ben", "b2.test", 2}} {
		if _, err := a.Rate(ctx, r.lib, r.site, r.v, ""); err != nil {
			t.Fatal(err)
		}
	}
	closeApp()
	code, out, stderr := runCLI(t, "export", "--project", dir, "--what", "ratings-csv")
	if code != 0 {
		t.Fatalf("export: %d %s", code, stderr)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rows[0], ",") != "site,opic,pagerank,ana,ben,mean_rating" {
		t.Fatalf("header %q", rows[0])
	}
	if len(rows) != 12 {
		t.Fatalf("%d rows, want 11 sites", len(rows)-1)
	}
	bySite := map[string][]string{}
	for _, r := range rows[1:] {
		bySite[r[0]] = r
	}
	for site, want := range map[string]string{
		"h1.test": "3,4,3.5", "a2.test": "1,,1", "b2.test": ",2,2", "nav.test": ",,",
	} {
		if got := strings.Join(bySite[site][3:], ","); got != want {
			t.Errorf("%s: ratings %q, want %q", site, got, want)
		}
	}
	if rows[1][0] != "h1.test" {
		t.Errorf("first row %q, want the most important site", rows[1])
	}
	if o, err := strconv.ParseFloat(bySite["h1.test"][1], 64); err != nil || !(o > 0) {
		t.Errorf("opic %q", bySite["h1.test"][1])
	}
}

func TestCommunitiesAPI(t *testing.T) {
	a, _ := communityProject(t)
	h := a.Handler()
	var cs []Community
	call(t, h, "GET", "/api/communities?count=4", "", 200, &cs)
	if len(cs) != 2 || cs[0].Seed != "http://h1.test/links" || cs[0].Site != "h1.test" || len(cs[0].Authorities) != 3 {
		t.Fatalf("communities %+v", cs)
	}
	call(t, h, "GET", "/api/communities?count=1&core_size=4&new_members=1", "", 200, &cs)
	if len(cs) != 1 || len(cs[0].Hubs)+len(cs[0].Authorities) != 4 {
		t.Errorf("fixed size: %+v", cs)
	}
	for _, q := range []string{"count=0", "count=x", "density=50&core_size=4", "new_members=2", "density=0",
		"density=abc", "core_size=1", "hits_iterations=0", "count=1001"} {
		env := call(t, h, "GET", "/api/communities?"+q, "", 400, nil)
		if env.ErrorType != "bad_request" {
			t.Errorf("%s: %+v", q, env)
		}
	}

	// The graph is coloured by the current (last) extraction: cores of
	// count=4 at density 100, asked for again.
	call(t, h, "GET", "/api/communities?count=4", "", 200, &cs)
	var g GraphView
	call(t, h, "GET", "/api/graph", "", 200, &g)
	if g.TotalSites != 11 || len(g.Nodes) != 11 {
		t.Fatalf("graph of %d of %d sites", len(g.Nodes), g.TotalSites)
	}
	core := map[string]int{}
	for _, n := range g.Nodes {
		core[n.Site] = n.Core
	}
	for site, want := range map[string]int{"h1.test": 0, "a3.test": 0, "g2.test": 1, "b1.test": 1, "nav.test": -1} {
		if core[site] != want {
			t.Errorf("site %s in core %d, want %d", site, core[site], want)
		}
	}
	links := map[string]float64{}
	for _, l := range g.Links {
		links[l.Source+">"+l.Target] = l.Weight
	}
	if links["h1.test>a1.test"] != 1 || links["nav.test>a1.test"] != 1 || len(g.Links) != 15 {
		t.Errorf("links %v", links)
	}
	call(t, h, "GET", "/api/graph?limit=3", "", 200, &g)
	if len(g.Nodes) != 3 || g.Nodes[0].Site != "h1.test" || g.Nodes[1].Site != "a1.test" {
		t.Errorf("limit 3: %+v", g.Nodes)
	}
	for _, l := range g.Links {
		if l.Source != "h1.test" || l.Target != "a1.test" && l.Target != "a2.test" {
			t.Errorf("link %+v outside the 3 sites shown", l)
		}
	}
	call(t, h, "GET", "/api/graph?limit=0", "", 400, nil)
	// With extraction parameters the graph follows them.
	call(t, h, "GET", "/api/graph?count=1", "", 200, &g)
	for _, n := range g.Nodes {
		if n.Site == "g1.test" && n.Core != -1 {
			t.Errorf("count=1: g1.test in core %d", n.Core)
		}
	}
}

func TestExportSeedsAPI(t *testing.T) {
	a, _ := communityProject(t)
	h := a.Handler()
	get := func(path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, uiRequest(h, "GET", path, nil))
		return rec
	}
	rec := get("/api/export/seeds?format=csv&count=3")
	if rec.Code != 200 || !strings.Contains(rec.Header().Get("Content-Disposition"), "seeds.csv") ||
		!strings.HasPrefix(rec.Body.String(), "seed_url,site,core,hubs,authorities,cover_density,hub_score\nhttp://h1.test/links,h1.test,0,3,3,100,") {
		t.Errorf("communities csv: %d %q", rec.Code, rec.Body)
	}
	if rec = get("/api/export/seeds?method=communities&count=3"); rec.Body.String() != "http://h1.test/links\nhttp://g1.test/list\n" {
		t.Errorf("communities txt: %q", rec.Body)
	}
	if rec = get("/api/export/seeds?method=importance&count=2"); rec.Body.String() != "http://h1.test/\nhttp://a1.test/\n" {
		t.Errorf("importance txt: %q", rec.Body)
	}
	var cores []communityJSON
	if rec = get("/api/export/seeds?format=json&count=3"); json.Unmarshal(rec.Body.Bytes(), &cores) != nil ||
		len(cores) != 2 || rec.Header().Get("Content-Type") != "application/json" {
		t.Errorf("communities json: %q", rec.Body)
	}
	call(t, h, "GET", "/api/export/seeds?method=importance&density=90", "", 400, nil)
	call(t, h, "GET", "/api/export/seeds?method=best", "", 400, nil)
	call(t, h, "GET", "/api/export/seeds?format=xml", "", 400, nil)

	// A list edited by the librarian: one seed of the extraction swapped
	// for another hub of its core, one added by hand.
	post := func(body string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, uiRequest(h, "POST", "/api/export/seeds", strings.NewReader(body)))
		return rec
	}
	rec = post(`{"seeds": ["http://h2.test/links", "HTTP://New.Test", "http://h2.test/links"], "format": "csv"}`)
	rows, err := csv.NewReader(rec.Body).ReadAll()
	if rec.Code != 200 || err != nil || len(rows) != 3 {
		t.Fatalf("edited csv: %d %v %q", rec.Code, err, rows)
	}
	if strings.Join(rows[1][:6], ",") != "http://h2.test/links,h2.test,0,3,3,100" ||
		strings.Join(rows[2], ",") != "http://new.test/,new.test,-1,0,0,0,0" {
		t.Errorf("edited rows %q", rows[1:])
	}
	if rec = post(`{"seeds": ["http://g1.test/list"]}`); rec.Body.String() != "http://g1.test/list\n" {
		t.Errorf("edited txt: %q", rec.Body)
	}
	env := call(t, h, "POST", "/api/export/seeds", `{"seeds": ["http://ok.test/", "ftp://bad.test/x"], "format": "txt"}`, 400, nil)
	if !strings.Contains(env.Error, "ftp://bad.test/x") {
		t.Errorf("bad seed error %q does not name it", env.Error)
	}
	call(t, h, "POST", "/api/export/seeds", `{"seeds": []}`, 400, nil)
	call(t, h, "POST", "/api/export/seeds", `{"seeds": ["http://a.test/"], "format": "pdf"}`, 400, nil)
	call(t, h, "POST", "/api/export/seeds", `{"urls": ["http://a.test/"]}`, 400, nil)

	rec = get("/api/export/heritrix")
	if rec.Code != 200 || !strings.HasPrefix(rec.Body.String(), "http://h1.test/ 1\n") ||
		!strings.Contains(rec.Header().Get("Content-Disposition"), "heritrix-precedence.txt") {
		t.Errorf("heritrix: %d %q", rec.Code, rec.Body)
	}
	call(t, h, "GET", "/api/export/heritrix?buckets=0", "", 400, nil)
	if _, err := a.Rate(context.Background(), "ana", "g1.test", 2, ""); err != nil {
		t.Fatal(err)
	}
	rec = get("/api/export/ratings.csv")
	if rec.Code != 200 || !strings.HasPrefix(rec.Body.String(), "site,opic,pagerank,ana,mean_rating\n") ||
		!strings.Contains(rec.Body.String(), "\ng1.test,") {
		t.Errorf("ratings.csv: %d %q", rec.Code, rec.Body)
	}
}

func TestCommunitiesEmptyProject(t *testing.T) {
	p, err := OpenProject(filepath.Join(t.TempDir(), "project"), true)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	a := New(Options{Project: p})
	defer a.Close()
	h := a.Handler()
	var cs []Community
	env := call(t, h, "GET", "/api/communities", "", 200, &cs)
	if cs == nil || len(cs) != 0 || env.Status != "success" {
		t.Errorf("empty project: %+v %+v", cs, env)
	}
	var g GraphView
	call(t, h, "GET", "/api/graph", "", 200, &g)
	if g.Nodes == nil || g.Links == nil || len(g.Nodes) != 0 || g.TotalSites != 0 {
		t.Errorf("empty graph %+v", g)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, uiRequest(h, "POST", "/api/export/seeds", strings.NewReader(`{"seeds":["http://x.test/"],"format":"json"}`)))
	var cores []communityJSON
	if err := json.Unmarshal(rec.Body.Bytes(), &cores); err != nil || len(cores) != 1 || cores[0].Core != -1 ||
		cores[0].Hubs == nil {
		t.Errorf("edited list on an empty project: %q", rec.Body)
	}
}
