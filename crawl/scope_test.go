package crawl

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"sitesift/sites"
)

func TestRepeats(t *testing.T) {
	for path, want := range map[string]bool{
		"a/a/a": true, "a/b/a/b/a/b": true, "x/a/b/c/a/b/c/a/b/c/y": true, "a/b/a/b": false,
		"a/b/c/d": false, "2024/05/05/05": true, "a//": false, "docs/api/v1/api/v1": false,
	} {
		if got := repeats(strings.Split(path, "/")); got != want {
			t.Errorf("repeats(%q) = %v, want %v", path, got, want)
		}
	}
}

func TestTrapGuard(t *testing.T) {
	g := newTrapGuard(config{maxPathDepth: 4, maxQueryVariants: 3, maxCalendar: 2, clock: newStepClock(at2026)})
	check := func(raw string) string {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		return g.check("a.test", u)
	}
	for _, tc := range []struct{ url, want string }{
		{"http://a.test/1/2/3/4", ""},
		{"http://a.test/1/2/3/4/5", DropPathDepth},
		{"http://a.test/x/y/x/y/x/y", DropRepeats},
		{"http://a.test/list?p=1", ""}, {"http://a.test/list?p=2", ""}, {"http://a.test/list?p=3", ""},
		{"http://a.test/list?p=4", DropQueries},
		{"http://a.test/other?p=4", ""},
		{"http://a.test/cal/2031/05/", DropCalendar},
		{"http://a.test/cal/1925-01", DropCalendar},
		{"http://a.test/news/2025/03/story.html", ""},
		{"http://a.test/cal?year=2026&month=2", ""},
		{"http://a.test/news/2024/11/other.html", DropCalendar}, // the site's 2 dated URLs are taken
		{"http://a.test/about/team-2020s", ""},
	} {
		if got := check(tc.url); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.url, got, tc.want)
		}
	}
}

// TestCalendarYears: any four-digit year of a date is measured against
// the crawl's clock (mid-2026 here): a date more than a year ahead or more
// than a century back is refused, whatever its century, in the path or
// the query; four-digit numbers that are no dates pass, and do not count
// towards the site's dated URLs.
func TestCalendarYears(t *testing.T) {
	g := newTrapGuard(config{maxPathDepth: 16, maxQueryVariants: 100, maxCalendar: 100, clock: newStepClock(at2026)})
	for _, tc := range []struct{ url, want string }{
		{"http://a.test/cal/2135/01/02/", DropCalendar},
		{"http://a.test/cal/2135/01/", DropCalendar},
		{"http://a.test/calendar/2912-05", DropCalendar},
		{"http://a.test/events?date=2135-01-02", DropCalendar},
		{"http://a.test/cal/1234/05/", DropCalendar},
		{"http://a.test/events?date=1234-05-06&view=day", DropCalendar},
		{"http://a.test/archive?year=1234", DropCalendar},
		{"http://a.test/cal/9999-12", DropCalendar},
		{"http://a.test/cal/2028/01/", DropCalendar}, // two years ahead
		{"http://a.test/cal/1925/12/", DropCalendar}, // a century and a year back
		// Within a year ahead and a century back.
		{"http://a.test/cal/2027/12/31/", ""},
		{"http://a.test/cal/1926-01", ""},
		{"http://a.test/news/1985/03/story.html", ""},
		{"http://a.test/events?date=2026-11-27", ""},
		{"http://a.test/events?year=2027", ""},
		// Four digits that are no date.
		{"http://a.test/product/4711", ""},
		{"http://a.test/product/4711/2", ""},
		{"http://a.test/id/1234567", ""},
		{"http://a.test/id/12345/06/", ""},
		{"http://a.test/release/1234.10/", ""},
		{"http://a.test/shop/4711-123", ""},
		{"http://a.test/item?id=4711&page=12", ""},
		{"http://a.test:2135/x/", ""},
	} {
		u, err := url.Parse(tc.url)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.check("a.test", u); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.url, got, tc.want)
		}
	}
	if n := g.calendar["a.test"]; n != 5 {
		t.Errorf("%d dated URLs counted, want the 5 followed", n)
	}
}

// TestScope: a crawl fetches its scope only, and links out of it still
// weigh in the site graph; MaxHops, MaxDepth, Include and Exclude widen or
// narrow it.
func TestScope(t *testing.T) {
	w := newWeb(t, map[string]map[string]resp{
		"a.test": {
			"/":          {body: page("A", "/docs/", "/blog/", "http://b.test/", "http://www.a.test/")},
			"/docs/":     {body: page("Docs", "/docs/one", "/blog/")},
			"/docs/one":  {body: page("One", "/docs/two")},
			"/docs/two":  {body: page("Two")},
			"/blog/":     {body: page("Blog", "/blog/post")},
			"/blog/post": {body: page("Post")},
		},
		"www.a.test": {"/": {body: page("WWW A")}},
		"b.test":     {"/": {body: page("B", "http://c.test/")}},
		"c.test":     {"/": {body: page("C")}},
	})
	fetched := func(r *result) string {
		var got []string
		for _, p := range r.pages {
			got = append(got, strings.TrimPrefix(p.URL, "http://"))
		}
		slices.Sort(got)
		return strings.Join(got, " ")
	}
	for _, tc := range []struct {
		name  string
		seed  string
		opts  []Option
		want  string
		drops map[string]int
	}{
		{"host", "http://a.test/", []Option{Scope(ScopeHost)},
			"a.test/ a.test/blog/ a.test/blog/post a.test/docs/ a.test/docs/one a.test/docs/two", map[string]int{DropOutOfScope: 2}},
		{"domain", "http://a.test/", []Option{Scope(ScopeDomain)},
			"a.test/ a.test/blog/ a.test/blog/post a.test/docs/ a.test/docs/one a.test/docs/two www.a.test/", map[string]int{DropOutOfScope: 1}},
		{"prefix", "http://a.test/docs/", []Option{Scope(ScopePrefix)},
			"a.test/docs/ a.test/docs/one a.test/docs/two", map[string]int{DropOutOfScope: 1}},
		{"page", "http://a.test/docs/", []Option{Scope(ScopePage)}, "a.test/docs/", map[string]int{DropOutOfScope: 2}},
		{"one hop", "http://a.test/docs/", []Option{Scope(ScopePrefix), MaxHops(1)},
			"a.test/blog/ a.test/docs/ a.test/docs/one a.test/docs/two", map[string]int{DropOutOfScope: 1}},
		{"depth", "http://a.test/", []Option{MaxDepth(1)},
			"a.test/ a.test/blog/ a.test/docs/ b.test/ www.a.test/", map[string]int{DropTooDeep: 3}},
		{"include and exclude", "http://a.test/docs/", []Option{Scope(ScopePrefix), Include(`/blog/`), Exclude(`/docs/two$`)},
			"a.test/blog/ a.test/blog/post a.test/docs/ a.test/docs/one", map[string]int{DropOutOfScope: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := crawl(t, w, []string{tc.seed}, tc.opts...)
			if r.err != nil {
				t.Fatal(r.err)
			}
			if got := fetched(r); got != tc.want {
				t.Errorf("fetched %s\n      want %s", got, tc.want)
			}
			if fmt.Sprint(r.status.Dropped) != fmt.Sprint(tc.drops) {
				t.Errorf("dropped %v, want %v", r.status.Dropped, tc.drops)
			}
		})
	}
	// Out of scope, b.test is not fetched but its link weighs: it has OPIC.
	r := crawl(t, w, []string{"http://a.test/"}, Scope(ScopeHost))
	last := r.states[len(r.states)-1]
	if !slices.ContainsFunc(last, func(s sites.SiteState) bool { return s.Site == "b.test" && s.Cash+s.History > 0 && s.OutOfScope == 1 }) {
		t.Errorf("the out-of-scope site b.test has no importance, or no URL counted out of scope: %+v", last)
	}
	if _, err := New(Scope("planet")); err == nil {
		t.Error("an unknown scope was accepted")
	}
	if _, err := New(Include("(")); err == nil {
		t.Error("a bad expression was accepted")
	}
}

// TestTrapWeb: an endless calendar and ever deeper paths end within the
// guards, counted. The calendar also links a century ahead and centuries
// back, to months that go on month after month: those are refused at once.
func TestTrapWeb(t *testing.T) {
	cal := map[string]resp{"/": {body: page("Home", "/cal/2026/01/", "/deep/x/", "/cal/2135/01/", "/cal/1234/01/")}}
	for _, from := range []int{2026, 2135, 1234} {
		for y := from; y <= from+4; y++ {
			for m := 1; m <= 12; m++ {
				next := fmt.Sprintf("/cal/%d/%02d/", y, m%12+1)
				if m == 12 {
					next = fmt.Sprintf("/cal/%d/01/", y+1)
				}
				cal[fmt.Sprintf("/cal/%d/%02d/", y, m)] = resp{body: page("Month", next)}
			}
		}
	}
	deep := "/deep/x/"
	for i := 0; i < 30; i++ {
		cal[deep] = resp{body: page("Deeper", deep+fmt.Sprint(i)+"/")}
		deep += fmt.Sprint(i) + "/"
	}
	w := newWeb(t, map[string]map[string]resp{"trap.test": cal})
	r := crawl(t, w, []string{"http://trap.test/"}, TrapGuards(8, 100, 10), WithClock(newStepClock(at2026)))
	if r.err != nil {
		t.Fatal(r.err)
	}
	st := r.status
	if st.Dropped[DropCalendar] != 3 || st.Dropped[DropPathDepth] != 1 || st.PagesOK != 1+10+7 {
		t.Errorf("trap web: %d pages, dropped %v; want the calendar cut at 10 months, 2135 and 1234 refused and the path at 8 segments",
			st.PagesOK, st.Dropped)
	}
}
