package httpapi

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"sitesift/app/apptest"
	"sitesift/app/communities"
)

func TestCommunitiesAPI(t *testing.T) {
	a, _ := apptest.Open(t, apptest.CommunityProject(t))
	h := New(a)
	var cs []communities.Community
	apptest.Call(t, h, "GET", "/api/communities?count=4", "", 200, &cs)
	if len(cs) != 2 || cs[0].Seed != "http://h1.test/" || cs[0].Site != "h1.test" || len(cs[0].Authorities) != 3 {
		t.Fatalf("communities %+v", cs)
	}
	apptest.Call(t, h, "GET", "/api/communities?count=1&core_size=4&new_members=1", "", 200, &cs)
	if len(cs) != 1 || len(cs[0].Hubs)+len(cs[0].Authorities) != 4 {
		t.Errorf("fixed size: %+v", cs)
	}
	for _, q := range []string{"count=0", "count=x", "density=50&core_size=4", "new_members=2", "density=0",
		"density=abc", "core_size=1", "hits_iterations=0", "hits_iterations=1000000000", "count=1001", "min_hubs=0", "min_authorities=x", "core_size=3"} {
		env := apptest.Call(t, h, "GET", "/api/communities?"+q, "", 400, nil)
		if env.ErrorType != "bad_request" {
			t.Errorf("%s: %+v", q, env)
		}
	}

	// The graph is coloured by the current (last) extraction: cores of
	// count=4 at density 100, asked for again.
	apptest.Call(t, h, "GET", "/api/communities?count=4", "", 200, &cs)
	var g communities.GraphView
	apptest.Call(t, h, "GET", "/api/graph", "", 200, &g)
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
	apptest.Call(t, h, "GET", "/api/graph?limit=3", "", 200, &g)
	if len(g.Nodes) != 3 || g.Nodes[0].Site != "h1.test" || g.Nodes[1].Site != "a1.test" {
		t.Errorf("limit 3: %+v", g.Nodes)
	}
	for _, l := range g.Links {
		if l.Source != "h1.test" || l.Target != "a1.test" && l.Target != "a2.test" {
			t.Errorf("link %+v outside the 3 sites shown", l)
		}
	}
	apptest.Call(t, h, "GET", "/api/graph?limit=0", "", 400, nil)
	// With extraction parameters the graph follows them.
	apptest.Call(t, h, "GET", "/api/graph?count=1", "", 200, &g)
	for _, n := range g.Nodes {
		if n.Site == "g1.test" && n.Core != -1 {
			t.Errorf("count=1: g1.test in core %d", n.Core)
		}
	}
}

func TestExportSeedsAPI(t *testing.T) {
	a, _ := apptest.Open(t, apptest.CommunityProject(t))
	h := New(a)
	get := func(path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, apptest.Request(h, "GET", path, nil))
		return rec
	}
	rec := get("/api/export/seeds?format=csv&count=3")
	if rec.Code != 200 || !strings.Contains(rec.Header().Get("Content-Disposition"), `"project-communities.csv"`) ||
		!strings.HasPrefix(rec.Body.String(), "seed_url,site,core,hubs,authorities,cover_density,hub_score\nhttp://h1.test/,h1.test,0,3,3,100,") {
		t.Errorf("communities csv: %d %q", rec.Code, rec.Body)
	}
	if rec = get("/api/export/seeds?method=communities&count=3"); rec.Body.String() != "http://h1.test/\nhttp://g1.test/\n" {
		t.Errorf("communities txt: %q", rec.Body)
	}
	if rec = get("/api/export/seeds?method=importance&count=2"); rec.Body.String() != "http://h1.test/links\nhttp://a1.test/\n" {
		t.Errorf("importance txt: %q", rec.Body)
	}
	var cores []map[string]any
	if rec = get("/api/export/seeds?format=json&count=3"); json.Unmarshal(rec.Body.Bytes(), &cores) != nil ||
		len(cores) != 2 || rec.Header().Get("Content-Type") != "application/json" {
		t.Errorf("communities json: %q", rec.Body)
	}
	apptest.Call(t, h, "GET", "/api/export/seeds?method=importance&density=90", "", 400, nil)
	apptest.Call(t, h, "GET", "/api/export/seeds?method=best", "", 400, nil)
	apptest.Call(t, h, "GET", "/api/export/seeds?format=xml", "", 400, nil)

	// A list edited by the librarian: one seed of the extraction swapped
	// for another hub of its core, one added by hand.
	post := func(body string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, apptest.Request(h, "POST", "/api/export/seeds", strings.NewReader(body)))
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
	env := apptest.Call(t, h, "POST", "/api/export/seeds", `{"seeds": ["http://ok.test/", "ftp://bad.test/x"], "format": "txt"}`, 400, nil)
	if !strings.Contains(env.Error, "ftp://bad.test/x") {
		t.Errorf("bad seed error %q does not name it", env.Error)
	}
	apptest.Call(t, h, "POST", "/api/export/seeds", `{"seeds": []}`, 400, nil)
	apptest.Call(t, h, "POST", "/api/export/seeds", `{"seeds": ["http://a.test/"], "format": "pdf"}`, 400, nil)
	apptest.Call(t, h, "POST", "/api/export/seeds", `{"urls": ["http://a.test/"]}`, 400, nil)

	rec = get("/api/export/heritrix")
	if rec.Code != 200 || !strings.HasPrefix(rec.Body.String(), "http://h1.test/links 1\n") ||
		!strings.Contains(rec.Header().Get("Content-Disposition"), `"project-heritrix-precedence.txt"`) {
		t.Errorf("heritrix: %d %q", rec.Code, rec.Body)
	}
	apptest.Call(t, h, "GET", "/api/export/heritrix?buckets=0", "", 400, nil)
	apptest.AddLibrarians(t, a, "ana")
	if _, err := a.Review.Rate(context.Background(), "ana", "g1.test", 2, ""); err != nil {
		t.Fatal(err)
	}
	rec = get("/api/export/ratings.csv")
	if rec.Code != 200 || !strings.HasPrefix(rec.Body.String(), "\uFEFFsite,crawl_status,pages,opic,pagerank,in_sites,out_sites,hub,authority,selection,ana,mean_rating,graph\n") ||
		!strings.Contains(rec.Header().Get("Content-Disposition"), `"project-sites.csv"`) ||
		!strings.Contains(rec.Body.String(), "\ng1.test,") {
		t.Errorf("ratings.csv: %d %q", rec.Code, rec.Body)
	}
}

func TestCommunitiesEmptyProject(t *testing.T) {
	a := apptest.Empty(t)
	h := New(a)
	var cs []communities.Community
	env := apptest.Call(t, h, "GET", "/api/communities", "", 200, &cs)
	if cs == nil || len(cs) != 0 || env.Status != "success" {
		t.Errorf("empty project: %+v %+v", cs, env)
	}
	var g communities.GraphView
	apptest.Call(t, h, "GET", "/api/graph", "", 200, &g)
	if g.Nodes == nil || g.Links == nil || len(g.Nodes) != 0 || g.TotalSites != 0 {
		t.Errorf("empty graph %+v", g)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, apptest.Request(h, "POST", "/api/export/seeds", strings.NewReader(`{"seeds":["http://x.test/"],"format":"json"}`)))
	var cores []struct {
		Core int      `json:"core"`
		Hubs []string `json:"hubs"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &cores); err != nil || len(cores) != 1 || cores[0].Core != -1 ||
		cores[0].Hubs == nil {
		t.Errorf("edited list on an empty project: %q", rec.Body)
	}
}
