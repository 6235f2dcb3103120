package app

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"sitesift/sites"
	"sitesift/sites/store"
)

// TestWriteBrowsertrixConfig: each seed's scope is its site under the
// project's rule; the host-www scope's expression takes the site with and
// without www. and nothing else; strings are quoted so that any character
// survives; exclusions and the user agent are written.
func TestWriteBrowsertrixConfig(t *testing.T) {
	seed := func(site string) SelectedSeed {
		return SelectedSeed{SeedURL: sites.HomeURL(site), SelectedSite: store.SelectedSite{Selection: store.Selection{Site: site}}}
	}
	e := CrawlerExport{Seeds: []SelectedSeed{seed("iana.org"), seed("a.test:8080")}, Rule: sites.RuleHostWWW,
		Exclude: []string{`\.pdf$`, `calendar\?`}, UserAgent: `bot/1 "quoted" (+mailto:x@y)`}
	var b strings.Builder
	if err := WriteBrowsertrixConfig(&b, e); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"seeds:\n", `  - url: "http://iana.org/"` + "\n    scopeType: custom\n",
		"exclude:\n  - \"\\\\.pdf$\"\n", `userAgent: "bot/1 \"quoted\" (+mailto:x@y)"`} {
		if !strings.Contains(out, want) {
			t.Errorf("config lacks %q:\n%s", want, out)
		}
	}
	// The include lines are JSON strings: decode them and try them.
	var incs []*regexp.Regexp
	for _, l := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "include: "); ok {
			var s string
			if err := json.Unmarshal([]byte(v), &s); err != nil {
				t.Fatalf("include %s: %v", v, err)
			}
			incs = append(incs, regexp.MustCompile(s))
		}
	}
	if len(incs) != 2 {
		t.Fatalf("%d include expressions, want 2", len(incs))
	}
	for _, c := range []struct {
		re   int
		url  string
		want bool
	}{
		{0, "http://iana.org/", true}, {0, "https://www.iana.org/domains", true}, {0, "http://iana.org", true},
		{0, "http://notiana.org/", false}, {0, "http://iana.org.evil.test/", false}, {0, "http://data.iana.org/", false},
		{1, "http://a.test:8080/x", true}, {1, "http://a.test/x", false},
	} {
		if got := incs[c.re].MatchString(c.url); got != c.want {
			t.Errorf("include %d on %s: %v, want %v", c.re, c.url, got, c.want)
		}
	}
	for rule, scope := range map[sites.Rule]string{sites.RuleHost: "host", sites.RuleDomain: "domain"} {
		if s, inc := browsertrixScope("x.test", rule); s != scope || inc != "" {
			t.Errorf("rule %s: scope %q %q, want %q", rule, s, inc, scope)
		}
	}
}
