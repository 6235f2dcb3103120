package crawl

import (
	"bytes"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// boundedPage is the part of an HTML body that is parsed (see boundPage) and
// how many links the rest holds.
type boundedPage struct {
	html      []byte
	size      int // the bytes of the page, before it was bounded
	nodes     int // the nodes of html, at most MaxNodes
	linksPast int
}

// bound returns the part of body that is parsed: a copy when it is cut, so
// that the rest of the body can be freed before the page waits its turn to
// be parsed.
func bound(body []byte) boundedPage {
	short := shortenTexts(body, maxTextToken)
	head, nodes, past := boundPage(short, MaxNodes)
	if len(short) == len(body) && len(head) < len(body) {
		// A cut body (a shortened one is a copy already).
		head = bytes.Clone(head)
	}
	return boundedPage{html: head, size: len(body), nodes: nodes, linksPast: past}
}

// maxTextToken is the longest text of a page that is parsed whole: far more
// than what a page keeps of its texts (MaxTextChars, MaxTitleSize, maxRest),
// far less than a body may hold.
const maxTextToken = 1 << 20

// rawTextElements are the elements whose content the tokenizer reads as one
// text, up to their end tag.
var rawTextElements = map[string]bool{
	"title": true, "textarea": true, "script": true, "style": true, "xmp": true,
	"iframe": true, "noembed": true, "noframes": true, "noscript": true,
}

// shortenTexts returns body with each text longer than max bytes cut to its
// first max bytes (at a rune boundary), or body itself when none is. A
// parser holds a text whole, two or three times over while it reads it: a
// 10 MiB paragraph or a 4.7 MB <title> would cost tens of megabytes.
func shortenTexts(body []byte, max int) []byte {
	var (
		out    []byte // nil until a text is cut
		copied int    // body[:copied] is in out
		off    int    // where z's next token begins
		raw    string // the raw-text element the next token is the content of
		text   bool   // the last token was a text
		inRaw  string // the raw-text element the last text was the content of
	)
	z := html.NewTokenizer(bytes.NewReader(body))
	z.SetMaxBuf(max)
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			if z.Err() != html.ErrBufferExceeded || !text || off < len(body) && body[off] == '<' {
				// The end, or a tag longer than max after a whole text:
				// the rest is left as it is.
				break
			}
			// The tokenizer gave the first max bytes of a longer text:
			// the rest of it, up to the next tag, is left out.
			var end int
			if inRaw != "" {
				end = indexEndTag(body[off:], inRaw)
			} else {
				end = bytes.IndexByte(body[off:], '<')
			}
			if end < 0 {
				end = len(body) - off
			}
			// A rune the tokenizer split is left out whole.
			cut, last := off, off-1
			for last > copied && last > off-utf8.UTFMax && !utf8.RuneStart(body[last]) {
				last--
			}
			if last >= copied && !utf8.FullRune(body[last:cut]) {
				cut = last
			}
			out = append(out, body[copied:cut]...)
			copied, off, raw, text = off+end, off+end, "", false
			z = html.NewTokenizer(bytes.NewReader(body[off:]))
			z.SetMaxBuf(max)
			continue
		}
		off += len(z.Raw())
		text, inRaw = tt == html.TextToken, raw
		raw = ""
		if tt == html.StartTagToken {
			if name, _ := z.TagName(); rawTextElements[string(name)] {
				raw = string(name)
			}
		}
	}
	if out == nil {
		return body
	}
	return append(out, body[copied:]...)
}

// indexEndTag returns the index in b of the end tag of the element name
// (lower-case), matched without regard to case, or -1.
func indexEndTag(b []byte, name string) int {
	for i := 0; ; {
		j := bytes.Index(b[i:], []byte("</"))
		if j < 0 {
			return -1
		}
		i += j
		if rest := b[i+2:]; len(rest) >= len(name) && bytes.EqualFold(rest[:len(name)], []byte(name)) {
			return i
		}
		i += 2
	}
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
