package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"sitesift/sites"
)

// ticking returns a clock that advances one second at every reading, so
// that times written by successive calls differ.
func ticking() func() time.Time {
	t := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	return func() time.Time {
		t = t.Add(time.Second)
		return t
	}
}

func ptr(s string) *string { return &s }

func TestLibrarianProfiles(t *testing.T) {
	t.Parallel()
	s := openFixture(t, WithClock(ticking()))
	ctx := context.Background()
	l, created, err := s.AddLibrarian(ctx, "zoé")
	if err != nil || !created || l.Name != "zoé" || l.Ratings != 0 || l.CreatedAt.IsZero() {
		t.Fatalf("AddLibrarian = %+v, %v, %v", l, created, err)
	}
	again, created, err := s.AddLibrarian(ctx, "zoé")
	if err != nil || created || !again.CreatedAt.Equal(l.CreatedAt) {
		t.Errorf("second AddLibrarian = %+v, %v, %v; want the first profile, not created", again, created, err)
	}
	if _, err := s.SetRating(ctx, "ana", "a.test", 3, ""); err != nil {
		t.Fatal(err)
	}
	ls, err := s.LibrarianProfiles(ctx)
	if err != nil || len(ls) != 2 || ls[0].Name != "ana" || ls[0].Ratings != 1 || ls[1].Name != "zoé" {
		t.Errorf("LibrarianProfiles = %+v, %v", ls, err)
	}
	for _, bad := range []string{"", "  ", " ana", "ana\t", "a\nb", strings.Repeat("x", MaxLibrarianName+1), "\xff"} {
		if _, _, err := s.AddLibrarian(ctx, bad); !errors.Is(err, ErrInvalid) {
			t.Errorf("AddLibrarian(%q) = %v, want ErrInvalid", bad, err)
		}
	}
	if _, err := s.LibrarianProfile(ctx, "nobody"); !errors.Is(err, ErrNotFound) {
		t.Errorf("LibrarianProfile(nobody) = %v, want ErrNotFound", err)
	}
}

func TestSelectionTransitions(t *testing.T) {
	t.Parallel()
	all := Statuses()
	allowed := map[[2]string]bool{
		{"candidate", "nominated"}: true, {"nominated", "approved"}: true, {"rejected", "candidate"}: true,
		{"candidate", "rejected"}: true, {"nominated", "rejected"}: true, {"approved", "rejected"}: true,
	}
	for _, from := range all {
		for _, to := range all {
			want := from == to || allowed[[2]string{from, to}]
			if got := CanMove(from, to); got != want {
				t.Errorf("CanMove(%s, %s) = %v, want %v", from, to, got, want)
			}
		}
	}
}

func TestSetSelection(t *testing.T) {
	t.Parallel()
	s := openFixture(t, WithClock(ticking()))
	ctx := context.Background()

	sel, err := s.Selection(ctx, "a.test")
	if err != nil || sel.Status != StatusCandidate || sel.DecidedBy != "" || !sel.DecidedAt.IsZero() {
		t.Fatalf("fresh selection = %+v, %v", sel, err)
	}
	// A note on a candidate is no decision.
	sel, err = s.SetSelection(ctx, "a.test", SelectionUpdate{Librarian: "ana", Status: StatusCandidate, Note: ptr("look again")})
	if err != nil || sel.Note != "look again" || sel.DecidedBy != "" {
		t.Fatalf("note on a candidate = %+v, %v", sel, err)
	}
	if _, err := s.SetSelection(ctx, "a.test", SelectionUpdate{Librarian: "ana", Status: StatusApproved}); !errors.Is(err, ErrTransition) {
		t.Errorf("candidate → approved: %v, want ErrTransition", err)
	}
	nominated, err := s.SetSelection(ctx, "a.test", SelectionUpdate{Librarian: "ana", Status: StatusNominated, Subject: ptr("science")})
	if err != nil || nominated.Status != StatusNominated || nominated.DecidedBy != "ana" || nominated.DecidedAt.IsZero() ||
		nominated.Note != "look again" || nominated.Subject != "science" { // the note kept
		t.Fatalf("nominate = %+v, %v", nominated, err)
	}
	// Editing the note keeps who decided and when.
	edited, err := s.SetSelection(ctx, "a.test", SelectionUpdate{Librarian: "ben", Status: StatusNominated, Note: ptr("n"), Subject: ptr("science")})
	if err != nil || edited.DecidedBy != "ana" || !edited.DecidedAt.Equal(nominated.DecidedAt) || edited.Note != "n" {
		t.Errorf("edit = %+v, %v; want decided by ana at %v", edited, err, nominated.DecidedAt)
	}
	approved, err := s.SetSelection(ctx, "a.test", SelectionUpdate{Librarian: "ben", Status: StatusApproved, Subject: ptr("science")})
	if err != nil || approved.DecidedBy != "ben" || !approved.DecidedAt.After(nominated.DecidedAt) {
		t.Errorf("approve = %+v, %v", approved, err)
	}
	if _, err := s.SetSelection(ctx, "a.test", SelectionUpdate{Librarian: "ben", Status: StatusCandidate}); !errors.Is(err, ErrTransition) {
		t.Errorf("approved → candidate: %v, want ErrTransition", err)
	}
	for _, st := range []string{StatusRejected, StatusCandidate} {
		if _, err := s.SetSelection(ctx, "b.test", SelectionUpdate{Librarian: "ana", Status: st}); err != nil {
			t.Errorf("b.test → %s: %v", st, err)
		}
	}
	if _, err := s.SetSelection(ctx, "c.test", SelectionUpdate{Librarian: "ana", Status: StatusRejected, Note: ptr("spam")}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		site string
		u    SelectionUpdate
		want error
	}{
		{"nowhere.test", SelectionUpdate{Librarian: "ana", Status: StatusNominated}, ErrNotFound},
		{"a.test", SelectionUpdate{Librarian: "", Status: StatusRejected}, ErrInvalid},
		{"a.test", SelectionUpdate{Librarian: "ana", Status: "maybe"}, ErrInvalid},
		{"a.test", SelectionUpdate{Librarian: "ana", Status: StatusRejected, Note: ptr(strings.Repeat("é", MaxNote+1))}, ErrInvalid},
	} {
		if _, err := s.SetSelection(ctx, tc.site, tc.u); !errors.Is(err, tc.want) {
			t.Errorf("SetSelection(%s, %+v) = %v, want %v", tc.site, tc.u, err, tc.want)
		}
	}

	ap, err := s.Selections(ctx, StatusApproved)
	if err != nil || len(ap) != 1 || ap[0].Site != "a.test" || ap[0].Subject != "science" || math.Abs(ap[0].OPIC-0.2) > 1e-12 {
		t.Errorf("approved = %+v, %v", ap, err)
	}
	rej, err := s.Selections(ctx, StatusRejected)
	if err != nil || len(rej) != 1 || rej[0].Site != "c.test" || rej[0].Note != "spam" {
		t.Errorf("rejected = %+v, %v", rej, err)
	}
	cand, err := s.Selections(ctx, StatusCandidate)
	if err != nil || len(cand) != 1 || cand[0].Site != "b.test" || cand[0].DecidedBy != "ana" {
		t.Errorf("candidates with a row = %+v, %v; want the reopened b.test", cand, err)
	}
	if _, err := s.Selections(ctx, "all"); !errors.Is(err, ErrInvalid) {
		t.Errorf("Selections(all) = %v, want ErrInvalid", err)
	}
	st, err := s.SelectionStatuses(ctx)
	if err != nil || len(st) != 3 || st["a.test"] != StatusApproved || st["c.test"] != StatusRejected {
		t.Errorf("statuses = %v, %v", st, err)
	}
}

func TestImportRatings(t *testing.T) {
	t.Parallel()
	s := openFixture(t, WithClock(ticking()))
	ctx := context.Background()
	if _, err := s.SetRating(ctx, "ana", "a.test", 2, "old"); err != nil {
		t.Fatal(err)
	}
	before, err := s.Ratings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	file := []Rating{
		{Librarian: "ana", Site: "a.test", Rating: 2, Note: "old"}, // unchanged
		{Librarian: "ana", Site: "b.test", Rating: 4},              // added
		{Librarian: "cleo", Site: "hub.test", Rating: 3, Note: "x"},
		{Librarian: "cleo", Site: "hub.test", Rating: 3, Note: "x"}, // an equal repeat
	}
	res, err := s.ImportRatings(ctx, file)
	if err != nil {
		t.Fatal(err)
	}
	if res.Rows != 4 || res.Added != 2 || res.Changed != 0 || res.Unchanged != 2 || !slices.Equal(res.NewLibrarians, []string{"cleo"}) {
		t.Errorf("first import = %+v", res)
	}
	first, _ := s.Ratings(ctx)
	if first[0].Site != "a.test" || !first[0].RatedAt.Equal(before[0].RatedAt) {
		t.Errorf("unchanged rating's rated_at moved: %v → %v", before[0].RatedAt, first[0].RatedAt)
	}
	// The same file again changes nothing at all.
	res, err = s.ImportRatings(ctx, file)
	if err != nil || res.Added != 0 || res.Changed != 0 || res.Unchanged != 4 || len(res.NewLibrarians) != 0 {
		t.Errorf("second import = %+v, %v", res, err)
	}
	if again, _ := s.Ratings(ctx); !slices.Equal(again, first) {
		t.Errorf("second import changed the ratings:\n%v\n%v", first, again)
	}
	// A changed note is a change.
	res, err = s.ImportRatings(ctx, []Rating{{Librarian: "ana", Site: "a.test", Rating: 2, Note: "new"}})
	if err != nil || res.Changed != 1 {
		t.Errorf("changed note = %+v, %v", res, err)
	}

	// Unknown sites refuse the whole import and name every row.
	_, err = s.ImportRatings(ctx, []Rating{
		{Librarian: "dan", Site: "gone.test", Rating: 1},
		{Librarian: "dan", Site: "a.test", Rating: 1},
		{Librarian: "eve", Site: "gone.test", Rating: 2},
		{Librarian: "dan", Site: "lost.test", Rating: 2},
	})
	var us *UnknownSitesError
	if !errors.As(err, &us) || !errors.Is(err, ErrNotFound) || !slices.Equal(us.Rows, []int{0, 2, 3}) ||
		!slices.Equal(us.Sites, []string{"gone.test", "lost.test"}) {
		t.Errorf("unknown sites: %v (%+v)", err, us)
	}
	for _, bad := range [][]Rating{
		{{Librarian: "dan", Site: "a.test", Rating: 5}},
		{{Librarian: " dan", Site: "a.test", Rating: 1}},
		{{Librarian: "dan", Site: "", Rating: 1}},
		{{Librarian: "dan", Site: "a.test", Rating: 1}, {Librarian: "dan", Site: "a.test", Rating: 2}},
	} {
		if _, err := s.ImportRatings(ctx, bad); !errors.Is(err, ErrInvalid) {
			t.Errorf("ImportRatings(%+v) = %v, want ErrInvalid", bad, err)
		}
	}
	if ls, _ := s.Librarians(ctx); slices.Contains(ls, "dan") || slices.Contains(ls, "eve") {
		t.Errorf("a refused import added librarians: %v", ls)
	}
	if unk, err := s.UnknownSites(ctx, []string{"a.test", "zz.test", "zz.test", "b.test"}); err != nil || !slices.Equal(unk, []string{"zz.test"}) {
		t.Errorf("UnknownSites = %v, %v", unk, err)
	}
}

func TestOPICSnapshots(t *testing.T) {
	t.Parallel()
	s := openTest(t, WithClock(ticking()))
	ctx := context.Background()
	if wrote, err := s.SnapshotOPIC(ctx); err != nil || wrote {
		t.Fatalf("snapshot of an empty project = %v, %v; want none", wrote, err)
	}
	fixture(t, s) // 5 pages; OPIC hub 5, a 2, b 2, c 1 of 10
	if wrote, err := s.SnapshotOPIC(ctx); err != nil || !wrote {
		t.Fatal(wrote, err)
	}
	save(t, s, []sites.Page{page(t, "http://d.test/", "http://a.test/")},
		[]sites.SiteState{state("a.test", 3, 3), state("d.test", 0, 4)}) // 6 pages; a 6, d 4 of 18
	if _, err := s.SnapshotOPIC(ctx); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		site string
		want []float64
	}{{"a.test", []float64{0.2, 6.0 / 18}}, {"d.test", []float64{0, 4.0 / 18}}, {"hub.test", []float64{0.5, 5.0 / 18}}} {
		series, err := s.OPICSeries(ctx, tc.site)
		if err != nil || len(series) != 2 || series[0].Pages != 5 || series[1].Pages != 6 || !series[1].At.After(series[0].At) {
			t.Fatalf("series of %s = %+v, %v", tc.site, series, err)
		}
		for i, p := range series {
			if math.Abs(p.OPIC-tc.want[i]) > 1e-12 {
				t.Errorf("%s at %d pages = %v, want %v", tc.site, p.Pages, p.OPIC, tc.want[i])
			}
		}
	}
	if _, err := s.OPICSeries(ctx, "nowhere.test"); !errors.Is(err, ErrNotFound) {
		t.Errorf("series of an unknown site: %v", err)
	}

	// A snapshot at the same page count replaces the last one.
	save(t, s, nil, []sites.SiteState{state("d.test", 0, 22)}) // d 22 of 36
	if _, err := s.SnapshotOPIC(ctx); err != nil {
		t.Fatal(err)
	}
	series, _ := s.OPICSeries(ctx, "d.test")
	if len(series) != 2 || math.Abs(series[1].OPIC-22.0/36) > 1e-12 {
		t.Errorf("after a second snapshot at 6 pages: %+v", series)
	}

	// Past the bound, every other snapshot goes; the first and newest stay.
	for i := range 3 * MaxOPICSnapshots {
		save(t, s, []sites.Page{page(t, "http://e.test/"+strings.Repeat("x", i+1))}, nil)
		if _, err := s.SnapshotOPIC(ctx); err != nil {
			t.Fatal(err)
		}
		var n, orphans int
		s.db.QueryRow(`SELECT COUNT(*) FROM opic_snapshots`).Scan(&n)
		s.db.QueryRow(`SELECT COUNT(*) FROM opic_snapshot_sites v
			WHERE NOT EXISTS (SELECT 1 FROM opic_snapshots s WHERE s.id = v.snapshot_id)`).Scan(&orphans)
		if n > MaxOPICSnapshots || orphans != 0 {
			t.Fatalf("after %d more snapshots: %d snapshots, %d orphan values", i+1, n, orphans)
		}
	}
	series, _ = s.OPICSeries(ctx, "a.test")
	if len(series) < MaxOPICSnapshots/2 || series[0].Pages != 5 || series[len(series)-1].Pages != 6+3*MaxOPICSnapshots {
		t.Errorf("thinned series: %d points from %d to %d pages", len(series), series[0].Pages, series[len(series)-1].Pages)
	}
	for i := 1; i < len(series); i++ {
		if series[i].Pages <= series[i-1].Pages {
			t.Fatalf("series out of order at %d", i)
		}
	}
}

func TestTopPages(t *testing.T) {
	t.Parallel()
	s := openFixture(t)
	ctx := context.Background()
	failed := page(t, "http://a.test/broken")
	failed.Status = 500
	save(t, s, []sites.Page{failed, page(t, "http://c.test/", "http://a.test/broken", "http://a.test/deep")}, nil)
	for _, tc := range []struct {
		site  string
		limit int
		urls  []string
		in    []int
	}{
		// a.test/ is linked from hub.test/, hub.test/more and b.test/; the
		// deep page from c.test/ only; the failed page is left out.
		{"a.test", 10, []string{"http://a.test/", "http://a.test/deep"}, []int{3, 1}},
		{"hub.test", 10, []string{"http://hub.test/", "http://hub.test/more"}, []int{2, 1}},
		{"hub.test", 1, []string{"http://hub.test/"}, []int{2}},
		{"c.test", 10, []string{"http://c.test/"}, []int{1}}, // from hub.test/
	} {
		ps, err := s.TopPages(ctx, tc.site, tc.limit)
		if err != nil {
			t.Fatal(err)
		}
		var urls []string
		var in []int
		for _, p := range ps {
			urls, in = append(urls, p.URL), append(in, p.InLinks)
			if p.Text == "" || p.Title == "" {
				t.Errorf("%s: no title or text", p.URL)
			}
		}
		if !slices.Equal(urls, tc.urls) || !slices.Equal(in, tc.in) {
			t.Errorf("TopPages(%s, %d) = %v %v, want %v %v", tc.site, tc.limit, urls, in, tc.urls, tc.in)
		}
	}
	if _, err := s.TopPages(ctx, "nowhere.test", 5); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown site: %v", err)
	}
}

func TestListUnrated(t *testing.T) {
	t.Parallel()
	s := openFixture(t)
	ctx := context.Background()
	for _, r := range []struct {
		who, site string
	}{{"ana", "hub.test"}, {"ana", "c.test"}, {"ben", "a.test"}} {
		if _, err := s.SetRating(ctx, r.who, r.site, 3, ""); err != nil {
			t.Fatal(err)
		}
	}
	total, rows, err := s.ListSites(ctx, SiteQuery{Sort: "opic", Desc: true, Librarian: "ana", Unrated: true, Limit: 1})
	if err != nil || total != 2 || !slices.Equal(siteNames(rows), []string{"a.test"}) {
		t.Errorf("ana's unrated = %d %v, %v; want 2 [a.test]", total, siteNames(rows), err)
	}
	total, rows, err = s.ListSites(ctx, SiteQuery{Sort: "site", Librarian: "newcomer", Unrated: true})
	if err != nil || total != 4 || len(rows) != 4 {
		t.Errorf("a new librarian's unrated = %d %v, %v", total, siteNames(rows), err)
	}
	if _, _, err := s.ListSites(ctx, SiteQuery{Unrated: true}); !errors.Is(err, ErrInvalid) {
		t.Errorf("unrated without librarian: %v", err)
	}
}

// A site whose pages were stored with megabyte titles (before the crawler
// capped them) still gives a small detail: its API answer stays bounded.
func TestSiteDetailCapsLongTitles(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	ctx := context.Background()
	pages := make([]sites.Page, 5)
	for i := range pages {
		pages[i] = sites.Page{URL: fmt.Sprintf("http://big.test/%d", i), Site: "big.test", Status: 200,
			ContentType: "text/html", Title: strings.Repeat("t", 1<<20), Text: "x"}
	}
	if err := s.SaveCrawlBatch(ctx, pages, nil); err != nil {
		t.Fatal(err)
	}
	d, err := s.Site(ctx, "big.test", "")
	if err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Pages) != 5 || len(js) > 20_000 {
		t.Errorf("detail of %d pages is %d bytes of JSON, want 5 pages in at most 20,000", len(d.Pages), len(js))
	}
}

func TestPageTitles(t *testing.T) {
	t.Parallel()
	s := openFixture(t)
	ctx := context.Background()
	save(t, s, []sites.Page{page(t, "http://c.test/", "http://a.test/deep")}, nil)
	got, err := s.PageTitles(ctx, "c.test")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got["http://c.test/"] == "" {
		t.Errorf("PageTitles(c.test) = %v, want the title of http://c.test/ alone", got)
	}
	if _, err := s.PageTitles(ctx, "nowhere.test"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown site: %v", err)
	}
}
