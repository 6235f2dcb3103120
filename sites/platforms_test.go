package sites

import (
	"strings"
	"testing"
)

// TestPlatformsFileReads: the embedded list reads and holds every platform
// the crawls of real news pages met at the top of their rankings.
func TestPlatformsFileReads(t *testing.T) {
	set, err := parsePlatforms(platformsFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"facebook.com", "twitter.com", "x.com", "youtube.com", "youtu.be", "instagram.com",
		"tiktok.com", "linkedin.com", "pinterest.com", "reddit.com", "t.co", "bit.ly", "goo.gl", "ow.ly", "tinyurl.com",
		"plus.google.com", "vk.com", "wa.me", "googletagmanager.com", "doubleclick.net", "cdnjs.cloudflare.com",
		"akamaihd.net", "gravatar.com", "fonts.googleapis.com"} {
		if !set[d] {
			t.Errorf("%s is not on the list", d)
		}
	}
}

// TestPlatformsBadLines: a line that is no domain is refused with its line
// number.
func TestPlatformsBadLines(t *testing.T) {
	for text, want := range map[string]string{
		"facebook.com\n# c\ntumblr.com/share\n": "line 3",
		"localhost\n":                           "line 1",
		"x.com\n10.0.0.1\n":                     "line 2",
		"a b.com\n":                             "line 1",
		"FaceBook.com\nhttps://x.com\n":         "line 2",
	} {
		if _, err := parsePlatforms(text); err == nil || !strings.Contains(err.Error(), "platforms.txt "+want) {
			t.Errorf("%q: error %v, want one naming %s", text, err, want)
		}
	}
}

// TestIsPlatform: a site is a platform when the host of its name is a
// listed domain or a subdomain of one, under every site rule.
func TestIsPlatform(t *testing.T) {
	for name, want := range map[string]bool{
		"facebook.com": true, "www.facebook.com": true, "m.facebook.com": true, "FACEBOOK.COM": true,
		"youtube.com:8080": true, "t.co": true, "x.com/some/path": true, "fonts.googleapis.com": true,
		"plus.google.com": true, "de.linkedin.com": true, "www.googletagmanager.com": true,
		"google.com": false, "googleapis.com": false, "notfacebook.com": false, "facebook.com.evil.test": false,
		"myfacebook.com": false, "bbc.co.uk": false, "co": false, "": false, "t.com": false, "blog.example.org/x.com": false,
		"10.0.0.1": false, "[::1]:80": false,
	} {
		if got := IsPlatform(name); got != want {
			t.Errorf("IsPlatform(%q) = %v, want %v", name, got, want)
		}
	}
	// The names the site rules give the same host are all platforms.
	for _, r := range Rules() {
		s, err := r.Of("https://www.youtube.com/watch?v=1")
		if err != nil || !IsPlatform(s) {
			t.Errorf("rule %s: site %q (%v) is not a platform", r, s, err)
		}
	}
}

// TestServicesArePlatforms: the template's usual hosts beyond the social
// networks (app stores, news readers, comment, consent and newsletter
// services, ad, affiliate and recommendation networks, shorteners, CDNs,
// hosting vendors' credits) are platforms, under the names crawls give
// them; the hosts of people's own publications, and the sites that merely
// share a parent domain with a listed host, are not.
func TestServicesArePlatforms(t *testing.T) {
	for _, tc := range []struct {
		kind  string
		names []string
		want  bool
	}{
		{"app store", []string{"apps.apple.com", "itunes.apple.com", "play.google.com", "apps.microsoft.com"}, true},
		{"news reader", []string{"flipboard.com", "share.flipboard.com", "news.google.com", "feeds.feedburner.com"}, true},
		{"comment widget", []string{"disqus.com", "nytimes.disqus.com", "c.disquscdn.com", "disq.us", "spot.im"}, true},
		{"anti-spam", []string{"akismet.com"}, true},
		{"consent manager", []string{"evidon.com", "c.evidon.com", "cdn.cookielaw.org", "onetrust.com", "trustarc.com",
			"consent.trustarc.com", "cookiebot.com"}, true},
		{"newsletter", []string{"eepurl.com", "us3.list-manage.com", "mailchi.mp", "us3.campaign-archive.com"}, true},
		{"ad or recommendation network", []string{"mgid.com", "jsc.mgid.com", "taboola.com", "outbrain.com",
			"widgets.outbrain.com", "revcontent.com"}, true},
		{"affiliate", []string{"amzn.to", "a.co", "go.skimresources.com", "go.redirectingat.com", "click.linksynergy.com"}, true},
		{"shortener", []string{"trib.al", "ift.tt", "cutt.ly"}, true},
		{"share service", []string{"b.hatena.ne.jp", "addthis.com", "sharethis.com"}, true},
		{"CDN", []string{"fingfx.thomsonreuters.com", "cdn.ampproject.org", "use.typekit.net"}, true},
		{"hosting vendor", []string{"wpvip.com", "wordpress.org", "public-api.wordpress.com", "wpengine.com", "pantheon.io",
			"kinsta.com", "automattic.com", "wix.com", "jegtheme.com", "themeisle.com", "wpastra.com", "generatepress.com",
			"elegantthemes.com"}, true},
		{"donation or link in bio", []string{"www.patreon.com", "ko-fi.com", "www.buymeacoffee.com", "linktr.ee"}, true},
		{"more app stores and news readers", []string{"galaxy.store", "f-droid.org", "www.smartnews.com", "www.newsbreak.com",
			"www.inoreader.com"}, true},
		{"more comment, consent and push services", []string{"commento.io", "talk.hyvor.com", "quantcast.com", "choice.quantcast.com",
			"termly.io", "onesignal.com", "pushengage.com"}, true},
		{"more affiliate links", []string{"howl.me", "rstyle.me", "shopstyle.it", "liketoknow.it"}, true},
		{"publication or site", []string{"substack.com", "example.substack.com", "medium.com", "apple.com", "www.apple.com",
			"google.com", "thomsonreuters.com", "www.reuters.com", "hatena.ne.jp", "d.hatena.ne.jp", "amazon.com",
			"wordpress.com", "someblog.wordpress.com", "nytimes.com", "someone.wixsite.com", "squarespace.com"}, false},
	} {
		for _, name := range tc.names {
			if got := IsPlatform(name); got != tc.want {
				t.Errorf("%s: IsPlatform(%q) = %v, want %v", tc.kind, name, got, tc.want)
			}
		}
	}
}
