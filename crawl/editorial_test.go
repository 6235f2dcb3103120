package crawl

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// storyProse is an article's prose with two links to other sites.
const storyProse = `<p>The water in the old harbour is cleaner than at any time since records began, according to a
<a href="https://port.example/reports/2024">survey published on Monday by the port authority</a>. Oxygen levels in the
inner basin have doubled in ten years and the mussel beds are back along the north quay.</p>
<p>Researchers at the <a href="https://coastal.example/people/okafor">Institute of Coastal Studies</a> say the figures
match their own samples, taken every month since 2016, and that the seagrass came back faster than expected.</p>
<p>Swimming is still not allowed in the basin, because of boat traffic rather than water quality, and the port
authority says it will study a bathing area near the old customs house before next summer.</p>
`

// storyPage returns a news page whose <article> holds storyProse, then
// box, with hashed class names as CSS-in-JS publishing systems make them.
func storyPage(box string) string {
	return `<!DOCTYPE html><html lang="en"><head><title>Harbour water is cleaner | The Harbour Gazette</title></head><body>
<header class="c-header"><a href="/">The Harbour Gazette</a> <a href="/local/">Local</a></header>
<main><article class="b-article-body"><h1>Harbour water is cleaner than at any time in forty years</h1>
` + storyProse + box + `</article></main><footer class="c-footer"><a href="/contact">Contact</a></footer></body></html>`
}

// parseStory parses a page of the harbour gazette.
func parseStory(t *testing.T, page string) Document {
	t.Helper()
	doc, err := ParseDocument([]byte(page), "text/html; charset=utf-8", "https://www.harbourgazette.example/local/2024/harbour")
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// wantLinks checks the editorial links of doc are the prose's, and each
// of template among its template links.
func wantLinks(t *testing.T, doc Document, editorial, template []string) {
	t.Helper()
	if !slices.Equal(doc.Links, editorial) {
		t.Errorf("editorial links %q, want %q", doc.Links, editorial)
	}
	for _, l := range template {
		if !slices.Contains(doc.TemplateLinks, l) {
			t.Errorf("%s is not among the template links %q", l, doc.TemplateLinks)
		}
	}
}

var proseLinks = []string{"https://port.example/reports/2024", "https://coastal.example/people/okafor"}

// TestBoxesInsideTheArticleAreTemplate: a box of links an article carries
// under a heading of the template's ("Related stories", "More from …",
// "From our network", "Deals we like", "Read more"), whatever its classes,
// is the template's, as are its teasers; a list of the article's sources is
// the author's.
func TestBoxesInsideTheArticleAreTemplate(t *testing.T) {
	for _, tc := range []struct {
		name, box string
		template  []string
	}{
		{"related stories with teasers", `<div class="css-1xzk9l"><h2>Related stories</h2><ul>
<li><a href="https://www.harbourgazette.example/science/bees">Wild bees return to the city's roundabouts</a> <p>Roundabouts that the city stopped mowing now hold twice as many species of wild bee.</p></li>
<li><a href="https://macwire.example/articles/keyboard">New keyboard firmware fixes the double-typing bug</a> <p>A firmware update released on Friday fixes the bug that affected some keyboards.</p></li>
</ul></div>`, []string{"https://macwire.example/articles/keyboard"}},
		{"more from the site", `<section class="css-k3m9q2"><h2>More from The Harbour Gazette</h2><ul>
<li><a href="/2024/more/pictures/">The week in pictures</a></li><li><a href="/2024/more/letters/">Letters to the editor</a></li>
<li><a href="https://events.example/whats-on">What's on this weekend</a></li></ul></section>`, []string{"https://events.example/whats-on"}},
		{"the publisher's network", `<div class="css-7yh2w1" data-module="partner-content"><h2 class="css-1hgz0rb">From our network</h2><ul>
<li><a href="https://www.harbourgazette-sport.example/2024/regatta"><img src="/a.jpg" alt=""><span>Regatta returns after five years</span></a></li>
<li><a href="https://harbourgazette-living.example/2024/gardens"><span>Ten gardens to visit this summer</span></a></li></ul></div>`,
			[]string{"https://www.harbourgazette-sport.example/2024/regatta", "https://harbourgazette-living.example/2024/gardens"}},
		{"deals", `<div class="css-q1w2e3"><h3>Deals we like</h3><ul>
<li><a href="https://amzn.to/3xYzAbc" rel="sponsored">Electric kettle, 1.7 l</a> <span>€29.99</span></li>
<li><a href="https://www.amazon.com/dp/B0C1X2Y3Z4?tag=harbourgazette-20" rel="sponsored">Noise-cancelling headphones</a> <span>€149</span></li>
</ul><p>We may earn a commission when you buy through these links.</p></div>`,
			[]string{"https://amzn.to/3xYzAbc", "https://www.amazon.com/dp/B0C1X2Y3Z4?tag=harbourgazette-20"}},
		{"read more line", `<div class="c-interstitial"><p><strong>READ MORE:</strong> <a href="https://macwire.example/articles/keyboard">New keyboard firmware fixes the double-typing bug</a></p></div>`,
			[]string{"https://macwire.example/articles/keyboard"}},
		{"related in French", `<div class="css-a1"><h2>À lire aussi</h2><ul><li><a href="https://petitrouleur.example/actu/velo">Le vélo cargo séduit les artisans</a></li><li><a href="https://petitrouleur.example/actu/tram">Le tramway prolongé</a></li></ul></div>`,
			[]string{"https://petitrouleur.example/actu/velo"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantLinks(t, parseStory(t, storyPage(tc.box)), proseLinks, tc.template)
		})
	}
	t.Run("sources", func(t *testing.T) {
		doc := parseStory(t, storyPage(`<h2>Sources</h2><ul>
<li><a href="https://journals.example/ecology/2024/verges">Urban verges as pollinator habitat</a>, Journal of Urban Ecology, 2024</li>
<li><a href="https://records.example/atlas/bees">Wild bees of the county</a>, County Records Centre</li></ul>`))
		wantLinks(t, doc, append(slices.Clone(proseLinks), "https://journals.example/ecology/2024/verges", "https://records.example/atlas/bees"), nil)
	})
}

// TestAccountAndSubscriptionLinksAreTemplate: the site's own accounts on
// social platforms ("Follow us on …"), sign-in, subscribe and newsletter
// links are the template's even in a paragraph of the article; a post on a
// platform that the prose cites is the author's.
func TestAccountAndSubscriptionLinksAreTemplate(t *testing.T) {
	follow := `<p class="css-8atqhb"><em>Follow The Harbour Gazette on <a href="https://twitter.com/harbourgazette">X</a>,
<a href="https://www.facebook.com/harbourgazette/">Facebook</a>, <a href="https://www.instagram.com/HarbourGazette/">Instagram</a>
&amp; <a href="https://flipboard.com/@harbourgazette">Flipboard</a>.</em></p>`
	newsletter := `<div class="css-1n8r0bn"><h3>The Morning Brief</h3><p>Get the best of our stories in your inbox every morning.</p>
<a class="css-btn" href="https://eepurl.com/hXyZ1q">Sign up</a> <a href="/newsletters/">Subscribe</a> <a href="/account/login?next=%2Flocal">Sign in</a></div>`
	cited := `<p>The authority's chief scientist summarised the survey <a href="https://twitter.com/harbourlabs/status/1799912345678901234">in a thread on X</a>,
with maps of each sampling point and the figures of every year since the first samples were taken.</p>`
	doc := parseStory(t, storyPage(follow+newsletter+cited))
	wantLinks(t, doc, append(slices.Clone(proseLinks), "https://twitter.com/harbourlabs/status/1799912345678901234"),
		[]string{"https://twitter.com/harbourgazette", "https://www.facebook.com/harbourgazette/", "https://www.instagram.com/HarbourGazette/",
			"https://flipboard.com/@harbourgazette", "https://eepurl.com/hXyZ1q", "https://www.harbourgazette.example/newsletters/",
			"https://www.harbourgazette.example/account/login?next=%2Flocal"})
}

// TestCommentAndConsentWidgetsAreTemplate: a comment service's widget and
// what stands for an embed until its cookies are accepted are the
// template's, inside the article too.
func TestCommentAndConsentWidgetsAreTemplate(t *testing.T) {
	widgets := `<div class="css-ep7dx1" data-consent-required="youtube"><p>This content is provided by a third party. To see it, accept its cookies.
<a href="/privacy-settings/">Manage your privacy choices</a></p><button>Accept all</button></div>
<div id="disqus_thread"></div><script>var disqus_config = function () {};</script>
<noscript>Please enable JavaScript to view the comments.</noscript>
<a href="https://disqus.com/?ref_noscript" class="dsq-brlink">comments powered by <span class="logo-disqus">Disqus</span></a>`
	doc := parseStory(t, storyPage(widgets))
	wantLinks(t, doc, proseLinks, []string{"https://disqus.com/?ref_noscript", "https://www.harbourgazette.example/privacy-settings/"})
}

// TestLinksOfBrSeparatedProse: an article whose paragraphs are text
// separated by <br>, in one element with boxes of the template, keeps its
// in-text links editorial.
func TestLinksOfBrSeparatedProse(t *testing.T) {
	page := `<!DOCTYPE html><html lang="en"><head><title>Keyboard firmware fix | MacWire</title></head><body>
<div id="top-nav"><a href="/">MacWire</a> <a href="/news/">News</a></div>
<div class="main-wrap"><div class="col-left"><article><h1>New keyboard firmware fixes the double-typing bug</h1>
<div class="article-content">A firmware update released on Friday fixes the double-typing bug that has affected some laptop keyboards since March,
according to tests by <a href="https://fixitlab.example/blog/tests">an independent repair shop</a> and by our own staff.
<br><br>
The bug made some keys register twice when pressed quickly. Owners reported it on the
<a href="https://discussions.vendor.example/thread/255012345">manufacturer's support forum</a> within days of the spring update.
<br><br>
<div class="inline-more"><b>Read more</b> <a href="/articles/older-story">An older story</a></div><br>
The new firmware changes how long the keyboard waits before it accepts a second press of the same key, according to the
<a href="https://support.vendor.example/kb/firmware">release notes</a>. In our tests the double presses stopped completely.
<br><br>
<div class="nl-inline"><h3>The Morning Brief</h3><p>Get the best of our stories in your inbox every morning.</p><a href="https://eepurl.com/hXyZ1q">Sign up</a></div>
</div></article></div>
<div class="col-right"><a href="https://www.othersite.example/">Other site</a></div></div></body></html>`
	doc, err := ParseDocument([]byte(page), "text/html; charset=utf-8", "https://macwire.example/articles/keyboard-fix")
	if err != nil {
		t.Fatal(err)
	}
	wantLinks(t, doc, []string{"https://fixitlab.example/blog/tests", "https://discussions.vendor.example/thread/255012345", "https://support.vendor.example/kb/firmware"},
		[]string{"https://eepurl.com/hXyZ1q", "https://www.othersite.example/"})
}

// TestShortArticleLeavesItsSidebarOut: a brief of two sentences beside a
// sidebar of 150 topic links in a column whose classes say nothing keeps
// its own text and links, not the sidebar's.
func TestShortArticleLeavesItsSidebarOut(t *testing.T) {
	var cloud strings.Builder
	for i := range 150 {
		fmt.Fprintf(&cloud, `<a href="/topics/topic-%d/">Topic %d</a> `, i, i)
	}
	page := `<!DOCTYPE html><html lang="en"><head><title>Evening ferry cancelled | Island Daily</title></head><body>
<div class="container"><div class="row"><div class="col-12"><a href="/">Island Daily</a> <a href="/transport/">Transport</a></div></div>
<div class="row"><div class="col-md-8"><article class="post"><h1>Evening ferry cancelled until Friday</h1><div class="post-info">Newsdesk · 2024-02-08</div>
<p>The evening ferry is cancelled until Friday after an engine fault, the <a href="https://ferrylines.example/updates">ferry company said</a>.
Forecasts are on the <a href="https://coastguard.example/forecast">coastguard's site</a>.</p></article></div>
<div class="col-md-4"><div class="block"><h4>Topics</h4><div class="cloud">` + cloud.String() + `</div></div>
<div class="block"><h4>Friends of the site</h4><ul><li><a href="https://www.sisterisland.example/">Sister Island News</a></li></ul></div></div></div></div>
</body></html>`
	doc, err := ParseDocument([]byte(page), "text/html; charset=utf-8", "https://islanddaily.example/2024/02/08/ferry")
	if err != nil {
		t.Fatal(err)
	}
	wantLinks(t, doc, []string{"https://ferrylines.example/updates", "https://coastguard.example/forecast"},
		[]string{"https://www.sisterisland.example/", "https://islanddaily.example/topics/topic-7/"})
	if !strings.Contains(doc.Text, "The evening ferry is cancelled until Friday") || strings.Contains(doc.Text, "Topic 7") ||
		strings.Contains(doc.Text, "Sister Island") {
		t.Errorf("main text %q", doc.Text)
	}
}

// TestNotTheTemplatesBoxesAndAccounts: what looks like the template's
// but is the author's stays editorial: an account cited in the prose of a
// page on a subdomain whose name starts the account's ("news" and
// @newsroomdaily), and a list of sources under a heading that starts as a
// label does ("Plus de 300 …", more than 300, not "more of").
func TestNotTheTemplatesBoxesAndAccounts(t *testing.T) {
	page := `<!DOCTYPE html><html lang="fr"><head><title>Enquête</title></head><body><main><article><h1>Enquête sur les bibliothèques</h1>
<p>Le questionnaire a été diffusé pendant un mois dans les bibliothèques de la ville, et relayé par le compte de
<a href="https://twitter.com/newsroomdaily">Newsroom Daily</a>, qui suit depuis des années la vie des quartiers et
des équipements publics de la région.</p>
<p>Les réponses montrent que les horaires du soir comptent plus que tout le reste pour les familles qui travaillent,
et que les bibliothèques de quartier restent le premier lieu de lecture des enfants.</p>
<div><h3>Plus de 300 réponses au questionnaire</h3><ul><li><a href="https://enquete.example/resultats">Les résultats complets</a></li>
<li><a href="https://enquete.example/methode">La méthode</a></li></ul></div>
</article></main></body></html>`
	doc, err := ParseDocument([]byte(page), "text/html; charset=utf-8", "https://news.gazette-locale.example/2024/enquete")
	if err != nil {
		t.Fatal(err)
	}
	wantLinks(t, doc, []string{"https://twitter.com/newsroomdaily", "https://enquete.example/resultats", "https://enquete.example/methode"}, nil)
}

// TestHasWord: class and id names are split at spaces, '-' and '_' and
// read without regard to case; a word longer than any listed is none.
func TestHasWord(t *testing.T) {
	set := map[string]bool{"related": true, "nav": true}
	for v, want := range map[string]bool{
		"c-Related-list": true, "post_nav x": true, "navigation": false, "unrelated": false, "": false,
		"x\tNAV": true, strings.Repeat("a", 40) + "-nav": true, "related" + strings.Repeat("x", 40): false,
	} {
		if got := hasWord(v, set); got != want {
			t.Errorf("hasWord(%q) = %v, want %v", v, got, want)
		}
	}
}

// TestSubscriptionHostsAreTemplate: the subscription and account hosts of
// the page's own domain (buy.journal.example, accounts.journal.example)
// are the template's, as its sign-in and subscribe paths are; its other
// hosts (a blog) are not.
func TestSubscriptionHostsAreTemplate(t *testing.T) {
	page := `<!DOCTYPE html><html lang="en"><head><title>Rates | The Journal</title></head><body><main><article><h1>Rates stay put</h1>
<p>The central bank left its rates unchanged on Wednesday, as most economists had expected, and said that it would
watch wages closely before it moved again, <a href="https://blogs.journal.example/economics/rates-preview">as our
economics blog</a> had suggested on Monday.</p>
<p>Markets barely moved. The currency gained a little against the dollar, and bond yields fell for the third day in a
row, <a href="https://www.journal.example/articles/markets-wednesday">our markets report</a> shows.</p>
<div class="css-93m1lk"><p>Continue reading your article with a Journal subscription.</p><a href="https://buy.journal.example/?inttrk=article">Subscribe now</a>
<a href="https://accounts.journal.example/login?target=rates">Sign in</a> <a href="https://subscribe.journal.example/gift">Give a subscription</a></div>
</article></main></body></html>`
	doc, err := ParseDocument([]byte(page), "text/html; charset=utf-8", "https://www.journal.example/articles/rates-stay-put")
	if err != nil {
		t.Fatal(err)
	}
	wantLinks(t, doc, []string{"https://blogs.journal.example/economics/rates-preview", "https://www.journal.example/articles/markets-wednesday"},
		[]string{"https://buy.journal.example/?inttrk=article", "https://accounts.journal.example/login?target=rates", "https://subscribe.journal.example/gift"})
}

// TestRunsReadEachBlockOnce: the runs of a block's children are found in
// one reading of them, at the first link asked about: a block of
// thousands of links costs a reading, not one per link.
func TestRunsReadEachBlockOnce(t *testing.T) {
	var b strings.Builder
	b.WriteString("<div>")
	for i := range 3000 {
		if i%1000 == 0 && i > 0 {
			b.WriteString("<br><br>")
		}
		fmt.Fprintf(&b, `word <a href="/l%d">link %d</a> `, i, i)
	}
	b.WriteString("</div>")
	root, err := html.Parse(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	var div *html.Node
	var as []*html.Node
	var find func(*html.Node)
	find = func(n *html.Node) {
		if n.Type == html.ElementNode && n.DataAtom == atom.Div {
			div = n
		}
		if n.Type == html.ElementNode && n.DataAtom == atom.A {
			as = append(as, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			find(c)
		}
	}
	find(root)
	rs := runs{}
	first, last := rs.run(as[1500], div)
	children, brs := 0, 0
	for c := div.FirstChild; c != nil; c = c.NextSibling {
		children++
		if c.Type == html.ElementNode && c.DataAtom == atom.Br {
			brs++
		}
	}
	if len(rs) != children-brs {
		t.Errorf("%d children in runs after the first link, want all %d but the breaks", len(rs), children-brs)
	}
	if first.Data != "word " || last.Data != " " || first.NextSibling != as[1000] {
		t.Errorf("the run of link 1500 is %q … %q, want the second thousand links", first.Data, last.Data)
	}
	for _, i := range []int{0, 999, 2000, 2999} {
		f, _ := rs.run(as[i], div)
		if want := as[i/1000*1000]; f.NextSibling != want {
			t.Errorf("link %d: run starts before %v, want before link %d", i, f.NextSibling, i/1000*1000)
		}
	}
	// A block without breaks is one run, itself.
	p, _ := html.Parse(strings.NewReader(`<p>a <a href="/x">x</a> b</p>`))
	para := p.FirstChild.LastChild.FirstChild
	if f, l := (runs{}).run(para.FirstChild.NextSibling, para); f != para || l != para {
		t.Errorf("run of a paragraph without breaks: %v … %v", f, l)
	}
}
