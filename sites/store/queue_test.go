package store

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"sitesift/sites"
)

// TestQueueMatchesListSites: the review queue's count, failed count and
// pages, read by index, by name or from a prefix of the OPIC order, are
// those of ListSites over the unrated sites, for every filter, limit and
// exclusion, including equal importance ordered by name.
func TestQueueMatchesListSites(t *testing.T) {
	s := openTest(t)
	ctx := context.Background()
	var pages []sites.Page
	var states []sites.SiteState
	for i := range 60 {
		name := fmt.Sprintf("http://s%02d.test/", i)
		pg := page(t, name)
		if i%7 == 3 {
			pg.Status, pg.ErrClass, pg.Err = 0, sites.ErrDNS, "failed: dns"
		}
		if i%11 == 5 {
			pg.Status, pg.ErrClass, pg.Err = 0, sites.ErrRobots, "failed: robots"
		}
		if i%13 != 0 { // a few sites are known but never fetched
			pages = append(pages, pg)
		}
		states = append(states, state(fmt.Sprintf("s%02d.test", i), 0, float64(i%9)))
	}
	for i := range 60 {
		if i%13 == 0 {
			pages = append(pages, page(t, "http://hub.test/p"+fmt.Sprint(i), fmt.Sprintf("http://s%02d.test/", i)))
		}
	}
	save(t, s, pages, states)
	for i := 0; i < 60; i += 4 {
		if _, err := s.SetRating(ctx, "ana", fmt.Sprintf("s%02d.test", i), 1+i%4, ""); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.SetNote(ctx, "ana", "s01.test", "later"); err != nil {
		t.Fatal(err)
	}
	for _, prefix := range []int{10000, 5, 1} {
		filterPrefix = prefix
		for _, filter := range []string{"", "S1", "s0", "2", "hub", "zz"} {
			for _, noFailed := range []bool{false, true} {
				q := QueueQuery{Librarian: "ana", Filter: filter, NoFailed: noFailed}
				name := fmt.Sprintf("prefix %d %+v", prefix, q)
				all, _, err := s.ListSites(ctx, SiteQuery{Sort: "opic", Desc: true, Filter: filter, Librarian: "ana", Unrated: true})
				if err != nil {
					t.Fatal(err)
				}
				kept, want, err := s.ListSites(ctx, SiteQuery{Sort: "opic", Desc: true, Filter: filter, Librarian: "ana",
					Unrated: true, NoFailed: true})
				if err != nil {
					t.Fatal(err)
				}
				if !noFailed {
					_, want, err = s.ListSites(ctx, SiteQuery{Sort: "opic", Desc: true, Filter: filter, Librarian: "ana", Unrated: true})
					if err != nil {
						t.Fatal(err)
					}
				}
				n, err := s.QueueCount(ctx, q)
				if err != nil || n != all {
					t.Errorf("%s: QueueCount = %d, %v; want %d", name, n, err, all)
				}
				failed, err := s.QueueFailed(ctx, q)
				if err != nil || failed != all-kept {
					t.Errorf("%s: QueueFailed = %d, %v; want %d", name, failed, err, all-kept)
				}
				for _, limit := range []int{1, 3, 10, 100} {
					got, err := s.QueueSites(ctx, q, nil, limit)
					if err != nil {
						t.Fatal(err)
					}
					if w := want[:min(limit, len(want))]; !slices.Equal(siteNames(got), siteNames(w)) || !slices.EqualFunc(got, w, sameRow) {
						t.Errorf("%s limit %d: QueueSites = %v, want %v", name, limit, siteNames(got), siteNames(w))
					}
				}
				// Every other site left out by name; the rest by name in OPIC order.
				var except, named []string
				var rest []SiteRow
				for i, r := range want {
					if i%2 == 0 {
						except = append(except, r.Site)
					} else {
						rest = append(rest, r)
					}
				}
				for i := range 60 {
					named = append(named, fmt.Sprintf("s%02d.test", 59-i))
				}
				named = append(named, "unknown.test", "hub.test")
				got, err := s.QueueSites(ctx, q, except, 100)
				if err != nil || !slices.Equal(siteNames(got), siteNames(rest)) {
					t.Errorf("%s: QueueSites except = %v, %v; want %v", name, siteNames(got), err, siteNames(rest))
				}
				got, err = s.QueueSitesNamed(ctx, q, named)
				if err != nil || !slices.Equal(siteNames(got), siteNames(want)) {
					t.Errorf("%s: QueueSitesNamed = %v, %v; want %v", name, siteNames(got), err, siteNames(want))
				}
			}
		}
	}
	filterPrefix = 10000
	if _, err := s.QueueSites(ctx, QueueQuery{}, nil, 10); err == nil {
		t.Error("QueueSites of no librarian: no error")
	}
}

func sameRow(x, y SiteRow) bool {
	return x.Site == y.Site && x.OPIC == y.OPIC && x.PageRank == y.PageRank && x.Pages == y.Pages &&
		x.Errors == y.Errors && x.CrawlStatus == y.CrawlStatus && x.InSites == y.InSites && x.OutSites == y.OutSites &&
		(x.Rating == nil) == (y.Rating == nil)
}
