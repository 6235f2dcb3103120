package httpapi

import (
	"net/http/httptest"
	"strings"
	"testing"

	"sitesift/app/apptest"
	"sitesift/app/exports"
)

// TestSiteCapturesAPI: GET /api/sites/{site}/captures names the site's
// WACZ file and its pages, and the file it names downloads with byte
// ranges; a site whose fetches all failed says it has no capture and has no file; a site the
// project does not hold is 404 naming it; a file name that is not the one
// named is 404.
func TestSiteCapturesAPI(t *testing.T) {
	a, _ := apptest.Open(t, apptest.CrawledProject(t))
	h := New(a)
	var c exports.SiteCaptures
	apptest.Call(t, h, "GET", "/api/sites/open-encyclopedia.test/captures", "", 200, &c)
	if c.Source == "" || len(c.Pages) == 0 || c.Pages[0].URL != "http://open-encyclopedia.test/" || c.Empty != "" {
		t.Fatalf("captures: %+v", c)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, apptest.Request(h, "GET", "/"+c.Source, nil))
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/zip" || int64(rec.Body.Len()) != c.Bytes {
		t.Fatalf("GET /%s: %d %v, %d bytes (the answer said %d)", c.Source, rec.Code, rec.Header(), rec.Body.Len(), c.Bytes)
	}
	req := apptest.Request(h, "GET", "/"+c.Source, nil)
	req.Header.Set("Range", "bytes=0-3")
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 206 || rec.Body.String() != "PK\x03\x04" {
		t.Errorf("a byte range: %d %q", rec.Code, rec.Body)
	}

	env := apptest.Call(t, h, "GET", "/api/sites/open-encyclopedia.tset/captures", "", 404, nil)
	if !strings.Contains(env.Error, "no site open-encyclopedia.tset in this project") || !strings.Contains(env.Error, "open-encyclopedia.test") {
		t.Errorf("an unknown site: %+v", env)
	}
	for _, file := range []string{"0123456789abcdef.wacz", "index.html"} {
		env = apptest.Call(t, h, "GET", "/api/sites/open-encyclopedia.test/captures/"+file, "", 404, nil)
		if env.Error == "" {
			t.Errorf("captures/%s: %+v", file, env)
		}
	}

	// A project whose fetches of broken.test all failed, with no WARC file.
	failures, _ := apptest.Open(t, apptest.FailuresProject(t))
	fh := New(failures)
	apptest.Call(t, fh, "GET", "/api/sites/broken.test/captures", "", 200, &c)
	if c.Empty != "No capture of this site in this project" || c.Source != "" || len(c.Pages) != 0 {
		t.Errorf("a site whose fetches failed: %+v", c)
	}
	apptest.Call(t, fh, "GET", "/api/sites/broken.test/captures/0123456789abcdef.wacz", "", 404, nil)
}
