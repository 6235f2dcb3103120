package main

import (
	"fmt"
	"html"
	"net/url"
	"strings"
)

// A page is an article rendered by the publishing system its template
// models, with the chrome that system puts around it in the article's
// language, the other articles of that language standing in for the
// related stories, recent posts and most-read lists.
type page struct {
	a       *article
	l       labels
	related []*article
}

var esc = html.EscapeString

// render returns the page's HTML.
func (p *page) render() string {
	switch p.a.tmpl {
	case "wordpress":
		return p.wordpress()
	case "news":
		return p.news()
	case "blogger":
		return p.blogger()
	case "medium":
		return p.medium()
	case "forum":
		return p.forum()
	case "docs":
		return p.docs()
	case "gov":
		return p.gov()
	case "drupal":
		return p.drupal()
	case "shop":
		return p.shop()
	case "legacy":
		return p.legacy()
	case "arc":
		return p.arc()
	case "brprose":
		return p.brprose()
	case "short":
		return p.short()
	case "ghost":
		return p.ghost()
	case "jnews":
		return p.jnews()
	case "substack":
		return p.substack()
	}
	panic("maintext: no template " + p.a.tmpl) // parseArticle checked it
}

func (p *page) host() string {
	u, err := url.Parse(p.a.url)
	if err != nil {
		return "example.org"
	}
	return u.Host
}

// href returns a link of the page's own site.
func (p *page) href(path string) string { return "https://" + p.host() + path }

// slug returns a path segment for a title.
func slug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == ' ' || r == '-':
			b.WriteByte('-')
		}
	}
	if b.Len() == 0 {
		return fmt.Sprintf("p%d", len(s))
	}
	return strings.Trim(b.String(), "-")
}

// teaser returns the first sentence of an article, as lists of related
// stories show it.
func teaser(a *article) string {
	t := a.MainText()
	for _, stop := range []string{". ", "。", "! ", "? "} {
		if i := strings.Index(t, stop); i > 0 && i < 300 {
			return t[:i+len(stop)]
		}
	}
	if r := []rune(t); len(r) > 120 {
		return string(r[:120]) + "…"
	}
	return t
}

func (p *page) articleURL(a *article) string { return a.url }

// relatedList renders the other articles as a list of links with teasers.
func (p *page) relatedList(n int, withTeaser bool) string {
	var b strings.Builder
	b.WriteString("<ul>\n")
	for i, r := range p.related {
		if i == n {
			break
		}
		fmt.Fprintf(&b, `<li><a href="%s">%s</a>`, esc(p.articleURL(r)), esc(r.title))
		if withTeaser {
			fmt.Fprintf(&b, ` <p class="teaser">%s</p>`, esc(teaser(r)))
		}
		b.WriteString("</li>\n")
	}
	b.WriteString("</ul>\n")
	return b.String()
}

func (p *page) navLinks(class string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<ul class="%s"><li><a href="/">%s</a></li>`, class, esc(p.l.home))
	for _, s := range p.l.sections {
		fmt.Fprintf(&b, `<li><a href="/%s/">%s</a></li>`, slug(s), esc(s))
	}
	b.WriteString("</ul>\n")
	return b.String()
}

func (p *page) footerLinks() string {
	var b strings.Builder
	b.WriteString(`<ul class="footer-links">`)
	for _, f := range p.l.footer {
		fmt.Fprintf(&b, `<li><a href="/%s">%s</a></li>`, slug(f), esc(f))
	}
	b.WriteString("</ul>\n")
	return b.String()
}

func (p *page) shareLinks() string {
	u := url.QueryEscape(p.a.url)
	return fmt.Sprintf(`<div class="share-buttons"><span>%s</span>
<a class="share-twitter" href="https://twitter.com/intent/tweet?url=%s">Twitter</a>
<a class="share-facebook" href="https://www.facebook.com/sharer/sharer.php?u=%s">Facebook</a>
<a class="share-linkedin" href="https://www.linkedin.com/shareArticle?mini=true&amp;url=%s">LinkedIn</a>
<a class="share-email" href="mailto:?subject=%s&amp;body=%s">Email</a>
<a class="print" href="javascript:window.print()">%s</a></div>
`, esc(p.l.share), u, u, u, url.PathEscape(p.a.title), u, esc(p.l.print))
}

func (p *page) social() string {
	h := strings.ReplaceAll(strings.TrimPrefix(p.host(), "www."), ".", "")
	return fmt.Sprintf(`<div class="social"><span>%s</span> <a href="https://twitter.com/%s">Twitter</a> <a href="https://www.facebook.com/%s">Facebook</a> <a href="https://www.instagram.com/%s">Instagram</a> <a href="https://www.youtube.com/@%s">YouTube</a> <a href="/feed/">RSS</a></div>
`, esc(p.l.follow), h, h, h, h)
}

func (p *page) cookieBanner(id string) string {
	return fmt.Sprintf(`<div id="%s" class="cookie-consent" role="dialog" aria-live="polite"><div class="cookie-text"><p>%s</p></div>
<div class="cookie-actions"><button class="accept">%s</button> <button class="reject">%s</button> <a href="/cookie-policy">%s</a></div></div>
`, id, esc(p.l.cookie), esc(p.l.accept), esc(p.l.refuse), esc(p.l.settings))
}

func (p *page) head(extra string) string {
	return fmt.Sprintf(`<!DOCTYPE html>
<html lang="%s">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%s | %s</title>
<meta name="description" content="%s">
<meta property="og:title" content="%s">
<meta property="og:type" content="article">
<meta property="og:url" content="%s">
<link rel="canonical" href="%s">
<link rel="stylesheet" href="/assets/css/main.css?v=3.2.1">
<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag('js',new Date());gtag('config','G-XYZ123');</script>
%s</head>
`, p.a.lang, esc(p.a.title), esc(p.a.site), esc(teaser(p.a)), esc(p.a.title), esc(p.a.url), esc(p.a.url), extra)
}

func (p *page) body() string { return blocksHTML(p.a.blocks) }

func (p *page) wordpress() string {
	l, a := p.l, p.a
	var b strings.Builder
	b.WriteString(p.head(`<link rel="stylesheet" id="wp-block-library-css" href="/wp-includes/css/dist/block-library/style.min.css?ver=6.4.2" media="all">
`))
	fmt.Fprintf(&b, `<body class="post-template-default single single-post postid-%d single-format-standard">
<a class="skip-link screen-reader-text" href="#content">Skip to content</a>
<div id="page" class="site">
<header id="masthead" class="site-header">
<div class="site-branding"><p class="site-title"><a href="/" rel="home">%s</a></p><p class="site-description">%s</p></div>
<nav id="site-navigation" class="main-navigation"><button class="menu-toggle">%s</button>
<div class="menu-primary-container">%s</div></nav>
</header>
<div id="content" class="site-content">
<div id="primary" class="content-area"><main id="main" class="site-main">
<article id="post-%d" class="post type-post status-publish format-standard hentry">
<header class="entry-header"><h1 class="entry-title">%s</h1>
<div class="entry-meta"><span class="posted-on"><a href="%s" rel="bookmark"><time class="entry-date published" datetime="%sT09:12:00+00:00">%s</time></a></span> <span class="byline">%s <span class="author vcard"><a class="url fn n" href="/author/%s/">%s</a></span></span></div>
</header>
<div class="entry-content">
%s<div class="sharedaddy sd-sharing-enabled"><div class="robots-nocontent sd-block sd-social sd-social-icon-text sd-sharing"><h3 class="sd-title">%s</h3><div class="sd-content"><ul>
<li class="share-twitter"><a rel="nofollow noopener noreferrer" class="share-twitter sd-button share-icon" href="%s?share=twitter&amp;nb=1" target="_blank"><span>Twitter</span></a></li>
<li class="share-facebook"><a rel="nofollow noopener noreferrer" class="share-facebook sd-button share-icon" href="%s?share=facebook&amp;nb=1" target="_blank"><span>Facebook</span></a></li>
<li class="share-email"><a rel="nofollow noopener noreferrer" class="share-email sd-button share-icon" href="%s?share=email&amp;nb=1" target="_blank"><span>Email</span></a></li>
</ul></div></div></div>
<div class="jp-relatedposts" id="jp-relatedposts"><h3 class="jp-relatedposts-headline"><em>%s</em></h3>%s</div>
</div>
<footer class="entry-footer"><span class="cat-links">%s: <a href="/category/%s/" rel="category tag">%s</a></span> <span class="tags-links">%s: %s</span></footer>
</article>
<nav class="navigation post-navigation" aria-label="Posts"><div class="nav-links">%s</div></nav>
`, len(a.title)*37, esc(a.site), esc(l.newsletter), esc(l.menu), p.navLinks("menu"), len(a.title)*37,
		esc(a.title), esc(a.url), esc(a.date), esc(a.date), esc(l.by), slug(a.author), esc(a.author),
		p.body(), esc(l.share), esc(a.url), esc(a.url), esc(a.url), esc(l.related), p.relatedList(3, false),
		esc(l.categories), slug(a.section), esc(a.section), esc(l.tags), p.tagLinks(), p.prevNext())
	p.comments(&b)
	fmt.Fprintf(&b, `</main></div>
<aside id="secondary" class="widget-area">
<section id="search-2" class="widget widget_search"><form role="search" method="get" class="search-form" action="/"><label><span class="screen-reader-text">%s</span><input type="search" class="search-field" placeholder="%s …" name="s"></label><input type="submit" class="search-submit" value="%s"></form></section>
<section id="recent-posts-2" class="widget widget_recent_entries"><h2 class="widget-title">%s</h2>%s</section>
<section id="archives-2" class="widget widget_archive"><h2 class="widget-title">%s</h2><ul><li><a href="/2024/05/">2024-05</a></li><li><a href="/2024/04/">2024-04</a></li><li><a href="/2024/03/">2024-03</a></li><li><a href="/2024/02/">2024-02</a></li><li><a href="/2023/12/">2023-12</a></li></ul></section>
<section id="categories-2" class="widget widget_categories"><h2 class="widget-title">%s</h2>%s</section>
<section id="meta-2" class="widget widget_meta"><h2 class="widget-title">Meta</h2><ul><li><a href="/wp-login.php">%s</a></li><li><a href="/feed/">Entries feed</a></li><li><a href="/comments/feed/">Comments feed</a></li><li><a href="https://wordpress.org/">WordPress.org</a></li></ul></section>
</aside>
</div>
<footer id="colophon" class="site-footer">%s<div class="site-info"><a href="https://wordpress.org/">Proudly powered by WordPress</a> <span class="sep"> | </span> Theme: Twenty Seventeen.</div></footer>
</div>
<script src="/wp-includes/js/jquery/jquery.min.js?ver=3.7.1" id="jquery-core-js"></script>
</body>
</html>
`, esc(l.search), esc(l.search), esc(l.search), esc(l.recent), p.relatedList(5, false), esc(l.archives), esc(l.categories),
		p.navLinks("cat-list"), esc(l.login), p.social())
	return b.String()
}

func (p *page) tagLinks() string {
	var ts []string
	for _, t := range p.a.tags {
		ts = append(ts, fmt.Sprintf(`<a href="/tag/%s/" rel="tag">%s</a>`, slug(t), esc(t)))
	}
	return strings.Join(ts, ", ")
}

func (p *page) prevNext() string {
	var b strings.Builder
	if len(p.related) > 0 {
		fmt.Fprintf(&b, `<div class="nav-previous"><a href="%s" rel="prev"><span class="meta-nav">%s</span> %s</a></div>`, esc(p.related[0].url), esc(p.l.previous), esc(p.related[0].title))
	}
	if len(p.related) > 1 {
		fmt.Fprintf(&b, `<div class="nav-next"><a href="%s" rel="next"><span class="meta-nav">%s</span> %s</a></div>`, esc(p.related[1].url), esc(p.l.next), esc(p.related[1].title))
	}
	return b.String()
}

// comments renders the readers' comments and the reply form.
func (p *page) comments(b *strings.Builder) {
	l := p.l
	fmt.Fprintf(b, `<div id="comments" class="comments-area">`)
	if len(p.a.comments) > 0 {
		fmt.Fprintf(b, `<h2 class="comments-title">%d %s</h2><ol class="comment-list">`, len(p.a.comments), esc(l.comments))
		for i, c := range p.a.comments {
			fmt.Fprintf(b, `<li id="comment-%d" class="comment"><article class="comment-body"><footer class="comment-meta"><div class="comment-author vcard"><img alt="" src="https://secure.gravatar.com/avatar/%x?s=32&amp;d=mm" class="avatar" height="32" width="32"><b class="fn">%s</b></div><div class="comment-metadata"><a href="%s#comment-%d"><time>%s</time></a></div></footer>
<div class="comment-content">%s</div><div class="reply"><a rel="nofollow" class="comment-reply-link" href="#comment-%d">%s</a></div></article></li>
`, 100+i, len(c.author)*7919, esc(c.author), esc(p.a.url), 100+i, esc(p.a.date), blocksHTML(c.blocks), 100+i, esc(l.reply))
		}
		b.WriteString("</ol>")
	}
	fmt.Fprintf(b, `<div id="respond" class="comment-respond"><h3 id="reply-title" class="comment-reply-title">%s</h3><form action="/wp-comments-post.php" method="post" id="commentform" class="comment-form"><p class="comment-form-comment"><label for="comment">%s</label><textarea id="comment" name="comment"></textarea></p><p class="comment-form-author"><label for="author">%s</label><input id="author" name="author" type="text"></p><p class="comment-form-email"><label for="email">%s</label><input id="email" name="email" type="email"></p><p class="form-submit"><input name="submit" type="submit" id="submit" class="submit" value="%s"></p></form></div></div>
`, esc(l.leaveReply), esc(l.comments), esc(l.name), esc(l.email), esc(l.postComment))
}

func (p *page) news() string {
	l, a := p.l, p.a
	var b strings.Builder
	b.WriteString(p.head(`<script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle"}</script>
`))
	b.WriteString(`<body class="article-page">` + "\n")
	b.WriteString(p.cookieBanner("onetrust-banner-sdk"))
	fmt.Fprintf(&b, `<div class="top-bar"><span class="today">%s</span> <a href="/account/login">%s</a> <a class="btn-subscribe" href="/subscribe">%s</a></div>
<header class="masthead"><a class="logo" href="/"><img src="/static/logo.svg" alt="%s"></a><form class="search" action="/search"><input name="q" placeholder="%s"></form></header>
<nav class="mega-nav" aria-label="Sections">
`, esc(a.date), esc(l.login), esc(l.subscribe), esc(a.site), esc(l.search))
	for i, s := range l.sections {
		fmt.Fprintf(&b, `<div class="mega-item"><a class="mega-top" href="/%s/">%s</a><div class="mega-panel"><ul>`, slug(s), esc(s))
		for j := range 4 {
			o := l.sections[(i+j+1)%len(l.sections)]
			fmt.Fprintf(&b, `<li><a href="/%s/%s/">%s · %s</a></li>`, slug(s), slug(o), esc(s), esc(o))
		}
		if len(p.related) > 0 {
			r := p.related[i%len(p.related)]
			fmt.Fprintf(&b, `</ul><div class="mega-feature"><a href="%s">%s</a></div></div></div>`+"\n", esc(r.url), esc(r.title))
		} else {
			b.WriteString("</ul></div></div>\n")
		}
	}
	b.WriteString("</nav>\n")
	if len(p.related) > 0 {
		fmt.Fprintf(&b, `<div class="ticker"><strong>Live</strong> <a href="%s">%s</a></div>`+"\n", esc(p.related[0].url), esc(p.related[0].title))
	}
	fmt.Fprintf(&b, `<div class="ad-slot ad-leaderboard"><span>Advertisement</span><div id="div-gpt-ad-1"></div></div>
<main id="main-content"><div class="layout">
<article class="article">
<header class="article-header"><a class="kicker" href="/%s/">%s</a><h1 class="headline">%s</h1>
<div class="meta"><span class="author">%s <a href="/authors/%s">%s</a></span> <time datetime="%s">%s</time> <span class="read-time">5 %s</span></div>
%s</header>
<figure class="lead-image"><img src="https://cdn.%s/images/%s.jpg" alt="" width="1200" height="675"></figure>
<div class="article-body">
`, slug(a.section), esc(a.section), esc(a.title), esc(l.by), slug(a.author), esc(a.author), esc(a.date), esc(a.date), esc(l.minRead), p.shareLinks(), p.host(), slug(a.title))
	half := len(a.blocks) / 2
	b.WriteString(blocksHTML(a.blocks[:half]))
	if len(p.related) > 1 {
		fmt.Fprintf(&b, `<aside class="inline-related"><span>%s</span> <a href="%s">%s</a></aside>
<div class="ad-slot ad-inarticle"><span>Advertisement</span></div>
`, esc(l.readMore), esc(p.related[1].url), esc(p.related[1].title))
	}
	b.WriteString(blocksHTML(a.blocks[half:]))
	fmt.Fprintf(&b, `</div>
<div class="paywall-teaser"><p>%s</p><a class="btn" href="/subscribe?utm_source=paywall">%s</a> <a href="/account/login">%s</a></div>
<div class="article-tags">%s: %s</div>
%s</article>
<aside class="rail"><section class="most-read"><h2>%s</h2>%s</section>
<section class="newsletter"><p>%s</p><form><input type="email" placeholder="%s"><button>%s</button></form></section>
<div class="ad-slot ad-mpu"><span>Advertisement</span></div></aside>
</div>
<section class="related-stories"><h2>%s</h2>%s</section>
<section class="comments-cta"><a href="#comments">%s (27)</a></section>
</main>
<footer class="site-footer"><nav>%s</nav>%s%s<p class="copyright">© 2024 %s. %s</p></footer>
<script src="/static/app.js" defer></script>
</body>
</html>
`, esc(l.paywall), esc(l.subscribe), esc(l.login), esc(l.tags), p.tagLinks(), p.shareLinks(),
		esc(l.related), p.relatedList(5, false), esc(l.newsletter), esc(l.email), esc(l.newsletterButton),
		esc(l.related), p.relatedList(4, true), esc(l.comments), p.navLinks("footer-sections"), p.footerLinks(), p.social(), esc(a.site), esc(l.rights))
	return b.String()
}

func (p *page) blogger() string {
	l, a := p.l, p.a
	var b strings.Builder
	b.WriteString(p.head(`<link type="text/css" rel="stylesheet" href="https://www.blogger.com/static/v1/widgets/2975350028-css_bundle_v2.css">
`))
	fmt.Fprintf(&b, `<body class="variant-simple">
<div class="navbar section" id="navbar"><div class="widget Navbar" id="Navbar1"><iframe src="https://www.blogger.com/navbar.g?targetBlogID=123" height="30" title="Blogger"></iframe></div></div>
<div class="outer-wrapper"><div class="header-outer"><div class="Header widget" id="Header1"><h1 class="title"><a href="/">%s</a></h1><p class="description">%s</p></div></div>
<div class="tabs-outer"><div class="PageList widget" id="PageList1">%s</div></div>
<div class="main-outer"><div class="main section" id="main"><div class="widget Blog" id="Blog1"><div class="blog-posts hfeed">
<div class="date-outer"><h2 class="date-header"><span>%s</span></h2>
<div class="post-outer"><div class="post hentry uncustomized-post-template" itemscope itemtype="http://schema.org/BlogPosting">
<a name="1234567890"></a><h3 class="post-title entry-title" itemprop="name">%s</h3>
<div class="post-header"><div class="post-header-line-1"></div></div>
<div class="post-body entry-content" id="post-body-1234567890" itemprop="description articleBody">
%s<div style="clear: both;"></div></div>
<div class="post-footer"><div class="post-footer-line post-footer-line-1"><span class="post-author vcard">Posted by <span class="fn" itemprop="author">%s</span></span> <span class="post-timestamp">at <a class="timestamp-link" href="%s" rel="bookmark">%s</a></span> <span class="post-comment-link"><a class="comment-link" href="%s#comment-form">%d %s</a></span></div>
<div class="post-share-buttons goog-inline-block"><a class="goog-inline-block share-button sb-email" href="https://www.blogger.com/share-post.g?blogID=123&amp;postID=1234567890&amp;target=email" target="_blank">Email This</a><a class="goog-inline-block share-button sb-blog" href="https://www.blogger.com/share-post.g?blogID=123&amp;postID=1234567890&amp;target=blog" target="_blank">BlogThis!</a><a class="goog-inline-block share-button sb-twitter" href="https://www.blogger.com/share-post.g?blogID=123&amp;postID=1234567890&amp;target=twitter" target="_blank">Share to X</a><a class="goog-inline-block share-button sb-facebook" href="https://www.blogger.com/share-post.g?blogID=123&amp;postID=1234567890&amp;target=facebook" target="_blank">Share to Facebook</a><a class="goog-inline-block share-button sb-pinterest" href="https://www.blogger.com/share-post.g?blogID=123&amp;postID=1234567890&amp;target=pinterest" target="_blank">Share to Pinterest</a></div>
<div class="post-footer-line post-footer-line-2"><span class="post-labels">Labels: %s</span></div></div>
</div>
<div class="comments" id="comments"><a name="comments"></a><h4>%d %s:</h4><div class="comments-content">
`, esc(a.site), esc(l.newsletter), p.navLinks("tabs"), esc(a.date), esc(a.title), p.body(),
		esc(a.author), esc(a.url), esc(a.date), esc(a.url), len(a.comments), esc(l.comments), p.tagLinks(), len(a.comments), esc(l.comments))
	for _, c := range a.comments {
		fmt.Fprintf(&b, `<div class="comment-block"><div class="comment-header"><cite class="user"><a href="https://www.blogger.com/profile/0001">%s</a></cite><span class="datetime secondary-text">%s</span></div><p class="comment-content">%s</p><span class="comment-actions secondary-text"><a class="comment-reply" target="_self">%s</a></span></div>
`, esc(c.author), esc(a.date), esc(plain(blocksText(c.blocks))), esc(l.reply))
	}
	fmt.Fprintf(&b, `</div><p class="comment-footer"><a href="https://www.blogger.com/comment/fullpage/post/123/1234567890" onclick="">Post a Comment</a></p></div>
</div></div>
<div class="blog-pager" id="blog-pager"><span id="blog-pager-newer-link"><a class="blog-pager-newer-link" href="/">Newer Post</a></span> <span id="blog-pager-older-link"><a class="blog-pager-older-link" href="/">Older Post</a></span> <a class="home-link" href="/">%s</a></div>
<div class="post-feeds"><div class="feed-links">Subscribe to: <a class="feed-link" href="/feeds/posts/default" type="application/atom+xml">Post Comments (Atom)</a></div></div>
</div></div></div></div>
<div class="sidebar-outer"><div class="sidebar section" id="sidebar-right-1">
<div class="widget Profile" id="Profile1"><h2>About Me</h2><div class="widget-content"><a href="https://www.blogger.com/profile/0001"><img class="profile-img" height="80" src="//blogger.googleusercontent.com/img/b/R29vZ2xl/avatar.jpg" width="80" alt="My photo"></a><dl class="profile-datablock"><dt class="profile-data"><a class="profile-name-link g-profile" href="https://www.blogger.com/profile/0001" rel="author">%s</a></dt></dl><a class="profile-link" href="https://www.blogger.com/profile/0001" rel="author">View my complete profile</a></div></div>
<div class="widget PopularPosts" id="PopularPosts1"><h2>Popular Posts</h2><div class="widget-content popular-posts">%s</div></div>
<div class="widget BlogArchive" id="BlogArchive1"><h2>Blog Archive</h2><div class="widget-content"><ul class="hierarchy"><li class="archivedate expanded"><a class="toggle" href="javascript:void(0)">▼</a> <a class="post-count-link" href="/2024/">2024</a> <span class="post-count">(14)</span></li><li class="archivedate collapsed"><a class="toggle" href="javascript:void(0)">►</a> <a class="post-count-link" href="/2023/">2023</a> <span class="post-count">(31)</span></li><li class="archivedate collapsed"><a class="toggle" href="javascript:void(0)">►</a> <a class="post-count-link" href="/2022/">2022</a> <span class="post-count">(27)</span></li></ul></div></div>
<div class="widget Followers" id="Followers1"><h2 class="title">Followers</h2></div>
<div class="widget Attribution" id="Attribution1"><div class="widget-content">Powered by <a href="https://www.blogger.com" target="_blank">Blogger</a>.</div></div>
</div></div>
</div>
</body>
</html>
`, esc(l.home), esc(a.author), p.relatedList(4, true))
	return b.String()
}

func (p *page) medium() string {
	l, a := p.l, p.a
	var b strings.Builder
	b.WriteString(p.head(""))
	fmt.Fprintf(&b, `<body><div id="root"><div class="a b c">
<div class="metabar"><a href="/" aria-label="Homepage"><svg width="112" height="25"></svg></a> <a href="/search">%s</a> <a href="https://medium.com/m/signin?operation=register">Sign up</a> <a href="https://medium.com/m/signin">%s</a> <a href="https://rsci.app.link/?%%24canonical_url=%s">Open in app</a></div>
<div class="banner"><p>Member-only story</p></div>
<main><article><div class="l"><section>
<div class="pw-post-body-paragraph"><h1 class="pw-post-title" data-testid="storyTitle">%s</h1>
<div class="speechify-ignore"><div class="author"><a href="/@%s" rel="noopener follow"><img alt="%s" src="https://miro.medium.com/v2/resize:fill:88:88/avatar.jpg" width="44" height="44"></a> <div><a href="/@%s">%s</a> <span>·</span> <button>Follow</button></div><div><span data-testid="storyReadTime">7 %s</span> <span>·</span> <span data-testid="storyPublishDate">%s</span></div></div>
<div class="clap-bar"><button aria-label="clap">412</button> <button aria-label="responses">9</button> <button aria-label="Add to list">Save</button> <button aria-label="Listen">Listen</button> <button aria-label="Share">%s</button></div></div>
%s</div>
</section></div></article>
<div class="post-footer"><div class="tags">%s</div><div class="clap-bar"><button aria-label="clap">412</button> <button aria-label="responses">9</button></div>
<div class="written-by"><h2>Written by %s</h2><p>2.1K Followers</p><button>Follow</button></div>
<div class="more-from"><h2>More from %s</h2>%s<a href="/@%s">See all from %s</a></div>
<div class="recommended"><h2>Recommended from Medium</h2>%s<a href="/">See more recommendations</a></div></div>
</main>
<footer><a href="https://help.medium.com/">Help</a> <a href="https://medium.statuspage.io/">Status</a> <a href="https://medium.com/about">About</a> <a href="https://medium.com/jobs-at-medium">Careers</a> <a href="https://medium.com/press">Press</a> <a href="https://blog.medium.com/">Blog</a> <a href="https://policy.medium.com/privacy">Privacy</a> <a href="https://policy.medium.com/terms">Terms</a> <a href="https://speechify.com/medium">Text to speech</a> <a href="https://medium.com/business">Teams</a></footer>
</div></div>
<script>window.__APOLLO_STATE__ = {"ROOT_QUERY":{"__typename":"Query"}}</script>
</body>
</html>
`, esc(l.search), esc(l.login), url.QueryEscape(a.url), esc(a.title), slug(a.author), esc(a.author), slug(a.author), esc(a.author),
		esc(l.minRead), esc(a.date), esc(l.share), p.body(), p.tagLinks(), esc(a.author), esc(a.author), p.relatedList(4, true),
		slug(a.author), esc(a.author), p.relatedList(3, true))
	return b.String()
}

func (p *page) forum() string {
	l, a := p.l, p.a
	var b strings.Builder
	b.WriteString(p.head(`<link href="./styles/prosilver/theme/stylesheet.css?assets_version=42" rel="stylesheet">
`))
	fmt.Fprintf(&b, `<body id="phpbb" class="section-viewtopic ltr">
<div id="wrap" class="wrap"><a id="top" class="top-anchor" accesskey="t"></a>
<div id="page-header"><div class="headerbar" role="banner"><div class="inner"><div id="site-description" class="site-description"><a id="logo" class="logo" href="./index.php"><span class="site_logo"></span></a><h1>%s</h1><p>%s</p></div>
<div id="search-box" class="search-box search-header" role="search"><form action="./search.php" method="get" id="search"><input name="keywords" id="keywords" type="search" maxlength="128" class="inputbox search tiny" placeholder="%s…"><button class="button button-search" type="submit">%s</button></form></div></div></div>
<div class="navbar" role="navigation"><ul id="nav-main" class="nav-main linklist"><li><a href="/app.php/help/faq" rel="help">FAQ</a></li><li><a href="./memberlist.php">Members</a></li><li><a href="./ucp.php?mode=register">Register</a></li><li><a href="./ucp.php?mode=login">%s</a></li></ul>
<ul id="nav-breadcrumbs" class="nav-breadcrumbs linklist navlinks"><li class="breadcrumbs"><span class="crumb"><a href="./index.php" accesskey="h">%s</a></span> <span class="crumb"><a href="./viewforum.php?f=12">%s</a></span></li></ul></div></div>
<div id="page-body" class="page-body" role="main">
<h2 class="topic-title"><a href="%s">%s</a></h2>
<div class="action-bar bar-top"><a href="./posting.php?mode=reply&amp;t=4521" class="button"><span>Post Reply</span></a> <div class="pagination">%d posts • Page <strong>1</strong> of <strong>1</strong></div></div>
`, esc(a.site), esc(l.newsletter), esc(l.search), esc(l.search), esc(l.login), esc(l.home), esc(a.section), esc(a.url), esc(a.title), len(a.posts))
	for i, po := range a.posts {
		fmt.Fprintf(&b, `<div id="p%d" class="post has-profile bg%d"><div class="inner">
<dl class="postprofile" id="profile%d"><dt class="has-profile-rank no-avatar"><a href="./memberlist.php?mode=viewprofile&amp;u=%d" class="username">%s</a></dt><dd class="profile-rank">Regular member</dd><dd class="profile-posts"><strong>%s:</strong> <a href="./search.php?author_id=%d&amp;sr=posts">%d</a></dd><dd class="profile-joined"><strong>%s:</strong> 2019-03-14</dd></dl>
<div class="postbody"><div id="post_content%d"><h3><a href="#p%d">Re: %s</a></h3>
<p class="author"><a class="unread" href="./viewtopic.php?p=%d#p%d" title="Post"><i class="icon fa-file fa-fw"></i></a><span class="responsive-hide">by <strong><a href="./memberlist.php?mode=viewprofile&amp;u=%d" class="username">%s</a></strong> » </span>%s</p>
<ul class="post-buttons"><li><a href="./posting.php?mode=quote&amp;p=%d" title="Reply with quote" class="button button-icon-only"><span>Quote</span></a></li></ul>
<div class="content">%s</div>
<div id="sig%d" class="signature">%s — %s</div>
</div></div><div class="back2top"><a href="#top" class="top" title="Top">%s</a></div></div></div>
<hr class="divider">
`, 9000+i, i%2+1, 9000+i, 40+i, esc(po.author), esc(l.posts), 40+i, 17+i*131, esc(l.joined), 9000+i, 9000+i, esc(a.title), 9000+i, 9000+i, 40+i, esc(po.author), esc(a.date),
			9000+i, blocksHTML(po.blocks), 9000+i, esc(po.author), esc(a.site), esc(l.top))
	}
	fmt.Fprintf(&b, `<div class="action-bar bar-bottom"><a href="./posting.php?mode=reply&amp;t=4521" class="button"><span>Post Reply</span></a></div>
<div class="action-bar actions-jump"><p class="jumpbox-return"><a href="./viewforum.php?f=12" class="left-box arrow-left" accesskey="r"><span>Return to “%s”</span></a></p>
<div class="jumpbox dropdown-container"><span>Jump to</span><ul class="dropdown-contents">%s</ul></div></div>
<div class="stat-block online-list"><h3>Who is online</h3><p>Users browsing this forum: No registered users and 4 guests</p></div>
<div class="stat-block"><h3>%s</h3>%s</div>
</div>
<div id="page-footer" class="page-footer" role="contentinfo"><div class="navbar" role="navigation"><ul id="nav-footer" class="nav-footer linklist"><li><a href="./index.php">Board index</a></li><li><a href="./ucp.php?mode=delete_cookies">Delete cookies</a></li><li>All times are UTC+01:00</li></ul></div>
<div class="copyright"><p class="footer-row"><span class="footer-copyright">Powered by <a href="https://www.phpbb.com/">phpBB</a>® Forum Software © phpBB Limited</span></p><p class="footer-row"><a class="footer-link" href="./ucp.php?mode=privacy">Privacy</a> | <a class="footer-link" href="./ucp.php?mode=terms">Terms</a></p></div></div>
</div>
</body>
</html>
`, esc(a.section), p.navLinks("jump"), esc(l.related), p.relatedList(5, false))
	return b.String()
}

func (p *page) docs() string {
	l, a := p.l, p.a
	var b strings.Builder
	b.WriteString(p.head(`<link rel="stylesheet" href="/assets/stylesheets/main.6f8fc17f.min.css">
`))
	fmt.Fprintf(&b, `<body dir="ltr" data-md-color-scheme="default">
<input class="md-toggle" data-md-toggle="drawer" type="checkbox" id="__drawer">
<a href="#main" class="md-skip">Skip to content</a>
<div data-md-component="announce"><aside class="md-banner"><div class="md-banner__inner">Version 3.0 is out: see the <a href="/changelog/">changelog</a>.</div></aside></div>
<header class="md-header"><nav class="md-header__inner md-grid"><a href="/" class="md-header__button md-logo">%s</a> <div class="md-header__title">%s</div>
<div class="md-version"><button>v3.0</button><ul><li><a href="/3.0/">3.0 (latest)</a></li><li><a href="/2.8/">2.8</a></li><li><a href="/2.7/">2.7</a></li></ul></div>
<form class="md-search__form" name="search"><input type="text" class="md-search__input" name="query" placeholder="%s"></form>
<div class="md-header__source"><a href="https://github.com/example/%s" class="md-source">GitHub · 4.2k ★</a></div></nav></header>
<div class="md-container"><main class="md-main"><div class="md-main__inner md-grid">
<div class="md-sidebar md-sidebar--primary" data-md-type="navigation"><nav class="md-nav md-nav--primary"><ul class="md-nav__list">
`, esc(a.site), esc(a.site), esc(l.search), slug(a.site))
	for i, s := range []string{"Getting started", "Installation", "Configuration", "Command line", "Storage", "Backups", "Scheduling", "Logging", "Security", "Upgrading", "Troubleshooting", "FAQ", "API reference", "Changelog", "Contributing"} {
		fmt.Fprintf(&b, `<li class="md-nav__item"><a href="/%s/" class="md-nav__link">%d. %s</a></li>`+"\n", slug(s), i+1, s)
	}
	fmt.Fprintf(&b, `</ul></nav></div>
<div class="md-sidebar md-sidebar--secondary" data-md-type="toc"><nav class="md-nav md-nav--secondary"><label class="md-nav__title">%s</label><ul class="md-nav__list">`, esc(l.onThisPage))
	for _, x := range a.blocks {
		if x.kind == "h2" {
			fmt.Fprintf(&b, `<li class="md-nav__item"><a href="#%s" class="md-nav__link">%s</a></li>`, slug(plain(x.text)), esc(plain(x.text)))
		}
	}
	fmt.Fprintf(&b, `</ul></nav></div>
<div class="md-content" data-md-component="content"><article class="md-content__inner md-typeset">
<a href="https://github.com/example/%s/edit/main/docs/%s.md" title="%s" class="md-content__button md-icon">✎</a>
<nav class="md-path"><ol><li><a href="/">%s</a></li><li><a href="/%s/">%s</a></li></ol></nav>
<h1 id="title">%s</h1>
%s<hr>
<div class="md-source-file"><small>%s: %s</small></div>
<div class="md-feedback"><h3>%s</h3><button>👍 Yes</button> <button>👎 No</button></div>
</article></div></div>
<nav class="md-footer__inner" aria-label="Footer">%s</nav>
</main>
<footer class="md-footer"><div class="md-copyright">Copyright © 2024 %s contributors · Made with <a href="https://squidfunk.github.io/mkdocs-material/" rel="noopener">Material for MkDocs</a></div></footer></div>
<script src="/assets/javascripts/bundle.5cfa9a4f.min.js"></script>
</body>
</html>
`, slug(a.site), slug(a.title), esc(l.edit), esc(l.home), slug(a.section), esc(a.section), esc(a.title), p.body(), esc(l.edit), esc(a.date),
		esc(l.helpful), p.prevNext(), esc(a.site))
	return b.String()
}

func (p *page) gov() string {
	l, a := p.l, p.a
	var b strings.Builder
	b.WriteString(p.head(""))
	fmt.Fprintf(&b, `<body class="govuk-template__body"><script>document.body.className += ' js-enabled';</script>
<div id="global-cookie-message" class="gem-c-cookie-banner govuk-clearfix" role="region"><div class="govuk-cookie-banner__message govuk-width-container"><h2 class="govuk-cookie-banner__heading">Cookies</h2><div class="govuk-cookie-banner__content"><p>%s</p></div><div class="govuk-button-group"><button class="govuk-button">%s</button> <button class="govuk-button">%s</button> <a class="govuk-link" href="/help/cookies">%s</a></div></div></div>
<a href="#main-content" class="govuk-skip-link">Skip to main content</a>
<header class="govuk-header" role="banner"><div class="govuk-header__container govuk-width-container"><a href="/" class="govuk-header__link govuk-header__link--homepage"><svg class="govuk-header__logotype" width="148" height="30"></svg><span>%s</span></a>
<nav class="govuk-header__navigation"><button class="govuk-header__menu-button">%s</button><ul class="govuk-header__navigation-list">`,
		esc(l.cookie), esc(l.accept), esc(l.refuse), esc(l.settings), esc(a.site), esc(l.menu))
	for _, s := range l.sections[:6] {
		fmt.Fprintf(&b, `<li class="govuk-header__navigation-item"><a class="govuk-header__link" href="/browse/%s">%s</a></li>`, slug(s), esc(s))
	}
	fmt.Fprintf(&b, `</ul></nav><form class="gem-c-search" action="/search"><input class="gem-c-search__input" type="search" name="keywords" placeholder="%s"></form></div></header>
<div class="govuk-width-container"><div class="govuk-phase-banner"><p class="govuk-phase-banner__content"><strong class="govuk-tag">BETA</strong> <span class="govuk-phase-banner__text"><a class="govuk-link" href="/feedback">Feedback</a></span></p></div>
<nav class="govuk-breadcrumbs" aria-label="%s"><ol class="govuk-breadcrumbs__list"><li class="govuk-breadcrumbs__list-item"><a class="govuk-breadcrumbs__link" href="/">%s</a></li><li class="govuk-breadcrumbs__list-item"><a class="govuk-breadcrumbs__link" href="/browse/%s">%s</a></li></ol></nav>
<main class="govuk-main-wrapper" id="main-content" role="main"><div class="govuk-grid-row"><div class="govuk-grid-column-two-thirds">
<span class="govuk-caption-xl">%s</span><h1 class="govuk-heading-xl">%s</h1>
<div class="gem-c-metadata"><dl><dt>From:</dt><dd><a href="/government/organisations/%s">%s</a></dd><dt>Published</dt><dd>%s</dd></dl></div>
<div class="govuk-govspeak gem-c-govspeak">
%s</div>
<div class="gem-c-print-link"><button class="govuk-link">%s</button></div>
</div>
<div class="govuk-grid-column-one-third"><aside class="gem-c-related-navigation" role="complementary"><h2 class="gem-c-related-navigation__main-heading">%s</h2><nav>%s</nav>
<h3>%s</h3><ul><li><a href="/browse/%s">%s</a></li><li><a href="/browse/%s">%s</a></li></ul></aside></div></div>
<div class="gem-c-feedback"><div class="gem-c-feedback__prompt"><h2 class="gem-c-feedback__prompt-question">%s</h2><button class="gem-c-feedback__prompt-link">Yes</button> <button class="gem-c-feedback__prompt-link">No</button> <button class="gem-c-feedback__prompt-link">Report a problem with this page</button></div></div>
</main></div>
<footer class="govuk-footer" role="contentinfo"><div class="govuk-width-container"><div class="govuk-footer__navigation"><div class="govuk-footer__section"><h2 class="govuk-footer__heading">Services and information</h2>%s</div><div class="govuk-footer__section"><h2 class="govuk-footer__heading">%s</h2>%s</div></div>
<div class="govuk-footer__meta"><span class="govuk-footer__licence-description">All content is available under the <a class="govuk-footer__link" href="https://www.nationalarchives.gov.uk/doc/open-government-licence/version/3/" rel="license">Open Government Licence v3.0</a>, except where otherwise stated</span> <a class="govuk-footer__link govuk-footer__copyright-logo" href="https://www.nationalarchives.gov.uk/information-management/re-using-public-sector-information/uk-government-licensing-framework/crown-copyright/">© Crown copyright</a></div></div></footer>
</body>
</html>
`, esc(l.search), esc(l.breadcrumb), esc(l.home), slug(a.section), esc(a.section), esc(a.section), esc(a.title), slug(a.site), esc(a.site), esc(a.date), p.body(),
		esc(l.print), esc(l.related), p.relatedList(4, false), esc(l.categories), slug(l.sections[1]), esc(l.sections[1]), slug(l.sections[2]), esc(l.sections[2]),
		esc(l.helpful), p.navLinks("govuk-footer__list"), esc(l.follow), p.footerLinks())
	return b.String()
}

func (p *page) drupal() string {
	l, a := p.l, p.a
	var b strings.Builder
	b.WriteString(p.head(`<meta name="Generator" content="Drupal 10 (https://www.drupal.org)">
<link rel="stylesheet" media="all" href="/sites/default/files/css/css_Xq1.css?delta=0&amp;language=` + a.lang + `">
`))
	fmt.Fprintf(&b, `<body class="path-node page-node-type-article">
<a href="#main-content" class="visually-hidden focusable skip-link">Skip to main content</a>
%s<div class="dialog-off-canvas-main-canvas" data-off-canvas-main-canvas><div class="layout-container">
<header role="banner"><div class="region region-header"><div id="block-sitebranding" class="block block-system block-system-branding-block"><a href="/" rel="home" class="site-logo"><img src="/themes/custom/olivero/logo.svg" alt="%s"></a><div class="site-name"><a href="/" rel="home">%s</a></div><div class="site-slogan">%s</div></div></div>
<div class="region region-primary-menu"><nav role="navigation" aria-labelledby="block-mainnavigation-menu" id="block-mainnavigation" class="block block-menu navigation menu--main">%s</nav></div>
<div class="region region-secondary-menu"><nav class="menu--account"><ul><li><a href="/user/login">%s</a></li><li><a href="/user/register">%s</a></li></ul></nav><div class="language-switcher-language-url"><ul class="links"><li><a href="/en">English</a></li><li><a href="/fr">Français</a></li><li><a href="/de">Deutsch</a></li></ul></div></div></header>
<div class="region region-breadcrumb"><nav class="breadcrumb" role="navigation"><h2 class="visually-hidden">Breadcrumb</h2><ol><li><a href="/">%s</a></li><li><a href="/%s">%s</a></li></ol></nav></div>
<div class="region region-highlighted"><div data-drupal-messages-fallback class="hidden"></div></div>
<main role="main"><a id="main-content" tabindex="-1"></a><div class="layout-content">
<div class="region region-content"><div id="block-pagetitle" class="block block-core block-page-title-block"><h1 class="page-title"><span class="field field--name-title field--type-string">%s</span></h1></div>
<div id="block-mainpagecontent" class="block block-system block-system-main-block">
<article role="article" about="/node/%d" class="node node--type-article node--promoted node--view-mode-full">
<div class="node__meta"><span><span class="field field--name-uid field--type-entity-reference">%s</span></span> <span>%s</span></div>
<div class="node__content"><div class="clearfix text-formatted field field--name-body field--type-text-with-summary field--label-hidden field__item">
%s</div>
<div class="field field--name-field-tags field--type-entity-reference field--label-above"><div class="field__label">%s</div><div class="field__items">%s</div></div>
<div class="node__links"><ul class="links inline"><li class="comment-forbidden"><a href="/user/login?destination=/node/%d%%23comment-form">%s</a></li></ul></div>
</div></article></div></div></div>
<aside class="layout-sidebar-first" role="complementary"><div class="region region-sidebar-first">
<div class="views-element-container block block-views" id="block-views-block-content-recent-block-1"><h2>%s</h2>%s</div>
<div id="block-quicklinks" class="block block-block-content"><h2>%s</h2>%s</div>
</div></aside></main>
<footer role="contentinfo"><div class="region region-footer-top">%s</div><div class="region region-footer-bottom"><div id="block-poweredby" class="block block-system block-system-powered-by-block"><span>Powered by <a href="https://www.drupal.org">Drupal</a></span></div><p>© 2024 %s. %s</p></div></footer>
</div></div>
<script src="/core/assets/vendor/once/once.min.js?v=1.0.1"></script>
</body>
</html>
`, p.cookieBanner("sliding-popup"), esc(a.site), esc(a.site), esc(l.newsletter), p.navLinks("menu"), esc(l.login), esc(l.subscribe),
		esc(l.home), slug(a.section), esc(a.section), esc(a.title), len(a.title)*13, esc(a.author), esc(a.date), p.body(), esc(l.tags), p.tagLinks(),
		len(a.title)*13, esc(l.comments), esc(l.recent), p.relatedList(5, false), esc(l.categories), p.navLinks("quick"), p.footerLinks()+p.social(), esc(a.site), esc(l.rights))
	return b.String()
}

func (p *page) shop() string {
	l, a := p.l, p.a
	var b strings.Builder
	b.WriteString(p.head(`<link href="//cdn.shopify.com/s/files/1/0001/t/4/assets/theme.css?v=1234" rel="stylesheet" type="text/css" media="all">
`))
	fmt.Fprintf(&b, `<body class="template-article">
<div class="announcement-bar" role="region"><p class="announcement-bar__message">🚚 Free shipping on orders over €50 · 30-day returns</p></div>
<header class="header"><a href="/" class="header__heading-link"><img src="//cdn.shopify.com/s/files/1/0001/files/logo.png?v=1" alt="%s" width="150"></a>
<nav class="header__inline-menu"><ul class="list-menu">`, esc(a.site))
	for _, c := range []string{"New in", "Best sellers", "Kitchen", "Stationery", "Home", "Gifts", "Sale", "Journal"} {
		fmt.Fprintf(&b, `<li><details class="mega-menu"><summary>%s</summary><ul class="mega-menu__list"><li><a href="/collections/%s">%s</a></li><li><a href="/collections/%s?sort_by=price-ascending">%s €</a></li><li><a href="/collections/%s?filter.v.availability=1">%s ✓</a></li></ul></details></li>`, c, slug(c), c, slug(c), c, slug(c), c)
	}
	fmt.Fprintf(&b, `</ul></nav><div class="header__icons"><a href="/search" class="header__icon">%s</a> <a href="/account/login" class="header__icon">%s</a> <a href="/cart" class="header__icon header__icon--cart" id="cart-icon-bubble">Cart (0)</a></div></header>
%s<main id="MainContent" class="content-for-layout" role="main">
<article class="article-template" itemscope itemtype="http://schema.org/BlogPosting">
<div class="article-template__hero-container"><img src="//cdn.shopify.com/s/files/1/0001/articles/%s.jpg?v=1&amp;width=1500" alt="" width="1500" height="844"></div>
<header class="page-width page-width--narrow"><h1 class="article-template__title" itemprop="headline">%s</h1><span class="circle-divider caption-with-letter-spacing" itemprop="dateCreated pubdate datePublished"><time datetime="%s">%s</time></span> <span itemprop="author">%s</span></header>
<div class="article-template__content page-width page-width--narrow rte" itemprop="articleBody">
%s</div>
<div class="shop-the-story page-width"><h2>Shop the story</h2><ul class="product-grid">
<li class="card-wrapper"><a href="/products/%s-classic">%s — Classic</a><div class="price"><span class="price-item">€48.00</span></div><button class="quick-add__submit">Add to cart</button></li>
<li class="card-wrapper"><a href="/products/%s-gift-set">%s — Gift set</a><div class="price"><s>€72.00</s> <span class="price-item price-item--sale">€59.00</span></div><button class="quick-add__submit">Add to cart</button></li>
<li class="card-wrapper"><a href="/products/care-kit">Care kit</a><div class="price"><span class="price-item">€12.50</span></div><button class="quick-add__submit">Add to cart</button></li></ul></div>
<div class="article-template__social-sharing page-width page-width--narrow">%s</div>
<div class="article-template__back element-margin-top center"><a href="/blogs/journal" class="article-template__link link">← Journal</a></div>
</article>
<div class="related-articles page-width"><h2>%s</h2>%s</div>
</main>
<footer class="footer"><div class="footer__blocks-wrapper"><div class="footer-block"><h2 class="footer-block__heading">Shop</h2><ul><li><a href="/collections/all">All products</a></li><li><a href="/collections/gift-cards">Gift cards</a></li></ul></div>
<div class="footer-block"><h2 class="footer-block__heading">Help</h2>%s</div>
<div class="footer-block footer-block--newsletter"><h2 class="footer-block__heading">%s</h2><form method="post" action="/contact#contact_form"><input type="email" name="contact[email]" placeholder="%s"><button>%s</button></form></div></div>
%s<div class="footer__payment"><ul class="list list-payment" role="list"><li>Visa</li><li>Mastercard</li><li>PayPal</li><li>Apple Pay</li></ul></div>
<div class="footer__copyright"><small class="copyright__content">© 2024, <a href="/">%s</a></small> <small class="copyright__content"><a href="https://www.shopify.com?utm_campaign=poweredby&amp;utm_medium=shopify&amp;utm_source=onlinestore" rel="nofollow" target="_blank">Powered by Shopify</a></small></div></footer>
</body>
</html>
`, esc(l.search), esc(l.login), p.cookieBanner("shopify-pc__banner"), slug(a.title), esc(a.title), esc(a.date), esc(a.date), esc(a.author), p.body(),
		slug(a.site), esc(a.site), slug(a.site), esc(a.site), p.shareLinks(), esc(l.related), p.relatedList(3, true), p.footerLinks(),
		esc(l.newsletterButton), esc(l.email), esc(l.newsletterButton), p.social(), esc(a.site))
	return b.String()
}

// legacy is a hand-made site of the late 1990s: a table layout, <font>
// tags, paragraphs separated by <br><br>, a visitor counter and a webring.
func (p *page) legacy() string {
	l, a := p.l, p.a
	var b strings.Builder
	fmt.Fprintf(&b, `<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">
<HTML>
<HEAD>
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=utf-8">
<TITLE>%s - %s</TITLE>
<META NAME="keywords" CONTENT="%s">
</HEAD>
<BODY BGCOLOR="#FFFFF0" TEXT="#000000" LINK="#0000CC" VLINK="#660066">
<TABLE WIDTH="100%%" BORDER="0" CELLPADDING="4" CELLSPACING="0">
<TR><TD COLSPAN="2" BGCOLOR="#336633"><FONT FACE="Verdana" SIZE="5" COLOR="#FFFFFF"><B>%s</B></FONT><BR><FONT FACE="Verdana" SIZE="2" COLOR="#FFFFCC">%s</FONT></TD></TR>
<TR><TD WIDTH="160" VALIGN="top" BGCOLOR="#E8E8D0"><FONT FACE="Verdana" SIZE="2">
<A HREF="index.html">%s</A><BR>
`, esc(a.title), esc(a.site), esc(strings.Join(a.tags, ", ")), esc(a.site), esc(l.newsletter), esc(l.home))
	for _, s := range append(l.sections[:6:6], a.tags...) {
		fmt.Fprintf(&b, "<A HREF=\"%s.html\">%s</A><BR>\n", slug(s), esc(s))
	}
	fmt.Fprintf(&b, `<BR><B>%s</B><BR>
`, esc(l.recent))
	for _, r := range p.related {
		fmt.Fprintf(&b, "<A HREF=\"%s\">%s</A><BR>\n", esc(r.url), esc(r.title))
	}
	fmt.Fprintf(&b, `<BR><IMG SRC="images/counter.gif" ALT="counter"><BR>You are visitor number 004512<BR><BR>
<A HREF="http://www.webring.example/hub?ring=localhistory&amp;id=12&amp;prev">&lt;&lt; Prev</A> | <A HREF="http://www.webring.example/hub?ring=localhistory">Ring</A> | <A HREF="http://www.webring.example/hub?ring=localhistory&amp;id=12&amp;next">Next &gt;&gt;</A>
</FONT></TD>
<TD VALIGN="top"><FONT FACE="Georgia" SIZE="3">
<H2>%s</H2>
<I>%s %s, %s</I><BR><BR>
`, esc(a.title), esc(l.by), esc(a.author), esc(a.date))
	for _, x := range a.blocks {
		switch x.kind {
		case "p":
			b.WriteString(inline(x.text) + "\n<BR><BR>\n")
		default:
			b.WriteString(blocksHTML([]block{x}))
		}
	}
	fmt.Fprintf(&b, `<HR SIZE="1">
<FONT SIZE="1">Last updated: %s. %s <A HREF="mailto:webmaster@%s">webmaster@%s</A>. Best viewed with Netscape Navigator 4 at 800x600.</FONT>
</FONT></TD></TR>
<TR><TD COLSPAN="2" ALIGN="center" BGCOLOR="#336633"><FONT FACE="Verdana" SIZE="1" COLOR="#FFFFFF">© 1999-2024 %s. %s <A HREF="guestbook.html"><FONT COLOR="#FFFFCC">Guestbook</FONT></A> | <A HREF="links.html"><FONT COLOR="#FFFFCC">Links</FONT></A></FONT></TD></TR>
</TABLE>
</BODY>
</HTML>
`, esc(a.date), esc(l.footer[1]), p.host(), p.host(), esc(a.site), esc(l.rights))
	return b.String()
}
