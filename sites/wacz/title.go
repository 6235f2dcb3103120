package wacz

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/net/html/charset"
)

// MaxTitle caps a page's title in pages.jsonl, in bytes.
const MaxTitle = 1000

// HTMLTitle returns the text of the first <title> of the HTML document
// body, served with the Content-Type contentType, white space collapsed
// and cut at [MaxTitle] bytes: what a browser shows in its tab, and what
// pages.jsonl lists (the headline a text extractor finds is another
// thing). It returns "" when the document has none. A <title> inside
// <svg> is no title of the document.
func HTMLTitle(body []byte, contentType string) string {
	r, err := charset.NewReader(bytes.NewReader(body), contentType)
	if err != nil {
		return ""
	}
	z := html.NewTokenizer(r)
	svg := 0
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken:
			name, _ := z.TagName()
			switch atom.Lookup(name) {
			case atom.Svg:
				svg++
			case atom.Title:
				if svg > 0 {
					continue
				}
				// The tokenizer reads a title's text raw, up to </title>.
				if z.Next() != html.TextToken {
					return ""
				}
				return cut(strings.Join(strings.Fields(string(z.Text())), " "), MaxTitle)
			}
		case html.EndTagToken:
			if name, _ := z.TagName(); atom.Lookup(name) == atom.Svg && svg > 0 {
				svg--
			}
		}
	}
}

// cut is s cut to at most n bytes on a character boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
