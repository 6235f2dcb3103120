package sites

import (
	"strings"
	"testing"
)

// TestURLRulesFilesRead: the three embedded rules files read, each has
// entries, and every entry the issue of share buttons names is there.
func TestURLRulesFilesRead(t *testing.T) {
	r, err := parseURLRules(trackingFile, shareFile, mediaFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"utm_source", "UTM_Campaign", "fbclid", "gclid", "mc_cid", "mc_eid", "share", "ref"} {
		if !r.isTracking(p) {
			t.Errorf("%s is not a tracking parameter", p)
		}
	}
	for _, p := range []string{"id", "page", "q", "shared", "reference", "utm"} {
		if r.isTracking(p) {
			t.Errorf("%s is a tracking parameter, want kept", p)
		}
	}
	if len(r.share) < 7 || len(r.media) < 20 {
		t.Errorf("%d share rules and %d extensions, want the lists whole", len(r.share), len(r.media))
	}
}

// TestURLRulesBadLines: a line that cannot be a rule is refused with its
// file and line number.
func TestURLRulesBadLines(t *testing.T) {
	for _, tt := range []struct{ tracking, share, media, want string }{
		{"utm_*\n# ok\nutm source\n", "", "", "tracking.txt line 3"},
		{"", "twitter.com/intent/\nnot a host/x\n", "", "share.txt line 2"},
		{"", "twitter.com\n", "", "share.txt line 1"},
		{"", "", "jpg\n.png\n", "media.txt line 2"},
		{"share\nnb with\n", "", "", "tracking.txt line 2"},
		{"nb with utm_*\n", "", "", "tracking.txt line 1"},
	} {
		_, err := parseURLRules(tt.tracking, tt.share, tt.media)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("error %v, want one naming %s", err, tt.want)
		}
	}
}

func TestStripTracking(t *testing.T) {
	for in, want := range map[string]string{
		"https://news.test/story?share=email":                          "https://news.test/story",
		"https://news.test/story?share=facebook&nb=1":                  "https://news.test/story",
		"https://news.test/story?nb=1&SHARE=email&id=3":                "https://news.test/story?id=3",
		"https://news.test/list?nb=20&page=2":                          "https://news.test/list?nb=20&page=2",
		"https://news.test/s?id=7&utm_source=tw&utm_medium=social&p=2": "https://news.test/s?id=7&p=2",
		"https://news.test/s?fbclid=abc&gclid=x&mc_cid=1&mc_eid=2":     "https://news.test/s",
		"https://news.test/s?UTM_Source=x&ref=home&%75tm_term=y":       "https://news.test/s",
		"https://news.test/s?q=a%20b&sort=new":                         "https://news.test/s?q=a%20b&sort=new",
		"https://news.test/s?shared=1&reference=2":                     "https://news.test/s?shared=1&reference=2",
	} {
		u, err := Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		changed := StripTracking(u)
		if got := u.String(); got != want || changed != (in != want) {
			t.Errorf("StripTracking(%s) = %s, %v; want %s", in, got, changed, want)
		}
	}
}

func TestShareAndMediaLinks(t *testing.T) {
	share := []string{
		"https://twitter.com/intent/tweet?url=x", "http://twitter.com/share?url=x", "https://www.facebook.com/sharer/sharer.php?u=x",
		"https://m.facebook.com/sharer.php?u=x", "https://plus.google.com/share?url=x", "https://www.pinterest.com/pin/create/button/?url=x",
		"https://www.linkedin.com/shareArticle?mini=true&url=x", "https://www.reddit.com/submit?url=x", "https://x.com/intent/post?text=x",
		"https://b.hatena.ne.jp/add?mode=confirm&url=x", "https://b.hatena.ne.jp/entry/s/example.org/story",
		"https://share.flipboard.com/bookmarklet/popout?v=2&url=x", "https://www.tumblr.com/widgets/share/tool?canonicalUrl=x",
		"https://social-plugins.line.me/lineit/share?url=x", "https://connect.ok.ru/offer?url=x", "https://service.weibo.com/share/share.php?url=x",
		"https://www.xing.com/spi/shares/new?url=x", "https://mail.google.com/mail/?view=cm&su=x", "https://www.threads.net/intent/post?text=x",
	}
	notShare := []string{"https://twitter.com/nasa", "https://www.facebook.com/nasa", "https://www.reddit.com/r/news/",
		"https://share.example/", "https://example.org/twitter.com/intent/", "https://b.hatena.ne.jp/hotentry/it",
		"https://flipboard.com/@nytimes", "https://d.hatena.ne.jp/someone/"}
	for _, s := range share {
		if u, _ := Parse(s); !IsShareLink(u) {
			t.Errorf("%s is not a share link", s)
		}
	}
	for _, s := range notShare {
		if u, _ := Parse(s); IsShareLink(u) {
			t.Errorf("%s is a share link", s)
		}
	}
	for s, want := range map[string]bool{
		"https://a.test/img/photo.JPG": true, "https://a.test/v.mp4?x=1": true, "https://a.test/f.woff2": true,
		"https://a.test/s.css": true, "https://a.test/app.js": true, "https://a.test/": false,
		"https://a.test/story.html": false, "https://a.test/jpg": false, "https://a.test/photos.jpg/": false,
	} {
		if u, _ := Parse(s); IsMedia(u) != want {
			t.Errorf("IsMedia(%s) = %v, want %v", s, !want, want)
		}
	}
}

func TestHostKind(t *testing.T) {
	for h, want := range map[string]string{
		"127.0.0.1": "loopback", "::1": "loopback", "[::1]": "loopback", "10.0.0.1": "private", "100.64.1.2": "private",
		"169.254.169.254": "link-local", "localhost": "loopback", "a.localhost": "loopback", "http": "single-label",
		"intranet": "single-label", "example.org": "", "93.184.216.34": "", "2606:4700::1": "",
	} {
		if got := HostKind(h); got != want {
			t.Errorf("HostKind(%s) = %q, want %q", h, got, want)
		}
	}
}

// FuzzStripTracking: a URL without its tracking parameters is still a
// normalised URL of the same site, and stripping it again changes nothing.
func FuzzStripTracking(f *testing.F) {
	for _, s := range []string{"http://a.test/?utm_source=x&id=1", "http://a.test/?share=email", "http://a.test/?%75tm_x=1&&a",
		"http://a.test/?ref", "http://a.test/?a=1&fbclid=2#f", "http://a.test/?"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := Parse(raw)
		if err != nil {
			return
		}
		site := u.Host
		StripTracking(u)
		s := u.String()
		again, err := Parse(s)
		if err != nil || again.String() != s || again.Host != site {
			t.Fatalf("stripped %q to %q, which parses to %v, %v", raw, s, again, err)
		}
		if StripTracking(again) {
			t.Fatalf("stripping %q again removed more: %q", s, again.String())
		}
	})
}
