package demoweb

import (
	"bytes"
	"fmt"
	"html/template"
	"math/rand/v2"
	"strconv"
	"strings"
)

const htmlType = "text/html; charset=utf-8"

// view is what the page template shows. Text is escaped by html/template,
// so the tables may hold any character. The page is a real site's page: a
// cookie banner, the publisher's network bar, a header with a logo and the
// navigation, breadcrumbs, then the <article> whose body is what the authors
// wrote (Lead, Figure, Paras, Lists: the page's main content), share
// buttons, a "related articles" box, a sidebar of pictures and a footer.
type view struct {
	Title, Description string
	SiteName           string
	Nav, Crumbs        []link
	Heading, Byline    string
	Lead               string
	Figure             string // an image of the article, inside its body
	Paras              [][]span
	Lists              []list
	Footer             []link
	Year               int

	Cookies  string // the cookie policy the banner links to
	Network  *networkView
	Share    []link
	Related  []link
	Pictures []string // links to images, in the sidebar
	Follow   []link   // the site's profiles on the platforms
	Typo     string   // a malformed footer link, if any
	Body     template.HTML
}

type networkView struct {
	Name    string
	Sisters []link // the group's other sites, as the bar above the page shows them
	Footer  []link // the same with utm_ parameters, as the footer shows them
}

type link struct{ Text, Href, Note string }

// span is a run of a paragraph: plain text, or a link when Href is set.
type span struct{ Text, Href string }

type list struct {
	Heading string
	Items   []link
}

// bodyTmpl is the main content of a page: what its authors wrote, the only
// part of the page that [Web.Truth] reports.
var bodyTmpl = template.Must(template.New("body").Parse(`{{with .Lead}}<p class="lead"><em>{{.}}</em></p>
{{end}}{{with .Figure}}<figure><img src="{{.}}" alt="" width="640" height="400"></figure>
{{end}}{{range .Paras}}<p>{{range .}}{{if .Href}}<a href="{{.Href}}">{{.Text}}</a>{{else}}{{.Text}}{{end}}{{end}}</p>
{{end}}{{range .Lists}}<h2>{{.Heading}}</h2>
<ul>
{{range .Items}}<li><a href="{{.Href}}">{{.Text}}</a>{{with .Note}} — {{.}}{{end}}</li>
{{end}}</ul>
{{end}}`))

var pageTmpl = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
{{with .Description}}<meta name="description" content="{{.}}">
{{end}}<meta property="og:title" content="{{.Heading}}">
<meta property="og:site_name" content="{{.SiteName}}">
<style>body{font-family:Georgia,serif;max-width:46em;margin:1em auto;padding:0 1em;line-height:1.5}nav a,footer a{margin-right:1em}.crumbs,.byline,footer,.network-bar,.cookie-banner{color:#555;font-size:.9em}.cookie-banner{border:1px solid #ccc;padding:.5em}</style>
</head>
<body id="top">
<div id="cookie-consent" class="cookie-banner" role="dialog" aria-label="Cookie consent">
<p>We use cookies and similar technologies to measure our audience, remember your choices and show you relevant content. You can accept or refuse them at any time. <a href="{{.Cookies}}">Read our cookie policy</a>.</p>
<button type="button" class="accept">Accept all</button> <button type="button" class="refuse">Refuse</button>
</div>
{{with .Network}}<div class="network-bar">A {{.Name}} site: {{range .Sisters}}<a href="{{.Href}}">{{.Text}}</a> {{end}}</div>
{{end}}<header class="site-header">
<a class="logo" href="/"><img src="/static/logo.png" alt="{{.SiteName}}" width="160" height="40"></a> <strong><a href="/">{{.SiteName}}</a></strong>
<nav class="main-nav" aria-label="Sections">{{range .Nav}}<a href="{{.Href}}">{{.Text}}</a> {{end}}</nav>
</header>
{{with .Crumbs}}<nav class="crumbs breadcrumbs" aria-label="Breadcrumb">{{range $i, $c := .}}{{if $i}} › {{end}}<a href="{{$c.Href}}">{{$c.Text}}</a>{{end}}</nav>
{{end}}<main id="content">
<article>
<header>
<h1>{{.Heading}}</h1>
{{with .Byline}}<p class="byline">{{.}}</p>
{{end}}</header>
<div class="entry-content">
{{.Body}}</div>
{{with .Share}}<div class="share-buttons sharedaddy"><h3>Share this:</h3>
<ul>{{range .}}<li><a href="{{.Href}}" rel="nofollow noopener" target="_blank">{{.Text}}</a></li>{{end}}</ul>
</div>
{{end}}</article>
{{with .Related}}<aside class="related-articles">
<h2>Related articles</h2>
<ul>
{{range .}}<li><a href="{{.Href}}">{{.Text}}</a>{{with .Note}} — {{.}}{{end}}</li>
{{end}}</ul>
</aside>
{{end}}</main>
{{with .Pictures}}<aside class="sidebar widget-area">
<h2>In pictures</h2>
{{range .}}<a href="{{.}}"><img src="{{.}}" alt="" width="120" height="75"></a>
{{end}}</aside>
{{end}}<footer class="site-footer">
<nav aria-label="Footer">{{range .Footer}}<a href="{{.Href}}">{{.Text}}</a> {{end}}<a href="#top">Back to top</a></nav>
{{with .Follow}}<p class="follow">Follow us: {{range .}}<a href="{{.Href}}">{{.Text}}</a> {{end}}</p>
{{end}}{{with .Network}}<p class="network">More from {{.Name}}: {{range .Footer}}<a href="{{.Href}}">{{.Text}}</a> {{end}}</p>
{{end}}{{with .Typo}}<p class="advertise"><a href="{{.}}">Advertise with us</a></p>
{{end}}<p>© {{.Year}} {{.SiteName}}</p></footer>
</body>
</html>
`))

// render renders every planned page and file of s into s.docs, the
// images its pages show into s.media, and what each page's authors wrote
// into s.truth.
func (w *Web) render(s *site, rng *rand.Rand) {
	s.docs = make(map[string]doc, len(s.pages)+len(s.feat.files))
	s.media = map[string]doc{"/static/logo.png": {ctype: "image/png", body: logoPNG}}
	s.truth = make(map[string]Truth, len(s.pages))
	for _, p := range s.pages {
		v := w.view(s, p, rng)
		w.chrome(s, p, &v)
		if v.Figure != "" {
			s.media[v.Figure] = doc{ctype: "image/jpeg", body: photoJPEG}
		}
		var body, b bytes.Buffer
		if err := bodyTmpl.Execute(&body, v); err != nil {
			// The templates and the view are all ours: a failure is a bug.
			panic(fmt.Sprintf("demoweb: render %s%s: %v", s.host, p.path, err))
		}
		v.Body = template.HTML(body.String())
		if err := pageTmpl.Execute(&b, v); err != nil {
			panic(fmt.Sprintf("demoweb: render %s%s: %v", s.host, p.path, err))
		}
		s.docs[p.path] = doc{ctype: htmlType, title: v.Title, body: b.Bytes()}
		s.truth[p.path] = truthOf(p.heading, "http://"+s.host+p.path, body.String())
	}
	for _, f := range s.feat.files {
		s.docs[f.path] = renderFile(s, f, rng)
	}
}

// view builds the view of page p of site s.
func (w *Web) view(s *site, p *page, rng *rand.Rand) view {
	v := view{Title: p.heading + " — " + s.name, SiteName: s.name, Heading: p.heading, Year: 2025}
	if p.kind == cookiePage {
		// Written from a fixed text, drawing nothing from rng, so that
		// the pages of the sites after it stay the same.
		v.Description = "How " + s.name + " and the sites of its group use cookies."
		for _, t := range cookieText {
			v.Paras = append(v.Paras, []span{{Text: strings.ReplaceAll(t, "{group}", s.net.name)}})
		}
		return v
	}
	home := link{Text: "Home", Href: "/"}
	v.Nav = []link{home}
	for _, sec := range s.sections {
		v.Nav = append(v.Nav, link{Text: sec.heading, Href: sec.path})
	}
	if s.listing != nil {
		v.Nav = append(v.Nav, link{Text: "Directory", Href: s.listing.path})
	}
	v.Nav = append(v.Nav, link{Text: "About", Href: "/about.html"})
	mail := "contact@" + strings.TrimPrefix(s.host, "www.")
	v.Footer = []link{{Text: "About", Href: "/about.html"}, {Text: "Contact", Href: "mailto:" + mail}}
	for _, f := range s.feat.files {
		v.Footer = append(v.Footer, link{Text: f.label, Href: f.path})
	}

	focus := p.focus
	if focus == "" {
		focus = pick(rng, s.topic.subjects)
	}
	place := p.place
	if place == "" {
		place = s.home
	}
	wr := newWriter(rng, s.topic, s, focus, place)
	text := func(ps ...string) {
		for _, t := range ps {
			v.Paras = append(v.Paras, []span{{Text: t}})
		}
	}

	switch p.kind {
	case homePage:
		v.Title, v.Description, v.Lead = s.name, s.about, s.about
		text("Welcome to "+s.name+". "+wr.paragraph(3), wr.paragraph(2+rng.IntN(3)))
		switch s.role {
		case directory:
			var cats []link
			for _, t := range communities() {
				c := s.category[t]
				cats = append(cats, link{Text: t.label, Href: c.path, Note: strconv.Itoa(len(c.ext)) + " sites"})
			}
			v.Lists = append(v.Lists, list{"Browse by subject", cats})
		case reference:
			for _, t := range communities() {
				var es []link
				for _, e := range s.articles {
					if e.topic == t {
						es = append(es, link{Text: e.heading, Href: e.path})
					}
				}
				v.Lists = append(v.Lists, list{t.label, es})
			}
		}
		if len(s.sections) > 0 {
			var secs, latest []link
			for _, sec := range s.sections {
				secs = append(secs, link{Text: sec.heading, Href: sec.path, Note: plural(len(sec.children), "article")})
			}
			for i := len(s.articles) - 1; i >= 0 && len(latest) < 6; i-- {
				latest = append(latest, link{Text: s.articles[i].heading, Href: s.articles[i].path})
			}
			v.Lists = append(v.Lists, list{"Sections", secs}, list{"Latest articles", latest})
		}
		if len(p.ext) > 0 {
			heading := "Links"
			if s.role == directory || s.role == portal {
				heading = "Elsewhere on the web"
			}
			v.Lists = append(v.Lists, list{heading, extList(p.ext)})
		}

	case aboutPage:
		v.Description = s.about
		intro := s.about + " "
		for _, i := range rng.Perm(len(aboutSentences))[:3] {
			intro += wr.fill(aboutSentences[i]) + " "
		}
		text(intro[:len(intro)-1], wr.paragraph(3))
		v.Paras = append(v.Paras, []span{{Text: "Write to us at "}, {Text: mail, Href: "mailto:" + mail},
			{Text: ". We read every message, although we cannot always answer quickly."}})
		var docs []link
		for _, f := range s.feat.files {
			docs = append(docs, link{Text: f.label, Href: f.path})
		}
		if len(docs) > 0 {
			v.Lists = append(v.Lists, list{"Documents", docs})
		}
		if s.feat.private {
			v.Lists = append(v.Lists, list{"Staff area", []link{{Text: "Staff notes", Href: "/private/staff-notes.html", Note: "for our team only"}}})
		}

	case sectionPage:
		v.Crumbs = []link{home}
		text(wr.paragraphs(2, 2)...)
		var arts []link
		for _, a := range p.children {
			teaser := newWriter(rng, s.topic, s, a.focus, a.place).sentence()
			arts = append(arts, link{Text: a.heading, Href: a.path, Note: teaser})
		}
		v.Lists = append(v.Lists, list{"Articles", arts})

	case articlePage:
		v.Crumbs = []link{home, {Text: p.parent.heading, Href: p.parent.path}}
		v.Byline = wr.byline()
		text(wr.paragraphs(3, 4)...)
		for _, e := range p.ext {
			refs := siteRefs
			switch e.to {
			case toPage:
				refs = pageRefs
			case toEntry:
				refs = entryRefs
			}
			r := refs[rng.IntN(len(refs))]
			i := rng.IntN(len(v.Paras))
			v.Paras[i] = append(v.Paras[i], span{Text: " " + r[0]}, span{Text: e.text, Href: e.href}, span{Text: r[1]})
		}
		var related []link
		for _, o := range p.parent.children {
			if o != p {
				related = append(related, link{Text: o.heading, Href: o.path})
			}
		}
		if p.broken != "" {
			related = append(related, link{Text: "Earlier coverage of the " + p.focus, Href: p.broken, Note: "from our archive"})
		}
		v.Related = related

	case listingPage, categoryPage:
		t := s.topic
		if p.topic != nil {
			t = p.topic
			wr = newWriter(rng, t, s, pick(rng, t.subjects), s.home)
		}
		v.Crumbs = []link{home}
		v.Lead = fmt.Sprintf("%s on the web: %s, selected by the editors of %s.", t.label, plural(len(p.ext), "site"), s.name)
		text(wr.paragraph(3))
		v.Lists = append(v.Lists, list{"Sites", extList(p.ext)})

	case entryPage:
		v.Crumbs = []link{home}
		v.Description = capitalise(indefinite(p.focus) + " " + p.focus + ": an entry of " + s.name + ".")
		wr = newWriter(rng, p.topic, s, p.focus, s.home)
		wr.deck = append([]string(nil), p.topic.sentences...) // the topic's own voice only
		rng.Shuffle(len(wr.deck), func(i, j int) { wr.deck[i], wr.deck[j] = wr.deck[j], wr.deck[i] })
		v.Lead = fmt.Sprintf("This entry of %s gives a short, neutral overview of the %s, a subject of %s.", s.name, p.focus, p.topic.label)
		text(wr.paragraphs(2, 2)...)
		var also []link
		for _, e := range s.articles {
			if e.topic == p.topic && e != p {
				also = append(also, link{Text: e.heading, Href: e.path})
			}
		}
		v.Lists = append(v.Lists, list{"See also", also})

	case privatePage:
		v.Crumbs = []link{home}
		v.Lead = "This page is reserved for the staff of " + s.name + ". It is not meant to be indexed or archived."
		text("Notes from the last team meeting: "+wr.paragraph(3), wr.paragraph(2))
	}
	return v
}

func extList(ext []extLink) []link {
	ls := make([]link, len(ext))
	for i, e := range ext {
		ls[i] = link{Text: e.text, Href: e.href, Note: e.note}
	}
	return ls
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
