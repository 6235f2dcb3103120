package sites

import (
	"errors"
	"strings"
	"testing"
)

func TestRules(t *testing.T) {
	for _, tc := range []struct {
		url                   string
		host, hostWWW, domain string
	}{
		{"http://www.example.org/a", "www.example.org", "example.org", "example.org"},
		{"http://example.org/", "example.org", "example.org", "example.org"},
		{"https://news.bbc.co.uk/x", "news.bbc.co.uk", "news.bbc.co.uk", "bbc.co.uk"},
		{"http://www.bbc.co.uk/", "www.bbc.co.uk", "bbc.co.uk", "bbc.co.uk"},
		{"http://WWW.Example.ORG:8080/", "www.example.org:8080", "example.org:8080", "example.org:8080"},
		// gouv.fr is a public suffix: its sites are one level below.
		{"http://www.gouv.fr/", "www.gouv.fr", "gouv.fr", "www.gouv.fr"},
		{"http://a.b.gouv.fr/", "a.b.gouv.fr", "a.b.gouv.fr", "b.gouv.fr"},
		{"http://blog.example.test/", "blog.example.test", "blog.example.test", "example.test"},
		{"http://127.0.0.1:8080/", "127.0.0.1:8080", "127.0.0.1:8080", "127.0.0.1:8080"},
		{"http://[::1]/", "[::1]", "[::1]", "[::1]"},
		{"http://localhost/", "localhost", "localhost", "localhost"},
		{"http://www./", "www", "www", "www"},
		{"http://www.co.uk/", "www.co.uk", "co.uk", "www.co.uk"},
	} {
		for _, rc := range []struct {
			r    Rule
			want string
		}{{RuleHost, tc.host}, {RuleHostWWW, tc.hostWWW}, {RuleDomain, tc.domain}} {
			got, err := rc.r.Of(tc.url)
			if err != nil || got != rc.want {
				t.Errorf("%s.Of(%q) = %q, %v; want %q", rc.r, tc.url, got, err, rc.want)
			}
		}
	}
	if _, err := RuleDomain.Of("ftp://example.org/"); err == nil {
		t.Error("an ftp URL has a site")
	}
}

func TestRuleName(t *testing.T) {
	for _, tc := range []struct {
		r       Rule
		in, out string
	}{
		{RuleHostWWW, "WWW.Example.org", "example.org"},
		{RuleHostWWW, "www.example.org:80", "example.org"},
		{RuleDomain, "news.bbc.co.uk", "bbc.co.uk"},
		{RuleHost, "www.example.org", "www.example.org"},
		{RuleDomain, "Blog.Example/path", "blog.example/path"},
		{RuleHostWWW, "Bücher.test", "xn--bcher-kva.test"},
	} {
		if got := tc.r.Name(tc.in); got != tc.out {
			t.Errorf("%s.Name(%q) = %q, want %q", tc.r, tc.in, got, tc.out)
		}
	}
}

func TestParseRule(t *testing.T) {
	for _, s := range []string{"host", "host-www", "domain"} {
		if r, err := ParseRule(s); err != nil || string(r) != s {
			t.Errorf("ParseRule(%q) = %q, %v", s, r, err)
		}
	}
	if r, err := ParseRule(""); err != nil || r != DefaultRule {
		t.Errorf(`ParseRule("") = %q, %v`, r, err)
	}
	if _, err := ParseRule("registered"); err == nil {
		t.Error("an unknown rule was accepted")
	}
}

// TestCheckName: a site name without a scheme is a host, with an optional
// port and path; markup, script and mail addresses are not, and the words
// of Problem never quote them.
func TestCheckName(t *testing.T) {
	for _, ok := range []string{"a", "blog.example.com", "Bücher.test", "xn--bcher-kva.test:80", "townhall.com/clog",
		"calpoly.edu/~doleary/blog.htm", "charlineandjamie.com/dotnetweb01a/blogdisplay.aspx?logname=jamie&#38;logcatid=48",
		"vernsblog.thegillfamily.us:8180", "d#e", "192.0.2.1", "[::1]:8080/x", "r3---sn-x.googlevideo.com", "_dmarc.example"} {
		if err := CheckName(ok); err != nil {
			t.Errorf("CheckName(%q) = %v, want nil", ok, err)
		}
	}
	for _, bad := range []string{"<img/src=x>", "=evilhub()", "javascript:alert(1)", "javascript:void(0)/x", "mailto:a@b",
		"a@b.test/x", "/path", "", "1", "a..b", "a.test:99999", "\"quoted\".test", "ctl\x01name", "\xff.test", "(x)"} {
		err := CheckName(bad)
		if !errors.Is(err, ErrBadHost) {
			t.Errorf("CheckName(%q) = %v, want an ErrBadHost error", bad, err)
			continue
		}
		if p := Problem(bad, err); bad != "" && strings.Contains(p, bad) {
			t.Errorf("Problem(%q) = %q quotes it", bad, p)
		}
	}
	for _, tc := range []struct{ raw, want string }{
		{"a.test:99999", "its port is not a number from 1 to 65535"},
		{"http://a.test:0/", "its port is not a number from 1 to 65535"},
		{"<img/src=x>", "its host is no valid host name or IP address"},
		{"ftp://a.test/", "not an http(s) URL"},
		{"/relative", "not an http(s) URL"},
		{"http://a b/", "not a URL"},
	} {
		err := CheckName(tc.raw)
		if strings.Contains(tc.raw, "/") && tc.raw[0] != '<' {
			_, err = Parse(tc.raw)
		}
		if got := Problem(tc.raw, err); got != tc.want {
			t.Errorf("Problem(%q, %v) = %q, want %q", tc.raw, err, got, tc.want)
		}
	}
}

// FuzzASCIIHostPort: the fast path of CheckName accepts only what Parse
// accepts.
func FuzzASCIIHostPort(f *testing.F) {
	for _, s := range []string{"a.test", "A.Test:8080", "1.2.3.4", "1.2.3", "0x1.test", "a.0x1f", "a..b", "a.test:0", "x_y-.z.", "a:65536"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if asciiHostPort(s) {
			if _, err := Parse("http://" + s + "/"); err != nil {
				t.Fatalf("asciiHostPort(%q) but Parse: %v", s, err)
			}
		}
	})
}
