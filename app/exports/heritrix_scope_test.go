package exports

import (
	"net"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"sitesift/app/review"
	"sitesift/sites"
)

// heritrixScope is the scope Heritrix's SurtPrefixedDecideRule takes from
// a seeds file, read as its SurtPrefixSet.importFromMixed reads one with
// seedsAsSurtPrefixes on (the default): comment lines and trailing
// comments dropped; a "+" line holding a "(" is a SURT prefix as given,
// lower-cased; any other line is a seed, whose implied prefix is its SURT
// form cut after the last slash (or, with no path, with its closing ")"
// dropped), https taken as http.
type heritrixScope []string

var heritrixEntry = regexp.MustCompile(`^\s*(\S+)\s*(#.*)?$`)

func readHeritrixSeeds(t *testing.T, file string) heritrixScope {
	t.Helper()
	var p heritrixScope
	for _, l := range strings.Split(file, "\n") {
		if regexp.MustCompile(`^\s*#`).MatchString(l) {
			continue
		}
		m := heritrixEntry.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		e := m[1]
		if d, ok := strings.CutPrefix(e, "+"); ok {
			if strings.Index(d, "(") > 0 {
				p = append(p, strings.ToLower(d))
				continue
			}
			e = d
		}
		s := testSURT(t, e)
		if strings.Count(s, "/") >= 3 {
			s = regexp.MustCompile(`^(.*//.*/)[^/]*`).ReplaceAllString(s, "$1")
		}
		if !strings.HasSuffix(s, "/") {
			s = strings.TrimSuffix(s, ")")
		}
		p = append(p, s)
	}
	return p
}

// in says whether Heritrix's rule accepts u: a prefix of the set starts
// its SURT form, https taken as http.
func (p heritrixScope) in(t *testing.T, u string) bool {
	c := testSURT(t, u)
	for _, x := range p {
		if strings.HasPrefix(c, x) {
			return true
		}
	}
	return false
}

// testSURT is Heritrix's SURT form of u, https coerced to http:
// "http://(org,example,www,:8080)/path?q"; an IPv4 address is not
// reversed and the scheme's default port is dropped, as UURI drops it.
func testSURT(t *testing.T, u string) string {
	t.Helper()
	if !strings.Contains(u, "://") {
		u = "http://" + u
	}
	pu, err := url.Parse(u)
	if err != nil {
		t.Fatalf("SURT of %q: %v", u, err)
	}
	host, port := strings.ToLower(pu.Hostname()), pu.Port()
	if (pu.Scheme == "http" && port == "80") || (pu.Scheme == "https" && port == "443") {
		port = ""
	}
	var b strings.Builder
	b.WriteString("http://(")
	if ip := net.ParseIP(host); ip != nil && ip.To4() != nil {
		b.WriteString(host)
	} else {
		parts := strings.Split(host, ".")
		for i := len(parts) - 1; i >= 0; i-- {
			b.WriteString(parts[i] + ",")
		}
	}
	if port != "" {
		b.WriteString(":" + port)
	}
	b.WriteString(")")
	b.WriteString(pu.EscapedPath())
	if pu.RawQuery != "" {
		b.WriteString("?" + pu.RawQuery)
	}
	return b.String()
}

// TestHeritrixSeedsScopeWholeSites: read as Heritrix reads it, the seeds
// file of approved sites whose seed is a deep article covers each whole
// site under the project's rule, http and https, and no other site, as the
// Browsertrix export scopes them.
func TestHeritrixSeedsScopeWholeSites(t *testing.T) {
	seed := func(site, u string) review.SelectedSeed {
		return review.SelectedSeed{SeedURL: u, SelectedSite: review.SelectedSite{Selection: review.Selection{Site: site}}, Checked: true}
	}
	cnnArticle := "https://www.cnn.com/2019/11/18/investing/asian-market-latest/index.html"
	for _, c := range []struct {
		rule    sites.Rule
		seeds   []review.SelectedSeed
		in, out []string
	}{
		{sites.RuleHostWWW,
			[]review.SelectedSeed{seed("cnn.com", cnnArticle), seed("a.test:8080", "http://a.test:8080/blog/2020/post.html"), seed("10.0.0.7", "http://10.0.0.7/x/y")},
			[]string{"https://www.cnn.com/", "http://cnn.com/2020/politics/x.html", "https://www.cnn.com/2019/11/19/world/index.html",
				"http://a.test:8080/", "http://a.test:8080/about", "http://www.a.test:8080/z", "http://10.0.0.7/", "http://10.0.0.7/other"},
			[]string{"https://edition.cnn.com/", "http://cnn.com.evil.test/", "http://notcnn.com/", "http://a.test/", "http://a.test:9090/",
				"http://10.0.0.70/", "http://bbc.co.uk/"}},
		{sites.RuleHost,
			[]review.SelectedSeed{seed("www.cnn.com", cnnArticle)},
			[]string{"https://www.cnn.com/", "http://www.cnn.com/2020/politics/x.html"},
			[]string{"https://cnn.com/", "https://edition.cnn.com/2020/", "http://www.cnn.com.evil.test/"}},
		{sites.RuleDomain,
			[]review.SelectedSeed{seed("cnn.com", cnnArticle), seed("bbc.co.uk", "https://www.bbc.co.uk/news/world-123")},
			[]string{"https://www.cnn.com/", "http://cnn.com/2020/x", "https://edition.cnn.com/2020/politics/", "http://news.bbc.co.uk/sport",
				"https://bbc.co.uk/"},
			[]string{"http://cnn.com.evil.test/", "http://notcnn.com/", "http://co.uk/", "http://nbc.co.uk/"}},
	} {
		var b strings.Builder
		if err := WriteHeritrixSeeds(&b, CrawlerExport{Seeds: c.seeds, Rule: c.rule}); err != nil {
			t.Fatal(err)
		}
		file := b.String()
		for _, s := range c.seeds {
			if !strings.Contains(file, "\n"+s.SeedURL+"\n") {
				t.Errorf("rule %s: the seed %s is not a line of\n%s", c.rule, s.SeedURL, file)
			}
		}
		scope := readHeritrixSeeds(t, file)
		for _, u := range c.in {
			if !scope.in(t, u) {
				t.Errorf("rule %s: %s is out of the scope of\n%s", c.rule, u, file)
			}
		}
		for _, u := range c.out {
			if scope.in(t, u) {
				t.Errorf("rule %s: %s is in the scope of\n%s", c.rule, u, file)
			}
		}
		// Browsertrix scopes the same sites: its custom expression, or its
		// host or domain scope, takes the same URLs.
		for _, u := range append(append([]string{}, c.in...), c.out...) {
			bt := false
			h, _ := url.Parse(u)
			for _, s := range c.seeds {
				scope, include := browsertrixScope(s.Site, c.rule)
				su, _ := url.Parse(s.SeedURL)
				switch scope {
				case "custom":
					bt = bt || regexp.MustCompile(include).MatchString(u)
				case "host":
					bt = bt || h.Host == su.Host
				case "domain":
					bt = bt || h.Hostname() == s.Site || strings.HasSuffix(h.Hostname(), "."+s.Site)
				}
			}
			if want := scope.in(t, u); bt != want {
				t.Errorf("rule %s: %s in Heritrix's scope %v, in Browsertrix's %v", c.rule, u, want, bt)
			}
		}
	}
}
