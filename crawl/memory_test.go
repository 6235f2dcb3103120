package crawl

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/net/html"

	"sitesift/sites"
)

// linkPage returns an HTML page of about size bytes that is nothing but a
// list of links to distinct pages of its site: the page that costs a parser
// the most nodes a byte.
func linkPage(size int) []byte {
	var b bytes.Buffer
	b.WriteString("<!doctype html><html><head><title>links</title></head><body><ul>\n")
	for i := 0; b.Len() < size-100; i++ {
		fmt.Fprintf(&b, "<li><a href=\"/p/%d\">page %d</a></li>\n", i, i)
	}
	b.WriteString("</ul></body></html>\n")
	return b.Bytes()
}

// allocated returns the bytes f allocates on the heap, whatever the
// garbage collector does meanwhile: a bound on the most f can hold at once.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// countNodes returns the nodes of the tree under n, n included.
func countNodes(n *html.Node) int {
	total := 1
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		total += countNodes(c)
	}
	return total
}

// TestLinkPageParseIsBounded: a 10 MiB page of links is parsed into at most
// MaxNodes nodes, keeps MaxLinks links and counts the rest as dropped, and
// its parse with main-content extraction allocates a bounded amount
// whatever the page's size (it allocated 2.6 GB before the bound, 145 MB
// before pages that large were left out of main-content extraction).
func TestLinkPageParseIsBounded(t *testing.T) {
	body := linkPage(DefaultMaxBodySize)
	total := bytes.Count(body, []byte("<a href="))
	u, _ := sites.Parse("http://big.test/")

	root, _, _, err := walkPage(bound(body), u, MaxTextChars)
	if err != nil {
		t.Fatal(err)
	}
	// html.Parse adds <head> and <body> wrappers of its own at most.
	if n := countNodes(root); n > MaxNodes+4 {
		t.Errorf("the tree has %d nodes; want at most MaxNodes (%d)", n, MaxNodes)
	}
	root = nil

	var doc document
	alloc := allocated(func() { doc, err = parseHTML(body, u, MaxTextChars) })
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.links) != MaxLinks || len(doc.links)+doc.badLinks != total {
		t.Errorf("%d links kept, %d dropped; want MaxLinks (%d) kept and the other %d dropped",
			len(doc.links), doc.badLinks, MaxLinks, total-MaxLinks)
	}
	const bound = 64 << 20
	t.Logf("parse of a %d-byte page of %d links allocated %d MB", len(body), total, alloc>>20)
	if alloc > bound {
		t.Errorf("parsing a %d-byte page of links allocated %d MB; want at most %d MB", len(body), alloc>>20, bound>>20)
	}
}

// TestBoundPageCutsBetweenTokens: the part of a page that fits is its
// start, cut between two tokens, and the links after the cut are counted.
func TestBoundPageCutsBetweenTokens(t *testing.T) {
	page := `<html><body><p>one <a href="/a">a</a></p><!-- c --><a href=" /b ">b</a><a href="">x</a><area href="/c"><frame src="/d"><a name="n">y</a></body></html>`
	head, nodes, past := boundPage([]byte(page), 1000)
	if string(head) != page || nodes != 15 || past != 0 {
		t.Errorf("a page within the bound: head %q, %d nodes, %d links past; want the page whole, 15, 0", head, nodes, past)
	}
	// html, body, p, "one ", a, "a" fit: the cut is before the </a> ends
	// nothing and the comment starts the rest.
	head, nodes, past = boundPage([]byte(page), 6)
	if nodes != 6 {
		t.Errorf("%d nodes in the head; want 6", nodes)
	}
	if want := `<html><body><p>one <a href="/a">a</a></p>`; string(head) != want {
		t.Errorf("head %q; want %q", head, want)
	}
	if past != 3 { // /b, /c, /d: an empty href and a name are no links
		t.Errorf("%d links past the cut; want 3", past)
	}
	if !strings.HasPrefix(page[len(head):], "<!-- c -->") {
		t.Errorf("the rest starts %q; want the comment", page[len(head):])
	}
}

// TestLinkBytesBounded: a page's links are kept up to MaxLinkBytes bytes
// however few they are; the rest are counted as dropped.
func TestLinkBytesBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("<html><body>")
	const n = 3000
	for i := range n {
		fmt.Fprintf(&b, "<p><a href=\"/%s/%d\">a long link</a></p>", strings.Repeat("x", 900), i)
	}
	b.WriteString("</body></html>")
	u, _ := sites.Parse("http://long.test/")
	doc, err := parseHTML([]byte(b.String()), u, MaxTextChars)
	if err != nil {
		t.Fatal(err)
	}
	kept := 0
	for _, l := range doc.links {
		kept += len(l)
	}
	if kept > MaxLinkBytes || kept < MaxLinkBytes-MaxURLSize || len(doc.links)+doc.badLinks != n {
		t.Errorf("%d links of %d bytes kept, %d dropped; want at most and about MaxLinkBytes (%d) kept, the rest of %d dropped",
			len(doc.links), kept, doc.badLinks, MaxLinkBytes, n)
	}
}

// TestBacklogStopsFetches: new fetches wait while the pages waiting to be
// parsed, or to be handed to the batch function, hold maxQueuedBytes.
func TestBacklogStopsFetches(t *testing.T) {
	c, err := New(OnBatch(func(context.Context, []sites.Page, []sites.SiteState) error { return nil }))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name                     string
		parseBytes, pendingBytes int
		want                     bool
	}{
		{"nothing waits", 0, 0, false},
		{"pages to parse under the bound", maxQueuedBytes - 1, 0, false},
		{"pages to parse at the bound", maxQueuedBytes, 0, true},
		{"pages to hand over at the bound", 0, maxQueuedBytes, true},
	} {
		c.parseBytes, c.pendingBytes = tt.parseBytes, tt.pendingBytes
		if got := c.backlogged(); got != tt.want {
			t.Errorf("%s: backlogged %v; want %v", tt.name, got, tt.want)
		}
	}
}

// TestParseQueueBoundedByBytes: pages fetched and waiting for their turn
// to be parsed stop new fetches once they hold maxQueuedBytes, however many
// fetches Parallel allows: with 3 MiB pages, eight fetches at once and
// parsing held back, the ninth page is asked for only after enough pages
// were parsed to bring the queue under the bound.
func TestParseQueueBoundedByBytes(t *testing.T) {
	const (
		size     = 3 << 20
		parallel = 8
		hosts    = 10
	)
	// Paragraphs, none of them cut for its length (see shortenTexts).
	body := "<html><body>" + strings.Repeat("<p>"+strings.Repeat("word ", 20_000)+"</p>\n", size/100_008) + "</body></html>"
	var (
		mu     sync.Mutex
		parsed int   // parses done
		seen   []int // parses done when each page was asked for, in order
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		mu.Lock()
		seen = append(seen, parsed)
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	var seeds []string
	for i := range hosts {
		seeds = append(seeds, fmt.Sprintf("http://h%d.test/", i))
	}
	c, err := New(Proxy(srv.URL), Delay(0), Parallel(parallel), MaxPagesPerSite(1))
	if err != nil {
		t.Fatal(err)
	}
	c.extracting = make(chan struct{}, 1)
	release := make(chan struct{})
	c.parse = func(*url.URL, boundedPage) document {
		<-release
		mu.Lock()
		parsed++
		mu.Unlock()
		return document{} // what the page holds does not matter here
	}
	done := make(chan error, 1)
	go func() { done <- c.Run(context.Background(), seeds) }()
	// The first parse waits until the first eight pages are all fetched
	// and waiting; then pages are parsed one at a time, as the test lets
	// them.
	waitQueued := func(want int) {
		deadline := time.Now().Add(hangTimeout)
		for queued := -1; queued != want; {
			if time.Now().After(deadline) {
				t.Fatalf("%d bytes of pages wait to be parsed; want %d", queued, want)
			}
			time.Sleep(time.Millisecond)
			c.mu.Lock()
			queued = c.parseBytes
			c.mu.Unlock()
		}
	}
	waitQueued(parallel * len(body))
	for range hosts {
		release <- struct{}{}
		// The scheduler has a moment to start a fetch it should not
		// start: the bound holds whatever this pause, which only lets a
		// crawl without the bound show.
		time.Sleep(20 * time.Millisecond)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != hosts {
		t.Fatalf("%d pages asked for; want %d", len(seen), hosts)
	}
	// Eight pages of 3 MiB are 24 MiB: the queue is under the bound once
	// three were parsed.
	need := parallel - (maxQueuedBytes-1)/len(body)
	if seen[parallel] < need {
		t.Errorf("the page after the first %d was asked for when %d pages were parsed; want at least %d (parses done at each request: %v)",
			parallel, seen[parallel], need, seen)
	}
}

// TestBodiesReadAtOnceBounded: eight 8 MiB pages fetched at once hold at
// most maxReadingBytes beyond the largest one's while they are read, and
// every page is still fetched whole.
func TestBodiesReadAtOnceBounded(t *testing.T) {
	const (
		size  = 8 << 20
		pages = 8
		chunk = 64 << 10
	)
	body := "<html><body><p>" + strings.Repeat("word ", size/5) + "</p></body></html>"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		// In pieces, so that the pages come at the same time: the bound
		// holds whatever the pace, which only lets a crawl without it show.
		for rest := body; rest != ""; {
			n := min(chunk, len(rest))
			if _, err := io.WriteString(w, rest[:n]); err != nil {
				return
			}
			rest = rest[n:]
			w.(http.Flusher).Flush()
			time.Sleep(time.Millisecond)
		}
	}))
	t.Cleanup(srv.Close)
	var seeds []string
	for i := range pages {
		seeds = append(seeds, fmt.Sprintf("http://h%d.test/", i))
	}
	r := &result{}
	c, err := New(Proxy(srv.URL), Delay(0), Parallel(pages), MaxPagesPerSite(1), r.recorder())
	if err != nil {
		t.Fatal(err)
	}
	c.parse = func(*url.URL, boundedPage) document { return document{} } // the pages' contents do not matter here
	ctx, cancel := context.WithTimeout(context.Background(), hangTimeout)
	defer cancel()
	if err := c.Run(ctx, seeds); err != nil {
		t.Fatal(err)
	}
	for _, p := range r.pages {
		if p.Size != len(body) || p.Err != "" {
			t.Errorf("%s: %d bytes, error %q; want %d, none", p.URL, p.Size, p.Err, len(body))
		}
	}
	if len(r.pages) != pages {
		t.Errorf("%d pages; want %d", len(r.pages), pages)
	}
	if most := c.reading.most; most > maxReadingBytes {
		t.Errorf("the bodies read at once held %d MiB beyond the largest one's; want at most %d MiB", most>>20, maxReadingBytes>>20)
	}
}

// TestCaptureBodySpills: a capture keeps a body past spillAt bytes out of
// memory while it is read (colly holds it meanwhile) and hands it over whole
// in its file when it is closed, leaving no temporary file after.
func TestCaptureBodySpills(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	body := []byte(strings.Repeat("<p>a page of text</p>\n", (5<<20)/22))
	var got []sites.Capture
	cb := &captureBody{ReadCloser: io.NopCloser(bytes.NewReader(body)), max: DefaultMaxBodySize, length: -1,
		c:    sites.Capture{URL: "http://a.test/"},
		emit: func(c sites.Capture) { got = append(got, c) },
		fail: func(u string, err error) { t.Errorf("capture of %s failed: %v", u, err) }}
	p := make([]byte, 32<<10)
	alloc := allocated(func() {
		for {
			if _, err := cb.Read(p); err != nil {
				break
			}
		}
	})
	const most = 2 << 20 // twice spillAt
	if alloc > most {
		t.Errorf("reading a %d-byte body allocated %d bytes for its capture; want at most %d", len(body), alloc, most)
	}
	var kept []byte
	cb.emit = func(c sites.Capture) {
		got = append(got, c)
		kept, _ = io.ReadAll(c.BodyReader()) // its file is there during the call
	}
	cb.Close()
	if len(got) != 1 || !bytes.Equal(kept, body) || got[0].BodyLen() != int64(len(body)) || got[0].Truncated != "" {
		t.Fatalf("%d captures; want one of the whole body", len(got))
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("files left in the temporary directory: %v", left)
	}
}

// TestBigTextPagesParseBounded: a 10 MiB paragraph and a 4.7 MB <title>
// are parsed with bounded allocations (go-trafilatura read them again and
// again before pages that large were left out of main-content extraction,
// and the parser held them whole before long texts were cut), and keep
// their capped texts.
func TestBigTextPagesParseBounded(t *testing.T) {
	u, _ := sites.Parse("http://big.test/")
	for _, tt := range []struct {
		name string
		body string
		most uint64 // bytes allocated at most (817 MB and 166 MB with go-trafilatura, 153 MB and 41 MB with texts parsed whole)
	}{
		{"a 10 MiB paragraph", "<html><head><title>Big page</title></head><body><p>" + strings.Repeat("big page words ", DefaultMaxBodySize/15), 64 << 20},
		{"a 4.7 MB title", "<html><head><title>" + strings.Repeat("huge title ", 4_700_000/11) + "</title></head><body>" +
			strings.Repeat("body words ", 1000) + "</body></html>", 32 << 20},
	} {
		var doc document
		var err error
		alloc := allocated(func() { doc, err = parseHTML([]byte(tt.body), u, MaxTextChars) })
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: parse allocated %d MB", tt.name, alloc>>20)
		if alloc > tt.most {
			t.Errorf("%s: parse allocated %d MB; want at most %d MB", tt.name, alloc>>20, tt.most>>20)
		}
		if len(doc.text) == 0 || utf8.RuneCountInString(doc.text) > MaxTextChars || len(doc.title) == 0 || len(doc.title) > MaxTitleSize {
			t.Errorf("%s: text of %d characters, title of %d bytes; want some of each, within MaxTextChars and MaxTitleSize", tt.name, utf8.RuneCountInString(doc.text), len(doc.title))
		}
	}
}

// TestReadBudgetSlowBodyHoldsNoOneBack: a body that comes slowly, holding
// little, does not stop a larger one from being read whole; a third waits
// for room, and gets it when the larger one is closed.
func TestReadBudgetSlowBodyHoldsNoOneBack(t *testing.T) {
	b := newReadBudget(1 << 20)
	ctx, cancel := context.WithTimeout(context.Background(), hangTimeout)
	defer cancel()
	slow := b.body(ctx, io.NopCloser(strings.NewReader("a few bytes")))
	if _, err := slow.Read(make([]byte, 4)); err != nil {
		t.Fatal(err)
	}
	big := b.body(ctx, io.NopCloser(bytes.NewReader(make([]byte, 3<<20))))
	if n, err := io.Copy(io.Discard, big); err != nil || n != 3<<20 {
		t.Fatalf("read %d bytes of the larger body: %v; want it whole while the slow one is open", n, err)
	}
	third := b.body(ctx, io.NopCloser(bytes.NewReader(make([]byte, 64<<10))))
	done := make(chan error, 1)
	go func() { _, err := io.Copy(io.Discard, third); done <- err }()
	select {
	case err := <-done:
		t.Fatalf("the third body was read (%v) while the budget had no room", err)
	case <-time.After(50 * time.Millisecond): // it waits; the check below does not depend on this pause
	}
	big.Close()
	if err := <-done; err != nil {
		t.Fatalf("the third body: %v; want it read once the larger one is closed", err)
	}
	if b.most > b.max {
		t.Errorf("%d bytes held beyond the largest body's; want at most %d", b.most, b.max)
	}
}

// TestShortenTexts: a text longer than the bound is cut to it, in the data
// and in raw-text elements (<title>, <script>), and what follows it is kept;
// a page without one is left as it is.
func TestShortenTexts(t *testing.T) {
	small := []byte(`<html><head><title>t</title></head><body><p>a < b</p><a href="/x">x</a></body></html>`)
	if got := shortenTexts(small, 20); &got[0] != &small[0] || len(got) != len(small) {
		t.Errorf("a page without a long text became %q; want it as it is", got)
	}
	for _, tt := range []struct{ page, want string }{
		{`<p>` + strings.Repeat("é", 20) + `</p><a href="/x">x</a>`, `<p>ééééé</p><a href="/x">x</a>`},
		{`<title>` + strings.Repeat("huge ", 20) + `</TITLE><a href="/x">x</a>`, `<title>huge huge </TITLE><a href="/x">x</a>`},
		{`<script>` + strings.Repeat("x<y;", 20) + `</script><p>after</p>`, `<script>x<y;x<y;x<</script><p>after</p>`},
		{`<p>` + strings.Repeat("word ", 20), `<p>word word `},
	} {
		if got := string(shortenTexts([]byte(tt.page), 10)); got != tt.want {
			t.Errorf("shortenTexts(%.30q…) = %q; want %q", tt.page, got, tt.want)
		}
	}
}

// FuzzShortenTexts: cutting the long texts of any input, with a bound small
// enough to cut often, never fails, never grows it and keeps its start.
func FuzzShortenTexts(f *testing.F) {
	f.Add([]byte(`<title>a long title</title><p>a long paragraph</p><script>if (a<b) {}</script>`))
	f.Add([]byte(`<p>a < b and a long text after it</p>`))
	f.Fuzz(func(t *testing.T, body []byte) {
		out := shortenTexts(body, 8)
		if len(out) > len(body) {
			t.Fatalf("%d bytes became %d", len(body), len(out))
		}
		// The first text is cut at the bound, less a rune it would split.
		n := min(len(out), 8-utf8.UTFMax+1)
		if !bytes.Equal(out[:n], body[:n]) {
			t.Fatalf("the start %q became %q", body[:n], out[:n])
		}
	})
}
