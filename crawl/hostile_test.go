package crawl

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"sitesift/sites"
)

// A page of a hostile web: links no URL parser should accept (the first
// made every batch of a project fail), a title of megabytes and more links
// than a page may keep. The page is recorded with its title and links
// capped, and the dropped links are counted.
func TestHostilePageIsCapped(t *testing.T) {
	t.Parallel()
	bad := []string{"http://../x", "http://a.test:99999/", "http://[fe80::1%25eth0]/", "http://0x7f.1/",
		"http://b\xffd.test/", "http://x.test/" + strings.Repeat("p", 10_000)}
	var b strings.Builder
	b.WriteString("<html><head><title>" + strings.Repeat("huge title ", 500_000) + "</title></head><body>")
	for _, l := range bad {
		fmt.Fprintf(&b, "<a href=%q>bad</a>", l)
	}
	b.WriteString(`<a href="mailto:a@b.test">not a web link</a>`)
	for i := range MaxLinks + 500 {
		fmt.Fprintf(&b, `<a href="/l%d">%d</a>`, i, i)
	}
	b.WriteString("</body></html>")
	w := newWeb(t, map[string]map[string]resp{"a.test": {"/": {body: b.String()}}})
	r := crawl(t, w, []string{"http://a.test/"}, MaxPages(1), MaxBodySize(20<<20))
	if r.err != nil || len(r.pages) != 1 {
		t.Fatalf("Run: %v, %d pages recorded; want the page", r.err, len(r.pages))
	}
	p := r.pages[0]
	if len(p.Title) > MaxTitleSize || !strings.HasPrefix(p.Title, "huge title huge") {
		t.Errorf("title of %d bytes (%.20q...), want at most %d", len(p.Title), p.Title, MaxTitleSize)
	}
	if len(p.Links) != MaxLinks {
		t.Errorf("%d links kept, want %d", len(p.Links), MaxLinks)
	}
	if want := len(bad) + 500; r.status.BadLinks != want {
		t.Errorf("BadLinks = %d, want %d (the bad links and those beyond MaxLinks)", r.status.BadLinks, want)
	}
}

// A robots.txt that never ends was read until the request timed out, and
// took gigabytes. It is read up to MaxRobotsSize; the rules before the cap
// apply and the crawl goes on. The file here ends after 128 MiB, so that a
// crawl that reads it all still ends, and the server counts what it sent:
// the cap and the socket buffers, a few MiB, or all of it.
func TestEndlessRobotsTxt(t *testing.T) {
	t.Parallel()
	const end = 128 << 20
	chunk := []byte(strings.Repeat("# endless comment line\n", 2000))
	var sent atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			w.Header().Set("Content-Type", "text/plain")
			w.Write([]byte("User-agent: *\nDisallow: /private/\n"))
			for sent.Load() < end {
				n, err := w.Write(chunk)
				sent.Add(int64(n))
				if err != nil {
					return
				}
			}
		case "/":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<a href="/open">o</a> <a href="/private/x">p</a>`))
		default:
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<p>page</p>`))
		}
	}))
	t.Cleanup(srv.Close)
	w := &web{srv: srv}
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	r := crawl(t, w, []string{"http://r.test/"}, Timeout(hangTimeout))
	if r.err != nil {
		t.Fatalf("Run: %v", r.err)
	}
	if n := sent.Load(); n >= 32<<20 {
		t.Errorf("the server sent %d MiB of robots.txt before the crawler hung up, want the %d KiB read and what the sockets hold",
			n>>20, MaxRobotsSize>>10)
	}
	if got := r.urls(); !sameSet(got, []string{"http://r.test/", "http://r.test/open"}) || r.status.Disallowed != 1 {
		t.Errorf("pages %q, %d disallowed; want / and /open, /private/x disallowed", got, r.status.Disallowed)
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 200<<20 {
		t.Errorf("the crawl allocated %d MiB, want a bounded robots.txt read", grew>>20)
	}
}

// Links reach a batch only when the store accepts them, whatever produced
// them: finish drops and counts the others, so one bad link never fails a
// batch of pages. Error messages kept with pages and in LastError are capped.
func TestFinishKeepsOnlyStorableLinks(t *testing.T) {
	t.Parallel()
	c, err := New(OnBatch(func(context.Context, []sites.Page, []sites.SiteState) error { return nil }))
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	long := "http://x.test/" + strings.Repeat("p", MaxURLSize)
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.site("a.test")
	c.inflight = 2
	doc := document{
		links:    []string{"http://../x", "http://b.test/", "http://a.test:99999/", long, "http://a.test/next"},
		badLinks: 3,
	}
	c.finish(s, retryURL{queuedURL: queuedURL{url: "http://a.test/"}},
		fetchResult{kind: fetchedPage, status: 200, page: mustParse("http://a.test/"), at: time.Now()}, doc)
	c.finish(s, retryURL{queuedURL: queuedURL{url: "http://a.test/gone"}},
		fetchResult{kind: fetchFailed, err: errors.New(strings.Repeat("e", 10*maxErrSize)), at: time.Now()}, document{})

	if len(c.pending) != 2 {
		t.Fatalf("%d pages pending, want the page and the failed fetch", len(c.pending))
	}
	if got, want := c.pending[0].Links, []string{"http://b.test/", "http://a.test/next"}; !slices.Equal(got, want) {
		t.Errorf("links %q, want %q", got, want)
	}
	if c.badLinks != 3+3 {
		t.Errorf("badLinks = %d, want 6 (3 from the extractor, 3 dropped by finish)", c.badLinks)
	}
	if n := len(c.pending[1].Err); n > maxErrSize {
		t.Errorf("error of the failed page is %d bytes, want at most %d", n, maxErrSize)
	}
	if n := len(c.lastError); n > maxErrSize+len("http://a.test/gone: ") {
		t.Errorf("LastError is %d bytes, want the message capped at %d", n, maxErrSize)
	}
}

// A gzip body that net/http does not inflate itself ("Content-Encoding:
// x-gzip", a Content-Type naming gzip) was inflated by colly without bound:
// 10 MB of gzip made gigabytes. It is inflated up to MaxBodySize, like every
// other body, so a link after that point is not seen.
func TestGzipBodyCappedAfterInflating(t *testing.T) {
	t.Parallel()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(`<html><body><a href="/start">start</a>`))
	zw.Write(bytes.Repeat([]byte(" "), 40<<20))
	zw.Write([]byte(`<a href="/end">end</a></body></html>`))
	zw.Close()
	for _, h := range []struct{ encoding, ctype string }{
		{"x-gzip", "text/html"},
		{"", "text/html; gzip"},
	} {
		t.Run(h.encoding+h.ctype, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/" {
					http.NotFound(w, r)
					return
				}
				w.Header().Set("Content-Type", h.ctype)
				if h.encoding != "" {
					w.Header().Set("Content-Encoding", h.encoding)
				}
				w.Write(gz.Bytes())
			}))
			t.Cleanup(srv.Close)
			r := crawl(t, &web{srv: srv}, []string{"http://g.test/"}, MaxPages(1), MaxBodySize(1<<20))
			if r.err != nil || len(r.pages) != 1 {
				t.Fatalf("Run: %v, %d pages; want the page", r.err, len(r.pages))
			}
			if got := r.pages[0].Links; !slices.Equal(got, []string{"http://g.test/start"}) {
				t.Errorf("links %q, want only /start: the body past MaxBodySize must not be inflated", got)
			}
		})
	}
}
