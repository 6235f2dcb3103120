package httpapi

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

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

// replayAssets are the frontend's replay files as a test serves them.
var replayAssets = fstest.MapFS{
	"index.html":        {Data: []byte("<!doctype html><title>sitesift</title>")},
	"replay/frame.html": {Data: []byte("<!doctype html><title>Replay · sitesift</title>")},
	"replay/frame.js":   {Data: []byte("// frame")},
	"replay/ui.js":      {Data: []byte("// ui")},
	"replay/sw.js":      {Data: []byte("// sw")},
}

// TestReplayOrigin: the captures of a site name a frame page of the replay
// origin, never of the app's; the replay origin serves that page,
// ReplayWeb.page's files and the granted WACZ file with byte ranges, and
// nothing else: no route to the API, no file without its capability, no
// write, no cookie. The app's origin no longer serves ReplayWeb.page, and
// its answers say in their Content-Security-Policy that they frame the
// replay origin alone and are framed by their own pages alone.
func TestReplayOrigin(t *testing.T) {
	a, _ := apptest.Open(t, apptest.CrawledProject(t))
	ro, err := NewReplayOrigin(replayAssets, ReplayOriginOptions{Addr: "127.0.0.1:40123"})
	if err != nil {
		t.Fatal(err)
	}
	h := New(a, Assets(replayAssets), Replay(ro))
	var c SiteReplay
	apptest.Call(t, h, "GET", "/api/sites/open-encyclopedia.test/captures", "", 200, &c)
	frame, err := url.Parse(c.Frame)
	if err != nil || frame.Scheme != "http" || frame.Host != "127.0.0.1:40123" || frame.Path != "/" {
		t.Fatalf("the captures' frame is %q, want the replay origin http://127.0.0.1:40123/", c.Frame)
	}
	source := frame.Query().Get("source")
	if !regexp.MustCompile(`^/w/[0-9a-f]{32}/open-encyclopedia\.test\.wacz$`).MatchString(source) {
		t.Fatalf("the frame's source is %q", source)
	}
	var again SiteReplay
	apptest.Call(t, h, "GET", "/api/sites/open-encyclopedia.test/captures", "", 200, &again)
	if again.Frame != c.Frame {
		t.Errorf("the same file granted twice names two frames: %q, %q", c.Frame, again.Frame)
	}

	get := func(hd http.Handler, method, path string, header ...string) *httptest.ResponseRecorder {
		t.Helper()
		if strings.HasPrefix(path, "/") {
			path = "http://127.0.0.1" + path
		}
		req := httptest.NewRequest(method, path, nil)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		rec := httptest.NewRecorder()
		hd.ServeHTTP(rec, req)
		if sc := rec.Header().Values("Set-Cookie"); hd == ro && len(sc) > 0 {
			t.Errorf("%s %s on the replay origin sets a cookie: %v", method, path, sc)
		}
		return rec
	}
	for path, want := range map[string]string{"/": "Replay · sitesift", "/frame.js": "// frame", "/replay/ui.js": "// ui", "/replay/sw.js": "// sw"} {
		if rec := get(ro, "GET", path); rec.Code != 200 || !strings.Contains(rec.Body.String(), want) {
			t.Errorf("GET %s on the replay origin: %d %q", path, rec.Code, rec.Body)
		}
	}
	rec := get(ro, "GET", source, "Range", "bytes=0-3")
	if rec.Code != 206 || rec.Body.String() != "PK\x03\x04" {
		t.Errorf("GET %s (a byte range) on the replay origin: %d %q", source, rec.Code, rec.Body)
	}
	if rec := get(ro, "GET", source); rec.Code != 200 || int64(rec.Body.Len()) != c.Bytes {
		t.Errorf("GET %s on the replay origin: %d, %d bytes of %d", source, rec.Code, rec.Body.Len(), c.Bytes)
	}
	// Nothing else: not the API (with the app's cookies or not), not a
	// file without its capability or of another site, not a write.
	cap := strings.Split(source, "/")[2]
	for _, path := range []string{"/api/session", "/api/project", "/api/accounts", "/index.html", "/replay/index.html",
		"/w/0123456789abcdef0123456789abcdef/open-encyclopedia.test.wacz", "/w/" + cap + "/another.test.wacz", "/" + c.Source} {
		if rec := get(ro, "GET", path, "Cookie", SessionCookie+"=x; "+TokenCookie+"=y"); rec.Code != 404 {
			t.Errorf("GET %s on the replay origin: %d %q, want 404", path, rec.Code, rec.Body)
		}
	}
	for _, m := range []string{"POST", "PUT", "DELETE"} {
		if rec := get(ro, m, "/api/librarians"); rec.Code != 405 {
			t.Errorf("%s /api/librarians on the replay origin: %d, want 405", m, rec.Code)
		}
	}

	// The app's origin: ReplayWeb.page is not served there; its answers
	// send the policy.
	for _, path := range []string{"/replay/sw.js", "/replay/ui.js", "/replay/frame.html", "/replay/"} {
		if rec := get(h, "GET", path); rec.Code != 404 {
			t.Errorf("GET %s on the app's origin: %d, want 404", path, rec.Code)
		}
	}
	for _, path := range []string{"/", "/api/project"} {
		csp := get(h, "GET", path).Header().Get("Content-Security-Policy")
		for _, want := range []string{"frame-ancestors 'self'", "script-src 'self'", "frame-src http://127.0.0.1:40123", "connect-src 'self'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("GET %s: the Content-Security-Policy %q lacks %q", path, csp, want)
			}
		}
	}
	// Reached at another name, the app names the replay origin at that name.
	if csp := get(h, "GET", "http://localhost/").Header().Get("Content-Security-Policy"); !strings.Contains(csp, "frame-src http://localhost:40123") {
		t.Errorf("the policy at localhost: %q", csp)
	}

	// Without a replay origin the captures name no frame, and the app frames nothing.
	plain := New(a, Assets(replayAssets))
	var none SiteReplay
	apptest.Call(t, plain, "GET", "/api/sites/open-encyclopedia.test/captures", "", 200, &none)
	if none.Frame != "" || none.Source == "" {
		t.Errorf("without a replay origin: frame %q, source %q", none.Frame, none.Source)
	}
	if csp := get(plain, "GET", "/").Header().Get("Content-Security-Policy"); !strings.Contains(csp, "frame-src 'none'") {
		t.Errorf("without a replay origin the policy is %q", csp)
	}
}

// TestReplayOriginPublic: behind a reverse proxy the replay origin has a
// host name of its own, which the app's frames and policy name; an address
// that is not one is refused.
func TestReplayOriginPublic(t *testing.T) {
	a, _ := apptest.Open(t, apptest.CrawledProject(t))
	ro, err := NewReplayOrigin(replayAssets, ReplayOriginOptions{Addr: "127.0.0.1:40124", Public: "https://replay.library.example/"})
	if err != nil {
		t.Fatal(err)
	}
	h := New(a, Assets(replayAssets), Replay(ro))
	var c SiteReplay
	apptest.Call(t, h, "GET", "/api/sites/open-encyclopedia.test/captures", "", 200, &c)
	if !strings.HasPrefix(c.Frame, "https://replay.library.example/?source=") {
		t.Errorf("the frame behind a proxy: %q", c.Frame)
	}
	for _, bad := range []string{"replay.library.example", "ftp://replay.library.example/", "https:///", "https://replay.library.example/?x=1"} {
		if _, err := NewReplayOrigin(replayAssets, ReplayOriginOptions{Addr: "127.0.0.1:40124", Public: bad}); err == nil {
			t.Errorf("--replay-url %q was taken", bad)
		}
	}
}
