package store

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"sitesift/sites"
)

// TestListSitesRefused: a query ListSites cannot answer is refused as
// invalid, naming what is wrong, before anything is read.
func TestListSitesRefused(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	ctx := context.Background()
	for _, c := range []struct {
		q    SiteQuery
		want string
	}{
		{SiteQuery{Sort: "name"}, `unknown sort key "name"`},
		{SiteQuery{Offset: -1}, "negative offset or limit"},
		{SiteQuery{Limit: -1}, "negative offset or limit"},
		{SiteQuery{Unrated: true}, "unrated sites of no librarian"},
		{SiteQuery{Status: "gone"}, `unknown crawl status "gone"`},
		{SiteQuery{Archived: "maybe"}, "maybe"},
		{SiteQuery{Platforms: "some"}, "some"},
	} {
		total, rows, err := s.ListSites(ctx, c.q)
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.want) || total != 0 || rows != nil {
			t.Errorf("ListSites(%+v) = %d, %v, %v; want ErrInvalid saying %q", c.q, total, rows, err, c.want)
		}
	}
}

// TestListSitesFilters: every combination of the filters (a part of the
// name, platforms, the sites a librarian has not rated, a crawl status, the
// failed sites left out) selects the sites the whole listing's rows say it
// should, and the total counts them whatever the page, however it is
// counted (the platforms and the unrated are counted apart from the rows).
func TestListSitesFilters(t *testing.T) {
	t.Parallel()
	s := crawledProject(t)
	ctx := context.Background()
	for _, site := range []string{"c01.test", "c02.test", "c13.test"} {
		if err := s.SetPlatform(ctx, site, true, ""); err != nil {
			t.Fatal(err)
		}
	}
	_, all, err := s.ListSites(ctx, SiteQuery{Sort: "site", Librarian: "ana"})
	if err != nil || len(all) < 30 {
		t.Fatalf("every site: %d rows, %v", len(all), err)
	}
	failed := []string{sites.SiteDead, sites.SiteRobotsClosed, sites.SiteErrorsOnly}
	for _, filter := range []string{"", "1"} {
		for _, platforms := range []string{"", PlatformsNone, PlatformsOnly} {
			for _, unrated := range []bool{false, true} {
				for _, status := range []string{"", sites.SiteOK, sites.SiteNotFetched} {
					for _, noFailed := range []bool{false, true} {
						q := SiteQuery{Sort: "site", Librarian: "ana", Filter: filter, Platforms: platforms,
							Unrated: unrated, Status: status, NoFailed: noFailed}
						var want []string
						for _, r := range all {
							if strings.Contains(r.Site, filter) && (platforms == "" || r.Platform == (platforms == PlatformsOnly)) &&
								(!unrated || r.Rating == nil) && (status == "" || r.CrawlStatus == status) &&
								(!noFailed || !slices.Contains(failed, r.CrawlStatus)) {
								want = append(want, r.Site)
							}
						}
						total, rows, err := s.ListSites(ctx, q)
						if err != nil || total != len(want) || !slices.Equal(siteNames(rows), want) {
							t.Errorf("ListSites(%+v) = %d %v, %v;\nwant %d %v", q, total, siteNames(rows), err, len(want), want)
						}
						q.Limit = 2
						if total, rows, err := s.ListSites(ctx, q); err != nil || total != len(want) || len(rows) != min(2, len(want)) {
							t.Errorf("ListSites(%+v) = %d, %d rows, %v; want %d, %d rows", q, total, len(rows), err, len(want), min(2, len(want)))
						}
					}
				}
			}
		}
	}
}
