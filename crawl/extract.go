package crawl

import (
	"bytes"
	"errors"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"

	"sitesift/sites"
)

// document is what the crawler keeps of an HTML page.
type document struct {
	title string
	// text is the main content (see mainContent), fullText the readable
	// text of the whole body; both capped at the extractor's maxText
	// characters.
	text, fullText string
	lang           string    // ISO 639-1 code of text's language, "" when it could not be told
	published      time.Time // the date the page says it was published, zero without one
	// links are all the page's links, each once, in document order, the
	// editorial and the template's together, as the frontier takes them;
	// template[i] says links[i] is a template link (see mainContent). A nil
	// template means every link is editorial.
	links    []string
	template []bool
	// badLinks counts the links dropped: http(s) links that do not make a
	// valid URL with a site (sites.ErrBadHost and the like), links longer
	// than MaxURLSize, links beyond MaxLinks or MaxLinkBytes, links past
	// MaxNodes, and links whose host is "http" or "https"
	// ("http://http://a.test/", a typo).
	badLinks int
	// leftOut are the links that are no link between sites (share
	// buttons, media files), each once, with why (DropShare, DropMedia):
	// not among links, counted by the crawl.
	leftOut []leftLink
}

// leftLink is a link left out of a page's links, and why.
type leftLink struct{ url, why string }

// isTemplate reports whether links[i] is a template link.
func (d *document) isTemplate(i int) bool { return d.template != nil && d.template[i] }

// split returns the editorial links and the template links, each in
// document order.
func (d *document) split() (editorial, template []string) {
	for i, l := range d.links {
		if d.isTemplate(i) {
			template = append(template, l)
		} else {
			editorial = append(editorial, l)
		}
	}
	return editorial, template
}

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
// Content-Type names a charset, so only the others are sniffed here (see
// sniffCharset). Archived pages (WARC imports) go through it too, so a page
// reads the same whether it was crawled or imported.
func toUTF8(body []byte, contentType string) []byte {
	if _, params, err := mime.ParseMediaType(contentType); err == nil && params["charset"] != "" {
		return body
	}
	enc, name := sniffCharset(body)
	if name == "utf-8" {
		return body
	}
	out, err := enc.NewDecoder().Bytes(body)
	if err != nil {
		return body
	}
	return out
}

// maxCharsetScan bounds how much of a page's start is read for a <meta>
// naming its charset.
const maxCharsetScan = 256 << 10

// sniffCharset tells the charset of an HTML body whose Content-Type names
// none: a byte order mark; else a <meta charset> or <meta http-equiv
// content-type> of its head, wherever it stands in the head (browsers
// honour a late one by parsing again; real heads often hold more than the
// 1024 bytes of charset.DetermineEncoding's prescan before it); else UTF-8
// when the whole body is valid UTF-8 (not only its first kilobyte, often
// plain ASCII); else windows-1252.
func sniffCharset(body []byte) (encoding.Encoding, string) {
	if enc, name, certain := charset.DetermineEncoding(body, ""); certain {
		return enc, name // a byte order mark
	}
	if enc, name := metaCharset(body); enc != nil {
		return enc, name
	}
	b := body
	// A body cut at a size limit may end inside a rune.
	for i := len(b) - 1; i >= 0 && i > len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				b = b[:i]
			}
			break
		}
	}
	if utf8.Valid(b) {
		return encoding.Nop, "utf-8"
	}
	return charmap.Windows1252, "windows-1252"
}

// metaCharset returns the charset a <meta> of body's head declares, nil
// when none does before the body starts.
func metaCharset(body []byte) (encoding.Encoding, string) {
	z := html.NewTokenizer(bytes.NewReader(body[:min(len(body), maxCharsetScan)]))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return nil, ""
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			switch atom.Lookup(name) {
			case atom.Body:
				return nil, ""
			case atom.Meta:
				var cs, equiv, content string
				for hasAttr {
					var k, v []byte
					k, v, hasAttr = z.TagAttr()
					switch string(k) {
					case "charset":
						cs = string(v)
					case "http-equiv":
						equiv = strings.ToLower(string(v))
					case "content":
						content = string(v)
					}
				}
				if cs == "" && equiv == "content-type" {
					cs = contentCharset(content)
				}
				if cs == "" {
					continue
				}
				enc, name := charset.Lookup(cs)
				if enc == nil {
					continue
				}
				// As in the HTML standard: a page read as bytes cannot be
				// UTF-16, whatever its <meta> says.
				if strings.HasPrefix(name, "utf-16") {
					return encoding.Nop, "utf-8"
				}
				return enc, name
			}
		}
	}
}

// contentCharset returns the charset named in the content of a <meta
// http-equiv="Content-Type">, "" when it names none.
func contentCharset(content string) string {
	if _, params, err := mime.ParseMediaType(content); err == nil {
		return params["charset"]
	}
	_, after, ok := strings.Cut(strings.ToLower(content), "charset=")
	if !ok {
		return ""
	}
	after = strings.Trim(after, ` "'`)
	if i := strings.IndexAny(after, ` ;"'`); i >= 0 {
		after = after[:i]
	}
	return after
}

// parseHTML extracts what the crawler keeps of an HTML page fetched from
// pageURL: its title, main text and full text (each capped at maxText
// characters), language, publication date and links, editorial or not (see
// mainContent).
//
// Links come from a[href], area[href] and frame[src], are resolved against
// the page's <base href> when it has one, kept only when they lead to http(s)
// URLs, normalised with sites.Resolve, stripped of tracking parameters
// (sites.StripTracking) and deduplicated in document order. <img>, <script>
// and <link> are no links to pages: their URLs are not taken; nor are share
// buttons and links to media files (see whyLeftOut), which are counted, nor
// links whose host is "http" or "https" (bad links).
//
// Only the start of a page up to MaxNodes nodes is parsed (see boundPage).
func parseHTML(body []byte, pageURL *url.URL, maxText int) (document, error) {
	return parseBounded(bound(body), pageURL, maxText)
}

// parseBounded is parseHTML of a body already bounded.
func parseBounded(p boundedPage, pageURL *url.URL, maxText int) (document, error) {
	root, x, doc, err := walkPage(p, pageURL, maxText)
	if err != nil {
		return document{}, err
	}
	mainContent(root, pageURL, x, &doc)
	return doc, nil
}

// walkPage parses p and walks its tree: the document it returns has its
// <title>, full text and links, all editorial.
func walkPage(p boundedPage, pageURL *url.URL, maxText int) (*html.Node, *extractor, document, error) {
	root, err := html.Parse(bytes.NewReader(p.html))
	if err != nil {
		return nil, nil, document{}, err
	}
	x := extractor{base: pageURL, maxText: maxText, seen: make(map[string]int),
		full: textBuilder{max: utf8.UTFMax * maxText}, rest: textBuilder{max: maxRest}, bad: p.linksPast,
		nodes: p.nodes, size: p.size}
	// <base href> applies to every link of the document, even those before
	// it, so it is found first.
	if b := findFirst(root, atom.Base, "href"); b != "" {
		if u, err := sites.Resolve(pageURL, b); err == nil {
			x.base = u
		}
	}
	// A region holding half the page's text is its content whatever its
	// name says (see wrapper).
	x.half = (textLen(root, -1) + 1) / 2
	x.walk(root, false, nil, false, false)
	doc := document{
		title:    truncate(collapse(x.title.String()), MaxTitleSize),
		fullText: truncateChars(x.full.b.String(), maxText),
		links:    x.links,
		badLinks: x.bad,
		leftOut:  x.leftOut,
	}
	return root, &x, doc, nil
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

// linkAt is one <a>, <area> or <frame> of a page whose link was kept: the
// index of its link in extractor.links, the element, the nearest block
// element around it, whether it sits in the page's template (see
// inTemplate) and whether in a box of the template's links that no text
// around it makes the author's (see inBox), or in an element without text
// (a <noscript> fallback).
type linkAt struct {
	link     int
	node     *html.Node
	block    *html.Node
	template bool
	box      bool
}

type extractor struct {
	base    *url.URL
	maxText int // in characters
	// seen maps each link met to its index in links, or -1 for one left
	// out (leftOut).
	seen      map[string]int
	links     []string
	linkBytes int // the bytes of links
	nodes     int // the nodes of the page parsed (see boundedPage)
	size      int // the bytes of the page, before it was bounded
	at        []linkAt
	bad       int // links dropped, see document.badLinks
	leftOut   []leftLink
	title     strings.Builder
	hasTitle  bool
	declared  string       // the language <html lang> declares, see declaredLanguage
	half      int          // half the bytes of the page's words, see wrapper
	articles  []*html.Node // the page's <article> elements, in document order
	// full is the text of the whole body; rest the text outside the
	// template (see inTemplate), up to maxRest: it may become the main
	// text, and its words are counted against the extracted content's.
	full, rest textBuilder
}

// maxRest caps the text outside the template kept while a page is read, in
// bytes: no less than the main text keeps (MaxTextChars runes of at most
// utf8.UTFMax bytes), far less than a body may hold.
const maxRest = 1 << 20

// The main text is never cut below MaxTextChars for want of its bytes.
var _ [maxRest - utf8.UTFMax*MaxTextChars]struct{}

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
// <body> (or a <frameset>), the part whose text is readable, block is the
// nearest block element around n, template whether n is in the page's
// template (see inTemplate) and box whether in a box of template links
// (see inBox), which is template too.
func (x *extractor) walk(n *html.Node, inBody bool, block *html.Node, template, box bool) {
	switch n.Type {
	case html.TextNode:
		if inBody {
			x.full.add(n.Data)
			if !template {
				x.rest.add(n.Data)
			}
		}
		return
	case html.ElementNode:
		if !box && n.Namespace == "" && inBox(n) && !x.wrapper(n) {
			box = true
		}
		if !template && n.Namespace == "" && (box || inTemplate(n) && !x.wrapper(n)) {
			template = true
			x.rest.boundary()
		}
		switch n.DataAtom {
		case atom.Article:
			x.articles = append(x.articles, n)
		case atom.Html:
			if x.declared == "" {
				x.declared = declaredLanguage(n)
			}
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
			x.addLink(attr(n, "href"), n, block, template, box)
		case atom.Frame:
			x.addLink(attr(n, "src"), n, block, template, box)
		case atom.Body, atom.Frameset:
			inBody = true
		}
		if n.Namespace == "" && skipped[n.DataAtom] {
			// Links inside <noscript> and the like are still links, but
			// not what a reader of the page reads: the template's.
			x.linksOnly(n, block, template)
			return
		}
	}
	isBlock := n.Type == html.ElementNode && blocks[n.DataAtom]
	if isBlock {
		block = n
		x.full.boundary()
		x.rest.boundary()
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		x.walk(c, inBody, block, template, box)
	}
	if isBlock {
		x.full.boundary()
		x.rest.boundary()
	}
}

// wrapper reports whether the element n, which inTemplate takes for
// template, holds half the page's words or more: a layout's wrapper
// ("c-fixed-sidebar-layout") or a site that puts its articles in <aside>,
// not a sidebar.
func (x *extractor) wrapper(n *html.Node) bool {
	return x.half > 0 && textLen(n, x.half) >= x.half
}

// textLen returns the bytes of the words under n (white space left out),
// counting up to limit (no limit when limit < 0).
func textLen(n *html.Node, limit int) int {
	total := 0
	var count func(*html.Node) bool
	count = func(n *html.Node) bool {
		switch n.Type {
		case html.TextNode:
			for i := 0; i < len(n.Data); i++ {
				if !isSpace(n.Data[i]) {
					total++
				}
			}
			return limit < 0 || total < limit
		case html.ElementNode:
			if n.Namespace == "" && skipped[n.DataAtom] || n.DataAtom == atom.Head {
				return true
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if !count(c) {
				return false
			}
		}
		return true
	}
	count(n)
	return total
}

// linksOnly collects the links under n and ignores its text.
func (x *extractor) linksOnly(n *html.Node, block *html.Node, template bool) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			switch c.DataAtom {
			case atom.A, atom.Area:
				x.addLink(attr(c, "href"), c, block, template, true)
			case atom.Frame:
				x.addLink(attr(c, "src"), c, block, template, true)
			}
		}
		x.linksOnly(c, block, template)
	}
}

func (x *extractor) addLink(ref string, node, block *html.Node, template, box bool) {
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
	if i, ok := x.seen[s]; ok {
		if i >= 0 {
			// A link met again (in the navigation and in the article) is
			// editorial when any of its places is.
			x.at = append(x.at, linkAt{link: i, node: node, block: block, template: template, box: box})
		}
		return
	}
	if h := u.Hostname(); h == "http" || h == "https" {
		x.bad++ // "http://http://a.test/": a typo, never a host
		return
	}
	if why := whyLeftOut(u); why != "" {
		x.seen[s] = -1
		x.leftOut = append(x.leftOut, leftLink{url: s, why: why})
		return
	}
	// Resolve's output has a site (FuzzResolve); the crawler checks each
	// link again as the store does where pages enter a batch.
	if len(s) > MaxURLSize || len(x.links) >= MaxLinks || x.linkBytes+len(s) > MaxLinkBytes {
		x.bad++
		return
	}
	x.seen[s] = len(x.links)
	x.at = append(x.at, linkAt{link: len(x.links), node: node, block: block, template: template, box: box})
	x.links = append(x.links, s)
	x.linkBytes += len(s)
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

// textBuilder gathers the words of text nodes, separated by one space, up to
// max bytes (no cap when max < 0).
type textBuilder struct {
	b     strings.Builder
	max   int
	space bool // a word boundary was seen since the last word
	full  bool // the text reached max
}

// boundary separates the next word from the last, as a block element does.
func (t *textBuilder) boundary() { t.space = true }

// add appends the words of s; white space at either end of s separates its
// words from their neighbours, while text nodes that touch ("<b>wo</b>rd")
// stay one word.
func (t *textBuilder) add(s string) {
	if t.full {
		return
	}
	if s != "" && isSpace(s[0]) {
		t.space = true
	}
	for f := range strings.FieldsSeq(s) {
		if t.space && t.b.Len() > 0 {
			t.b.WriteByte(' ')
		}
		t.b.WriteString(f)
		t.space = true
		if t.max >= 0 && t.b.Len() >= t.max {
			t.full = true
			return
		}
	}
	t.space = s == "" || isSpace(s[len(s)-1])
}

// tagOf returns the atom of the element n. Elements made by go-trafilatura
// have their name only.
func tagOf(n *html.Node) atom.Atom {
	if n.DataAtom == 0 {
		return atom.Lookup([]byte(n.Data))
	}
	return n.DataAtom
}

// textOf appends the readable text under n to t, by the rules of walk.
func textOf(n *html.Node, t *textBuilder) {
	switch n.Type {
	case html.TextNode:
		t.add(n.Data)
		return
	case html.ElementNode:
		if n.Namespace == "" && skipped[tagOf(n)] {
			return
		}
	}
	isBlock := n.Type == html.ElementNode && blocks[tagOf(n)]
	if isBlock {
		t.boundary()
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if t.full {
			return
		}
		textOf(c, t)
	}
	if isBlock {
		t.boundary()
	}
}

func isSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f'
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

// truncateChars returns the first n characters (runes) of s.
func truncateChars(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}

// collapse trims s and collapses its runs of white space to one space.
func collapse(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
