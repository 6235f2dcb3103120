package review

import (
	"errors"
	"slices"
	"testing"

	"sitesift/app/fault"
	"sitesift/sites/store"
)

func TestClosestSites(t *testing.T) {
	names := []string{"9to5mac.net", "9to5google.com", "apple.com", "macrumors.com", "news.9to5mac.com", "a.com", "b.com"}
	for _, tc := range []struct {
		site string
		want []string
	}{
		// A typo and a subdomain of the same name; another site of the
		// family is too far.
		{"9to5mac.com", []string{"9to5mac.net", "news.9to5mac.com"}},
		{"9to5mac", []string{"9to5mac.net"}},
		{"aple.com", []string{"apple.com"}},
		{"c.com", []string{"a.com", "b.com"}},
		{"zzzzzzzz.org", []string{}},
	} {
		if got := ClosestSites(tc.site, names, MaxSiteSuggestions); !slices.Equal(got, tc.want) {
			t.Errorf("ClosestSites(%q) = %q, want %q", tc.site, got, tc.want)
		}
	}
}

func TestNoSiteError(t *testing.T) {
	err := fault.NotFound(&NoSiteError{Site: "9to5mac.com", Closest: []string{"9to5mac.net"}})
	if err.Error() != "no site 9to5mac.com in this project (did you mean 9to5mac.net?)" || !errors.Is(err, store.ErrNotFound) ||
		fault.KindOf(err) != fault.KindNotFound {
		t.Errorf("%v (%s)", err, fault.KindOf(err))
	}
	if err := (&NoSiteError{Site: "x.test"}); err.Error() != "no site x.test in this project" {
		t.Errorf("%v", err)
	}
}
