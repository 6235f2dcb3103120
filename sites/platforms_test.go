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
