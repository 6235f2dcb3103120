package crawl

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"

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
// whatever the page's size (it allocated 2.6 GB before the bound).
func TestLinkPageParseIsBounded(t *testing.T) {
	body := linkPage(DefaultMaxBodySize)
	total := bytes.Count(body, []byte("<a href="))
	u, _ := sites.Parse("http://big.test/")

	root, _, _, err := walkPage(body, u, MaxTextSize)
	if err != nil {
		t.Fatal(err)
	}
	// html.Parse adds <head> and <body> wrappers of its own at most.
	if n := countNodes(root); n > MaxNodes+4 {
		t.Errorf("the tree has %d nodes; want at most MaxNodes (%d)", n, MaxNodes)
	}
	root = nil

	var doc document
	alloc := allocated(func() { doc, err = parseHTML(body, u, MaxTextSize) })
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.links) != MaxLinks || len(doc.links)+doc.badLinks != total {
		t.Errorf("%d links kept, %d dropped; want MaxLinks (%d) kept and the other %d dropped",
			len(doc.links), doc.badLinks, MaxLinks, total-MaxLinks)
	}
	const bound = 256 << 20
	t.Logf("parse of a %d-byte page of %d links allocated %d MB", len(body), total, alloc>>20)
	if alloc > bound {
		t.Errorf("parsing a %d-byte page of links allocated %d MB; want at most %d MB", len(body), alloc>>20, bound>>20)
	}
}

// TestBoundPageCutsBetweenTokens: the part of a page that fits is its
// start, cut between two tokens, and the links after the cut are counted.
func TestBoundPageCutsBetweenTokens(t *testing.T) {
	page := `<html><body><p>one <a href="/a">a</a></p><!-- c --><a href=" /b ">b</a><a href="">x</a><area href="/c"><frame src="/d"><a name="n">y</a></body></html>`
	head, past := boundPage([]byte(page), 1000)
	if string(head) != page || past != 0 {
		t.Errorf("a page within the bound: head %q, %d links past; want the page whole, 0", head, past)
	}
	// html, body, p, "one ", a, "a" fit: the cut is before the </a> ends
	// nothing and the comment starts the rest.
	head, past = boundPage([]byte(page), 6)
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
