package crawl

import (
	"bytes"

	"golang.org/x/net/html"
)

// boundedPage is the part of an HTML body that is parsed (see boundPage) and
// how many links the rest holds.
type boundedPage struct {
	html      []byte
	nodes     int // the nodes of html, at most MaxNodes
	linksPast int
}

// bound returns the part of body that is parsed: a copy when it is cut, so
// that the rest of the body can be freed before the page waits its turn to
// be parsed.
func bound(body []byte) boundedPage {
	head, nodes, past := boundPage(body, MaxNodes)
	if len(head) < len(body) {
		head = bytes.Clone(head)
	}
	return boundedPage{html: head, nodes: nodes, linksPast: past}
}

// boundPage returns the start of the HTML body that holds at most maxNodes
// nodes (elements, texts, comments), cut between two tokens, the nodes it
// holds, and how many links (a[href], area[href], frame[src]) the rest
// holds.
//
// A parsed tree costs about 150 bytes a node, and main-content extraction
// copies it several times over: a 10 MiB page of links is about a million and
// a half nodes, over a gigabyte in flight. The scan here holds one token at
// a time, so what a page can cost is bounded before it is parsed. The rest
// is not parsed: its text is not read and its links are not taken, only
// counted (see document.badLinks).
func boundPage(body []byte, maxNodes int) (head []byte, nodes, linksPast int) {
	z := html.NewTokenizer(bytes.NewReader(body))
	offset := 0
	var tt html.TokenType
	for {
		tt = z.Next()
		if tt == html.ErrorToken {
			return body, nodes, 0 // the whole body fits
		}
		if tt != html.EndTagToken && tt != html.DoctypeToken {
			nodes++
			if nodes > maxNodes {
				break
			}
		}
		offset += len(z.Raw())
	}
	// The token that went over the bound is the first of the rest.
	for ; tt != html.ErrorToken; tt = z.Next() {
		if (tt == html.StartTagToken || tt == html.SelfClosingTagToken) && isLinkTag(z) {
			linksPast++
		}
	}
	return body[:offset], maxNodes, linksPast
}

// isLinkTag reports whether the tokenizer's current start tag is a link
// walk takes (a[href], area[href], frame[src]) with a value.
func isLinkTag(z *html.Tokenizer) bool {
	name, hasAttr := z.TagName()
	var key string
	switch string(name) {
	case "a", "area":
		key = "href"
	case "frame":
		key = "src"
	default:
		return false
	}
	for hasAttr {
		var k, v []byte
		k, v, hasAttr = z.TagAttr()
		if string(k) == key {
			return len(bytes.TrimSpace(v)) > 0
		}
	}
	return false
}
