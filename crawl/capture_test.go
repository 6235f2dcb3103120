package crawl

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"sitesift/sites"
)

// captures returns an OnCapture option that keeps every capture by URL.
func captures() (Option, func() map[string]sites.Capture) {
	var (
		mu  sync.Mutex
		got = map[string]sites.Capture{}
	)
	opt := OnCapture(func(c sites.Capture) error {
		mu.Lock()
		defer mu.Unlock()
		got[c.URL] = c
		return nil
	})
	return opt, func() map[string]sites.Capture {
		mu.Lock()
		defer mu.Unlock()
		return got
	}
}

func TestCaptureExchanges(t *testing.T) {
	big := page(strings.Repeat("Big ", 500))
	w := newWeb(t, map[string]map[string]resp{
		"a.test": {
			"/":      {body: page("Home", "/img", "/big", "/redir")},
			"/img":   {ctype: "image/png", body: strings.Repeat("P", 5000)},
			"/big":   {body: big},
			"/redir": {location: "/final", body: "moved"},
			"/final": {body: page("Final")},
		},
	})
	opt, got := captures()
	r := crawl(t, w, []string{"http://a.test/"}, opt, MaxBodySize(1000), MaxPages(5))
	if r.err != nil {
		t.Fatal(r.err)
	}
	cs := got()
	for _, u := range []string{"http://a.test/robots.txt", "http://a.test/", "http://a.test/img",
		"http://a.test/big", "http://a.test/redir", "http://a.test/final"} {
		if _, ok := cs[u]; !ok {
			t.Errorf("no capture of %s (have %d)", u, len(cs))
		}
	}
	home := cs["http://a.test/"]
	if home.Method != "GET" || home.StatusCode != 200 || home.Status != "200 OK" || home.Proto != "HTTP/1.1" ||
		!strings.Contains(string(home.Body), "<title>Home</title>") || home.Truncated != "" ||
		home.RequestHeader.Get("User-Agent") != DefaultUserAgent || home.RequestHeader.Get("Host") != "a.test" ||
		home.ResponseHeader.Get("Content-Type") != "text/html; charset=utf-8" || home.At.IsZero() {
		t.Errorf("home capture %+v", home)
	}
	if home.RemoteIP != "" {
		t.Errorf("remote IP %q through a proxy", home.RemoteIP)
	}
	if robots := cs["http://a.test/robots.txt"]; robots.StatusCode != 404 {
		t.Errorf("robots.txt capture status %d", robots.StatusCode)
	}
	if img := cs["http://a.test/img"]; len(img.Body) != 0 || img.Truncated != sites.TruncatedLength {
		t.Errorf("non-HTML capture: %d bytes, truncated %q; want none read, truncated length", len(img.Body), img.Truncated)
	}
	if b := cs["http://a.test/big"]; len(b.Body) != 1000 || b.Truncated != sites.TruncatedLength || string(b.Body) != big[:1000] {
		t.Errorf("capped capture: %d bytes, truncated %q", len(b.Body), b.Truncated)
	}
	if rd := cs["http://a.test/redir"]; rd.StatusCode != 302 || rd.ResponseHeader.Get("Location") != "/final" || string(rd.Body) != "moved" {
		t.Errorf("redirect capture %+v", rd)
	}
}

// TestCaptureGzip checks that a gzip body is captured as it came while the
// page is still read.
func TestCaptureGzip(t *testing.T) {
	html := page("Zipped")
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	io.WriteString(zw, html)
	zw.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(rw, r)
			return
		}
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			io.WriteString(rw, html)
			return
		}
		rw.Header().Set("Content-Type", "text/html")
		rw.Header().Set("Content-Encoding", "gzip")
		rw.Write(zipped.Bytes())
	}))
	t.Cleanup(srv.Close)
	opt, got := captures()
	r := &result{}
	c, err := New(opt, r.recorder(), Delay(0), MaxPages(1), Proxy(""))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hangTimeout)
	defer cancel()
	if err := c.Run(ctx, []string{srv.URL + "/"}); err != nil {
		t.Fatal(err)
	}
	cp := got()[srv.URL+"/"]
	if !bytes.Equal(cp.Body, zipped.Bytes()) || cp.ResponseHeader.Get("Content-Encoding") != "gzip" || cp.Truncated != "" {
		t.Errorf("capture: %d bytes (want the %d gzip bytes), encoding %q, truncated %q",
			len(cp.Body), zipped.Len(), cp.ResponseHeader.Get("Content-Encoding"), cp.Truncated)
	}
	if cp.RemoteIP != "127.0.0.1" {
		t.Errorf("remote IP %q", cp.RemoteIP)
	}
	if len(r.pages) != 1 || r.pages[0].Title != "Zipped" {
		t.Errorf("pages %+v", r.pages)
	}
}

func TestCaptureFailureStopsCrawl(t *testing.T) {
	w := newWeb(t, gridWeb(3, 3, 0))
	boom := errors.New("disk full")
	r := crawl(t, w, []string{"http://h0.test/"}, OnCapture(func(sites.Capture) error { return boom }))
	var ce *CaptureError
	if !errors.As(r.err, &ce) || !errors.Is(r.err, boom) {
		t.Fatalf("Run = %v, want a CaptureError", r.err)
	}
	if r.status.State != StateFailed || r.status.EndReason != EndFailed {
		t.Errorf("status %s %s", r.status.State, r.status.EndReason)
	}
}
