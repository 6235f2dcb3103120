package demoweb

import (
	"html"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var (
	srcRE  = regexp.MustCompile(`src="([^"]*)"`)
	wordRE = regexp.MustCompile(`[\pL\pN_]+`)
)

// words returns the words of s joined by single spaces, punctuation left out.
func words(s string) string { return " " + strings.Join(wordRE.FindAllString(s, -1), " ") + " " }

// TestChrome checks that the pages carry what real sites put around their
// articles, and that each kind of template link is there and answers as
// on the real web.
func TestChrome(t *testing.T) {
	w := New(DefaultSeed)
	_, c := serve(t, w)
	found := map[string]string{} // what → a page that has it
	var images []string
	for _, s := range w.sites {
		for path, d := range s.docs {
			if !strings.HasPrefix(d.ctype, "text/html") {
				continue
			}
			u := "http://" + s.host + path
			body := string(d.body)
			if !strings.Contains(body, `class="cookie-banner"`) {
				t.Errorf("%s: no cookie banner", u)
			}
			has := func(what string, ok bool) {
				if ok && found[what] == "" {
					found[what] = u
				}
			}
			for _, m := range hrefRE.FindAllStringSubmatch(body, -1) {
				h := html.UnescapeString(m[1])
				has("twitter share", strings.HasPrefix(h, "https://twitter.com/intent/tweet?url="+url.QueryEscape(u)))
				has("facebook share", strings.HasPrefix(h, "https://www.facebook.com/sharer/sharer.php?u="+url.QueryEscape(u)))
				has("mailto share", strings.HasPrefix(h, "mailto:?subject="))
				has("?share= link", strings.HasPrefix(h, path+"?share=twitter"))
				has("utm link", strings.Contains(h, "?utm_source="))
				has("platform profile", strings.HasPrefix(h, "https://www.youtube.com/@"))
				has("link to an image", strings.HasSuffix(h, ".jpg"))
				has("link to a PDF", strings.HasSuffix(h, ".pdf"))
				has("malformed link", strings.HasPrefix(h, "http://http://"))
				has("404 link", strings.HasPrefix(h, "/archive/"))
				if s.net != nil && strings.HasPrefix(h, "http://") {
					if o, err := url.Parse(h); err == nil && o.Host != s.host && slices.Contains(s.net.hosts, o.Host) {
						has("network link", true)
					}
				}
			}
			has("related box", strings.Contains(body, `<aside class="related-articles">`))
			for _, m := range srcRE.FindAllStringSubmatch(body, -1) {
				has("<img>", true)
				if len(images) < 50 {
					images = append(images, "http://"+s.host+m[1])
				}
			}
		}
	}
	for _, what := range []string{"twitter share", "facebook share", "mailto share", "?share= link", "utm link",
		"platform profile", "link to an image", "link to a PDF", "malformed link", "404 link", "network link",
		"related box", "<img>"} {
		if found[what] == "" {
			t.Errorf("no page has a %s", what)
		}
	}
	for _, u := range images {
		if r := fetch(t, c, "GET", u); r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "image/") {
			t.Errorf("image %s: status %d, Content-Type %q", u, r.status, r.header.Get("Content-Type"))
		}
	}
	for what, u := range map[string]string{"cookie policy": "http://www.lyon-gazette.test" + cookiePath,
		"?share= copy": found["?share= link"] + "?share=email&nb=1", "utm copy": "http://metro-weekly.test/?utm_source=x"} {
		if r := fetch(t, c, "GET", u); r.status != 200 {
			t.Errorf("%s %s: status %d", what, u, r.status)
		}
	}
	if r := fetch(t, c, "GET", "http://www.lyon-gazette.test/archive/2010/nothing.html"); r.status != 404 {
		t.Errorf("a missing archive page answers %d, want 404", r.status)
	}
}

// TestTruth checks the ground truth the generator hands out: each HTML page
// has its authors' text and links, none of the template's, and the links
// to other sites are the site graph the generator drew.
func TestTruth(t *testing.T) {
	w := New(DefaultSeed)
	truth := w.Truth()
	pages := 0
	for _, s := range w.sites {
		graph := map[string]bool{} // hosts s's authors link to
		for path, d := range s.docs {
			if !strings.HasPrefix(d.ctype, "text/html") {
				continue
			}
			pages++
			u := "http://" + s.host + path
			tr, ok := truth[u]
			if !ok {
				t.Errorf("%s: no truth", u)
				continue
			}
			if len(strings.Fields(tr.Text)) < 50 || tr.Title == "" {
				t.Errorf("%s: truth has %d words of text and title %q", u, len(strings.Fields(tr.Text)), tr.Title)
			}
			page := words(html.UnescapeString(tagRE.ReplaceAllString(string(d.body), " ")))
			for _, chrome := range []string{"We use cookies", "Share this", "Follow us", "Related articles", "Back to top", "In pictures"} {
				if strings.Contains(tr.Text, chrome) {
					t.Errorf("%s: main text holds the template's %q", u, chrome)
				}
			}
			for _, para := range strings.SplitAfter(tr.Text, ". ") {
				if !strings.Contains(page, words(para)) {
					t.Errorf("%s: main text %q is not on the page", u, para)
					break
				}
			}
			for _, l := range tr.Links {
				o, err := url.Parse(l)
				if err != nil || o.RawQuery != "" || strings.Contains(l, "twitter.com") || strings.HasSuffix(l, ".jpg") {
					t.Errorf("%s: editorial link %q looks like a template link", u, l)
					continue
				}
				host := o.Host
				if a := w.alias[host]; a != nil {
					host = a.host
				}
				if host != s.host {
					graph[host] = true
				}
			}
		}
		var want []string
		for _, o := range s.out {
			want = append(want, o.host)
		}
		for _, h := range []string{deadSites[0].host, deadSites[1].host} {
			if graph[h] {
				want = append(want, h) // a link to a vanished site
			}
		}
		var got []string
		for h := range graph {
			got = append(got, h)
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: editorial links go to %v, the site graph to %v", s.host, got, want)
		}
	}
	if len(truth) != pages {
		t.Errorf("%d truths for %d HTML pages", len(truth), pages)
	}
}
