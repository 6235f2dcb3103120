package review

import (
	"reflect"
	"testing"

	"sitesift/importance"
)

// TestDisputedSites: the sites the librarians disagree on most are those
// rated two steps apart or more by two librarians or more, the widest
// spread first, then the most raters, then by name; at most maxDisputed.
func TestDisputedSites(t *testing.T) {
	sites := []string{"a.test", "b.test", "c.test", "d.test", "e.test", "f.test", "g.test", "h.test", "i.test"}
	r := importance.Ratings{Sites: sites, Librarians: []string{"ana", "ben", "cleo"}, R: [][]int{
		//  a  b  c  d  e  f  g  h  i
		{1, 4, 2, 3, 4, 1, 1, 1, 4},
		{4, 3, 4, 3, 1, 0, 3, 3, 0},
		{0, 2, 0, 3, 1, 4, 0, 3, 1},
	}}
	want := []DisputedSite{
		{Site: "e.test", Low: 1, High: 4, Raters: 3},
		{Site: "a.test", Low: 1, High: 4, Raters: 2},
		{Site: "f.test", Low: 1, High: 4, Raters: 2},
		{Site: "i.test", Low: 1, High: 4, Raters: 2},
		{Site: "b.test", Low: 2, High: 4, Raters: 3},
	}
	if got := disputedSites(r); !reflect.DeepEqual(got, want) {
		t.Errorf("disputedSites:\n got %+v\nwant %+v", got, want)
	}
	// One step apart is no dispute; one rating is no dispute either.
	calm := importance.Ratings{Sites: []string{"a.test", "b.test"}, Librarians: []string{"ana", "ben"}, R: [][]int{{3, 1}, {4, 0}}}
	if got := disputedSites(calm); got == nil || len(got) != 0 {
		t.Errorf("disputedSites of ratings one step apart = %#v, want an empty list", got)
	}
}
