package review_test

import (
	"context"
	"testing"

	"sitesift/app/apptest"
	"sitesift/sites/store"
)

// An approved site carries its PageRank standing as the Sites page shows
// it, not 0: approved.json said "pagerank_rank": 0 beside the site page's #84.
func TestSelectionStanding(t *testing.T) {
	ctx := context.Background()
	a, _ := apptest.Open(t, apptest.ReviewProject(t))
	list, err := a.Review.Sites(ctx, store.SiteQuery{Limit: 500})
	if err != nil || len(list.Rows) < 2 {
		t.Fatalf("sites: %+v, %v", list, err)
	}
	site := list.Rows[1] // not the top site, whose rank 1 would hide a wrong order
	for _, u := range []store.SelectionUpdate{{Librarian: "ana", Status: store.StatusNominated},
		{Librarian: "ben", Status: store.StatusApproved}} {
		if _, err := a.Review.SetSelection(ctx, site.Site, u); err != nil {
			t.Fatal(err)
		}
	}
	sel, err := a.Review.Selection(ctx, "")
	if err != nil || len(sel) != 1 {
		t.Fatalf("approved: %+v, %v", sel, err)
	}
	got := sel[0]
	if got.PageRankRank == 0 || got.PageRankRank != site.PageRankRank || got.PageRankScore != site.PageRankScore ||
		got.OPICRank != site.OPICRank || got.OPICScore != site.OPICScore || got.PageRank != site.PageRank {
		t.Errorf("approved %s: standing %+v, pagerank %g; the Sites page gives %+v, pagerank %g",
			site.Site, got.Standing, got.PageRank, site.Standing, site.PageRank)
	}
}
