package httpapi

import (
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"sitesift/app/apptest"
	"sitesift/app/communities"
)

func TestCollectionsAPI(t *testing.T) {
	a, _ := apptest.Open(t, apptest.TopicProject(t))
	h := New(a)
	var c communities.Collection
	apptest.Call(t, h, "POST", "/api/collections", `{"name":"Jazz","created_by":"ana","count":5,"density":100}`, 200, &c)
	if c.ID == 0 || c.Name != "Jazz" || len(c.Communities) != 2 || c.Communities[1].Seed != "http://q1.test/" {
		t.Fatalf("created %+v", c)
	}
	base := "/api/collections/" + strconv.FormatInt(c.ID, 10)
	// The Communities form sends the least core shape with its run.
	var least communities.Collection
	apptest.Call(t, h, "POST", "/api/collections", `{"name":"Least","created_by":"ana","count":5,"min_hubs":1,"min_authorities":1}`, 200, &least)
	if len(least.Communities) == 0 {
		t.Errorf("a run with min_hubs and min_authorities 1 found no community: %+v", least)
	}
	apptest.Call(t, h, "DELETE", "/api/collections/"+strconv.FormatInt(least.ID, 10), "", 200, nil)
	for _, bad := range []struct {
		body   string
		status int
		kind   string
	}{
		{`{"name":"Jazz","created_by":"ana"}`, 409, "conflict"},
		{`{"created_by":""}`, 400, "bad_request"},
		{`{"created_by":"ana","count":0}`, 400, "bad_request"},
		{`{"created_by":"ana","density":50,"core_size":4}`, 400, "bad_request"},
		{`{"created_by":"ana","colour":"red"}`, 400, "bad_request"},
		{`{"created_by":"ana","min_hubs":0}`, 400, "bad_request"},
	} {
		if env := apptest.Call(t, h, "POST", "/api/collections", bad.body, bad.status, nil); env.ErrorType != bad.kind {
			t.Errorf("POST %s: %+v, want %s", bad.body, env, bad.kind)
		}
	}
	apptest.Call(t, h, "PATCH", base+"/communities/0", `{"kept":false}`, 200, &c)
	apptest.Call(t, h, "PATCH", base+"/communities/1", `{"name":"Garden birds"}`, 200, &c)
	apptest.Call(t, h, "POST", base+"/seeds", `{"url":"https://radio.example/"}`, 200, &c)
	apptest.Call(t, h, "PATCH", base, `{"name":"Jazz and birds"}`, 200, &c)
	if env := apptest.Call(t, h, "POST", base+"/seeds", `{"url":"http://q1.test/x"}`, 409, nil); !strings.Contains(env.Error, "q1.test") {
		t.Errorf("a second seed of q1.test: %+v", env)
	}
	apptest.Call(t, h, "PATCH", base+"/communities/9", `{"name":"x"}`, 404, nil)
	apptest.Call(t, h, "PATCH", base+"/communities/1", `{}`, 400, nil)
	apptest.Call(t, h, "PATCH", "/api/collections/abc", `{"name":"x"}`, 400, nil)
	apptest.Call(t, h, "GET", "/api/collections/999", "", 404, nil)

	var list []communities.CollectionSummary
	apptest.Call(t, h, "GET", "/api/collections", "", 200, &list)
	if len(list) != 1 || list[0].Name != "Jazz and birds" || list[0].Kept != 1 || list[0].Added != 1 || list[0].CreatedBy != "ana" {
		t.Errorf("list %+v", list)
	}
	get := func(path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, apptest.Request(h, "GET", path, nil))
		return rec
	}
	// The current extraction, exported as the community seeds, says it
	// differs from the edited collection.
	var lo leftOut
	apptest.Call(t, h, "GET", "/api/export/communities/left-out", "", 200, &lo)
	if !strings.Contains(lo.Differs, `it differs from the saved collection "Jazz and birds", which leaves out 1 of these seeds and has 1 of its own;`) {
		t.Errorf("communities/left-out: %+v; want it to say it differs from the collection", lo)
	}
	if rec := get(base + "/seeds.txt"); rec.Code != 200 || rec.Body.String() != "http://q1.test/\nhttps://radio.example/\n" ||
		!strings.Contains(rec.Header().Get("Content-Disposition"), `filename="project-seeds-jazz-and-birds.txt"`) {
		t.Errorf("seeds.txt: %d %q %q", rec.Code, rec.Body, rec.Header().Get("Content-Disposition"))
	}
	if rec := get(base + "/seeds.csv"); rec.Code != 200 || !strings.HasPrefix(rec.Body.String(),
		"community,topic,site,seed_url,hub_score,added_by_hand\nGarden birds,build nests · birds with feathers,q1.test,http://q1.test/,0.5,false\n") {
		t.Errorf("seeds.csv: %d %q", rec.Code, rec.Body)
	}
	if rec := get(base + "/seeds.json"); rec.Code != 200 || rec.Header().Get("Content-Type") != "application/json" {
		t.Errorf("seeds.json: %d %q", rec.Code, rec.Header())
	}
	if rec := get(base + "/seeds.xml"); rec.Code != 404 {
		t.Errorf("seeds.xml: %d", rec.Code)
	}
	apptest.Call(t, h, "DELETE", base+"/seeds?url=https://radio.example/", "", 200, &c)
	if len(c.Added) != 0 {
		t.Errorf("after removing the added seed: %+v", c.Added)
	}
	apptest.Call(t, h, "DELETE", base, "", 200, nil)
	apptest.Call(t, h, "DELETE", base, "", 404, nil)
	if rec := get(base + "/seeds.txt"); rec.Code != 404 {
		t.Errorf("deleted collection's seeds: %d", rec.Code)
	}
}
