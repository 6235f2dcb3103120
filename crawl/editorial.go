package crawl

import (
	"net/url"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/net/publicsuffix"

	"sitesift/sites"
)

// The rules of this file find the template's links that a page's template
// puts inside its article, where go-trafilatura may keep their text and
// the page's <article> would make them the author's: boxes of related
// stories, the site's other stories, its publisher's network, deals; the
// site's accounts on social platforms; sign-in, subscribe, newsletter and
// privacy links.

// boxWords are the words of class and id names (as inTemplate splits them)
// of publishing systems' boxes of links that are never the author's, even
// where they stand inside the article's body: Jetpack's and YARPP's related
// posts, news sites' recirculation modules, comment services, content
// recommendation networks, affiliate and deals modules.
var boxWords = map[string]bool{
	"relatedposts": true, "yarpp": true, "recirc": true, "recirculation": true,
	"disqus": true, "outbrain": true, "taboola": true, "mgid": true, "revcontent": true,
	"deals": true, "affiliate": true, "cta": true,
}

// boxLabels are the headings that publishing systems put over their boxes
// of links, lower-cased, in the languages sitesift analyses best. A heading
// is a label when it is one of them, or starts with one and a space
// ("More from The Harbour Gazette").
var boxLabels = map[string]bool{
	// English
	"related": true, "related stories": true, "related articles": true, "related posts": true,
	"related content": true, "related coverage": true, "related links": true, "read more": true,
	"read also": true, "also read": true, "read next": true, "more from": true, "more stories": true,
	"more on this story": true, "more on this": true, "more to read": true, "you may also like": true,
	"you might also like": true, "recommended": true, "recommended for you": true, "from our network": true,
	"from our partners": true, "around the web": true, "most read": true, "most popular": true,
	"trending": true, "trending now": true, "popular": true, "latest news": true, "deals": true,
	"deals we like": true, "today's deals": true, "top deals": true, "shop the story": true,
	"sponsored": true, "sponsored content": true, "promoted stories": true, "follow us": true,
	"newsletter": true, "sign up": true, "don't miss": true, "editor's picks": true, "top stories": true,
	// French
	"à lire aussi": true, "lire aussi": true, "lire la suite": true, "sur le même sujet": true,
	"plus de": true, "dans notre réseau": true, "les plus lus": true, "bons plans": true,
	"suivez-nous": true, "à découvrir": true, "nos partenaires": true,
	// German
	"das könnte sie auch interessieren": true, "lesen sie auch": true, "auch interessant": true,
	"mehr zum thema": true, "weiterlesen": true, "mehr von": true, "aus unserem netzwerk": true,
	"meistgelesen": true, "angebote": true, "folgen sie uns": true, "empfehlungen": true,
	// Spanish
	"te puede interesar": true, "también te puede interesar": true, "lee también": true,
	"leer más": true, "más de": true, "de nuestra red": true, "lo más leído": true, "ofertas": true,
	"síguenos": true, "relacionado": true, "relacionados": true, "noticias relacionadas": true,
	// Italian
	"potrebbe interessarti anche": true, "leggi anche": true, "continua a leggere": true,
	"più letti": true, "dalla nostra rete": true, "articoli correlati": true, "seguici": true,
	// Portuguese
	"leia também": true, "ler mais": true, "mais lidas": true, "relacionadas": true, "siga-nos": true,
	// Russian
	"читайте также": true, "читать далее": true, "по теме": true, "популярное": true, "рекомендуем": true,
	// Japanese, Chinese
	"関連記事": true, "続きを読む": true, "おすすめ記事": true, "人気記事": true,
	"相关阅读": true, "阅读全文": true, "推荐阅读": true, "相关文章": true, "相关新闻": true,
}

// namedLabels are the labels (see boxLabels) that start a heading as a
// box's only before a name ("Plus de Libération", "more from The
// Guardian"): "Plus de 300 réponses" (more than 300) is no box's.
var namedLabels = map[string]bool{"more from": true, "plus de": true, "más de": true, "mehr von": true}

// maxLabelWords is the most words of a heading read as a box's label.
const maxLabelWords = 8

// inBox reports whether the element n is a box of the template's links:
// its class or id names one (boxWords), or it opens with a heading that is
// a label of such boxes (boxLabels), and either holds two links or more
// that hold a fifth or more of the rest of its text (see minBoxShare), or
// links that hold half of it or more.
// The page's wrappers never are.
func inBox(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Html, atom.Body, atom.Main, atom.Article, atom.Head:
		return false
	}
	if hasWord(attr(n, "class"), boxWords) || hasWord(attr(n, "id"), boxWords) {
		return true
	}
	h := opening(n)
	if h == nil || !isLabel(h) {
		return false
	}
	linked, all := linkShare(n, h)
	// One link is a box ("Read more: <a>…</a>") when it is about all
	// the text left.
	return all > 0 && (minBoxShare*linked >= all && links(n, 2) || 2*linked >= all)
}

// minBoxShare is the inverse of the least share of a labelled box's text
// (its label left out) that its links hold: a list of headlines with a
// teaser each holds about a third, an author's section under a heading
// such as "Related work" far less.
const minBoxShare = 5

// links reports whether there are at least n links under e.
func links(e *html.Node, n int) bool {
	count := 0
	var rec func(*html.Node) bool
	rec = func(e *html.Node) bool {
		for c := e.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && (c.DataAtom == atom.A || c.DataAtom == atom.Area) {
				if count++; count >= n {
					return true
				}
			} else if rec(c) {
				return true
			}
		}
		return false
	}
	return rec(e)
}

// maxWord is the longest word of a class or id name that hasWord reads.
const maxWord = 32

// hasWord reports whether the class or id attribute v holds a word of set,
// lower-cased, words split at spaces, '-' and '_' ("c-related-list" holds
// "related"), without allocating.
func hasWord(v string, set map[string]bool) bool {
	var buf [maxWord]byte
	n, long := 0, false
	for i := 0; i <= len(v); i++ {
		if i == len(v) || v[i] == ' ' || v[i] == '-' || v[i] == '_' || v[i] == '\t' || v[i] == '\n' {
			if n > 0 && !long && set[string(buf[:n])] {
				return true
			}
			n, long = 0, false
			continue
		}
		if n == len(buf) {
			long = true
			continue
		}
		c := v[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[n] = c
		n++
	}
	return false
}

// opening returns the heading n opens with: its first child, or its first
// child's first child, when that is a heading or a bold or emphasised
// phrase before anything else; nil when n opens with text.
func opening(n *html.Node) *html.Node {
	for depth := 0; depth < 2; depth++ {
		var first *html.Node
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.TextNode && strings.TrimSpace(c.Data) != "" {
				return nil
			}
			if c.Type == html.ElementNode {
				first = c
				break
			}
		}
		if first == nil {
			return nil
		}
		switch first.DataAtom {
		case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Strong, atom.B, atom.Em, atom.Legend, atom.Summary:
			return first
		case atom.Div, atom.Header, atom.Span:
			n = first
		default:
			return nil
		}
	}
	return nil
}

// isLabel reports whether the text of the heading h is a label of a box of
// links (see boxLabels).
func isLabel(h *html.Node) bool {
	t := textBuilder{max: 200}
	textOf(h, &t)
	text := strings.TrimFunc(t.b.String(), func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsPunct(r) && r != '\'' || unicode.IsSymbol(r)
	})
	ws := strings.Fields(text)
	if len(ws) == 0 || len(ws) > maxLabelWords {
		return false
	}
	prefix := ""
	for i, w := range ws {
		if i > 0 {
			prefix += " "
		}
		prefix += strings.ToLower(w)
		if !boxLabels[prefix] {
			continue
		}
		if i == len(ws)-1 {
			return true
		}
		if !namedLabels[prefix] {
			return true
		}
		r, _ := utf8.DecodeRuneInString(ws[i+1])
		return unicode.IsUpper(r)
	}
	return false
}

// linkShare returns the bytes of the words under n that are in links, and
// of all its words, leaving skip out.
func linkShare(n, skip *html.Node) (linked, all int) {
	if n == skip {
		return 0, 0
	}
	if n.Type == html.ElementNode && (n.DataAtom == atom.A || n.DataAtom == atom.Area) {
		l := textLen(n, -1)
		return l, l
	}
	if n.Type == html.TextNode {
		return 0, textLen(n, -1)
	}
	if n.Type == html.ElementNode && n.Namespace == "" && skipped[n.DataAtom] {
		return 0, 0
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		l, a := linkShare(c, skip)
		linked, all = linked+l, all+a
	}
	return linked, all
}

// runs finds the runs of blocks' children (see run), reading each block's
// children once however many links it holds.
type runs map[*html.Node][2]*html.Node

// run returns the first and last nodes of the run of the block's children
// around n: the children between the <br> or block elements on either side
// of the child that holds n. A block without such children is one run:
// the block itself.
func (rs runs) run(n, block *html.Node) (first, last *html.Node) {
	c := n
	for c != nil && c.Parent != block {
		c = c.Parent
	}
	if c == nil {
		return block, block
	}
	breaks := func(s *html.Node) bool { return s.Type == html.ElementNode && blocks[s.DataAtom] }
	if breaks(c) {
		// A paragraph made of a run of text since (see brParagraphs).
		return c, c
	}
	if r, ok := rs[c]; ok {
		return r[0], r[1]
	}
	whole := true
	for s := block.FirstChild; s != nil; s = s.NextSibling {
		if breaks(s) {
			whole = false
			break
		}
	}
	for s := block.FirstChild; s != nil; {
		if breaks(s) {
			s = s.NextSibling
			continue
		}
		first, last := s, s
		for t := s.NextSibling; t != nil && !breaks(t); t = t.NextSibling {
			last = t
		}
		if whole {
			first, last = block, block
		}
		for t := s; ; t = t.NextSibling {
			rs[t] = [2]*html.Node{first, last}
			if t == last || whole && t.NextSibling == nil {
				break
			}
		}
		if whole {
			break
		}
		s = last.NextSibling
	}
	r := rs[c]
	return r[0], r[1]
}

// actionWords are the path segments (lower-cased, without '-', '_' and an
// extension) of sign-in, sign-up, subscription, newsletter, account and
// privacy choice pages: a template's links to its own services.
var actionWords = map[string]bool{
	"login": true, "logon": true, "signin": true, "signup": true, "register": true, "registration": true,
	"subscribe": true, "subscription": true, "subscriptions": true, "newsletter": true, "newsletters": true,
	"account": true, "myaccount": true, "wplogin": true, "privacysettings": true, "cookiesettings": true,
	"privacychoices": true, "consent": true, "adchoices": true,
}

// actionHosts are the first labels of the hosts of a site's domain that
// sell subscriptions, sign readers in or hold their accounts (buy.wsj.com,
// accounts.nytimes.com). A site's shop is not among them: an article may
// be about what it sells.
var actionHosts = map[string]bool{
	"buy": true, "subscribe": true, "subscription": true, "subscriptions": true, "account": true,
	"accounts": true, "myaccount": true, "login": true, "signin": true, "checkout": true,
	"join": true, "newsletters": true, "newsletter": true, "members": true, "profile": true,
}

// maxSegment is the longest path segment isAction reads.
const maxSegment = 32

// isAction reports whether a URL's path is that of a sign-in,
// subscription, newsletter, account or privacy choice page (see
// actionWords).
func isAction(p string) bool {
	var buf [maxSegment]byte
	for seg := range strings.SplitSeq(p, "/") {
		seg = strings.TrimSuffix(seg, path.Ext(seg))
		n := 0
		for i := 0; i < len(seg) && n < len(buf); i++ {
			c := seg[i]
			switch {
			case c == '-' || c == '_':
				continue
			case 'A' <= c && c <= 'Z':
				c += 'a' - 'A'
			}
			buf[n] = c
			n++
		}
		if n < len(buf) && actionWords[string(buf[:n])] {
			return true
		}
	}
	return false
}

// hostPath returns the host and the path of a normalised absolute URL.
func hostPath(u string) (host, p string) {
	_, rest, ok := strings.Cut(u, "://")
	if !ok {
		return "", ""
	}
	i := strings.IndexAny(rest, "/?#")
	if i < 0 {
		return rest, ""
	}
	host, rest = rest[:i], rest[i:]
	if j := strings.IndexAny(rest, "?#"); j >= 0 {
		rest = rest[:j]
	}
	return host, rest
}

// accountPrefixes are the path segments that come before an account's name
// on some platforms (youtube.com/c/name, linkedin.com/company/name).
var accountPrefixes = map[string]bool{"c": true, "user": true, "channel": true, "company": true, "in": true, "pages": true, "u": true}

// isOwnAccount reports whether the link to host and path p is the page's
// site's own account on a social platform: host is a platform
// (sites.IsPlatform) and the account's name is a name of pageHost
// (twitter.com/nytimes on nytimes.com, twitter.com/BBCWorld on bbc.com),
// as "follow us" bars link them.
func isOwnAccount(host, p, pageHost string) bool {
	segs := strings.FieldsFunc(strings.ToLower(p), func(r rune) bool { return r == '/' })
	if len(segs) == 0 || len(segs) > 2 || !sites.IsPlatform(host) {
		return false
	}
	name := segs[0]
	if accountPrefixes[name] && len(segs) > 1 {
		name = segs[1]
	}
	name = strings.NewReplacer("@", "", "-", "", "_", "", ".", "").Replace(name)
	if len(name) < 3 {
		return false
	}
	// The site's name is the first label of its registered domain:
	// "bbc" of news.bbc.co.uk, not "news".
	domain, err := publicsuffix.EffectiveTLDPlusOne(strings.ToLower(pageHost))
	if err != nil {
		return false
	}
	l, _, _ := strings.Cut(domain, ".")
	l = strings.ReplaceAll(l, "-", "")
	return len(l) >= 3 && (strings.HasPrefix(name, l) || len(name) >= 5 && strings.Contains(l, name))
}

// templateLinks marks as template (in template, indexed as x.links) the
// links that are the template's wherever they stand: the site's own
// accounts on platforms, the sign-in, subscription, newsletter and privacy
// pages of the page's domain and its hosts that sell or sign in (see
// actionHosts), and the links to platforms (a newsletter service) in a
// block beside one of these.
func templateLinks(x *extractor, page *url.URL, template []bool) {
	pageHost := strings.ToLower(page.Hostname())
	pageDomain, _ := publicsuffix.EffectiveTLDPlusOne(pageHost)
	var action []bool // made when first needed
	for i, l := range x.links {
		if template[i] {
			continue
		}
		host, p := hostPath(l)
		host = strings.ToLower(host)
		if h, _, ok := strings.Cut(host, ":"); ok {
			host = h
		}
		switch {
		case host == pageHost || pageDomain != "" && strings.HasSuffix(host, "."+pageDomain) || host == pageDomain:
			first, _, _ := strings.Cut(host, ".")
			if isAction(p) || host != pageHost && actionHosts[first] {
				template[i] = true
				if action == nil {
					action = make([]bool, len(x.links))
				}
				action[i] = true
			}
		case isOwnAccount(host, p, pageHost):
			template[i] = true
		}
	}
	if action == nil {
		return
	}
	actionBlocks := map[*html.Node]bool{}
	for _, at := range x.at {
		if action[at.link] && at.block != nil {
			actionBlocks[at.block] = true
		}
	}
	for _, at := range x.at {
		if !template[at.link] && actionBlocks[at.block] {
			if host, _ := hostPath(x.links[at.link]); sites.IsPlatform(host) {
				template[at.link] = true
			}
		}
	}
}
