package main

import (
	"fmt"
	"net/url"
	"strings"
)

// linkTemplates model publishing systems whose pages put the template's
// links inside the article itself, as many real ones do: an Arc XP-like
// news page (hashed class names, "read more" interstitials, a newsletter
// box, a follow bar, related stories, the publisher's network teaser and an
// affiliate "deals" box inside <article>, a comment widget, consent for
// embeds), a news site whose paragraphs are separated by <br> (its related
// box and deals inside the article body), a short brief beside a sidebar of
// 150 category and tag links in an unnamed grid column, and a Ghost blog
// (a subscribe call inside the article, the author's accounts, comments),
// and two written after sitesift's rules for the others, to measure them
// on markup they were not made on: a WordPress news theme (JNews-like, no
// <article>) and a newsletter platform's post (Substack-like).
var linkTemplates = []string{"arc", "brprose", "short", "ghost", "jnews", "substack"}

// more are the labels of the boxes messy templates put in an article, in
// the languages of the link corpus.
type more struct {
	network, moreFrom, deals, followOn, newsletterName, topics, partners, embed, privacy string
}

var moreLabels = map[string]more{
	"en": {network: "From our network", moreFrom: "More from", deals: "Deals we like", followOn: "Follow %s on",
		newsletterName: "The Morning Brief", topics: "Topics", partners: "Friends of the site",
		embed: "This content is provided by a third party. To see it, accept its cookies.", privacy: "Manage your privacy choices"},
	"fr": {network: "Dans notre réseau", moreFrom: "Plus de", deals: "Bons plans", followOn: "Suivez %s sur",
		newsletterName: "La lettre du matin", topics: "Thèmes", partners: "Sites amis",
		embed: "Ce contenu est fourni par un tiers. Pour le voir, acceptez ses cookies.", privacy: "Gérer mes choix"},
	"de": {network: "Aus unserem Netzwerk", moreFrom: "Mehr von", deals: "Angebote", followOn: "Folgen Sie %s auf",
		newsletterName: "Der Morgen-Newsletter", topics: "Themen", partners: "Partnerseiten",
		embed: "Dieser Inhalt stammt von einem Drittanbieter. Um ihn zu sehen, stimmen Sie seinen Cookies zu.", privacy: "Datenschutz-Einstellungen"},
	"es": {network: "De nuestra red", moreFrom: "Más de", deals: "Ofertas", followOn: "Sigue a %s en",
		newsletterName: "El boletín de la mañana", topics: "Temas", partners: "Sitios amigos",
		embed: "Este contenido lo proporciona un tercero. Para verlo, acepta sus cookies.", privacy: "Gestionar mis opciones"},
}

// handle is the name of the site's accounts on social platforms.
func (p *page) handle() string {
	h := strings.TrimPrefix(p.host(), "www.")
	h, _, _ = strings.Cut(h, ".")
	return strings.ReplaceAll(h, "-", "")
}

// sisters are the other sites of the page's publisher, as its network
// teaser and footer link them.
func (p *page) sisters() []string {
	h := p.handle()
	return []string{"https://www." + h + "-sport.example/", "https://" + h + "-living.example/", "https://www.weekend" + h + ".example/"}
}

// networkTeaser is the publisher's "from our network" box: headlines of its
// other sites.
func (p *page) networkTeaser(class string) string {
	m := moreLabels[p.a.lang]
	var b strings.Builder
	fmt.Fprintf(&b, `<div class="%s" data-module="partner-content"><h2 class="css-1hgz0rb">%s</h2><ul class="css-1rhlq2y">`, class, esc(m.network))
	for i, s := range p.sisters() {
		title := "Seasonal guide"
		if i < len(p.related) {
			title = p.related[i].title
		}
		fmt.Fprintf(&b, `<li class="css-ye6x8s"><a class="css-1u3p7j1" href="%s%d/%s"><img src="%simg/%d.jpg" alt=""><span>%s</span></a></li>`,
			s, 2024, slug(title), s, i, esc(title))
	}
	b.WriteString("</ul></div>\n")
	return b.String()
}

// dealsBox is an affiliate box: a shortener of a shop, a shop link with
// the publisher's affiliate tag and an affiliate network's redirector.
func (p *page) dealsBox(class string) string {
	m := moreLabels[p.a.lang]
	return fmt.Sprintf(`<div class="%s"><h3>%s</h3><ul>
<li><a href="https://amzn.to/3xYzAbc" rel="sponsored nofollow">Electric kettle, 1.7 l</a> <span>€29.99</span></li>
<li><a href="https://www.amazon.com/dp/B0C1X2Y3Z4?tag=%s-20" rel="sponsored nofollow">Noise-cancelling headphones</a> <span>€149</span></li>
<li><a href="https://go.skimresources.com/?id=12345X678&amp;xs=1&amp;url=https%%3A%%2F%%2Fwww.bigshop.example%%2Fp%%2F123" rel="sponsored nofollow">Robot vacuum</a> <span>€199</span></li>
<li><a href="https://www.bigshop.example/deals/week?aff=%s" rel="sponsored nofollow">All this week's deals</a></li>
</ul><p class="css-disclosure">We may earn a commission when you buy through these links.</p></div>
`, class, esc(m.deals), p.handle(), p.handle())
}

// followBar is the line asking readers to follow the site's accounts.
func (p *page) followBar(tag, class string) string {
	m := moreLabels[p.a.lang]
	h := p.handle()
	return fmt.Sprintf(`<%s class="%s"><em>%s <a href="https://twitter.com/%s">X</a>, <a href="https://www.facebook.com/%s/">Facebook</a>, <a href="https://www.instagram.com/%s/">Instagram</a> %s <a href="https://flipboard.com/@%s">Flipboard</a>.</em></%s>
`, tag, class, esc(fmt.Sprintf(m.followOn, p.a.site)), h, h, h, "&amp;", h, tag)
}

// newsletterBox is a newsletter sign-up inside the article, with a sign-in
// link for subscribers.
func (p *page) newsletterBox(class string) string {
	m, l := moreLabels[p.a.lang], p.l
	return fmt.Sprintf(`<div class="%s"><h3>%s</h3><p>%s</p><a class="css-btn" href="https://eepurl.com/hXyZ1q">%s</a> <a href="/newsletters/">%s</a> <a href="/account/login?next=%s">%s</a></div>
`, class, esc(m.newsletterName), esc(l.newsletter), esc(l.newsletterButton), esc(l.subscribe), url.QueryEscape(p.a.url), esc(l.login))
}

// interstitial is a "read more" line between two paragraphs.
func (p *page) interstitial(n int) string {
	if n >= len(p.related) {
		return ""
	}
	r := p.related[n]
	return fmt.Sprintf(`<div class="c-interstitial" data-el="interstitial"><p><strong>%s:</strong> <a href="%s">%s</a></p></div>
`, esc(strings.ToUpper(p.l.readMore)), esc(r.url), esc(r.title))
}

// moreFrom is a list of the site's other articles under "More from".
func (p *page) moreFrom(class string) string {
	m := moreLabels[p.a.lang]
	var b strings.Builder
	fmt.Fprintf(&b, `<section class="%s"><h2>%s %s</h2><ul>`, class, esc(m.moreFrom), esc(p.a.site))
	for i, t := range []string{"The week in pictures", "Letters to the editor", "What's on this weekend", "Your photos"} {
		fmt.Fprintf(&b, `<li><a href="%s">%s</a></li>`, esc(p.href(fmt.Sprintf("/2024/more/%d/%s/", i, slug(t)))), esc(t))
	}
	b.WriteString("</ul></section>\n")
	return b.String()
}

// embedConsent is what stands for an embedded player until its cookies are
// accepted.
func (p *page) embedConsent(class string) string {
	m := moreLabels[p.a.lang]
	return fmt.Sprintf(`<div class="%s" data-consent-required="youtube"><p>%s <a href="/privacy-settings/">%s</a></p><button>%s</button></div>
`, class, esc(m.embed), esc(m.privacy), esc(p.l.accept))
}

// comments widget of a comment service.
func (p *page) commentWidget() string {
	return fmt.Sprintf(`<div id="disqus_thread"></div>
<script>var disqus_config = function () { this.page.url = %q; };</script>
<noscript>Please enable JavaScript to view the <a href="https://disqus.com/?ref_noscript">comments powered by Disqus.</a></noscript>
`, p.a.url)
}

// shareRow are share buttons of many services, Hatena's among them.
func (p *page) shareRow(class string) string {
	u := url.QueryEscape(p.a.url)
	return fmt.Sprintf(`<div class="%s"><a href="https://b.hatena.ne.jp/add?mode=confirm&amp;url=%s">B!</a> <a href="https://share.flipboard.com/bookmarklet/popout?v=2&amp;url=%s">Flipboard</a> <a href="https://www.reddit.com/submit?url=%s">Reddit</a> <a href="https://api.whatsapp.com/send?text=%s">WhatsApp</a> <a href="https://twitter.com/intent/tweet?url=%s">X</a> <a href="https://www.facebook.com/sharer/sharer.php?u=%s">Facebook</a> <a href="https://getpocket.com/save?url=%s">Pocket</a></div>
`, class, u, u, u, u, u, u, u)
}

// appFooter is a news footer: sections, the publisher's network, its apps,
// an ad-choices link and its hosting vendor's credit.
func (p *page) appFooter() string {
	var b strings.Builder
	b.WriteString(`<footer class="c-footer"><div class="c-footer__network">`)
	for _, s := range p.sisters() {
		fmt.Fprintf(&b, `<a href="%s">%s</a> `, s, strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(s, "https://"), "www."), ".example/"))
	}
	fmt.Fprintf(&b, `</div>%s<div class="c-footer__apps"><a href="https://apps.apple.com/us/app/%s/id1234567890">App Store</a> <a href="https://play.google.com/store/apps/details?id=example.%s">Google Play</a></div>
<p><a href="https://info.evidon.com/pub_info/15678?v=1&amp;nt=0">AdChoices</a> · <a href="/privacy-policy/">Privacy</a> · <a href="https://wpvip.com/?utm_source=vip_powered_wpcom">Powered by WordPress VIP</a></p>%s</footer>
`, p.footerLinks(), p.handle(), p.handle(), p.social())
	return b.String()
}

// arc renders an Arc XP-like news page: hashed class names, everything in
// <article>.
func (p *page) arc() string {
	l, a := p.l, p.a
	var b strings.Builder
	b.WriteString(p.head(`<script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle"}</script>
`))
	fmt.Fprintf(&b, `<body><div id="fusion-app">
%s<header class="c-header"><a href="/">%s</a> %s <a href="/subscribe/?itm_source=header">%s</a> <a href="/account/login/">%s</a></header>
<main class="c-main"><article class="b-article-body" data-testid="article-body">
<div class="c-kicker"><a href="/%s/">%s</a></div>
<h1 class="c-heading">%s</h1>
<div class="c-attribution"><span>%s <a href="/people/%s/">%s</a></span> <time datetime="%s">%s</time></div>
%s`, p.cookieBanner("evidon-banner"), esc(a.site), p.navLinks("c-nav"), esc(l.subscribe), esc(l.login),
		slug(a.section), esc(a.section), esc(a.title), esc(l.by), slug(a.author), esc(a.author), esc(a.date), esc(a.date),
		p.shareRow("c-share"))
	for i, x := range a.blocks {
		if x.kind == "p" {
			fmt.Fprintf(&b, `<p class="c-paragraph" data-type="text">%s</p>`+"\n", inline(x.text))
		} else {
			b.WriteString(blocksHTML([]block{x}))
		}
		switch i {
		case 0:
			b.WriteString(p.interstitial(0))
		case 1:
			b.WriteString(p.newsletterBox("css-1n8r0bn"))
		case 2:
			b.WriteString(p.embedConsent("css-ep7dx1"))
		}
	}
	b.WriteString(p.followBar("p", "css-8atqhb"))
	fmt.Fprintf(&b, `<div class="css-1xzk9l"><h2>%s</h2><ul>`, esc(l.related))
	for _, r := range p.related {
		fmt.Fprintf(&b, `<li><a href="%s">%s</a> <p>%s</p></li>`, esc(r.url), esc(r.title), esc(teaser(r)))
	}
	b.WriteString("</ul></div>\n")
	b.WriteString(p.moreFrom("css-k3m9q2"))
	b.WriteString(p.networkTeaser("css-7yh2w1"))
	b.WriteString(p.dealsBox("css-q1w2e3"))
	b.WriteString(p.commentWidget())
	fmt.Fprintf(&b, `</article></main>
%s</div>
</body>
</html>
`, p.appFooter())
	return b.String()
}

// brprose renders a news page whose article body is text separated by
// <br>, with no paragraph elements, as some publishing systems store it.
func (p *page) brprose() string {
	l, a := p.l, p.a
	var b strings.Builder
	b.WriteString(p.head(""))
	fmt.Fprintf(&b, `<body class="article">
<div id="top-nav"><a href="/">%s</a> %s <a href="/signin.php">%s</a></div>
<div class="main-wrap"><div class="col-left">
<article itemscope itemtype="https://schema.org/NewsArticle">
<h1 itemprop="headline">%s</h1>
<div class="byline-row">%s <a href="/editors/%s">%s</a> | <time>%s</time></div>
%s<div class="article-content" itemprop="articleBody">
`, esc(a.site), p.navLinks("top-links"), esc(l.login), esc(a.title), esc(l.by), slug(a.author), esc(a.author), esc(a.date), p.shareRow("share-row"))
	for i, x := range a.blocks {
		if x.kind == "p" {
			b.WriteString(inline(x.text))
			b.WriteString("\n<br><br>\n")
		} else {
			b.WriteString(blocksHTML([]block{x}))
		}
		if i == 1 {
			fmt.Fprintf(&b, `<div class="inline-more"><b>%s</b> %s</div><br>
`, esc(l.readMore), p.relatedLinks(2))
		}
	}
	fmt.Fprintf(&b, `%s%s</div>
%s<div class="article-recirc"><h2>%s</h2>%s</div>
%s</article></div>
<div class="col-right"><div class="deals-sidebar">%s</div>%s</div></div>
%s</body>
</html>
`, p.followBar("div", "follow-line"), p.newsletterBox("nl-inline"), p.moreFrom("more-stories"), esc(l.related), p.relatedList(4, true),
		p.commentWidget(), p.dealsBox("deal-box"), p.networkTeaser("net-promo"), p.appFooter())
	return b.String()
}

// relatedLinks returns links to the first n related articles, one after the
// other.
func (p *page) relatedLinks(n int) string {
	var ls []string
	for i, r := range p.related {
		if i == n {
			break
		}
		ls = append(ls, fmt.Sprintf(`<a href="%s">%s</a>`, esc(r.url), esc(r.title)))
	}
	return strings.Join(ls, " · ")
}

// short renders a brief of a few lines beside a sidebar of 150 category
// and tag links in a grid column whose classes say nothing of what it is.
func (p *page) short() string {
	l, a := p.l, p.a
	m := moreLabels[a.lang]
	var b strings.Builder
	b.WriteString(p.head(""))
	fmt.Fprintf(&b, `<body class="single">
<div class="container"><div class="row"><div class="col-12"><a href="/">%s</a> %s</div></div>
<div class="row"><div class="col-md-8">
<article class="post">
<h1>%s</h1><div class="post-info">%s · %s</div>
%s</article>
%s</div>
<div class="col-md-4"><div class="block"><h4>%s</h4><div class="cloud">
`, esc(a.site), p.navLinks("top"), esc(a.title), esc(a.author), esc(a.date), p.body(), p.shareRow("sharing-row"), esc(m.topics))
	words := append(append([]string{}, l.sections...), a.tags...)
	for i := range 150 {
		w := words[i%len(words)]
		fmt.Fprintf(&b, `<a href="/topics/%s-%d/">%s %d</a> `, slug(w), i, esc(w), i/len(words)+1)
	}
	fmt.Fprintf(&b, `</div></div>
<div class="block"><h4>%s</h4><ul><li><a href="https://www.sisterisland.example/">Sister Island News</a></li><li><a href="https://islandweather.example/">Island Weather</a></li><li><a href="https://harbour-radio.example/">Harbour Radio</a></li></ul></div>
<div class="block"><h4>%s</h4>%s</div></div></div></div>
%s</body>
</html>
`, esc(m.partners), esc(l.recent), p.relatedList(5, false), p.appFooter())
	return b.String()
}

// ghost renders a Ghost blog post: a subscribe call inside the article,
// the author's card with accounts, a comment service.
func (p *page) ghost() string {
	l, a := p.l, p.a
	var b strings.Builder
	b.WriteString(p.head(`<link rel="stylesheet" href="/assets/built/screen.css?v=5c2b">
`))
	h := p.handle()
	fmt.Fprintf(&b, `<body class="post-template">
<div class="viewport"><header id="gh-head" class="gh-head"><a class="gh-head-logo" href="/">%s</a> %s <a href="#/portal/signin" data-portal="signin">%s</a> <a href="#/portal/signup" data-portal="signup">%s</a></header>
<div class="site-content"><main id="site-main" class="site-main">
<article class="article post">
<header class="article-header gh-canvas"><h1 class="article-title">%s</h1>
<div class="article-byline"><a href="/author/%s/">%s</a> <time datetime="%s">%s</time></div></header>
<section class="gh-content gh-canvas">
%s<div class="kg-card kg-cta-card"><h3>%s %s</h3><p>%s</p><a href="#/portal/signup">%s</a> <a href="https://eepurl.com/gH7kLm">RSS &amp; email</a></div>
<p class="kg-follow">%s</p>
</section>
<section class="article-author-card gh-canvas"><a href="/author/%s/">%s</a> <a href="https://mastodon.social/@%s">Mastodon</a> <a href="https://www.linkedin.com/in/%s">LinkedIn</a> <a href="https://bsky.app/profile/%s.example">Bluesky</a></section>
<section class="article-comments gh-canvas">%s</section>
</article>
<aside class="read-more-wrap"><div class="read-more-inner gh-inner"><h2>%s</h2>%s</div></aside>
</main></div>
<footer class="site-footer"><div class="inner">%s<a href="https://ghost.org/" target="_blank" rel="noopener">Powered by Ghost</a></div></footer></div>
</body>
</html>
`, esc(a.site), p.navLinks("nav"), esc(l.login), esc(l.subscribe), esc(a.title), slug(a.author), esc(a.author), esc(a.date), esc(a.date),
		p.body(), esc(moreLabels[a.lang].moreFrom), esc(a.site), esc(l.newsletter), esc(l.subscribe),
		strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(p.followBar("span", "x"), `<span class="x">`), "</span>\n")),
		slug(a.author), esc(a.author), h, h, h, p.commentWidget(), esc(l.readMore), p.relatedList(3, true), p.social())
	return b.String()
}

// jnews renders a post of a WordPress news theme (JNews-like): no <article>
// or <main>, an inline "also read" block, a Google News follow button, a
// donation box, a newsletter form's archive link, the author's box with
// accounts, tags, previous and next posts, a sidebar.
func (p *page) jnews() string {
	l, a := p.l, p.a
	var b strings.Builder
	b.WriteString(p.head(`<link rel="stylesheet" id="jnews-frontend-css" href="/wp-content/themes/jnews/assets/dist/frontend.min.css?ver=11.0.7" media="all">
`))
	h := p.handle()
	author := strings.ToLower(strings.ReplaceAll(a.author, " ", ""))
	fmt.Fprintf(&b, `<body class="post-template-default single single-post jeg_single_tpl_1 jnews">
<div class="jeg_viewport"><div class="jeg_header_wrapper"><div class="jeg_header normal"><div class="jeg_topbar"><a href="/">%s</a> %s <a href="/my-account/">%s</a></div></div></div>
<div class="post-wrapper"><div class="post-wrap"><div class="jeg_main"><div class="jeg_container"><div class="jeg_content jeg_singlepage"><div class="container"><div class="row">
<div class="jeg_main_content col-md-8"><div class="jeg_inner_content">
<div class="jeg_breadcrumbs jeg_breadcrumb_container"><div id="breadcrumbs"><span><a href="/">%s</a></span> <i class="fa fa-angle-right"></i> <span><a href="/category/%s/">%s</a></span></div></div>
<div class="entry-header"><h1 class="jeg_post_title">%s</h1>
<div class="jeg_meta_container"><div class="jeg_post_meta jeg_post_meta_1"><div class="meta_left"><div class="jeg_meta_author"><span class="meta_text">%s</span> <a href="/author/%s/">%s</a></div><div class="jeg_meta_date"><a href="%s">%s</a></div></div></div></div></div>
<div class="jeg_share_top_container"><div class="jeg_share_button clearfix"><div class="jeg_sharelist"><a href="http://www.facebook.com/sharer.php?u=%s" class="jeg_btn-facebook expanded">Facebook</a><a href="https://twitter.com/intent/tweet?text=x&amp;url=%s" class="jeg_btn-twitter expanded">X</a></div></div></div>
<div class="entry-content no-share"><div class="content-inner ">
`, esc(a.site), p.navLinks("jeg_menu"), esc(l.login), esc(l.home), slug(a.section), esc(a.section), esc(a.title), esc(l.by), slug(a.author), esc(a.author),
		esc(a.url), esc(a.date), url.QueryEscape(a.url), url.QueryEscape(a.url))
	for i, x := range a.blocks {
		b.WriteString(blocksHTML([]block{x}))
		if i == 0 && len(p.related) > 0 {
			fmt.Fprintf(&b, `<div class="jnews_inline_related_post_wrapper"><div class="jnews_inline_related_post"><div class="jeg_postblock_29 jeg_postblock"><div class="jeg_block_heading jeg_block_heading_6"><h3 class="jeg_block_title"><span>%s</span></h3></div><div class="jeg_block_container"><div class="jeg_posts">`, esc(l.related))
			for _, r := range p.related {
				fmt.Fprintf(&b, `<div class="jeg_postsmall jeg_pl_sm"><h3 class="jeg_post_title"><a href="%s">%s</a></h3></div>`, esc(r.url), esc(r.title))
			}
			b.WriteString("</div></div></div></div></div>\n")
		}
	}
	fmt.Fprintf(&b, `<div class="jeg_gnews_wrapper"><a class="jeg_gnews" href="https://news.google.com/publications/CAAqBwgKMMrBqAswoMzAAw?hl=%s&amp;gl=US&amp;ceid=US:%s" target="_blank">Google News</a></div>
<div class="wp-block-group support-box"><h4>Support independent local news</h4><p>%s relies on readers like you.</p><p><a href="https://www.patreon.com/%s">Become a member</a> or <a href="https://ko-fi.com/%s">buy us a coffee</a>.</p></div>
<div id="mc_embed_shell"><div id="mc_embed_signup"><form action="https://%s.us21.list-manage.com/subscribe/post?u=ab12&amp;id=cd34" method="post"><label>%s</label><input type="email" name="EMAIL"><input type="submit" value="%s"></form><a href="https://us21.campaign-archive.com/home/?u=ab12&amp;id=cd34">Past issues</a></div></div>
</div>
<div class="jeg_post_tags"><span>%s:</span> %s</div>
</div>
<div class="jeg_prevnext_post">%s</div>
<div class="jeg_authorbox"><div class="jeg_author_image"><img src="/wp-content/uploads/%s.jpg" alt=""></div><div class="jeg_author_content"><h3 class="jeg_author_name"><a href="/author/%s/">%s</a></h3><p class="jeg_author_desc">%s writes about %s for %s.</p><div class="jeg_author_socials"><a target="_blank" href="https://twitter.com/%s" class="twitter">X</a> <a target="_blank" href="https://www.linkedin.com/in/%s" class="linkedin">LinkedIn</a></div></div></div>
<div class="jnews_comment_container"><div id="comments" class="comment-wrapper"><h3 class="comments-title">%s</h3></div></div>
</div></div>
<div class="jeg_sidebar col-md-4"><div class="widget widget_jnews_module_block_21"><div class="jeg_block_heading"><h3>%s</h3></div>%s</div></div>
</div></div></div></div></div></div></div>
<div class="jeg_footer"><div class="jeg_footer_container">%s<div class="jeg_footer_social"><a href="https://www.facebook.com/%s" class="jeg_facebook">Facebook</a> <a href="https://twitter.com/%s" class="jeg_twitter">X</a></div><p class="copyright">© 2024 %s. Theme by <a href="https://jegtheme.com">Jegtheme</a>.</p></div></div>
</div>
</body>
</html>
`, a.lang, a.lang, esc(a.site), h, h, h, esc(l.newsletter), esc(l.newsletterButton), esc(l.tags), p.tagLinks(), p.prevNext(),
		slug(a.author), slug(a.author), esc(a.author), esc(a.author), esc(a.section), esc(a.site), author, author, esc(l.comments),
		esc(l.recent), p.relatedList(5, false), p.footerLinks(), h, h, esc(a.site))
	return b.String()
}

// substack renders a post of a newsletter platform (Substack-like): the
// subscribe widget and buttons inside the body, the author's profile on
// the platform, likes and comments, the publication's recommendations.
func (p *page) substack() string {
	l, a := p.l, p.a
	var b strings.Builder
	b.WriteString(p.head(""))
	root := "https://" + p.host()
	author := strings.ToLower(strings.ReplaceAll(a.author, " ", ""))
	fmt.Fprintf(&b, `<body><div id="entry"><div class="main-menu"><div class="topbar-content"><a href="%s/" class="navbar-title-link">%s</a> <a href="%s/subscribe?">%s</a> <a href="https://substack.com/sign-in?redirect=%%2Fp%%2Fx">%s</a></div></div>
<div class="single-post-container"><div class="container"><div class="single-post"><article class="typography newsletter-post post">
<div class="post-header" role="region" aria-label="Post header"><h1 class="post-title published" dir="auto">%s</h1>
<div class="post-meta"><div class="profile-hover-card-target"><a href="https://substack.com/@%s" class="pencraft">%s</a></div><div class="pencraft">%s</div></div>
<div class="post-ufi"><a class="post-ufi-button" href="%s/comments">12</a> <a class="post-ufi-button" href="%s?utm_source=substack&amp;utm_medium=email&amp;action=share">%s</a></div></div>
<div class="available-content"><div dir="auto" class="body markup">
`, root, esc(a.site), root, esc(l.subscribe), esc(l.login), esc(a.title), author, esc(a.author), esc(a.date), esc(a.url), esc(a.url), esc(l.share))
	for i, x := range a.blocks {
		b.WriteString(blocksHTML([]block{x}))
		if i == 1 {
			fmt.Fprintf(&b, `<div class="subscription-widget-wrap-editor"><div class="subscription-widget show-subscribe"><div class="preamble"><p class="cta-caption">Thanks for reading %s! Subscribe for free to receive new posts and support my work.</p></div><form class="subscription-widget-subscribe"><input type="email" class="email-input" name="email" placeholder="Type your email…"><input type="submit" class="button primary" value="%s"></form></div></div>
`, esc(a.site), esc(l.subscribe))
		}
	}
	fmt.Fprintf(&b, `<p class="button-wrapper"><a class="button primary" href="%s/subscribe?"><span>%s</span></a></p>
<p class="button-wrapper"><a class="button primary" href="%s?utm_source=substack&amp;utm_medium=email&amp;utm_content=share&amp;action=share"><span>%s</span></a></p>
</div></div>
<div class="post-footer"><a href="%s/comments">%s</a> <a href="https://substack.com/app-link/post?publication_id=123&amp;post_id=456">Restack</a></div>
</article>
<div class="recommendations-section"><h3>Recommendations from %s</h3><ul>
<li><a href="https://quietcorners.substack.example/">Quiet Corners</a> <span>Essays on slow living</span></li>
<li><a href="https://www.paperandink.example/">Paper &amp; Ink</a> <span>A weekly letter about stationery</span></li></ul></div>
<div class="comments-page"><h4>Discussion about this post</h4><div class="comment"><a href="https://substack.com/profile/9876-reader">Alex Reader</a><p>Lovely piece, thank you.</p></div></div>
<div class="footer-cta"><h3>Ready for more?</h3><a href="%s/subscribe?">%s</a></div>
</div></div></div>
<div class="footer-wrap"><a href="https://substack.com/privacy">Privacy</a> <a href="https://substack.com/tos">Terms</a> <a href="https://substack.com/signup?utm_source=substack&amp;utm_medium=web&amp;utm_content=footer">Start writing</a> <a href="https://substack.com/app/app-store-redirect?utm_campaign=app-marketing">Get the app</a> <span>Substack is the home for great culture</span></div>
</div></body>
</html>
`, root, esc(l.subscribe), esc(a.url), esc(l.share), esc(a.url), esc(l.comments), esc(a.site), root, esc(l.subscribe))
	return b.String()
}
