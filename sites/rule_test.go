package sites

import "testing"

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
