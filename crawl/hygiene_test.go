package crawl

import (
	"slices"
	"strings"
	"testing"
)

// messyArticle is a news page as the web has them: share buttons, a story
// linked with ?share= (WordPress adds &nb=1) and utm_ parameters, images,
// scripts and style sheets, a mistyped link and links to addresses of the
// author's machine.
const messyArticle = `<!doctype html><html><head><title>News</title>
<link rel="stylesheet" href="/style.css"><script src="/app.js"></script></head><body>
<img src="/logo.png">
<a href="/story?share=email">mail</a> <a href="/story?share=facebook&amp;nb=1">fb</a>
<a href="/story?share=twitter">tw</a> <a href="/story?utm_source=rss&amp;utm_medium=feed&amp;page=2">feed</a>
<a href="https://twitter.com/intent/tweet?url=http%3A%2F%2Fnews.test%2F">tweet</a>
<a href="http://twitter.com/share?url=x">share</a>
<a href="https://www.facebook.com/sharer/sharer.php?u=x">fb</a>
<a href="https://plus.google.com/share?url=x">g+</a>
<a href="https://pinterest.com/pin/create/button/?url=x">pin</a>
<a href="https://www.linkedin.com/shareArticle?mini=true&amp;url=x">in</a>
<a href="https://www.reddit.com/submit?url=x">reddit</a>
<a href="mailto:desk@news.test">mail</a> <a href="tel:+15551234">call</a>
<a href="whatsapp://send?text=x">wa</a> <a href="javascript:void(0)">js</a>
<a href="/images/photo.JPG">photo</a> <a href="https://cdn.test/clip.mp4">clip</a>
<a href="/fonts/a.woff2">font</a>
<a href="http://http://other.test/typo">typo</a>
<a href="http://127.0.0.1:7812/">dev server</a> <a href="http://10.0.0.1/">router</a>
<a href="http://other.test/">a real link</a> <a href="http://twitter.com/nasa">NASA on Twitter</a>
</body></html>`

// TestMessyPageHygiene: of a page full of share buttons, tracking
// parameters, media and private addresses, the crawl fetches the article
// once and the sites the author linked to, keeps only those as the page's
// links (the site graph), and counts what it left out.
func TestMessyPageHygiene(t *testing.T) {
	t.Parallel()
	w := newWeb(t, map[string]map[string]resp{
		"news.test":   {"/": {body: messyArticle}, "/story": {body: page("Story")}, "/story?page=2": {body: page("Story 2")}},
		"other.test":  {"/": {body: page("Other")}},
		"twitter.com": {"/nasa": {body: page("NASA")}},
	})
	r := crawl(t, w, []string{"http://news.test/"})
	if r.err != nil {
		t.Fatal(r.err)
	}
	wantPages := []string{"http://news.test/", "http://news.test/story", "http://news.test/story?page=2",
		"http://other.test/", "http://twitter.com/nasa"}
	if got := r.urls(); !sameSet(got, wantPages) {
		t.Errorf("pages %q, want %q", got, wantPages)
	}
	var asked []string
	for _, h := range w.requests() {
		if !strings.HasSuffix(h.path, "robots.txt") {
			asked = append(asked, h.host+h.path)
		}
	}
	if want := []string{"news.test/", "news.test/story", "news.test/story?page=2", "other.test/", "twitter.com/nasa"}; !sameSet(asked, want) {
		t.Errorf("requested %q, want %q", asked, want)
	}
	p, _ := r.byURL("http://news.test/")
	if want := []string{"http://news.test/story", "http://news.test/story?page=2", "http://other.test/", "http://twitter.com/nasa"}; !slices.Equal(p.Links, want) {
		t.Errorf("links of the page %q, want %q", p.Links, want)
	}
	var names []string
	for _, s := range r.states[len(r.states)-1] {
		names = append(names, s.Site)
	}
	if want := []string{"news.test", "other.test", "twitter.com"}; !sameSet(names, want) {
		t.Errorf("sites %q, want %q", names, want)
	}
	st := r.status
	if want := map[string]int{DropShare: 7, DropMedia: 3, DropPrivate: 2}; !sameCounts(st.Dropped, want) || st.BadLinks != 1 {
		t.Errorf("dropped %v and %d bad links, want %v and 1 (the typo)", st.Dropped, st.BadLinks, want)
	}
}

// sameCounts reports whether got has the counts of want for its keys and
// no other non-zero count.
func sameCounts(got, want map[string]int) bool {
	for k, n := range got {
		if want[k] != n {
			return false
		}
	}
	for k, n := range want {
		if got[k] != n {
			return false
		}
	}
	return true
}

// TestParseDocumentLeavesOutTemplateLinks: an archived page (a WARC
// import) gets the links a crawl keeps: one copy of the story without its
// tracking parameters, no share button, no media file, no mistyped host.
// Private hosts stay: only a crawl knows whether it may fetch them.
func TestParseDocumentLeavesOutTemplateLinks(t *testing.T) {
	doc, err := ParseDocument([]byte(messyArticle), "text/html; charset=utf-8", "http://news.test/")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"http://news.test/story", "http://news.test/story?page=2", "http://127.0.0.1:7812/",
		"http://10.0.0.1/", "http://other.test/", "http://twitter.com/nasa"}
	if !slices.Equal(doc.Links, want) {
		t.Errorf("links %q, want %q", doc.Links, want)
	}
}

// TestRedirectTrackingStripped: a redirect to the story with tracking
// parameters (a newsletter's or a shortener's link) is the story itself,
// recorded once under its plain URL.
func TestRedirectTrackingStripped(t *testing.T) {
	t.Parallel()
	w := newWeb(t, map[string]map[string]resp{
		"news.test": {
			"/":   {body: page("News", "/go", "/later")},
			"/go": {status: 302, location: "/story?utm_source=newsletter&utm_medium=email"},
			"/story?utm_source=newsletter&utm_medium=email": {body: page("Story")},
			"/later": {body: page("Later", "/story")},
			"/story": {body: page("Story")},
		},
	})
	r := crawl(t, w, []string{"http://news.test/"}, Parallel(1))
	if r.err != nil {
		t.Fatal(r.err)
	}
	var stories []string
	for _, p := range r.pages {
		if strings.Contains(p.URL, "/story") && p.ErrClass == "" {
			stories = append(stories, p.URL)
		}
	}
	if !slices.Equal(stories, []string{"http://news.test/story"}) {
		t.Errorf("story pages %q, want http://news.test/story once", stories)
	}
	if n := w.count("news.test", "/story"); n != 0 {
		t.Errorf("/story requested %d times, want 0: the redirect fetched it", n)
	}
}

// TestSeedTrackingStripped: a seed pasted from a shared link is the page:
// fetched once under its plain URL, though the page links to itself.
func TestSeedTrackingStripped(t *testing.T) {
	t.Parallel()
	w := newWeb(t, map[string]map[string]resp{
		"news.test": {"/story": {body: page("Story", "/story")}, "/story?share=facebook&fbclid=x": {body: page("Story", "/story")}},
	})
	r := crawl(t, w, []string{"http://news.test/story?share=facebook&fbclid=x"})
	if r.err != nil {
		t.Fatal(r.err)
	}
	if got := r.urls(); !slices.Equal(got, []string{"http://news.test/story"}) {
		t.Errorf("pages %q, want http://news.test/story once", got)
	}
}
