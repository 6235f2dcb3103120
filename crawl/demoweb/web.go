package demoweb

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// DefaultSeed is the seed `sitesift demo` and `sitesift demo-web` use, so
// that both serve the same demo web.
const DefaultSeed int64 = 1

// Web is a generated demo web: every site, page and file, rendered once by
// [New] and served read-only by [Web.Handler], so one Web may serve many
// requests at once.
type Web struct {
	sites  []*site          // catalogue order
	byHost map[string]*site // content sites
	alias  map[string]*site // bare host → the www. site it redirects to
}

// site is one generated site: its plan while New runs, then its documents.
type site struct {
	siteSpec
	topic    *topic
	feat     feature
	home     string // the place the site is set in
	founded  int
	subjects []string // what its pages are about: its own subjects first, shuffled
	pages    []*page  // home first
	sections []*page
	articles []*page
	listing  *page            // a portal's directory page
	category map[*topic]*page // the directory's category pages
	out      []*site          // sites this site links to: the site graph
	docs     map[string]doc   // rendered documents by path
	media    map[string]doc   // images by path: served, not counted as pages
	truth    map[string]Truth // what the authors of each HTML page wrote, by path
	net      *network         // the publisher's group it belongs to, if any
}

type pageKind int

const (
	homePage pageKind = iota
	aboutPage
	sectionPage
	articlePage
	listingPage  // a portal's list of the sites of its topic
	categoryPage // a directory category
	entryPage    // an encyclopedia entry
	privatePage  // under /private/, disallowed by robots.txt
	cookiePage   // a publisher group's cookie policy, on its lead site
)

// page is the plan of one HTML page, complete before any page is rendered
// so that links may point at pages of sites not yet rendered.
type page struct {
	kind     pageKind
	path     string
	heading  string
	focus    string // the subject the page is about
	place    string
	topic    *topic // an entry's or category's topic
	parent   *page  // an article's section
	children []*page
	ext      []extLink // links to other sites placed on this page
	broken   string    // a link to a missing page of the same site, if any
}

// extLink is a link to another site, planned before rendering.
type extLink struct {
	href, text, note string
	to               refTo
}

type refTo int

const (
	toSite  refTo = iota // a site's home page (or an old address of it)
	toPage               // an article deep in a site
	toEntry              // an encyclopedia entry
)

// doc is a rendered document, served with status 200.
type doc struct {
	ctype string
	title string
	body  []byte
}

// New generates the demo web for seed. The sites and their roles are fixed
// by the catalogue; the seed decides everything else (which sites link to
// which, the pages of each site and their text), and the same seed always
// gives the same web.
func New(seed int64) *Web {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x73697465736966)) // "sitesif"
	w := &Web{byHost: map[string]*site{}, alias: map[string]*site{}}
	for _, t := range topics {
		for _, spec := range t.sites {
			s := &site{siteSpec: spec, topic: t, feat: features[spec.host], net: networkOf(spec.host)}
			w.sites = append(w.sites, s)
			w.byHost[s.host] = s
			if s.feat.alias != "" {
				w.alias[s.feat.alias] = s
			}
		}
	}
	for _, s := range w.sites {
		s.home = homeOf(s.name, rng)
		s.founded = 1996 + rng.IntN(25)
		s.subjects = subjectsOf(s, rng)
		w.plan(s, rng)
	}
	w.link(rng)
	for _, s := range w.sites {
		w.place(s, rng)
	}
	w.addFaults(rng)
	for _, s := range w.sites {
		w.render(s, rng)
	}
	return w
}

// Sites returns the host names of the demo web's sites, sorted. Aliases that
// only redirect (lyon-gazette.test) are not sites.
func (w *Web) Sites() []string {
	hosts := make([]string, 0, len(w.sites))
	for _, s := range w.sites {
		hosts = append(hosts, s.host)
	}
	slices.Sort(hosts)
	return hosts
}

// Pages returns the number of documents served with status 200: HTML pages
// and files (PDF, CSV); robots.txt and the images the pages show are not
// counted.
func (w *Web) Pages() int {
	n := 0
	for _, s := range w.sites {
		n += len(s.docs)
	}
	return n
}

// Seeds returns the seed URLs of a demo crawl: the home pages of the web
// directory and of four topic portals. Following links from them reaches
// every site except the two orphans that no site links to.
func (w *Web) Seeds() []string {
	seeds := make([]string, len(seedHosts))
	for i, h := range seedHosts {
		seeds[i] = "http://" + h + "/"
	}
	return seeds
}

// homeOf returns the place named in a site's name, or a random one.
func homeOf(name string, rng *rand.Rand) string {
	for _, p := range places {
		if strings.Contains(name, p) {
			return p
		}
	}
	return pick(rng, places)
}

// subjectsOf returns the subjects a site writes about: its own (see
// siteSubjects) in random order, then the rest of its topic's.
func subjectsOf(s *site, rng *rand.Rand) []string {
	own := slices.Clone(siteSubjects[s.host])
	rest := slices.DeleteFunc(slices.Clone(s.topic.subjects), func(x string) bool { return slices.Contains(own, x) })
	for _, xs := range [][]string{own, rest} {
		rng.Shuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
	}
	return append(own, rest...)
}

// plan lays out the pages of a site. Sizes depend on the role: authorities
// are the largest sites, dangling sites the smallest.
func (w *Web) plan(s *site, rng *rand.Rand) {
	add := func(p *page) *page {
		s.pages = append(s.pages, p)
		return p
	}
	add(&page{kind: homePage, path: "/", heading: s.name})
	add(&page{kind: aboutPage, path: "/about.html", heading: "About " + s.name})
	switch s.role {
	case directory:
		s.category = map[*topic]*page{}
		for _, t := range communities() {
			s.category[t] = add(&page{kind: categoryPage, path: "/category/" + t.key + ".html", heading: t.label, topic: t})
		}
		return
	case reference:
		for _, t := range communities() {
			for _, i := range rng.Perm(len(t.subjects))[:2] {
				subj := t.subjects[i]
				s.articles = append(s.articles, add(&page{kind: entryPage, path: "/wiki/" + capitalise(slug(subj, "_")),
					heading: capitalise(subj), focus: subj, topic: t}))
			}
		}
		return
	case portal:
		s.listing = add(&page{kind: listingPage, path: "/directory.html", heading: s.topic.label + " on the web"})
	}
	nSec, nArt := 1+rng.IntN(2), 3 // sections; articles per section at most
	switch s.role {
	case authority:
		nSec, nArt = 2+rng.IntN(2), 4
	case dangling:
		nSec, nArt = 1, 3
	}
	for _, si := range rng.Perm(len(s.topic.sections))[:nSec] {
		name := s.topic.sections[si]
		sec := add(&page{kind: sectionPage, path: "/" + slug(name, "-") + "/", heading: name,
			focus: s.subjects[len(s.articles)], place: s.home})
		s.sections = append(s.sections, sec)
		for range 1 + rng.IntN(nArt) {
			f := s.subjects[len(s.articles)]
			place := s.home
			if rng.IntN(3) == 0 {
				place = pick(rng, places)
			}
			a := &page{kind: articlePage, focus: f, place: place, parent: sec}
			a.heading = newWriter(rng, s.topic, s, f, place).title()
			a.path = sec.path + slug(a.heading, "-") + ".html"
			for n := 2; slices.ContainsFunc(s.pages, func(o *page) bool { return o.path == a.path }); n++ {
				a.path = fmt.Sprintf("%s%s-%d.html", sec.path, slug(a.heading, "-"), n)
			}
			sec.children = append(sec.children, a)
			s.articles = append(s.articles, add(a))
		}
	}
	if s.feat.private {
		add(&page{kind: privatePage, path: "/private/staff-notes.html", heading: "Staff notes", focus: s.subjects[0]})
	}
	if s.net != nil && s.net.lead == s.host {
		add(&page{kind: cookiePage, path: cookiePath, heading: "Cookie policy"})
	}
}

// link draws the site graph. Communities come from the topics: a site links
// mostly inside its topic, to its authorities above all, and seldom across.
func (w *Web) link(rng *rand.Rand) {
	var portals, authorities []*site
	var dir, encyclopedia *site
	portalOf := map[*topic]*site{}
	for _, s := range w.sites {
		switch s.role {
		case portal:
			portals = append(portals, s)
			portalOf[s.topic] = s
		case authority:
			authorities = append(authorities, s)
		case directory:
			dir = s
		case reference:
			encyclopedia = s
		}
	}
	// linkable are the sites a random link may point to: not the orphans,
	// which nobody links to, and not the reference sites, linked on purpose.
	linkable := func(keep func(*site) bool) []*site {
		var c []*site
		for _, t := range w.sites {
			if t.role != orphan && !t.topic.general() && keep(t) {
				c = append(c, t)
			}
		}
		return c
	}
	// some returns k distinct random elements of c (fewer if c is shorter).
	some := func(c []*site, k int) []*site {
		var r []*site
		for _, i := range rng.Perm(len(c)) {
			if len(r) == k {
				break
			}
			r = append(r, c[i])
		}
		return r
	}
	chance := func(p float64) bool { return rng.Float64() < p }

	for _, s := range w.sites {
		var out []*site
		sameTopic := func(t *site) bool { return t.topic == s.topic && t != s }
		switch s.role {
		case directory:
			out = append(append(out, portals...), encyclopedia)
			for _, t := range linkable(func(t *site) bool { return t.role != portal }) {
				if chance(0.85) {
					out = append(out, t)
				}
			}
		case portal:
			out = append(out, linkable(sameTopic)...)
			out = append(out, dir, encyclopedia)
			out = append(out, some(slices.DeleteFunc(slices.Clone(portals), func(t *site) bool { return t == s }), 1+rng.IntN(2))...)
		case authority:
			out = append(out, some(slices.DeleteFunc(slices.Clone(authorities), func(t *site) bool { return t.topic == s.topic }), 1+rng.IntN(2))...)
			out = append(out, some(linkable(func(t *site) bool { return sameTopic(t) && t.role == regular }), 1)...)
			if chance(0.5) {
				out = append(out, encyclopedia)
			}
			if chance(0.5) {
				out = append(out, portalOf[s.topic])
			}
		case regular, orphan:
			for _, a := range authorities {
				if a.topic == s.topic && chance(0.9) {
					out = append(out, a)
				}
			}
			out = append(out, some(linkable(func(t *site) bool { return sameTopic(t) && t.role != authority }), 1+rng.IntN(2))...)
			// Links across communities are rare, and go to authorities
			// more often than not.
			if chance(0.3) {
				other := func(t *site) bool { return t.topic != s.topic }
				if chance(0.6) {
					other = func(t *site) bool { return t.topic != s.topic && t.role == authority }
				}
				out = append(out, some(linkable(other), 1)...)
			}
			if chance(0.5) {
				out = append(out, encyclopedia)
			}
			if chance(0.4) {
				out = append(out, portalOf[s.topic])
			}
		}
		seen := map[*site]bool{s: true}
		for _, t := range out {
			if !seen[t] {
				seen[t] = true
				s.out = append(s.out, t)
			}
		}
	}
}

// place puts each link of the site graph on a page of its source site:
// directory and portal links on their listing pages, other links on the
// home page's link list or inline in an article.
func (w *Web) place(s *site, rng *rand.Rand) {
	for _, t := range s.out {
		var p *page
		switch {
		case s.role == directory && t.role != portal && t.role != reference:
			p = s.category[t.topic]
		case s.role == portal && t.topic == s.topic:
			p = s.listing
		case s.role == directory || s.role == portal || len(s.articles) == 0 || rng.IntN(5) < 2:
			p = s.pages[0]
		default:
			p = s.articles[rng.IntN(len(s.articles))]
		}
		// Only links inline in an article go deep; lists name sites.
		p.ext = append(p.ext, w.ref(s, t, p.kind == articlePage, rng))
	}
}

// ref returns a link from s to t. Listings link to home pages; elsewhere a
// quarter of the links go deep into the target, and links to the
// encyclopedia go to an entry of the source's topic. Home links to a site
// that moved sometimes keep its old address, as they do on the real web.
func (w *Web) ref(s, t *site, deep bool, rng *rand.Rand) extLink {
	if deep && t.role == reference {
		var entries []*page
		for _, e := range t.articles {
			if e.topic == s.topic {
				entries = append(entries, e)
			}
		}
		if len(entries) > 0 {
			e := entries[rng.IntN(len(entries))]
			return extLink{href: "http://" + t.host + e.path, text: e.heading, note: t.name, to: toEntry}
		}
	}
	if deep && t.role != reference && len(t.articles) > 0 && rng.IntN(4) == 0 {
		a := t.articles[rng.IntN(len(t.articles))]
		return extLink{href: "http://" + t.host + a.path, text: a.heading, note: t.name, to: toPage}
	}
	host, path := t.host, "/"
	switch {
	case t.feat.alias != "" && rng.IntN(2) == 0:
		host = t.feat.alias
	case t.feat.oldHome && rng.IntN(2) == 0:
		path = "/old-home"
	}
	return extLink{href: "http://" + host + path, text: t.name, note: t.about, to: toSite}
}

// addFaults adds what a crawler must survive: links to vanished sites and
// links to pages that do not exist.
func (w *Web) addFaults(rng *rand.Rand) {
	var regulars []*site
	for _, s := range w.sites {
		if s.role == regular {
			regulars = append(regulars, s)
		}
	}
	for i, k := range rng.Perm(len(regulars))[:2*len(deadSites)] {
		d := deadSites[i%len(deadSites)]
		home := regulars[k].pages[0]
		home.ext = append(home.ext, extLink{href: "http://" + d.host + "/", text: d.name, note: d.about, to: toSite})
	}
	for _, s := range w.sites {
		if len(s.articles) > 0 && s.role != reference && rng.IntN(8) == 0 {
			a := s.articles[rng.IntN(len(s.articles))]
			a.broken = fmt.Sprintf("/archive/%d/%s.html", 2009+rng.IntN(10), slug(a.focus, "-"))
		}
	}
}
