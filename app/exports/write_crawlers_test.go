package exports

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"sitesift/app/fault"
	"sitesift/app/review"
	"sitesift/sites"
)

// TestWriteBrowsertrixConfig: each seed's scope is its site under the
// project's rule; the host-www scope's expression takes the site with and
// without www. and nothing else; strings are quoted so that any character
// survives; exclusions and the user agent, as the suffix the crawler
// appends to its browser's own, are written.
func TestWriteBrowsertrixConfig(t *testing.T) {
	seed := func(site string) review.SelectedSeed {
		return review.SelectedSeed{SeedURL: sites.HomeURL(site), SelectedSite: review.SelectedSite{Selection: review.Selection{Site: site}}}
	}
	e := CrawlerExport{Seeds: []review.SelectedSeed{seed("iana.org"), seed("a.test:8080")}, Rule: sites.RuleHostWWW,
		Exclude: []string{`\.pdf$`, `calendar\?`}, UserAgent: `bot/1 "quoted" (+mailto:x@y)`}
	var b strings.Builder
	if err := WriteBrowsertrixConfig(&b, e); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"seeds:\n", `  - url: "http://iana.org/"` + "\n    scopeType: custom\n",
		"exclude:\n  - \"\\\\.pdf$\"\n", `userAgentSuffix: "bot/1 \"quoted\" (+mailto:x@y)"`} {
		if !strings.Contains(out, want) {
			t.Errorf("config lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\nuserAgent:") {
		t.Errorf("config replaces the browser's user agent:\n%s", out)
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

// exportedExpressions returns the include and exclude expressions of a
// browsertrix-crawler configuration as sitesift writes it, in order.
func exportedExpressions(t *testing.T, config string) []string {
	t.Helper()
	var out []string
	inExclude := false
	for _, l := range strings.Split(config, "\n") {
		var v string
		switch {
		case l == "exclude:":
			inExclude = true
			continue
		case !strings.HasPrefix(l, " "):
			inExclude = false
			continue
		case strings.HasPrefix(l, "    include: "):
			v = strings.TrimPrefix(l, "    include: ")
		case inExclude && strings.HasPrefix(l, "  - "):
			v = strings.TrimPrefix(l, "  - ")
		default:
			continue
		}
		var s string
		if err := json.Unmarshal([]byte(v), &s); err != nil {
			t.Fatalf("expression %s: %v", v, err)
		}
		out = append(out, s)
	}
	return out
}

// TestBrowsertrixExpressionsInNode: every include and exclude expression
// of the exported configuration compiles with JavaScript's RegExp as
// browsertrix-crawler compiles it (new RegExp(source), no flag) and
// matches the sample strings exactly as the Go expression it comes from
// does: a leading (?i), \A and \z, (?m), (?s), lazy and counted
// repetition, POSIX classes and the crawl's own scope expression.
func TestBrowsertrixExpressionsInNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH: the exported expressions cannot be compiled with JavaScript's RegExp here")
	}
	excludes := []string{`(?i)\.PDF$`, `\Ahttps?://[^/]+/calendar\z`, `calendar\?`, `(?i)/(log(in|out)|Admin)/`,
		`(?m)^http://a\.test/x$`, `(?s)a.b`, `a.b`, `\bfoo\b`, `(?i)[a-c]+\d{2,3}?z`, `[[:upper:]]{2}`,
		`[^/]+\.test/?$`, `(?U)a+b`, `x*?y|(?i:Q)`, `\x{e9}t\x{e9}`, `(?i)stra\x{DF}e`, `^$`, `(?i)k`, `^[^a-c/]+$`, `\S\s\W`, `[^\n]x`}
	seed := func(site string) review.SelectedSeed {
		return review.SelectedSeed{SeedURL: sites.HomeURL(site), SelectedSite: review.SelectedSite{Selection: review.Selection{Site: site}}}
	}
	e := CrawlerExport{Seeds: []review.SelectedSeed{seed("iana.org"), seed("a.test:8080")}, Rule: sites.RuleHostWWW, Exclude: excludes}
	var b strings.Builder
	if err := WriteBrowsertrixConfig(&b, e); err != nil {
		t.Fatal(err)
	}
	got := exportedExpressions(t, b.String())
	originals := []string{}
	for _, s := range e.Seeds {
		_, inc := browsertrixScope(s.Site, e.Rule)
		originals = append(originals, inc)
	}
	originals = append(originals, excludes...)
	if len(got) != len(originals) {
		t.Fatalf("%d expressions exported, want %d:\n%s", len(got), len(originals), b.String())
	}
	inputs := []string{"", "http://iana.org/", "https://www.iana.org/domains", "http://iana.org", "http://notiana.org/",
		"http://iana.org.evil.test/", "http://a.test:8080/x", "http://a.test/x", "http://a.test/report.pdf",
		"http://a.test/REPORT.PDF", "http://a.test/Report.Pdf?x=1", "http://a.test/pdf", "https://a.test/calendar",
		"https://a.test/calendar/", "http://a.test/calendar?d=1", "Ahttps://a.test/calendarz", "http://a.test/LOGIN/",
		"http://a.test/logout/", "http://a.test/admin/", "http://a.test/x\nhttp://a.test/x", "x\nhttp://a.test/x\ny",
		"a\nb", "a\rb", "axb", "a foo b", "afoob", "ab12z", "ABC123Z", "c99z", "http://A.test/", "http://aB.test",
		"aab", "xxy", "y", "q", "Q", "été", "ÉTÉ", "straße", "STRASSE", "K", "k", "\u212a", "http://x.test/~k"}
	payload, err := json.Marshal(map[string][]string{"res": got, "inputs": inputs})
	if err != nil {
		t.Fatal(err)
	}
	script := `let d='';process.stdin.on('data',c=>d+=c).on('end',()=>{const q=JSON.parse(d);` +
		`console.log(JSON.stringify(q.res.map(s=>{try{const r=new RegExp(s);return q.inputs.map(u=>r.test(u))}` +
		`catch(e){return String(e)}})))})`
	cmd := exec.Command(node, "-e", script)
	cmd.Stdin = bytes.NewReader(payload)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var results []json.RawMessage
	if err := json.Unmarshal(out, &results); err != nil {
		t.Fatalf("node's answer %s: %v", out, err)
	}
	for i, res := range results {
		var matches []bool
		if err := json.Unmarshal(res, &matches); err != nil {
			t.Errorf("%q, exported as %q: JavaScript's RegExp refuses it: %s", originals[i], got[i], res)
			continue
		}
		re := regexp.MustCompile(originals[i])
		for j, u := range inputs {
			if want := re.MatchString(u); matches[j] != want {
				t.Errorf("%q, exported as %q, on %q: JavaScript %v, Go %v", originals[i], got[i], u, matches[j], want)
			}
		}
	}
}

// TestBrowsertrixRefusesUntranslatable: an expression JavaScript's RegExp
// cannot say without its u flag (a character beyond U+FFFF, a Unicode
// class that holds some) is refused as a bad request naming it, and no
// file is written.
func TestBrowsertrixRefusesUntranslatable(t *testing.T) {
	for _, x := range []string{`\x{1F600}`, `\pN`, `[^\x{1F600}]`} {
		e := CrawlerExport{Seeds: []review.SelectedSeed{{SeedURL: "http://a.test/", SelectedSite: review.SelectedSite{Selection: review.Selection{Site: "a.test"}}}},
			Rule: sites.RuleHost, Exclude: []string{`\.pdf$`, x}}
		var b strings.Builder
		err := WriteBrowsertrixConfig(&b, e)
		if err == nil {
			t.Errorf("exclude %q: no error; wrote\n%s", x, b.String())
			continue
		}
		if fault.KindOf(err) != fault.KindInvalid || !strings.Contains(err.Error(), strconv.Quote(x)) {
			t.Errorf("exclude %q: error %v (%s), want a bad request naming it", x, err, fault.KindOf(err))
		}
		if b.Len() != 0 {
			t.Errorf("exclude %q: wrote %d bytes", x, b.Len())
		}
	}
}

// TestJSRegExpForms: the JavaScript forms the documentation promises, as a
// librarian reads them in the file.
func TestJSRegExpForms(t *testing.T) {
	for re, want := range map[string]string{
		`(?i)\.PDF$`:                  `\.[Pp][Dd][Ff]$`,
		`\Ahttps?://[^/]+/calendar\z`: `^https?:\/\/[^/]+\/calendar$`,
		`calendar\?`:                  `calendar\?`,
		`(?m)^a$`:                     `(?<![^\n])a(?![^\n])`,
	} {
		if got, err := JSRegExp(re); err != nil || got != want {
			t.Errorf("JSRegExp(%q) = %q, %v; want %q", re, got, err, want)
		}
	}
}
