package store

import (
	"context"
	"errors"
	"slices"
	"testing"

	"sitesift/sites"
)

// platformFixture: news.test and blog.test link to each other and to
// m.facebook.com, t.co and cdnjs.cloudflare.com, which rank first by OPIC.
func platformFixture(t *testing.T) *Store {
	t.Helper()
	s := openTest(t)
	links := []string{"https://m.facebook.com/news", "https://t.co/x", "https://cdnjs.cloudflare.com/a.js"}
	save(t, s, []sites.Page{
		page(t, "http://news.test/", append(links, "http://blog.test/")...),
		page(t, "http://blog.test/", append(links, "http://news.test/")...),
	}, []sites.SiteState{
		state("m.facebook.com", 5, 5), state("t.co", 4, 4), state("cdnjs.cloudflare.com", 3, 3),
		state("news.test", 1, 1), state("blog.test", 1, 0),
	})
	return s
}

// TestPlatformSitesListedAndChosen: the sites the list names are
// platforms, a librarian's choice moves a site into or out of them for the
// project, and the listing keeps them alone, leaves them out or shows all,
// with counts that agree with its rows.
func TestPlatformSitesListedAndChosen(t *testing.T) {
	s := platformFixture(t)
	ctx := context.Background()
	list := func(platforms string) (int, []string, []bool) {
		t.Helper()
		total, rows, err := s.ListSites(ctx, SiteQuery{Sort: "opic", Desc: true, Platforms: platforms})
		if err != nil {
			t.Fatal(err)
		}
		var flags []bool
		for _, r := range rows {
			flags = append(flags, r.Platform)
		}
		return total, siteNames(rows), flags
	}
	total, names, flags := list("")
	if total != 5 || !slices.Equal(flags, []bool{true, true, true, false, false}) {
		t.Fatalf("all sites: %d %v %v, want 5 with the three platforms flagged first", total, names, flags)
	}
	if total, names, _ := list(PlatformsNone); total != 2 || !slices.Equal(names, []string{"news.test", "blog.test"}) {
		t.Errorf("without platforms: %d %v", total, names)
	}
	if total, names, _ := list(PlatformsOnly); total != 3 || !slices.Equal(names, []string{"m.facebook.com", "t.co", "cdnjs.cloudflare.com"}) {
		t.Errorf("platforms only: %d %v", total, names)
	}
	if n, err := s.PlatformCount(ctx); err != nil || n != 3 {
		t.Errorf("PlatformCount = %d, %v; want 3", n, err)
	}

	// A librarian moves t.co out (this project's links are its own) and
	// blog.test in.
	if err := s.SetPlatform(ctx, "t.co", false, "ana"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetPlatform(ctx, "blog.test", true, ""); err != nil {
		t.Fatal(err)
	}
	if total, names, _ := list(PlatformsNone); total != 2 || !slices.Equal(names, []string{"t.co", "news.test"}) {
		t.Errorf("without platforms after the choices: %d %v", total, names)
	}
	if total, names, _ := list(PlatformsOnly); total != 3 || !slices.Equal(names, []string{"m.facebook.com", "cdnjs.cloudflare.com", "blog.test"}) {
		t.Errorf("platforms only after the choices: %d %v", total, names)
	}
	// A name filter counts in SQL.
	if total, rows, err := s.ListSites(ctx, SiteQuery{Filter: "t", Platforms: PlatformsNone}); err != nil || total != 2 || len(rows) != 2 {
		t.Errorf("filter t without platforms: %d %v, %v", total, siteNames(rows), err)
	}
	if got, err := s.PlatformSites(ctx); err != nil || !slices.Equal(got, []string{"m.facebook.com", "cdnjs.cloudflare.com", "blog.test"}) {
		t.Errorf("PlatformSites = %v, %v", got, err)
	}
	d, err := s.Site(ctx, "t.co", "")
	if err != nil || d.Platform || !d.PlatformListed || !d.PlatformChosen {
		t.Errorf("t.co: platform %v listed %v chosen %v, %v; want moved out of the list", d.Platform, d.PlatformListed, d.PlatformChosen, err)
	}
	d, err = s.Site(ctx, "m.facebook.com", "")
	if err != nil || !d.Platform || !d.PlatformListed || d.PlatformChosen {
		t.Errorf("facebook: platform %v listed %v chosen %v, %v; want listed", d.Platform, d.PlatformListed, d.PlatformChosen, err)
	}
	// Moved back: the choice stays a choice.
	if err := s.SetPlatform(ctx, "t.co", true, "ana"); err != nil {
		t.Fatal(err)
	}
	if n, err := s.PlatformCount(ctx); err != nil || n != 4 {
		t.Errorf("PlatformCount after t.co moved back = %d, %v; want 4", n, err)
	}
	if err := s.SetPlatform(ctx, "nowhere.test", true, ""); !errors.Is(err, ErrNotFound) {
		t.Errorf("an unknown site: %v, want ErrNotFound", err)
	}
	if _, _, err := s.ListSites(ctx, SiteQuery{Platforms: "maybe"}); !errors.Is(err, ErrInvalid) {
		t.Errorf("platforms=maybe: %v, want ErrInvalid", err)
	}
	// A site added later is counted: the cache moves with the sites.
	save(t, s, []sites.Page{page(t, "http://news.test/2", "https://youtu.be/v")}, nil)
	if n, err := s.PlatformCount(ctx); err != nil || n != 5 {
		t.Errorf("PlatformCount after youtu.be was met = %d, %v; want 5", n, err)
	}
}

// TestPlatformsAmong: the platforms among names are those of the listing,
// the project's choices over the list included, and a name the store does
// not hold yet is a platform when the list names it.
func TestPlatformsAmong(t *testing.T) {
	s := platformFixture(t)
	ctx := context.Background()
	if err := s.SetPlatform(ctx, "t.co", false, ""); err != nil {
		t.Fatal(err)
	}
	if err := s.SetPlatform(ctx, "blog.test", true, ""); err != nil {
		t.Fatal(err)
	}
	names := []string{"m.facebook.com", "t.co", "news.test", "blog.test", "twitter.com", "unknown.test"}
	got, err := s.PlatformsAmong(ctx, names)
	if err != nil {
		t.Fatal(err)
	}
	var platforms []string
	for _, n := range names {
		if got[n] {
			platforms = append(platforms, n)
		}
	}
	if want := []string{"m.facebook.com", "blog.test", "twitter.com"}; !slices.Equal(platforms, want) {
		t.Errorf("PlatformsAmong = %v, want %v", platforms, want)
	}
	if got, err := s.PlatformsAmong(ctx, nil); err != nil || len(got) != 0 {
		t.Errorf("PlatformsAmong(nil) = %v, %v", got, err)
	}
}

// TestQueueLeavesOutPlatforms: the review queue without platforms holds the
// other sites, and QueuePlatforms counts those it left out, failed or not,
// the failed count leaving them to it.
func TestQueueLeavesOutPlatforms(t *testing.T) {
	s := platformFixture(t)
	ctx := context.Background()
	q := QueueQuery{Librarian: "ana", NoPlatforms: true, NoFailed: true}
	rows, err := s.QueueSites(ctx, q, nil, 10)
	if err != nil || !slices.Equal(siteNames(rows), []string{"news.test", "blog.test"}) {
		t.Errorf("queue = %v, %v", siteNames(rows), err)
	}
	if n, err := s.QueuePlatforms(ctx, q); err != nil || n != 3 {
		t.Errorf("QueuePlatforms = %d, %v; want 3", n, err)
	}
	if _, err := s.SetRating(ctx, "ana", "t.co", 1, ""); err != nil {
		t.Fatal(err)
	}
	if n, err := s.QueuePlatforms(ctx, q); err != nil || n != 2 {
		t.Errorf("QueuePlatforms after a rating = %d, %v; want 2", n, err)
	}
	rows, err = s.QueueSitesNamed(ctx, q, []string{"m.facebook.com", "news.test"})
	if err != nil || !slices.Equal(siteNames(rows), []string{"news.test"}) {
		t.Errorf("named queue = %v, %v", siteNames(rows), err)
	}
}

// TestImportanceValuesLeaveOutPlatforms: the values a site's rank is
// counted against are those of the other sites, and a move into or out of
// the platforms moves the importance version, so that rankings kept by it
// are made again.
func TestImportanceValuesLeaveOutPlatforms(t *testing.T) {
	s := platformFixture(t)
	ctx := context.Background()
	opic, pr, v, err := s.ImportanceValues(ctx)
	if err != nil || len(opic) != 2 || len(pr) != 2 {
		t.Fatalf("ImportanceValues: %v %v, %v; want the two sites that are no platforms", opic, pr, err)
	}
	if err := s.SetPlatform(ctx, "news.test", true, ""); err != nil {
		t.Fatal(err)
	}
	opic, _, v2, err := s.ImportanceValues(ctx)
	if err != nil || len(opic) != 1 || v2 <= v {
		t.Errorf("after news.test moved in: %v, version %d then %d, %v", opic, v, v2, err)
	}
}
