package crawl

import (
	"bytes"
	"errors"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/net/html/charset"

	"sitesift/sites"
)

// document is what the crawler keeps of an HTML page.
type document struct {
	title string
	text  string
	links []string
	// badLinks counts the links dropped: http(s) links that do not make a
	// valid URL with a site (sites.ErrBadHost and the like), links longer
	// than MaxURLSize, links beyond MaxLinks, and links whose host is "http"
	// or "https" ("http://http://a.test/", a typo).
	badLinks int
	// leftOut are the links that are no link between sites (share
	// buttons, media files), each once, with why (DropShare, DropMedia):
	// not among links, counted by the crawl.
	leftOut []leftLink
}

// leftLink is a link left out of a page's links, and why.
type leftLink struct{ url, why string }

// mediaType returns the media type of a Content-Type header without its
// parameters, lower-cased; when the header is missing it sniffs body.
func mediaType(header string, body []byte) string {
	if header == "" {
		if body == nil {
			return ""
		}
		header = http.DetectContentType(body)
	}
	mt, _, err := mime.ParseMediaType(header)
	if err != nil {
		// A malformed header still usually starts with the type.
		mt, _, _ = strings.Cut(header, ";")
	}
	return strings.ToLower(strings.TrimSpace(mt))
}

// isHTML reports whether a media type is one the crawler parses.
func isHTML(mt string) bool {
	return mt == "text/html" || mt == "application/xhtml+xml"
}

// toUTF8 decodes an HTML body to UTF-8. colly already converts bodies whose
// Content-Type names a charset, so only the others are sniffed here (BOM,
// <meta charset>, UTF-8 validity).
func toUTF8(body []byte, contentType string) []byte {
	if _, params, err := mime.ParseMediaType(contentType); err == nil && params["charset"] != "" {
		return body
	}
	enc, name, _ := charset.DetermineEncoding(body, "")
	if name == "utf-8" {
		return body
	}
	out, err := enc.NewDecoder().Bytes(body)
	if err != nil {
		return body
	}
	return out
}

// parseHTML extracts the title, the readable text of the body (capped at
// maxText bytes) and the links of an HTML page fetched from pageURL.
//
// Links come from a[href], area[href] and frame[src], are resolved against
// the page's <base href> when it has one, kept only when they lead to http(s)
// URLs, normalised with sites.Resolve, stripped of tracking parameters
// (sites.StripTracking) and deduplicated in document order. <img>, <script>
// and <link> are no links to pages: their URLs are not taken; nor are share
// buttons and links to media files (see whyLeftOut), which are counted, nor
// links whose host is "http" or "https" (bad links).
func parseHTML(body []byte, pageURL *url.URL, maxText int) (document, error) {
	root, err := html.Parse(bytes.NewReader(body))
	if err != nil {
		return document{}, err
	}
	x := extractor{base: pageURL, maxText: maxText, seen: make(map[string]bool)}
	// <base href> applies to every link of the document, even those before
	// it, so it is found first.
	if b := findFirst(root, atom.Base, "href"); b != "" {
		if u, err := sites.Resolve(pageURL, b); err == nil {
			x.base = u
		}
	}
	x.walk(root, false)
	return document{
		title:    truncate(collapse(x.title.String()), MaxTitleSize),
		text:     x.textString(),
		links:    x.links,
		badLinks: x.bad,
		leftOut:  x.leftOut,
	}, nil
}

// findFirst returns the value of attribute key of the first element a in the
// tree that has a non-empty one.
func findFirst(n *html.Node, a atom.Atom, key string) string {
	if n.Type == html.ElementNode && n.DataAtom == a {
		if v := attr(n, key); v != "" {
			return v
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if v := findFirst(c, a, key); v != "" {
			return v
		}
	}
	return ""
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return strings.TrimSpace(a.Val)
		}
	}
	return ""
}

type extractor struct {
	base     *url.URL
	maxText  int
	seen     map[string]bool
	links    []string
	bad      int // links dropped, see document.badLinks
	leftOut  []leftLink
	title    strings.Builder
	hasTitle bool
	text     strings.Builder
	space    bool // a word boundary was seen since the last word
	full     bool // text reached maxText
}

// skipped elements hold no readable text.
var skipped = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Iframe: true, atom.Noembed: true, atom.Noframes: true,
	atom.Object: true, atom.Svg: true, atom.Math: true,
}

// blocks are elements that separate words: "<p>a</p><p>b</p>" reads "a b",
// while "<b>wo</b>rd" reads "word".
var blocks = map[atom.Atom]bool{
	atom.Address: true, atom.Article: true, atom.Aside: true, atom.Blockquote: true,
	atom.Br: true, atom.Caption: true, atom.Dd: true, atom.Details: true, atom.Dialog: true,
	atom.Div: true, atom.Dl: true, atom.Dt: true, atom.Fieldset: true, atom.Figcaption: true,
	atom.Figure: true, atom.Footer: true, atom.Form: true, atom.H1: true, atom.H2: true,
	atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true, atom.Header: true,
	atom.Hr: true, atom.Img: true, atom.Input: true, atom.Legend: true, atom.Li: true,
	atom.Main: true, atom.Nav: true, atom.Ol: true, atom.Option: true, atom.P: true,
	atom.Pre: true, atom.Section: true, atom.Select: true, atom.Summary: true,
	atom.Table: true, atom.Td: true, atom.Textarea: true, atom.Th: true, atom.Tr: true,
	atom.Ul: true, atom.Body: true,
}

// walk visits the tree in document order; inBody tells whether n is inside
// <body> (or a <frameset>), the part whose text is readable.
func (x *extractor) walk(n *html.Node, inBody bool) {
	switch n.Type {
	case html.TextNode:
		if inBody {
			x.addText(n.Data)
		}
		return
	case html.ElementNode:
		switch n.DataAtom {
		case atom.Title:
			// The first <title> of the document is its title; one inside
			// <svg> is not, and the parser gives it another namespace.
			if !x.hasTitle && n.Namespace == "" {
				x.hasTitle = true
				// A title is read up to a few times its cap (white space
				// collapses later), never whole: it may be megabytes.
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					if c.Type == html.TextNode && x.title.Len() < 4*MaxTitleSize {
						x.title.WriteString(truncate(c.Data, 4*MaxTitleSize-x.title.Len()))
					}
				}
			}
			return
		case atom.A, atom.Area:
			x.addLink(attr(n, "href"))
		case atom.Frame:
			x.addLink(attr(n, "src"))
		case atom.Body, atom.Frameset:
			inBody = true
		}
		if n.Namespace == "" && skipped[n.DataAtom] {
			// Links inside <noscript> and the like are still links.
			x.linksOnly(n)
			return
		}
	}
	block := n.Type == html.ElementNode && blocks[n.DataAtom]
	if block {
		x.space = true
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		x.walk(c, inBody)
	}
	if block {
		x.space = true
	}
}

// linksOnly collects the links under n and ignores its text.
func (x *extractor) linksOnly(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			switch c.DataAtom {
			case atom.A, atom.Area:
				x.addLink(attr(c, "href"))
			case atom.Frame:
				x.addLink(attr(c, "src"))
			}
		}
		x.linksOnly(c)
	}
}

func (x *extractor) addLink(ref string) {
	if ref == "" {
		return
	}
	u, err := sites.Resolve(x.base, ref)
	if err != nil {
		if !errors.Is(err, sites.ErrNotHTTP) {
			x.bad++ // an http(s) link without a valid host or port
		}
		return
	}
	// The copies of a page that only tracking parameters tell apart
	// (?share=email, ?utm_source=…) are one page.
	sites.StripTracking(u)
	s := u.String()
	if x.seen[s] {
		return
	}
	if h := u.Hostname(); h == "http" || h == "https" {
		x.bad++ // "http://http://a.test/": a typo, never a host
		return
	}
	if why := whyLeftOut(u); why != "" {
		x.seen[s] = true
		x.leftOut = append(x.leftOut, leftLink{url: s, why: why})
		return
	}
	// Resolve's output has a site (FuzzResolve); the crawler checks each
	// link again as the store does where pages enter a batch.
	if len(s) > MaxURLSize || len(x.links) >= MaxLinks {
		x.bad++
		return
	}
	x.seen[s] = true
	x.links = append(x.links, s)
}

// whyLeftOut returns why the link u is no link between sites, or "": the
// endpoint of a share button, a template's link to the platform rather
// than an author's, or a media file, no page.
func whyLeftOut(u *url.URL) string {
	switch {
	case sites.IsShareLink(u):
		return DropShare
	case sites.IsMedia(u):
		return DropMedia
	}
	return ""
}

// addText appends the words of s, separated by one space; white space at
// either end of s separates its words from their neighbours, while text
// nodes that touch ("<b>wo</b>rd") stay one word.
func (x *extractor) addText(s string) {
	if x.full {
		return
	}
	if s != "" && isSpace(s[0]) {
		x.space = true
	}
	for _, f := range strings.Fields(s) {
		if x.space && x.text.Len() > 0 {
			x.text.WriteByte(' ')
		}
		x.text.WriteString(f)
		x.space = true
		if x.text.Len() >= x.maxText {
			x.full = true
			return
		}
	}
	x.space = s == "" || isSpace(s[len(s)-1])
}

func isSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f'
}

// textString returns the text, cut to maxText bytes at a rune boundary.
func (x *extractor) textString() string {
	s := x.text.String()
	if len(s) > x.maxText {
		cut := x.maxText
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut]
	}
	return s
}

// truncate cuts s to at most n bytes at a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// collapse trims s and collapses its runs of white space to one space.
func collapse(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
