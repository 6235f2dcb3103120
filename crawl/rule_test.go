package crawl

import (
	"slices"
	"testing"

	"sitesift/sites"
)

// TestSiteRuleOption: under the host-www rule, www.a.test and a.test are
// one site for the pages, the links and OPIC; under the host rule, two.
func TestSiteRuleOption(t *testing.T) {
	w := newWeb(t, map[string]map[string]resp{
		"www.a.test": {"/": {body: page("A", "http://a.test/more", "http://b.test/")}},
		"a.test":     {"/more": {body: page("More", "http://www.a.test/")}},
		"b.test":     {"/": {body: page("B", "http://www.a.test/")}},
	})
	for _, tc := range []struct {
		rule sites.Rule
		want []string
	}{
		{sites.RuleHostWWW, []string{"a.test", "b.test"}},
		{sites.RuleHost, []string{"a.test", "b.test", "www.a.test"}},
	} {
		r := crawl(t, w, []string{"http://www.a.test/"}, SiteRule(tc.rule))
		if r.err != nil {
			t.Fatal(r.err)
		}
		var got []string
		for _, p := range r.pages {
			if !slices.Contains(got, p.Site) {
				got = append(got, p.Site)
			}
			if s, _ := tc.rule.Of(p.URL); s != p.Site {
				t.Errorf("%s: page %s has site %q, the rule says %q", tc.rule, p.URL, p.Site, s)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: sites %v, want %v", tc.rule, got, tc.want)
		}
		var states []string
		for _, s := range r.states[len(r.states)-1] {
			states = append(states, s.Site)
		}
		slices.Sort(states)
		if !slices.Equal(states, tc.want) {
			t.Errorf("%s: OPIC sites %v, want %v", tc.rule, states, tc.want)
		}
	}
	if _, err := New(SiteRule("nosuch")); err == nil {
		t.Error("an unknown rule was accepted")
	}
}
