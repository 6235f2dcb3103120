package httpapi

import (
	"archive/zip"
	"bytes"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"sitesift/app/apptest"
	"sitesift/app/exports"
)

// TestWACZAPI: GET /api/wacz says what the package holds, GET
// /api/wacz/download sends it under the project's name with its length
// and byte ranges, built beside the project's WARC files (the system's
// temporary directory, which may be memory, is not used) and leaving
// nothing there; a project with no captures says so, and its download is
// a conflict saying why.
func TestWACZAPI(t *testing.T) {
	dir := apptest.CrawledProject(t)
	a, _ := apptest.Open(t, dir)
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	h := New(a)
	var info exports.WACZInfo
	apptest.Call(t, h, "GET", "/api/wacz", "", 200, &info)
	if info.Name != "project-crawl.wacz" || info.WARCs == 0 || info.Captures == 0 || info.Bytes == 0 {
		t.Errorf("GET /api/wacz: %+v", info)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, apptest.Request(h, "GET", "/api/wacz/download", nil))
	body := rec.Body.Bytes()
	if rec.Code != 200 || rec.Header().Get("Content-Disposition") != `attachment; filename="project-crawl.wacz"` ||
		rec.Header().Get("Content-Type") != "application/zip" || rec.Header().Get("Content-Length") == "" {
		t.Fatalf("download: %d %v", rec.Code, rec.Header())
	}
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatal(err)
	}
	if zr.File[len(zr.File)-1].Name != "datapackage-digest.json" {
		t.Errorf("the download ends with %s", zr.File[len(zr.File)-1].Name)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".wacz-*")); len(left) != 0 {
		t.Errorf("the download left %v in the project", left)
	}
	req := apptest.Request(h, "GET", "/api/wacz/download", nil)
	req.Header.Set("Range", "bytes=0-3")
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 206 || rec.Body.String() != "PK\x03\x04" {
		t.Errorf("a byte range: %d %q", rec.Code, rec.Body)
	}

	empty := New(apptest.Empty(t))
	apptest.Call(t, empty, "GET", "/api/wacz", "", 200, &info)
	if info.WARCs != 0 || info.Name != "project-crawl.wacz" {
		t.Errorf("GET /api/wacz of an empty project: %+v", info)
	}
	env := apptest.Call(t, empty, "GET", "/api/wacz/download", "", 409, nil)
	if !strings.Contains(env.Error, "no captures in this project") {
		t.Errorf("download of an empty project: %+v", env)
	}
}
