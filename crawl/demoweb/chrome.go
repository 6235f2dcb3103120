package demoweb

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// This file gives the demo pages what real sites put around what their
// authors write, the template: cookie banners, the publisher's network,
// share buttons, "related articles" boxes, pictures, links to the platforms,
// tracking parameters and a broken link or two. None of it is part of the
// editorial link graph that the generator draws (web.go).

// cookiePath is the cookie policy page of a network's lead site.
const cookiePath = "/cookie-policy.html"

var cookieText = []string{
	"This policy explains how the sites of {group} use cookies and similar technologies when you read them. A cookie is a small text file that a web site stores in your browser so that it can recognise your browser when you come back.",
	"We use three kinds of cookies. Strictly necessary cookies remember your consent choices and keep the sites secure. Audience measurement cookies count visits and tell us which articles are read, without telling us who you are. Advertising cookies, set by our partners, show you advertisements that match your interests.",
	"You can accept or refuse cookies at any time with the banner at the top of every page, and you can delete them in the settings of your browser. Refusing advertising cookies does not prevent you from reading any article. We keep your consent choices for six months and ask you again after that.",
}

// networkOf returns the publisher's group of host, nil for an independent site.
func networkOf(host string) *network {
	for _, n := range networks {
		for _, h := range n.hosts {
			if h == host {
				return n
			}
		}
	}
	return nil
}

// chrome adds the template of site s to the view of page p. It draws
// nothing from the generator's random source: the authors' text and links
// are the same with or without it.
func (w *Web) chrome(s *site, p *page, v *view) {
	self := "http://" + s.host + p.path
	handle := strings.ReplaceAll(strings.TrimSuffix(strings.TrimPrefix(s.host, "www."), ".test"), "-", "")
	// A group's sites send their readers to the group's accounts on the
	// platforms; of the independent sites only the hubs keep accounts.
	switch {
	case s.net != nil:
		h := strings.ToLower(strings.ReplaceAll(s.net.name, " ", ""))
		v.Follow = []link{{Text: "Twitter", Href: "https://twitter.com/" + h},
			{Text: "Facebook", Href: "https://www.facebook.com/" + h}, {Text: "YouTube", Href: "https://www.youtube.com/@" + h}}
	case s.role == portal || s.role == directory || s.role == reference:
		v.Follow = []link{{Text: "Twitter", Href: "https://twitter.com/" + handle}, {Text: "Facebook", Href: "https://www.facebook.com/" + handle}}
	}
	v.Cookies = "/about.html"
	if n := s.net; n != nil {
		v.Cookies = "http://" + n.lead + cookiePath
		if n.lead == s.host {
			v.Cookies = cookiePath
		}
		nv := &networkView{Name: n.name}
		for _, h := range n.hosts {
			if h == s.host {
				continue
			}
			o := w.byHost[h]
			nv.Sisters = append(nv.Sisters, link{Text: o.name, Href: "http://" + h + "/"})
			nv.Footer = append(nv.Footer, link{Text: o.name,
				Href: "http://" + h + "/?utm_source=" + handle + "&utm_medium=footer&utm_campaign=network"})
		}
		v.Network = nv
		v.Footer = append(v.Footer, link{Text: "Cookie policy", Href: v.Cookies})
		v.Typo = n.typo
	}
	if p.kind != articlePage {
		return
	}

	v.Figure = imagePath(p)
	if s.net != nil {
		// Groups count the clicks their "related" boxes earn.
		for i, r := range v.Related {
			if !strings.HasPrefix(r.Href, "/archive/") {
				v.Related[i].Href = r.Href + "?utm_source=" + handle + "&utm_medium=related&utm_campaign=article"
			}
		}
	}
	if s.net != nil && s.net.jetpack {
		for _, to := range []string{"twitter", "facebook", "email"} {
			v.Share = append(v.Share, link{Text: capitalise(to), Href: p.path + "?share=" + to + "&nb=1"})
		}
	} else {
		q := url.QueryEscape
		v.Share = []link{
			{Text: "Twitter", Href: "https://twitter.com/intent/tweet?url=" + q(self) + "&text=" + q(p.heading)},
			{Text: "Facebook", Href: "https://www.facebook.com/sharer/sharer.php?u=" + q(self)},
			{Text: "Email", Href: "mailto:?subject=" + url.PathEscape(p.heading) + "&body=" + q(self)},
		}
	}
	for _, a := range s.articles {
		if a != p && len(v.Pictures) < 3 {
			v.Pictures = append(v.Pictures, imagePath(a))
		}
	}
}

// imagePath returns the path of the picture of article a.
func imagePath(a *page) string {
	return "/images/" + strings.ReplaceAll(strings.TrimSuffix(strings.Trim(a.path, "/"), ".html"), "/", "-") + ".jpg"
}

// Truth is what the authors of a demo page wrote, apart from the template
// around it: what a main-content extractor should find.
type Truth struct {
	// Title is the page's headline (its <h1>).
	Title string
	// Text is the main content's readable text, headline and byline not
	// included, white space collapsed.
	Text string
	// Links are the editorial links: the absolute http(s) URLs of the
	// <a href> inside the main content, deduplicated, in document order.
	// Their links to other sites are exactly the demo web's site graph.
	Links []string
}

// Truth returns, by page URL ("http://bnf-archives.test/about.html"), what
// the authors of each HTML page wrote: the ground truth for tests of
// main-content extraction and of the editorial/template link split.
func (w *Web) Truth() map[string]Truth {
	m := make(map[string]Truth)
	for _, s := range w.sites {
		for path, t := range s.truth {
			m["http://"+s.host+path] = t
		}
	}
	return m
}

// truthOf reads the main content of a page back from its rendered HTML,
// so that the truth is what the page says, not what the generator meant.
func truthOf(title, pageURL, body string) Truth {
	base, err := url.Parse(pageURL)
	if err != nil {
		panic("demoweb: bad page URL " + pageURL) // built from the catalogue
	}
	ctx := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
	nodes, err := html.ParseFragment(strings.NewReader(body), ctx)
	if err != nil {
		panic("demoweb: parse the body of " + pageURL + ": " + err.Error())
	}
	t := Truth{Title: title}
	var text strings.Builder
	seen := map[string]bool{}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			text.WriteString(n.Data)
		case html.ElementNode:
			if n.DataAtom == atom.A {
				for _, a := range n.Attr {
					if a.Key != "href" {
						continue
					}
					u, err := base.Parse(a.Val)
					if err == nil && (u.Scheme == "http" || u.Scheme == "https") && !seen[u.String()] {
						seen[u.String()] = true
						t.Links = append(t.Links, u.String())
					}
				}
			}
			if n.DataAtom != atom.A && n.DataAtom != atom.Em {
				text.WriteByte(' ') // block boundaries separate words
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	for _, n := range nodes {
		walk(n)
	}
	t.Text = strings.Join(strings.Fields(text.String()), " ")
	return t
}

// logoPNG and photoJPEG are the images the pages show: small, valid, the
// same bytes for every site and article.
var logoPNG, photoJPEG = func() ([]byte, []byte) {
	img := image.NewRGBA(image.Rect(0, 0, 16, 4))
	for x := range 16 {
		for y := range 4 {
			img.Set(x, y, color.RGBA{R: uint8(40 + 10*x), G: 90, B: 140, A: 255})
		}
	}
	var p, j bytes.Buffer
	if err := png.Encode(&p, img); err != nil {
		panic(err)
	}
	if err := jpeg.Encode(&j, img, &jpeg.Options{Quality: 60}); err != nil {
		panic(err)
	}
	return p.Bytes(), j.Bytes()
}()
