package crawling

import (
	"context"
	"crypto/sha1"
	"encoding/base32"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sitesift/app/project"
)

// TestCrawlLogAsHeritrix: a crawl's crawl.log is what Heritrix writes of
// the same fetches: each answer's digest is its WARC record's payload
// digest (sha1:BASE32), the robots.txt fetch has a line of its own (its
// discovery path P, a prerequisite), a redirect logs the status the server
// sent, and a URL the crawler asked cleaned of its dot segments gets no
// line of a redirect that never happened.
func TestCrawlLogAsHeritrix(t *testing.T) {
	bodies := map[string]string{
		"/robots.txt": "User-agent: *\nDisallow: /private\n",
		"/":           `<html><head><title>Home</title></head><body><article><p>Home of the site, with <a href="/b">a page</a> and <a href="/moved">another</a>.</p></article></body></html>`,
		"/b":          `<html><head><title>B</title></head><body><article><p>The page B.</p></article></body></html>`,
		"/c":          `<html><head><title>C</title></head><body><article><p>The page C.</p></article></body></html>`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/moved" {
			http.Redirect(rw, r, "/c", http.StatusFound)
			return
		}
		b, ok := bodies[r.URL.Path]
		if !ok {
			http.NotFound(rw, r)
			return
		}
		if r.URL.Path == "/robots.txt" {
			rw.Header().Set("Content-Type", "text/plain")
		} else {
			rw.Header().Set("Content-Type", "text/html; charset=utf-8")
		}
		fmt.Fprint(rw, b)
	}))
	defer srv.Close()
	dir := t.TempDir()
	p := openProject(t, dir, true)
	defer p.Close()
	a := newService(p)
	defer a.Close()
	req := CrawlRequest{Seeds: []string{"http://s.test/", "http://s.test/a/../b"}, MaxPages: 20, SettingsUpdate: project.SettingsUpdate{DelayMS: new(0)}, Proxy: srv.URL}
	if st, err := a.Run(context.Background(), req, time.Second, nil); err != nil || st.State != StateDone {
		t.Fatalf("crawl: %+v, %v", st, err)
	}
	b, err := os.ReadFile(filepath.Join(dir, project.CrawlLogFile))
	if err != nil {
		t.Fatal(err)
	}
	type line struct{ status, url, path, digest string }
	byURL := map[string]line{}
	for l := range strings.SplitSeq(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(l)
		if len(f) != 12 {
			t.Fatalf("line of %d fields: %q", len(f), l)
		}
		if _, dup := byURL[f[3]]; dup {
			t.Errorf("%s logged twice:\n%s", f[3], b)
		}
		byURL[f[3]] = line{f[1], f[3], f[4], f[9]}
	}
	digest := func(s string) string {
		sum := sha1.Sum([]byte(s))
		return "sha1:" + base32.StdEncoding.EncodeToString(sum[:])
	}
	for u, want := range map[string]line{
		"http://s.test/robots.txt": {"200", "http://s.test/robots.txt", "P", digest(bodies["/robots.txt"])},
		"http://s.test/":           {"200", "http://s.test/", "-", digest(bodies["/"])},
		"http://s.test/b":          {"200", "http://s.test/b", "-", digest(bodies["/b"])},
		"http://s.test/moved":      {"302", "http://s.test/moved", "L", digest("<a href=\"/c\">Found</a>.\n\n")},
		"http://s.test/c":          {"200", "http://s.test/c", "L", digest(bodies["/c"])},
	} {
		if got := byURL[u]; got != want {
			t.Errorf("%s: logged %+v, want %+v\n%s", u, got, want, b)
		}
	}
	if len(byURL) != 5 {
		t.Errorf("%d lines, want 5 (no line of a redirect that was a cleaned URL):\n%s", len(byURL), b)
	}
}
