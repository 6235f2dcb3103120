package httpapi

import (
	"net/http/httptest"
	"strings"
	"testing"

	"sitesift/app/apptest"
	"sitesift/app/exports"
	"sitesift/app/review"
)

// TestExportsAPI: the Export page's list names each file after the
// project; each deliverable downloads under that name; a note is kept
// without a rating; an approval by the nominator is a conflict naming both.
func TestExportsAPI(t *testing.T) {
	a, _ := apptest.Open(t, apptest.ReviewProject(t))
	h := New(a)
	var list []struct {
		What    string            `json:"what"`
		Purpose string            `json:"purpose"`
		Formats []string          `json:"formats"`
		Files   map[string]string `json:"files"`
		BOM     bool              `json:"bom"`
	}
	apptest.Call(t, h, "GET", "/api/exports?count=7", "", 200, &list)
	if len(list) != len(exports.Deliverables) || list[0].What != exports.ExportApproved || list[0].Files["json"] != "project-approved.json" ||
		list[1].Files["txt"] != "project-top-7.txt" || list[0].Purpose == "" {
		t.Errorf("exports: %+v", list)
	}
	for path, want := range map[string]string{
		"/api/export/approved?format=csv":   "project-approved.csv",
		"/api/export/top-k?count=2":         "project-top-2.txt",
		"/api/export/communities":           "project-communities.txt",
		"/api/export/ratings":               "project-ratings.csv",
		"/api/export/sites?format=json":     "project-sites.json",
		"/api/export/heritrix-precedence":   "project-heritrix-precedence.txt",
		"/api/ratings/export":               "project-ratings.csv",
		"/api/export/ratings.csv":           "project-sites.csv",
		"/api/export/selection?format=json": "project-approved.json",
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, apptest.Request(h, "GET", path, nil))
		if rec.Code != 200 || rec.Header().Get("Content-Disposition") != `attachment; filename="`+want+`"` {
			t.Errorf("%s: %d %v %s", path, rec.Code, rec.Header(), rec.Body)
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, apptest.Request(h, "GET", "/api/export/top-k?count=2", nil))
	if rec.Body.String() != "http://s2.test/\nhttp://s3.test/\n" {
		t.Errorf("top 2: %q", rec.Body)
	}
	// The spreadsheet tables start with a byte-order mark unless asked not
	// to; the seed lists only when asked; no other format takes one.
	for path, bom := range map[string]bool{
		"/api/export/sites?format=csv":           true,
		"/api/export/sites?format=csv&bom=false": false,
		"/api/export/ratings":                    true,
		"/api/ratings/export":                    true,
		"/api/export/top-k?format=csv":           false,
		"/api/export/top-k?format=csv&bom=true":  true,
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, apptest.Request(h, "GET", path, nil))
		if rec.Code != 200 || strings.HasPrefix(rec.Body.String(), "\uFEFF") != bom {
			t.Errorf("%s: %d, starts %q; want a byte-order mark: %v", path, rec.Code, rec.Body.String()[:min(rec.Body.Len(), 8)], bom)
		}
	}
	apptest.Call(t, h, "GET", "/api/export/top-k?bom=true", "", 400, nil)
	apptest.Call(t, h, "GET", "/api/export/sites?format=csv&bom=maybe", "", 400, nil)
	for _, d := range list {
		if d.BOM != (d.What == exports.ExportSites || d.What == exports.ExportRatings) {
			t.Errorf("exports: %s says bom %v", d.What, d.BOM)
		}
	}
	apptest.Call(t, h, "GET", "/api/export/seeds-of-doom", "", 400, nil)
	apptest.Call(t, h, "GET", "/api/export/ratings?format=json", "", 400, nil)
	apptest.Call(t, h, "GET", "/api/export/top-k?count=0", "", 400, nil)

	var n review.Rating
	apptest.Call(t, h, "PUT", "/api/sites/s5.test/note", `{"librarian":"ANA","note":"soup"}`, 200, &n)
	if n.Librarian != "ana" || n.Rating != 0 || n.Note != "soup" {
		t.Errorf("note: %+v", n)
	}
	apptest.Call(t, h, "PUT", "/api/sites/s5.test/note", `{"librarian":"zed","note":"soup"}`, 404, nil)

	// The crawler configurations are deliverables of the page too: while
	// no site is approved, written with no seed, saying so, as every
	// empty deliverable.
	for _, what := range []string{"browsertrix", "heritrix-seeds", "approved"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, apptest.Request(h, "GET", "/api/export/"+what, nil))
		if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get(EmptyHeader), "nothing approved yet") || strings.Contains(rec.Body.String(), "http") {
			t.Errorf("%s with nothing approved: %d %v %q", what, rec.Code, rec.Header(), rec.Body)
		}
		var lo leftOut
		apptest.Call(t, h, "GET", "/api/export/"+what+"/left-out", "", 200, &lo)
		if !strings.HasPrefix(lo.Empty, "nothing approved yet") {
			t.Errorf("%s/left-out with nothing approved: %+v", what, lo)
		}
	}
	apptest.Call(t, h, "PUT", "/api/sites/s1.test/selection", `{"librarian":"ana","status":"nominated"}`, 200, nil)
	env := apptest.Call(t, h, "PUT", "/api/sites/s1.test/selection", `{"librarian":"ana","status":"approved"}`, 409, nil)
	if !strings.Contains(env.Error, "nominated by ana, and ana cannot also approve it") {
		t.Errorf("self-approval: %+v", env)
	}
	var sel review.Selection
	apptest.Call(t, h, "PUT", "/api/sites/s1.test/selection", `{"librarian":"ben","status":"approved"}`, 200, &sel)
	if sel.NominatedBy != "ana" || sel.ApprovedBy != "ben" {
		t.Errorf("approved: %+v", sel)
	}
	for path, want := range map[string]struct{ name, typ, body string }{
		"/api/export/browsertrix":    {"project-browsertrix.yaml", "application/yaml; charset=utf-8", "seeds:\n  - url: \"http://s1.test/\"\n"},
		"/api/export/heritrix-seeds": {"project-heritrix-seeds.txt", "text/plain; charset=utf-8", "\nhttp://s1.test/\n"},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, apptest.Request(h, "GET", path, nil))
		if rec.Code != 200 || rec.Header().Get("Content-Disposition") != `attachment; filename="`+want.name+`"` ||
			rec.Header().Get("Content-Type") != want.typ || !strings.Contains(rec.Body.String(), want.body) {
			t.Errorf("%s: %d %v %s", path, rec.Code, rec.Header(), rec.Body)
		}
		if path == "/api/export/browsertrix" && (!strings.Contains(rec.Body.String(), "\nuserAgentSuffix: \"sitesift/") ||
			strings.Contains(rec.Body.String(), "\nuserAgent:")) {
			t.Errorf("%s: the user agent is not appended to the browser's:\n%s", path, rec.Body)
		}
	}
	apptest.Call(t, h, "PUT", "/api/sites/s1.test/selection", `{"librarian":"cleo","status":"rejected","reason":"duplicate"}`, 200, &sel)
	if sel.RejectedBy != "cleo" || sel.RejectedReason != "duplicate" {
		t.Errorf("rejected: %+v", sel)
	}
}
