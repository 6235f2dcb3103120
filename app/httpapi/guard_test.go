package httpapi

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"sitesift/app/apptest"
	"sitesift/app/lab"
)

// librarianCount is how many librarians the project has, read as the UI does.
func librarianCount(t *testing.T, h http.Handler) int {
	t.Helper()
	var ls []map[string]any
	apptest.Call(t, h, "GET", "/api/librarians", "", 200, &ls)
	return len(ls)
}

// Each attack of another web site on the local API is refused and changes
// nothing; the app's own requests pass.
func TestGuardRefusesOtherSites(t *testing.T) {
	a, h := emptyApp(t)
	window := New(a, Desktop(nil)) // the desktop window's handler
	token := apptest.Request(h, "POST", "/api/librarians", nil).Header.Get(TokenHeader)
	if token == "" {
		t.Fatal("GET /api/session gave no token")
	}
	tests := []struct {
		name    string
		host    string
		headers map[string]string
		body    string
		want    int
	}{
		{"a plain HTML form of another site (text/plain, no token)", "127.0.0.1:7777",
			map[string]string{"Content-Type": "text/plain", "Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"},
			`{"name":"mallory"}`, 403},
		{"text/plain from the app's origin without token", "127.0.0.1:7777",
			map[string]string{"Content-Type": "text/plain"}, `{"name":"mallory"}`, 415},
		{"JSON with the token but from another origin", "127.0.0.1:7777",
			map[string]string{"Content-Type": "application/json", TokenHeader: token, "Origin": "http://evil.example"},
			`{"name":"mallory"}`, 403},
		{"JSON with the token but Sec-Fetch-Site cross-site", "127.0.0.1:7777",
			map[string]string{"Content-Type": "application/json", TokenHeader: token, "Sec-Fetch-Site": "cross-site"},
			`{"name":"mallory"}`, 403},
		{"JSON without the token", "127.0.0.1:7777",
			map[string]string{"Content-Type": "application/json"}, `{"name":"mallory"}`, 403},
		{"JSON with a wrong token", "127.0.0.1:7777",
			map[string]string{"Content-Type": "application/json", TokenHeader: "guess"}, `{"name":"mallory"}`, 403},
		{"a DNS-rebound Host", "attacker.example:7777",
			map[string]string{"Content-Type": "application/json", TokenHeader: token}, `{"name":"mallory"}`, 421},
		{"JSON with the token from the app's host but another scheme", "127.0.0.1:7777",
			map[string]string{"Content-Type": "application/json", TokenHeader: token, "Origin": "https://127.0.0.1:7777"},
			`{"name":"mallory"}`, 403},
		{"JSON with the token from a site named like the desktop window", "127.0.0.1:7777",
			map[string]string{"Content-Type": "application/json", TokenHeader: token, "Origin": "http://wails"},
			`{"name":"mallory"}`, 403},
		{"JSON with the token from an opaque origin", "127.0.0.1:7777",
			map[string]string{"Content-Type": "application/json", TokenHeader: token, "Origin": "null"},
			`{"name":"mallory"}`, 403},
		{"the desktop window's origin on a loopback Host", "127.0.0.1:7777",
			map[string]string{"Content-Type": "application/json", TokenHeader: token, "Origin": "wails://wails"},
			`{"name":"mallory"}`, 403},
		{"a body over 1 MiB", "127.0.0.1:7777",
			map[string]string{"Content-Type": "application/json", TokenHeader: token},
			`{"name":"` + strings.Repeat("m", 2<<20) + `"}`, 413},
	}
	for _, tt := range tests {
		req := httptest.NewRequest("POST", "/api/librarians", strings.NewReader(tt.body))
		req.Host = tt.host
		for k, v := range tt.headers {
			req.Header.Set(k, v)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != tt.want {
			t.Errorf("%s: status %d, want %d (%s)", tt.name, rec.Code, tt.want, rec.Body)
		}
	}
	if n := librarianCount(t, h); n != 0 {
		t.Errorf("%d librarians created by refused requests", n)
	}

	// Reads from a rebound host are refused too: the data stays private.
	req := httptest.NewRequest("GET", "/api/project", nil)
	req.Host = "attacker.example:7777"
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusMisdirectedRequest {
		t.Errorf("GET /api/project with a rebound Host: %d, want 421", rec.Code)
	}

	// The app's own requests pass: in a browser (with Origin and
	// Sec-Fetch-Site, or without), and in the desktop window, whose
	// requests name the Host "wails" and no Origin (seen in the window's
	// log), to the window's own handler; should it send its origin, that
	// passes too.
	apptest.Call(t, h, "POST", "/api/librarians", `{"name":"ana"}`, 201, nil)
	good := []struct {
		name, host string
		headers    map[string]string
		h          http.Handler
	}{
		{"a browser", "127.0.0.1:7777", map[string]string{"Origin": "http://127.0.0.1:7777", "Sec-Fetch-Site": "same-origin"}, h},
		{"a browser on localhost", "localhost:7777", map[string]string{"Origin": "http://localhost:7777"}, h},
		{"the desktop window", "wails", nil, window},
		{"the desktop window with its origin", "wails", map[string]string{"Origin": "wails://wails"}, window},
	}
	for i, tt := range good {
		req = apptest.Request(tt.h, "POST", "/api/librarians", strings.NewReader(fmt.Sprintf(`{"name":"good%d"}`, i)))
		req.Host = tt.host
		for k, v := range tt.headers {
			req.Header.Set(k, v)
		}
		rec = httptest.NewRecorder()
		tt.h.ServeHTTP(rec, req)
		if rec.Code != 201 {
			t.Errorf("a write of %s: %d (%s)", tt.name, rec.Code, rec.Body)
		}
	}
	if n, want := librarianCount(t, h), 1+len(good); n != want {
		t.Errorf("%d librarians after %d good requests", n, want)
	}
}

// chunked sends body without a Content-Length, as a streaming client does,
// so that only reading it can find its size.
func chunked(req *http.Request) *http.Request {
	req.ContentLength = -1
	req.TransferEncoding = []string{"chunked"}
	return req
}

// A body over its cap gets 413 and changes nothing, whether or not it
// announces its length.
func TestGuardBodyLimits(t *testing.T) {
	_, h := emptyApp(t)
	tests := []struct {
		name, path, body string
	}{
		{"a librarian", "/api/librarians", `{"name":"` + strings.Repeat("m", 2<<20) + `"}`},
		{"a crawl", "/api/crawl", `{"seeds":["http://a.test/` + strings.Repeat("a", 2<<20) + `"]}`},
		{"a lab job", "/api/lab/normleak", `{"iterations":` + strings.Repeat(" ", 2<<20) + `1}`},
		{"a ratings file", "/api/ratings/import?name=big.csv", "url,librarian,status\n" + strings.Repeat("x", maxRatingsFile)},
	}
	for _, tt := range tests {
		for _, announce := range []bool{true, false} {
			req := apptest.Request(h, "POST", tt.path, strings.NewReader(tt.body))
			if !announce {
				req = chunked(req)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != http.StatusRequestEntityTooLarge || !strings.Contains(rec.Body.String(), "larger than") {
				t.Errorf("%s (length announced: %v): %d %s, want 413", tt.name, announce, rec.Code, rec.Body)
			}
		}
	}
	if n := librarianCount(t, h); n != 0 {
		t.Errorf("%d librarians created by refused requests", n)
	}
	var jobs []lab.JobStatus
	apptest.Call(t, h, "GET", "/api/lab/jobs", "", 200, &jobs)
	if len(jobs) != 0 {
		t.Errorf("lab jobs started by refused requests: %+v", jobs)
	}
	// Under the cap, a streamed body passes.
	req := chunked(apptest.Request(h, "POST", "/api/librarians", strings.NewReader(`{"name":"ana"}`)))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 201 {
		t.Errorf("a small streamed body: %d %s", rec.Code, rec.Body)
	}
}

// Served beyond loopback, every request needs the shared secret; the URL
// printed with ?token= sets a cookie that carries it from then on.
func TestGuardSharedSecret(t *testing.T) {
	a, _ := emptyApp(t)
	h := New(a, SharedSecret("s3cret"), ServedAt("192.168.1.5"))
	get := func(path string, cookie *http.Cookie) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", path, nil)
		req.Host = "192.168.1.5:7777"
		if cookie != nil {
			req.AddCookie(cookie)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	if rec := get("/api/project", nil); rec.Code != http.StatusUnauthorized {
		t.Errorf("without the secret: %d, want 401", rec.Code)
	}
	if rec := get("/?token=wrong", nil); rec.Code != http.StatusUnauthorized {
		t.Errorf("with a wrong secret: %d, want 401", rec.Code)
	}
	rec := get("/?token=s3cret", nil)
	cookies := rec.Result().Cookies()
	if rec.Code != http.StatusSeeOther || len(cookies) != 1 || !cookies[0].HttpOnly {
		t.Fatalf("with the secret: %d, cookies %v; want a redirect setting an HttpOnly cookie", rec.Code, cookies)
	}
	if rec := get("/api/project", cookies[0]); rec.Code != 200 {
		t.Errorf("with the cookie: %d, want 200", rec.Code)
	}
}

// The window's Host ("wails") is the desktop window's alone: `serve`'s
// handler refuses it with 421 and gives no token, for a request naming it
// would pass for the window's own (no Origin, no Sec-Fetch-Site).
func TestWindowHostOnlyInWindow(t *testing.T) {
	a, serve := emptyApp(t)
	window := New(a, Desktop(nil))
	for _, path := range []string{"/api/session", "/api/project"} {
		req := httptest.NewRequest("GET", path, nil)
		req.Host = "wails"
		rec := httptest.NewRecorder()
		serve.ServeHTTP(rec, req)
		if rec.Code != http.StatusMisdirectedRequest || strings.Contains(rec.Body.String(), "token") {
			t.Errorf("serve: GET %s with Host wails: %d %s, want 421 without the token", path, rec.Code, rec.Body)
		}
		rec = httptest.NewRecorder()
		window.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Errorf("the window: GET %s with Host wails: %d %s, want 200", path, rec.Code, rec.Body)
		}
	}
}

// A POST without a body, a length or a type (as the desktop window's
// WebKitGTK sends Pause or Stop) is no body, not a body of the wrong type;
// a body of unknown length and no type is still refused as before.
func TestGuardBodilessPost(t *testing.T) {
	a, _ := emptyApp(t)
	window := New(a, Desktop(nil))
	for _, tc := range []struct {
		name string
		body io.Reader
		want int
	}{
		{"no body", nil, 409}, // read as a request: no crawl to pause
		{"an empty body of unknown length", io.MultiReader(), 409},
		{"a body of unknown length and no type", io.MultiReader(strings.NewReader(`{"x":1}`)), 415},
	} {
		req := apptest.Request(window, "POST", "/api/crawl/pause", nil)
		req.Host = "wails"
		req.Header.Del("Content-Type")
		req.Body, req.ContentLength = nil, -1
		if tc.body != nil {
			req.Body = io.NopCloser(tc.body)
		}
		rec := httptest.NewRecorder()
		window.ServeHTTP(rec, req)
		if rec.Code != tc.want {
			t.Errorf("%s: %d %s, want %d", tc.name, rec.Code, rec.Body, tc.want)
		}
	}
}
