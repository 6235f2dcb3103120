package crawl

import (
	"fmt"
	"strings"
	"testing"
)

// footerHosts are the hosts a news site's template links to on every page:
// its shop, careers and subscription sites, a share widget, app stores. They
// answer 403 or 404 (see footerWeb), as many such links fail on the real web:
// expired campaigns, geofenced shops, sign-in walls.
func footerHosts(site int) []string {
	var out []string
	for _, h := range []string{"shop", "buy", "careers", "subscribe", "login", "events", "store", "jobs"} {
		out = append(out, fmt.Sprintf("%s.news%d.test", h, site))
	}
	return append(out, "addthis.test", "apps.example-store.test", "partner-network.test")
}

// templatedArticle is an article as a news publisher's system serves it: a
// navigation bar, a cookie banner, the article with in-text links to its
// sources, a newsletter box and a footer of the publisher's other services.
func templatedArticle(site int, title string, sources ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>%s | News %d</title></head>
<body class="post-template-default single single-post">
<header class="site-header"><a class="custom-logo-link" href="/">News %d</a>
<nav id="site-navigation" class="main-navigation"><ul class="menu">
<li class="menu-item"><a href="/world/">World</a></li><li class="menu-item"><a href="/business/">Business</a></li>
<li class="menu-item"><a href="http://subscribe.news%d.test/offer">Subscribe</a></li>
<li class="menu-item"><a href="http://login.news%d.test/">Sign in</a></li></ul></nav></header>
<div id="cookie-notice" class="cookie-banner">We use cookies. <a href="http://partner-network.test/privacy">Our partners</a></div>
<main id="main" class="site-main"><article class="post type-post status-publish format-standard hentry">
<header class="entry-header"><h1 class="entry-title">%s</h1></header>
<div class="entry-content">
`, title, site, site, site, site, title)
	for i, src := range sources {
		fmt.Fprintf(&b, `<p>The council published its figures on Monday, and the <a href="%s">report of the inquiry</a>
shows how the numbers changed over the last ten years in every district of the region, part %d of the story.</p>
`, src, i+1)
	}
	fmt.Fprintf(&b, `<p>Residents said they had waited a long time for the answers, and several groups asked for a public
meeting before the end of the month to discuss what should follow.</p>
</div></article>
<div class="newsletter-signup"><h3>Get the morning briefing</h3><a href="http://subscribe.news%d.test/newsletter">Sign up</a></div>
</main>
<footer id="colophon" class="site-footer"><div class="footer-widgets"><ul>
`, site)
	for _, h := range footerHosts(site) {
		fmt.Fprintf(&b, `<li><a href="http://%s/">%s</a></li>`, h, h)
	}
	b.WriteString(`</ul></div><div class="site-info">© 2026 News Media Group</div></footer></body></html>`)
	return b.String()
}

// footerWeb is three news sites whose seed articles cite source sites in
// their text and link, in their template, to eleven hosts each that answer
// every page with 403 or 404.
func footerWeb() (map[string]map[string]resp, []string, []string) {
	hosts := map[string]map[string]resp{}
	var seeds, sources []string
	for i := range 3 {
		src := fmt.Sprintf("http://source%d.test/report", i)
		sources = append(sources, src)
		host := fmt.Sprintf("news%d.test", i)
		hosts[host] = map[string]resp{
			"/2026/story": {body: templatedArticle(i, fmt.Sprintf("Council figures %d", i), src)},
			"/":           {body: page("Front page")}, "/world/": {body: page("World")}, "/business/": {body: page("Business")},
		}
		seeds = append(seeds, "http://"+host+"/2026/story")
		hosts[fmt.Sprintf("source%d.test", i)] = map[string]resp{"/report": {body: page(fmt.Sprintf("Report %d", i))}}
		for j, h := range footerHosts(i) {
			if hosts[h] == nil {
				hosts[h] = map[string]resp{} // 404 for every page
			}
			if j%2 == 0 {
				forbidden := resp{status: 403, body: page("Forbidden")}
				hosts[h]["/"], hosts[h]["/offer"], hosts[h]["/privacy"] = forbidden, forbidden, forbidden
			}
		}
	}
	return hosts, seeds, sources
}

// TestTemplateLinksNotFollowedByDefault: a crawl follows the links the
// articles' authors wrote and leaves the template's links to other sites,
// so that a footer of failing services does not spend the failure budget;
// the status says what was left out.
func TestTemplateLinksNotFollowedByDefault(t *testing.T) {
	t.Parallel()
	hosts, seeds, sources := footerWeb()
	footer := map[string]bool{}
	for i := range 3 {
		for _, h := range footerHosts(i) {
			footer[h] = true
		}
	}
	w := newWeb(t, hosts)
	r := crawl(t, w, seeds, MaxPages(100), MaxFailures(5), Parallel(2))
	if r.err != nil {
		t.Fatal(r.err)
	}
	for _, h := range w.requests() {
		if footer[h.host] {
			t.Errorf("template link followed: %s%s", h.host, h.path)
		}
	}
	for _, src := range sources {
		if p, ok := r.byURL(src); !ok || p.Status != 200 {
			t.Errorf("editorial link %s not fetched", src)
		}
	}
	st := r.status
	if st.Errors != 0 || st.EndReason != EndExhausted {
		t.Errorf("errors %d, end %q; want 0 errors, %q", st.Errors, st.EndReason, EndExhausted)
	}
	// Each article links to 8 hosts of its own (its subscription host at
	// three URLs) and to 3 shared ones (the partner network at two), each
	// host its own site.
	if st.Follow != FollowEditorial || st.TemplateLeftOut != 3*10+4 || st.TemplateSitesLeftOut != 3*8+3 {
		t.Errorf("follow %q, left out %d template links to %d sites; want %q, 34 to 27",
			st.Follow, st.TemplateLeftOut, st.TemplateSitesLeftOut, FollowEditorial)
	}
	// The template's links still make the page's template links.
	if p, _ := r.byURL(seeds[0]); len(p.TemplateLinks) < len(footerHosts(0)) {
		t.Errorf("template links of %s: %v", seeds[0], p.TemplateLinks)
	}
}

// TestFollowAllSpendsTheBudgetOnTheTemplate: with FollowAll the crawl
// follows every link as before, and the footer's failures end it.
func TestFollowAllSpendsTheBudgetOnTheTemplate(t *testing.T) {
	t.Parallel()
	hosts, seeds, _ := footerWeb()
	w := newWeb(t, hosts)
	r := crawl(t, w, seeds, MaxPages(100), MaxFailures(5), Parallel(2), FollowLinks(FollowAll))
	if r.err != nil {
		t.Fatal(r.err)
	}
	st := r.status
	if st.EndReason != EndFailLimit || st.Errors < 5 {
		t.Errorf("errors %d, end %q; want the failure cap", st.Errors, st.EndReason)
	}
	if st.Follow != FollowAll || st.TemplateLeftOut != 0 || st.TemplateSitesLeftOut != 0 {
		t.Errorf("follow %q, left out %d template links to %d sites; want all, none", st.Follow, st.TemplateLeftOut, st.TemplateSitesLeftOut)
	}
}

// TestTemplateLinkFollowedWhenAnAuthorLinksIt: a URL left out as a
// template link is followed once an article links to it in its text, and
// is no longer counted as left out; the template's links within the page's
// own site (its navigation) are followed.
func TestTemplateLinkFollowedWhenAnAuthorLinksIt(t *testing.T) {
	t.Parallel()
	hosts := map[string]map[string]resp{
		"news0.test": {
			"/2026/story": {body: templatedArticle(0, "Council figures", "http://news0.test/2026/next")},
			"/2026/next":  {body: templatedArticle(0, "Council figures again", "http://shop.news0.test/")},
			"/":           {body: page("Front page")},
			"/world/":     {body: page("World")},
			"/business/":  {body: page("Business")},
		},
		"shop.news0.test": {"/": {body: page("Shop")}},
	}
	w := newWeb(t, hosts)
	r := crawl(t, w, []string{"http://news0.test/2026/story"}, MaxPages(100), Parallel(1))
	if r.err != nil {
		t.Fatal(r.err)
	}
	for _, u := range []string{"http://shop.news0.test/", "http://news0.test/world/", "http://news0.test/business/"} {
		if p, ok := r.byURL(u); !ok || p.Status != 200 {
			t.Errorf("%s not fetched", u)
		}
	}
	// 14 URLs on 11 sites, but the shop's.
	if r.status.TemplateLeftOut != 13 || r.status.TemplateSitesLeftOut != 10 {
		t.Errorf("left out %d template links to %d sites, want 13 to 10", r.status.TemplateLeftOut, r.status.TemplateSitesLeftOut)
	}
}

func TestParseFollow(t *testing.T) {
	for in, want := range map[string]Follow{"": FollowEditorial, "editorial": FollowEditorial, " ALL ": FollowAll} {
		if got, err := ParseFollow(in); err != nil || got != want {
			t.Errorf("ParseFollow(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseFollow("template"); err == nil {
		t.Error("ParseFollow(template): no error")
	}
}
