package crawl

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"sitesift/sites"
)

// newsArticle is a news article as publishers' templates make them: a header
// and navigation bar, a cookie banner, share buttons, the article (with a
// link it shares with the navigation, links in a list and in a table), a
// "related" box, readers' comments and a footer with the publisher's network.
const newsArticle = `<!DOCTYPE html>
<html lang="en-GB"><head><meta charset="utf-8">
<title>Storm floods the valley | Daily Bugle</title>
<meta property="og:title" content="Storm floods the valley">
<meta property="article:published_time" content="2024-03-05T08:00:00Z">
<link rel="stylesheet" href="/static/site.css"><script src="/static/app.js"></script>
</head><body class="single-post has-sidebar">
<a class="skip-link" href="#content">Skip to content</a>
<header class="site-header"><a href="/" class="logo">Daily Bugle</a>
 <nav class="main-nav"><ul>
  <li><a href="/news?utm_source=nav">News</a></li><li><a href="/sport">Sport</a></li>
  <li><a href="/about">About us</a></li><li><a href="https://river.example/report">River report</a></li>
 </ul></nav>
 <form class="search" action="/search"><input name="q"><button>Search</button></form>
</header>
<div id="cookie-consent" class="cookie-banner">We use cookies to improve your experience.
 <a href="/privacy">Privacy policy</a> <button>Accept all</button></div>
<main id="content"><article class="post">
 <h1>Storm floods the valley</h1>
 <p class="byline">By <a href="/authors/jane">Jane Doe</a> · 5 March 2024</p>
 <div class="share-buttons"><a href="https://twitter.com/intent/tweet?url=https%3A%2F%2Fbugle.example%2Fstorm">Tweet</a>
  <a href="https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2Fbugle.example%2Fstorm">Share</a>
  <a href="mailto:?subject=Storm">Email</a></div>
 <div class="entry-content">
 <p>Heavy rain fell for three days over the valley, and the river rose above its banks on Tuesday night,
  according to the <a href="https://river.example/report">river authority's report</a>. Hundreds of homes
  were evacuated as the water reached the old town.</p>
 <figure><img src="/img/flood.jpg" alt="Flooded street"><figcaption>The high street on Wednesday.</figcaption></figure>
 <p>The mayor said that the emergency services had worked through the night. "We have never seen anything
  like it," she told <a href="https://radio.example/interview?utm_campaign=x">Radio Valley</a> in an interview on
  Wednesday morning.</p>
 <ul><li>Read the <a href="https://gov.example/alerts">government alerts</a> for your area, updated hourly by the agency.</li>
  <li>Check <a href="https://roads.example/closures">road closures</a> before you travel anywhere in the region.</li></ul>
 <p>Forecasters expect the rain to stop by Friday, but warn that the ground is saturated and that more
  flooding is possible next week if the storms return as the models suggest.</p>
 <table><tr><td>Station</td><td><a href="https://weather.example/st1">Station one</a> measured 120 mm of rain in total</td></tr></table>
 </div>
</article>
<aside class="related"><h2>Related</h2><ul>
 <li><a href="/2023/flood">Last year's flood: what went wrong</a></li><li><a href="/2024/dams">Are dams enough?</a></li></ul></aside>
<section id="comments" class="comments-area"><h3>3 comments</h3>
 <div class="comment"><p>Terrible news, my thoughts are with everyone. See <a href="https://spam.example/">my blog</a></p></div></section>
</main>
<footer class="site-footer"><p>Part of the <a href="https://network.example/">Bugle Network</a>:
 <a href="https://sister.example/">Sister Paper</a> · <a href="https://other.example/">Other Weekly</a></p>
 <a href="/contact">Contact</a> <a href="/terms">Terms</a> <p>© 2024 Bugle Media</p></footer>
</body></html>`

func TestMainContentOfANewsArticle(t *testing.T) {
	doc, err := ParseDocument([]byte(newsArticle), "text/html; charset=utf-8", "https://bugle.example/2024/storm")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Heavy rain fell for three days over the valley", "according to the river authority's report. Hundreds",
		"she told Radio Valley in an interview", "Read the government alerts for your area",
		"Forecasters expect the rain to stop by Friday", "Station one measured 120 mm",
	} {
		if !strings.Contains(doc.Text, want) {
			t.Errorf("main text lacks %q:\n%s", want, doc.Text)
		}
	}
	for _, chrome := range []string{"Sport", "cookies", "Privacy policy", "Tweet", "Last year's flood",
		"Terrible news", "Bugle Network", "Contact", "Skip to content"} {
		if strings.Contains(doc.Text, chrome) {
			t.Errorf("main text holds the template's %q:\n%s", chrome, doc.Text)
		}
		if !strings.Contains(doc.FullText, chrome) {
			t.Errorf("full text lacks %q:\n%s", chrome, doc.FullText)
		}
	}
	wantLinks := []string{
		"https://river.example/report", // in the navigation too: editorial, as it is in the article
		"https://radio.example/interview", "https://gov.example/alerts", "https://roads.example/closures",
		"https://weather.example/st1",
	}
	if !slices.Equal(doc.Links, wantLinks) {
		t.Errorf("editorial links\n %q\nwant\n %q", doc.Links, wantLinks)
	}
	wantTemplate := []string{
		"https://bugle.example/2024/storm", // the skip link's "#content"
		"https://bugle.example/", "https://bugle.example/news", "https://bugle.example/sport",
		"https://bugle.example/about", "https://bugle.example/privacy", "https://bugle.example/authors/jane",
		"https://bugle.example/2023/flood", "https://bugle.example/2024/dams", "https://spam.example/",
		"https://network.example/", "https://sister.example/", "https://other.example/",
		"https://bugle.example/contact", "https://bugle.example/terms",
	}
	if !slices.Equal(doc.TemplateLinks, wantTemplate) {
		t.Errorf("template links\n %q\nwant\n %q", doc.TemplateLinks, wantTemplate)
	}
	if doc.Title != "Storm floods the valley" {
		t.Errorf("title %q, want the article's headline", doc.Title)
	}
	if doc.Language != "en" {
		t.Errorf("language %q, want en", doc.Language)
	}
	if want := time.Date(2024, 3, 5, 0, 0, 0, 0, time.UTC); !doc.Published.Equal(want) {
		t.Errorf("published %v, want %v", doc.Published, want)
	}
}

// TestLinksAreEditorialOrTemplate: every link kept is in one list, once.
func TestLinksAreEditorialOrTemplate(t *testing.T) {
	base, _ := sites.Parse("https://bugle.example/2024/storm")
	doc, err := parseHTML([]byte(newsArticle), base, MaxTextChars)
	if err != nil {
		t.Fatal(err)
	}
	editorial, template := doc.split()
	if len(editorial)+len(template) != len(doc.links) {
		t.Fatalf("%d editorial + %d template links, of %d", len(editorial), len(template), len(doc.links))
	}
	for _, l := range editorial {
		if slices.Contains(template, l) {
			t.Errorf("%s is in both lists", l)
		}
	}
	if len(doc.leftOut) != 2 {
		t.Errorf("left out %v, want the two share buttons", doc.leftOut)
	}
}

func TestLanguageOfPages(t *testing.T) {
	article := func(lang, text string) string {
		attr := ""
		if lang != "" {
			attr = fmt.Sprintf(` lang="%s"`, lang)
		}
		return fmt.Sprintf(`<!DOCTYPE html><html%s><head><title>T</title></head><body>
<nav><a href="/">Home</a> <a href="/a">About</a></nav><article><h1>Headline</h1><p>%s</p><p>%s</p></article>
<footer><a href="/c">Contact</a></footer></body></html>`, attr, text, text)
	}
	tests := []struct {
		name, page, want string
	}{
		{"French, declared", article("fr", "Les pluies abondantes sont tombées pendant trois jours sur la vallée, et la rivière est sortie de son lit mardi soir. Des centaines de maisons ont été évacuées lorsque l'eau a atteint la vieille ville."), "fr"},
		{"German, undeclared", article("", "Heftige Regenfälle gingen drei Tage lang über dem Tal nieder, und der Fluss trat am Dienstagabend über die Ufer. Hunderte Häuser wurden evakuiert, als das Wasser die Altstadt erreichte."), "de"},
		{"Russian, declared ru-RU", article("ru-RU", "В долине три дня шли сильные дожди, и во вторник вечером река вышла из берегов. Сотни домов были эвакуированы, когда вода достигла старого города."), "ru"},
		{"Japanese, undeclared", article("", "谷では三日間大雨が降り続き、火曜日の夜に川が氾濫しました。水が旧市街に達したため、数百軒の家が避難しました。市長は、緊急サービスが一晩中働いたと述べました。"), "ja"},
		{"Japanese heavy in kanji, undeclared", article("", "国立国会図書館は令和六年度の収集方針を発表した。地方自治体の公式電子資料を重点的に保存する計画で、大学図書館所蔵貴重書籍全文画像公開予定。"), "ja"},
		{"Chinese, undeclared", article("", "国家图书馆今天公布了新的网络资源采集方针。地方政府的官方网站和大学图书馆的电子资料将被重点保存，珍贵古籍的全文图像也将陆续公开。"), "zh"},
		{"a declaration the text belies", article("en", strings.Repeat("Les pluies abondantes sont tombées pendant trois jours sur la vallée, et la rivière est sortie de son lit mardi soir. ", 3)), "fr"},
		{"too few words to tell", `<html><body><p>OK 42</p></body></html>`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := ParseDocument([]byte(tt.page), "text/html; charset=utf-8", "https://example.test/p")
			if err != nil {
				t.Fatal(err)
			}
			if doc.Language != tt.want {
				t.Errorf("language %q, want %q (text %q)", doc.Language, tt.want, doc.Text)
			}
			if strings.Contains(doc.Text, "Contact") {
				t.Errorf("main text holds the footer: %q", doc.Text)
			}
		})
	}
}

// TestLanguageOfShortTexts: the 34 articles in eight languages of the
// main-text corpus (tools/maintext/testdata), none declaring its language,
// are told from their first 2 KB and from their first 120 bytes (a
// caption, a one-line brief). A detector that needs more text than that
// leaves a page with its language unknown, or gives a neighbour's.
func TestLanguageOfShortTexts(t *testing.T) {
	files, err := filepath.Glob("../tools/maintext/testdata/*.txt")
	if err != nil || len(files) < 30 {
		t.Fatalf("corpus: %d files, %v", len(files), err)
	}
	for _, size := range []int{langSample, 120} {
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			header, body, _ := strings.Cut(string(b), "\n\n")
			want := ""
			for line := range strings.Lines(header) {
				if v, ok := strings.CutPrefix(line, "lang:"); ok {
					want = strings.TrimSpace(v)
				}
			}
			if got := language(truncate(body, size), ""); got != want {
				t.Errorf("%s, first %d bytes: language %q, want %q", filepath.Base(f), size, got, want)
			}
		}
	}
}

func TestUndatedPageHasNoPublicationDate(t *testing.T) {
	page := `<html><head><title>About the Bugle</title></head><body><nav><a href="/">Home</a></nav>
<article><p>The Daily Bugle has reported on the valley's towns and villages since its first issue, printed by
hand in a barn by two brothers who wanted their neighbours to know what the council decided.</p>
<p>Today its reporters cover politics, business, sport and culture, and its archive is open to every reader
who wants to know how the valley became what it is.</p></article>
<footer><p>© 2023 Bugle Media. All rights reserved.</p></footer></body></html>`
	doc, err := ParseDocument([]byte(page), "text/html", "https://bugle.example/about")
	if err != nil {
		t.Fatal(err)
	}
	if !doc.Published.IsZero() {
		t.Errorf("published %v, want none: the page says no date but its copyright's", doc.Published)
	}
	if !strings.HasPrefix(doc.Text, "The Daily Bugle has reported") || strings.Contains(doc.Text, "rights reserved") {
		t.Errorf("main text %q", doc.Text)
	}
}

// TestPageWithoutArticle: a home page made of a list of links has no main
// content go-trafilatura can find. Its text and editorial links are those
// outside the navigation, header, footer, sidebars and widgets.
func TestPageWithoutArticle(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html><head><title>Daily Bugle: news of the valley</title></head><body>
<header><a href="/">Daily Bugle</a><nav><a href="/news">News</a> <a href="/sport">Sport</a></nav></header>
<div class="cookie-notice">We use cookies. <a href="/privacy">Privacy</a></div>
<h1>Latest</h1><ul>`)
	for i := range 25 {
		fmt.Fprintf(&b, `<li><a href="/story/%d">Story number %d about the valley</a></li>`, i, i)
	}
	b.WriteString(`</ul><p>Partners: <a href="https://partner.example/">Valley Radio</a></p>
<div class="social"><a href="https://facebook.com/bugle">Facebook</a></div>
<footer><a href="https://network.example/">Bugle Network</a> <a href="/contact">Contact</a></footer></body></html>`)
	doc, err := ParseDocument([]byte(b.String()), "text/html", "https://bugle.example/")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for i := range 25 {
		want = append(want, fmt.Sprintf("https://bugle.example/story/%d", i))
	}
	want = append(want, "https://partner.example/")
	if !slices.Equal(doc.Links, want) {
		t.Errorf("editorial links\n %q\nwant\n %q", doc.Links, want)
	}
	wantTemplate := []string{"https://bugle.example/", "https://bugle.example/news", "https://bugle.example/sport",
		"https://bugle.example/privacy", "https://facebook.com/bugle", "https://network.example/", "https://bugle.example/contact"}
	if !slices.Equal(doc.TemplateLinks, wantTemplate) {
		t.Errorf("template links\n %q\nwant\n %q", doc.TemplateLinks, wantTemplate)
	}
	if !strings.HasPrefix(doc.Text, "Latest Story number 0 about the valley") || strings.Contains(doc.Text, "Sport") ||
		strings.Contains(doc.Text, "cookies") || strings.Contains(doc.Text, "Bugle Network") {
		t.Errorf("main text %q", doc.Text)
	}
	if doc.Title != "Daily Bugle: news of the valley" {
		t.Errorf("title %q, want the page's <title>", doc.Title)
	}
}

// TestTinyPage: a page of one sentence keeps it as its text, and its link
// as editorial.
func TestTinyPage(t *testing.T) {
	doc, err := ParseDocument([]byte(`<html><head><title>Hi</title></head><body><p>See <a href="https://friend.example/">my friend</a>.</p></body></html>`),
		"text/html", "https://me.example/")
	if err != nil {
		t.Fatal(err)
	}
	if doc.Text != "See my friend." || !slices.Equal(doc.Links, []string{"https://friend.example/"}) ||
		len(doc.TemplateLinks) != 0 || doc.Title != "Hi" {
		t.Errorf("document %+v", doc)
	}
}

// TestMainTextCap: the main text and the full text are cut at the limit, in
// characters.
func TestMainTextCap(t *testing.T) {
	base, _ := sites.Parse("https://bugle.example/long")
	para := "<p>" + strings.Repeat("Le maire a déclaré que les services d'urgence avaient travaillé toute la nuit. ", 20) + "</p>"
	body := "<html><body><nav><a href='/'>Home</a></nav><article>" + strings.Repeat(para, 10) + "</article></body></html>"
	for _, limit := range []int{100, 1001, 4096} {
		doc, err := parseHTML([]byte(body), base, limit)
		if err != nil {
			t.Fatal(err)
		}
		for name, s := range map[string]string{"text": doc.text, "full text": doc.fullText} {
			if n := utf8.RuneCountInString(s); n != limit || !utf8.ValidString(s) || !strings.HasPrefix(s, "Le maire") && !strings.HasPrefix(s, "Home Le maire") {
				t.Errorf("limit %d: %s of %d characters: %.40q", limit, name, n, s)
			}
		}
	}
}

// TestLayoutWrappersAreNoTemplate: an element whose class names a sidebar or
// that is an <aside> but holds most of the page's text is the page's layout,
// not its template: the article in it keeps its text and editorial links.
func TestLayoutWrappersAreNoTemplate(t *testing.T) {
	article := `<h1>Storm floods the valley</h1>
<p>Heavy rain fell for three days over the valley, and the river rose above its banks on Tuesday night,
according to <a href="https://river.example/report">the river authority's report</a>. Hundreds of homes were evacuated.</p>
<p>The mayor said that the emergency services had worked through the night, and that the schools of the
old town would stay closed until the water had gone down and the buildings had been checked.</p>`
	for name, body := range map[string]string{
		"sidebar layout": `<div class="o-row c-fixed-sidebar-layout"><nav><a href="/">Home</a></nav><div class="c-article">` +
			article + `</div></div><footer><a href="/contact">Contact</a></footer>`,
		"article in aside": `<nav><a href="/">Home</a></nav><aside class="direct-content">` + article +
			`</aside><footer><a href="/contact">Contact</a></footer>`,
		"bare paragraphs in a layout": `<div class="page-header-wrapper"><nav><a href="/">Home</a></nav>` + article +
			`</div><footer><a href="/contact">Contact</a></footer>`,
	} {
		t.Run(name, func(t *testing.T) {
			doc, err := ParseDocument([]byte(`<html lang="en"><head><title>Storm</title></head><body>`+body+`</body></html>`),
				"text/html", "https://bugle.example/storm")
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(doc.Text, "Heavy rain fell") || strings.Contains(doc.Text, "Contact") {
				t.Errorf("main text %q", doc.Text)
			}
			if !slices.Equal(doc.Links, []string{"https://river.example/report"}) ||
				!slices.Equal(doc.TemplateLinks, []string{"https://bugle.example/", "https://bugle.example/contact"}) {
				t.Errorf("editorial links %q, template links %q", doc.Links, doc.TemplateLinks)
			}
		})
	}
}

// A list of links in an article or the page's <main> is what its authors
// chose to link, though go-trafilatura leaves such link-dense blocks out of
// the main text: a directory's entries, an article's sources, a blogroll.
// The navigation and the author box around them stay the template's.
func TestLinkListsInTheMainContent(t *testing.T) {
	page := `<!doctype html><html lang="en"><head><title>Jazz on the web — the Jazz Directory</title></head><body>
<header><nav><a href="/">Home</a> <a href="/blues">Blues</a> <a href="https://network.example/">Our network</a></nav></header>
<main>
<article>
<h1>Jazz on the web</h1>
<p class="byline">Compiled by <a href="/editors/sam">Sam</a></p>
<p>Our editors keep this list of the best places to read about jazz: record labels, clubs, festivals and the
magazines that have covered the music for decades. Each site was visited and described by one of us, and we
check every link twice a year so that readers never land on a dead page or on a site that changed hands.</p>
<h2>Magazines</h2>
<ul>
<li><a href="https://jazzmag.example/">Jazz Magazine</a></li>
<li><a href="https://downbeat.example/">Down Beat</a></li>
</ul>
<h2>Festivals</h2>
<ul>
<li><a href="https://montreux.example/">Montreux</a> — <a href="https://newport.example/">Newport</a></li>
</ul>
<p>Sources: <a href="https://archive.example/jazz-1999">the 1999 edition of this list</a>.</p>
</article>
</main>
<aside class="sidebar"><h3>Elsewhere</h3><ul><li><a href="https://ads.example/">Sponsored</a></li></ul></aside>
<footer><a href="https://network.example/about">About the network</a></footer>
</body></html>`
	doc, err := ParseDocument([]byte(page), "text/html", "https://jazzdir.example/jazz")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"https://jazzmag.example/", "https://downbeat.example/", "https://montreux.example/",
		"https://newport.example/", "https://archive.example/jazz-1999"}
	if !slices.Equal(doc.Links, want) {
		t.Errorf("editorial links\n %q\nwant\n %q", doc.Links, want)
	}
	for _, l := range []string{"https://network.example/", "https://ads.example/", "https://jazzdir.example/editors/sam"} {
		if !slices.Contains(doc.TemplateLinks, l) {
			t.Errorf("%s is not a template link: %q", l, doc.TemplateLinks)
		}
	}
}
