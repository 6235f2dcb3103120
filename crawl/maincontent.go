package crawl

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/abadojack/whatlanggo"
	trafilatura "github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// maxExtractNodes and maxExtractBytes are the most nodes and bytes of a
// page whose main content go-trafilatura extracts; the largest of the 1,096
// real pages its module ships for its tests has 27,751 nodes and 1.6 MB.
const (
	maxExtractNodes = 30_000
	maxExtractBytes = 2 << 20
)

// extractOptions are go-trafilatura's options for every page. Its fallback
// extractors (readability, DOM distiller) cost about a third more CPU for no
// better text on news pages; readers' comments are not what the page's
// authors wrote. Links are not asked for: keeping them makes it drop the
// text of table cells that hold one, and the link classification needs no
// more than the text (see mainContent).
var extractOptions = trafilatura.Options{ExcludeComments: true}

// baselineShare is the share of the words outside the template that a main
// text made of bare paragraphs must reach to be taken for go-trafilatura's
// baseline, the whole body's text, rather than an article it found.
const baselineShare = 0.9

// mainContent sets doc's main text, title, language, publication date and
// which of its links are editorial, from the tree root of a page fetched
// from pageURL that x walked.
//
// The main text is what go-trafilatura extracts. A link is editorial when the
// text of the block element around it (its paragraph, list item, table cell)
// is in that main text: whole when it is a word or two ("Sources", "World"),
// as a run of words otherwise; in an element whose text is separated by
// <br>, the text between the breaks around it. A link met in several places
// is editorial when one of them is. Wherever they stand, the links of boxes
// of the template's (see inBox), the site's own accounts on platforms and
// its sign-in and subscription links are template links (see
// templateLinks).
//
// A page may have no main content: go-trafilatura finds nothing, or less
// than it takes for an article (250 characters, when it falls back to its
// baseline), or what it gives is its baseline, the text of the whole body (a
// home page, a list of links, a page of a few words). Then, as a web archivist reads such a page,
// the main text is the body's text outside the template (see inTemplate), and
// the links there are the editorial ones; the title is the page's <title>.
// A short article, though, is the page's one <article> when that holds what
// go-trafilatura found, and the rest of the page is not its text.
//
// A page of more than maxExtractNodes nodes or maxExtractBytes bytes is read
// as one without main content: go-trafilatura copies a tree several times
// over and its cost grows faster than the tree (a list of 12,000 links costs
// it 45 MB and most of a second; a 10 MiB paragraph or a 4.7 MB <title> is
// read again and again), while articles are far smaller.
func mainContent(root *html.Node, pageURL *url.URL, x *extractor, doc *document) {
	opts := extractOptions
	opts.OriginalURL = pageURL
	var res *trafilatura.ExtractResult
	if x.nodes <= maxExtractNodes && x.size <= maxExtractBytes {
		spaceBlocks(root)
		brParagraphs(root)
		res = extract(root, opts)
	}
	var content string
	if res != nil {
		doc.published = res.Metadata.Date
		if res.ContentNode != nil {
			t := textBuilder{max: -1}
			textOf(res.ContentNode, &t)
			content = t.b.String()
		}
	}
	rest := x.rest.b.String()
	short := utf8.RuneCountInString(content) < trafilatura.DefaultConfig().MinExtractedSize && rest != ""
	if content == "" || short || isBaseline(res.ContentNode, content, rest) {
		// A short article, a brief of a sentence or two, is the page's one
		// <article> when that holds what go-trafilatura found: the page
		// around it (a sidebar of 150 topic links in a column that no
		// class names) is not its text.
		var article *html.Node
		if short && content != "" && len(x.articles) == 1 {
			if t := x.restOf(x.articles[0]); t != "" && covers(t, content) {
				article, rest = x.articles[0], t
			}
		}
		doc.text = truncateChars(rest, x.maxText)
		if doc.title == "" && res != nil {
			doc.title = truncate(collapse(res.Metadata.Title), MaxTitleSize)
		}
		doc.lang = language(doc.text, x.declared)
		doc.template = make([]bool, len(doc.links))
		for i := range doc.template {
			doc.template[i] = true
		}
		for _, at := range x.at {
			if !at.template && (article == nil || isUnder(at.node, article)) {
				doc.template[at.link] = false
			}
		}
		templateLinks(x, pageURL, doc.template)
		return
	}
	doc.text = truncateChars(content, x.maxText)
	if t := collapse(res.Metadata.Title); t != "" {
		doc.title = truncate(t, MaxTitleSize)
	}
	doc.lang = language(doc.text, x.declared)
	doc.template = classify(x, res.ContentNode, content)
	templateLinks(x, pageURL, doc.template)
}

// isUnder reports whether n is a or under it.
func isUnder(n, a *html.Node) bool {
	for ; n != nil; n = n.Parent {
		if n == a {
			return true
		}
	}
	return false
}

// restOf returns the text under n outside the template, as x read the
// text outside the template of the whole page.
func (x *extractor) restOf(n *html.Node) string {
	t := textBuilder{max: maxRest}
	var rec func(n *html.Node)
	rec = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			t.add(n.Data)
			return
		case html.ElementNode:
			if n.Namespace == "" && (skipped[n.DataAtom] || (inBox(n) || inTemplate(n)) && !x.wrapper(n)) {
				t.boundary()
				return
			}
		}
		isBlock := n.Type == html.ElementNode && blocks[n.DataAtom]
		if isBlock {
			t.boundary()
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			rec(c)
		}
		if isBlock {
			t.boundary()
		}
	}
	rec(n)
	return t.b.String()
}

// extract runs go-trafilatura on root, which it leaves as it was; nil when it
// finds nothing or fails. A page that makes it panic is a page without main
// content, not the end of the crawl.
func extract(root *html.Node, opts trafilatura.Options) (res *trafilatura.ExtractResult) {
	defer func() {
		if recover() != nil {
			res = nil
		}
	}()
	res, err := trafilatura.ExtractDocument(root, opts)
	if err != nil {
		return nil
	}
	return res
}

// spaceBlocks puts a space at each edge of a block element (see blocks)
// between two texts that touch, at the end of the text before the edge:
// go-trafilatura drops elements (an <img>) and joins the texts around
// them, so "Warner Brothers<img>are" would read "Brothersare".
// It changes only the texts that need it and adds no node.
func spaceBlocks(root *html.Node) {
	var last *html.Node // the last text met
	edge := false       // a block edge was met since last
	var rec func(n *html.Node)
	rec = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			if n.Data == "" {
				return
			}
			if edge && last != nil && !isSpace(last.Data[len(last.Data)-1]) && !isSpace(n.Data[0]) {
				last.Data += " "
			}
			last, edge = n, false
			return
		case html.ElementNode:
			if n.Namespace != "" || skipped[n.DataAtom] || n.DataAtom == atom.Head {
				return
			}
		}
		block := n.Type == html.ElementNode && blocks[n.DataAtom]
		edge = edge || block
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			rec(c)
		}
		edge = edge || block
	}
	rec(root)
}

// brParagraphs makes a paragraph (<p>) of each run of text and inline
// elements between two <br> or block elements, in every element but a <p>
// that holds text separated by two <br> or more: "text<br><br>text", as
// some publishing systems store an article, is paragraphs, and
// go-trafilatura, which reads the text before the first <br> as a tail,
// drops the first of them with its links.
func brParagraphs(root *html.Node) {
	var rec func(n *html.Node)
	rec = func(n *html.Node) {
		if n.Type == html.ElementNode && (n.Namespace != "" || skipped[n.DataAtom]) {
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			rec(c)
		}
		if n.Type != html.ElementNode || n.DataAtom == atom.P {
			return
		}
		brs, text := 0, false
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.ElementNode && c.DataAtom == atom.Br:
				brs++
			case c.Type == html.TextNode && strings.TrimSpace(c.Data) != "":
				text = true
			}
		}
		if brs < 2 || !text {
			return
		}
		breaks := func(c *html.Node) bool { return c.Type == html.ElementNode && blocks[c.DataAtom] }
		for c := n.FirstChild; c != nil; {
			if breaks(c) {
				c = c.NextSibling
				continue
			}
			first, last := c, c
			words := false // the run holds more than white space
			for s := c; s != nil && !breaks(s); s = s.NextSibling {
				last = s
				words = words || s.Type == html.ElementNode || s.Type == html.TextNode && strings.TrimSpace(s.Data) != ""
			}
			next := last.NextSibling
			if words {
				p := &html.Node{Type: html.ElementNode, DataAtom: atom.P, Data: "p"}
				n.InsertBefore(p, first)
				for s := first; s != next; {
					following := s.NextSibling
					n.RemoveChild(s)
					p.AppendChild(s)
					s = following
				}
			}
			c = next
		}
	}
	rec(root)
}

// isBaseline reports whether the content go-trafilatura gave is its baseline:
// bare paragraphs holding about all the words outside the template, its
// opening words included. An article found in a page whose template is
// little more than a publisher's network bar ("A Hexagone Media site: …")
// holds most of those words too, but not the bar's, which come first.
func isBaseline(content *html.Node, text, rest string) bool {
	if rest == "" || float64(words(text)) < baselineShare*float64(words(rest)) {
		return false
	}
	for c := content.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		if tagOf(c) != atom.P {
			return false
		}
		for g := c.FirstChild; g != nil; g = g.NextSibling {
			if g.Type == html.ElementNode {
				return false
			}
		}
	}
	return covers(text, rest) && opens(text, rest)
}

// openRunes is how much of the start of the text outside the template opens
// looks for, in runes other than spaces.
const openRunes = 40

// opens reports whether text holds the start of rest. Spaces are left out of
// both: the baseline spaces words that the page glues ("<a>1</a><a>2</a>"),
// and may glue the page's <title> to the body's first word.
func opens(text, rest string) bool {
	var head strings.Builder
	n := 0
	for _, r := range rest {
		if n == openRunes {
			break
		}
		if r != ' ' {
			head.WriteRune(r)
			n++
		}
	}
	return strings.Contains(strings.ReplaceAll(text, " ", ""), head.String())
}

// coverWords is how many words of the text outside the template covers
// looks for.
const coverWords = 2000

// covers reports whether text holds about every word (baselineShare of the
// first coverWords, or all but two) of rest. The baseline is the body's text, so it holds
// rest; an article found in a page whose template took most of its text
// (an article in an <aside>) does not.
func covers(text, rest string) bool {
	in := make(map[string]bool, words(text))
	for _, w := range strings.Split(text, " ") {
		in[w] = true
	}
	n, hit := 0, 0
	for w := range strings.SplitSeq(rest, " ") {
		if n == coverWords {
			break
		}
		n++
		if in[w] {
			hit++
		}
	}
	// A word or two may differ: the baseline of a page of a few words
	// glues its <title> to the body's first word.
	return n-hit <= max(2, int((1-baselineShare)*float64(n)))
}

// words counts the words of a text whose words are separated by one space.
func words(s string) int {
	if s == "" {
		return 0
	}
	return strings.Count(s, " ") + 1
}

// classify returns, for each of x's links, whether it is a template link:
// none of its places has a block whose text is in the main content.
func classify(x *extractor, content *html.Node, text string) []bool {
	template := make([]bool, len(x.links))
	for i := range template {
		template[i] = true
	}
	padded := " " + text + " "
	blockText := map[*html.Node]string{}
	rs := runs{}
	var short map[string]bool // texts of the content's elements, made when first needed
	for _, at := range x.at {
		if !template[at.link] || at.block == nil || at.box {
			continue
		}
		// The text around a link outside the template is its run: the
		// block's text between the <br> or block elements on either side
		// of it, the whole block's text when it has none
		// ("text<br><br>text" is two paragraphs, each in the content or
		// not). In the template it is the whole block's: a site's name
		// in its header is in many an article's text.
		first, last := at.block, at.block
		if !at.template {
			first, last = rs.run(at.node, at.block)
		}
		b, ok := blockText[first]
		if !ok {
			// A block longer than the content cannot be in it.
			t := textBuilder{max: len(text) + 1}
			if first == at.block {
				textOf(first, &t)
			} else {
				for n := first; n != nil; n = n.NextSibling {
					textOf(n, &t)
					if n == last {
						break
					}
				}
			}
			b = t.b.String()
			blockText[first] = b
		}
		if b == "" || len(b) > len(text) {
			continue
		}
		if words(b) < 3 {
			if short == nil {
				short = elementTexts(content)
			}
			template[at.link] = !short[b]
			continue
		}
		template[at.link] = !strings.Contains(padded, " "+b+" ")
	}
	// go-trafilatura leaves out blocks made mostly of links: a directory's
	// list, an article's "Sources", a blogroll. Inside the page's <main> or
	// an <article>, out of its template, they are still what the authors
	// chose to link; a box of text with a link or two (a newsletter's
	// sign-up) is not such a list.
	dense := map[*html.Node]bool{}
	for _, at := range x.at {
		if template[at.link] && !at.template && !at.box && at.block != nil && inMainElement(at.block) {
			list := listOf(at.block)
			d, ok := dense[list]
			if !ok {
				linked, all := linkShare(list, nil)
				d = all > 0 && 3*linked >= all
				dense[list] = d
			}
			if d {
				template[at.link] = false
			}
		}
	}
	return template
}

// listOf returns the list or table the block b is an item or cell of, or b.
func listOf(b *html.Node) *html.Node {
	switch b.DataAtom {
	case atom.Li, atom.Dt, atom.Dd, atom.Td, atom.Th, atom.Tr:
		for n := b.Parent; n != nil; n = n.Parent {
			switch n.DataAtom {
			case atom.Ul, atom.Ol, atom.Dl, atom.Table:
				return n
			}
		}
	}
	return b
}

// inMainElement reports whether n is inside the page's <main>, an <article>
// or an element of role main.
func inMainElement(n *html.Node) bool {
	for ; n != nil; n = n.Parent {
		if n.Type == html.ElementNode && (n.DataAtom == atom.Main || n.DataAtom == atom.Article ||
			strings.EqualFold(attr(n, "role"), "main")) {
			return true
		}
	}
	return false
}

// elementTexts returns the texts of the elements under root of at most a few
// words, each as textOf reads it.
func elementTexts(root *html.Node) map[string]bool {
	out := map[string]bool{}
	var visit func(n *html.Node)
	visit = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			t := textBuilder{max: 200}
			textOf(c, &t)
			if s := t.b.String(); s != "" && words(s) < 3 {
				out[s] = true
			}
			visit(c)
		}
	}
	visit(root)
	return out
}

// templateElements are the elements whose content is the page's template.
var templateElements = map[atom.Atom]bool{
	atom.Nav: true, atom.Header: true, atom.Footer: true, atom.Aside: true,
	atom.Dialog: true, atom.Menu: true,
}

// templateRoles are the ARIA landmark roles of the template.
var templateRoles = map[string]bool{
	"navigation": true, "banner": true, "contentinfo": true, "complementary": true,
	"menu": true, "menubar": true, "dialog": true, "alertdialog": true, "search": true,
}

// templateWords are the words of class and id names (split at '-' and '_')
// that mark an element as template: navigation, sidebars, share and social
// widgets, cookie banners, "related" boxes, comments, advertisements, and the
// byline, author box, post metadata and tags a publishing system puts
// around every article.
var templateWords = map[string]bool{
	"nav": true, "navbar": true, "navigation": true, "menu": true, "topbar": true,
	"header": true, "masthead": true, "footer": true, "sidebar": true, "breadcrumb": true,
	"breadcrumbs": true, "share": true, "sharing": true, "sharedaddy": true, "social": true,
	"cookie": true, "cookies": true, "consent": true, "gdpr": true, "related": true,
	"recommended": true, "comment": true, "comments": true, "newsletter": true,
	"subscribe": true, "promo": true, "advert": true, "ad": true, "ads": true,
	"banner": true, "widget": true, "popup": true, "modal": true, "skip": true,
	"byline": true, "author": true, "meta": true, "tags": true,
}

// inTemplate reports whether the element n holds template rather than
// content: navigation, header, footer, sidebar, a dialog, or an element whose
// role, class or id says it is a share widget, a cookie banner, a "related"
// box and the like. The page's wrappers (html, body, main, article) never
// are, whatever their classes say ("has-sidebar").
func inTemplate(n *html.Node) bool {
	if templateElements[n.DataAtom] {
		return true
	}
	switch n.DataAtom {
	case atom.Html, atom.Body, atom.Main, atom.Article:
		return false
	}
	if templateRoles[strings.ToLower(attr(n, "role"))] {
		return true
	}
	return hasWord(attr(n, "class"), templateWords) || hasWord(attr(n, "id"), templateWords)
}

// declaredLanguage returns the ISO 639-1 code of the lang (or xml:lang)
// attribute of the <html> element n ("fr" of "fr-CA"), "" when it has none
// or it is no such code.
func declaredLanguage(n *html.Node) string {
	v := attr(n, "lang")
	if v == "" {
		for _, a := range n.Attr {
			if a.Key == "xml:lang" || a.Namespace == "xml" && a.Key == "lang" {
				v = strings.TrimSpace(a.Val)
			}
		}
	}
	v, _, _ = strings.Cut(strings.ToLower(v), "-")
	v, _, _ = strings.Cut(v, "_")
	if len(v) != 2 || v[0] < 'a' || v[0] > 'z' || v[1] < 'a' || v[1] > 'z' {
		return ""
	}
	return v
}

// langSample is how much of a text the language is detected from, in bytes:
// the 34 articles in eight languages of the main-text corpus are all told
// from their first 1,024 bytes as from 2,048, for half the CPU (the
// detection was a fifth of an import's).
const langSample = 1024

// minKana is the share of kana among the kana and kanji of a text from which
// a text whatlanggo takes for Chinese is Japanese: it reads the script most
// characters are in, and Japanese prose heavy in kanji has more of them than
// of kana; Chinese has none.
const minKana = 0.1

// minConfidence is the confidence under which whatlanggo's guess for a page
// that declares no language is no answer: it tells Russian from Bulgarian,
// or a few words of anything, by chance.
const minConfidence = 0.5

// language returns the ISO 639-1 code of text's language, the one whatlanggo
// finds in its first langSample bytes, or "". A page's declared language
// (declared, see declaredLanguage) wins unless the detector is sure of
// another: templates declare one language for a site's pages in several.
//
// It is the page's one detection: go-trafilatura's own, of the whole text,
// is left out (see the module crawl/whatlanggo).
func language(text, declared string) string {
	sample := truncate(text, langSample)
	info := whatlanggo.Detect(sample)
	code := info.Lang.Iso6391()
	if info.Lang < 0 {
		code = ""
	}
	if code == "zh" && kanaShare(sample) >= minKana {
		code = "ja"
	}
	switch {
	case declared != "" && (code == declared || !info.IsReliable()):
		return declared
	case code != "" && (info.IsReliable() || declared == "" && info.Confidence >= minConfidence):
		return code
	}
	return declared
}

// kanaShare is the share of kana (hiragana and katakana) among the kana and
// the kanji (CJK ideographs) of s; 0 when it has neither.
func kanaShare(s string) float64 {
	var kana, kanji int
	for _, r := range s {
		switch {
		case unicode.In(r, unicode.Hiragana, unicode.Katakana):
			kana++
		case unicode.Is(unicode.Han, r):
			kanji++
		}
	}
	if kana+kanji == 0 {
		return 0
	}
	return float64(kana) / float64(kana+kanji)
}
