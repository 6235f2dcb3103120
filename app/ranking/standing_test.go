package ranking_test

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"sitesift/app"
	"sitesift/app/apptest"
	"sitesift/app/project"
	"sitesift/app/ranking"
	"sitesift/app/review"
	"sitesift/sites"
	"sitesift/sites/store"
)

func TestRanking(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name   string
		values []float64
		v      float64
		rank   int
		score  int
	}{
		{"top", []float64{0.5, 0.3, 0.2}, 0.5, 1, 100},
		{"second", []float64{0.5, 0.3, 0.2}, 0.3, 2, 60},
		{"ties share a rank", []float64{0.4, 0.2, 0.2, 0.1}, 0.2, 2, 50},
		{"after a tie the rank skips", []float64{0.4, 0.2, 0.2, 0.1}, 0.1, 4, 25},
		{"tied at the top", []float64{0.3, 0.3, 0.1}, 0.3, 1, 100},
		// Two shares of the demo web that differ in the last bit only.
		{"float noise is a tie", []float64{0.5, 0.010777431031738978, 0.010777431031738977}, 0.010777431031738977, 2, 2},
		{"float noise is a tie, the other way", []float64{0.5, 0.010777431031738978, 0.010777431031738977}, 0.010777431031738978, 2, 2},
		{"a billionth of the top apart is no tie", []float64{1, 0.5 + 2e-9, 0.5}, 0.5, 3, 50},
		{"rounds half away from zero", []float64{0.8, 0.004}, 0.004, 2, 1},
		{"rounds down below a half", []float64{1, 0.0049}, 0.0049, 2, 0},
		{"zero value", []float64{0.9, 0}, 0, 2, 0},
		{"all zero", []float64{0, 0, 0}, 0, 1, 0},
		{"NaN values left out", []float64{nan, 0.5, nan, 0.25}, 0.25, 2, 50},
		{"NaN asked", []float64{0.5}, nan, 0, 0},
		{"empty", nil, 0.1, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ranking.NewRanking(tt.values)
			if got := r.Rank(tt.v); got != tt.rank {
				t.Errorf("Rank(%g) = %d, want %d", tt.v, got, tt.rank)
			}
			if got := r.Score(tt.v); got != tt.score {
				t.Errorf("Score(%g) = %d, want %d", tt.v, got, tt.score)
			}
		})
	}
}

// rankedProject is a project of five sites whose OPIC histories are 8, 4,
// 4, 2 and 1 (cash 0): shares 8/19, 4/19, 4/19, 2/19 and 1/19.
func rankedProject(t *testing.T) *app.App {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "p")
	p, err := project.Open(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	pages := []sites.Page{
		apptest.Page(t, "http://top.test/", "http://b.test/", "http://c.test/"),
		apptest.Page(t, "http://b.test/", "http://top.test/"),
		apptest.Page(t, "http://c.test/", "http://top.test/", "http://d.test/"),
		apptest.Page(t, "http://d.test/", "http://e.test/"),
		apptest.Page(t, "http://e.test/", "http://top.test/"),
	}
	states := []sites.SiteState{
		{Site: "top.test", History: 8}, {Site: "b.test", History: 4}, {Site: "c.test", History: 4},
		{Site: "d.test", History: 2}, {Site: "e.test", History: 1},
	}
	if err := p.Store.SaveCrawlBatch(context.Background(), pages, states); err != nil {
		t.Fatal(err)
	}
	a := app.New(app.Options{Project: p})
	t.Cleanup(func() { a.Close(); p.Close() })
	if _, err := a.Ranking.UpdateImportance(context.Background()); err != nil {
		t.Fatal(err)
	}
	return a
}

// TestStandings checks that every listing gives a site the same rank and
// score: the sites table (whatever its order and page), the site page, the
// review queue and card, and `rank`.
func TestStandings(t *testing.T) {
	ctx := context.Background()
	a := rankedProject(t)
	// The ranks and scores of the sites table, sorted by OPIC, which the
	// other listings must repeat: top.test first, b.test and c.test (both
	// linked from top.test alone, and linking back) tied second.
	byOPIC, err := a.Review.Sites(ctx, store.SiteQuery{Sort: "opic", Desc: true})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]int{}
	for _, r := range byOPIC.Rows {
		want[r.Site] = [2]int{r.OPICRank, r.OPICScore}
	}
	if want["top.test"] != [2]int{1, 100} || want["b.test"] != want["c.test"] || want["b.test"][0] != 2 ||
		byOPIC.Rows[1].OPICTies != 1 || byOPIC.Rows[1].Site != "b.test" || byOPIC.Rows[0].OPICTies != 0 {
		t.Fatalf("sites by OPIC: %+v", byOPIC.Rows)
	}
	check := func(where, site string, s ranking.Standing) {
		t.Helper()
		w, ok := want[site]
		if !ok {
			t.Errorf("%s: unexpected site %q", where, site)
			return
		}
		if s.OPICRank != w[0] || s.OPICScore != w[1] {
			t.Errorf("%s %s: OPIC rank %d score %d, want %d %d", where, site, s.OPICRank, s.OPICScore, w[0], w[1])
		}
		if s.PageRankRank < 1 || s.PageRankScore < 0 || s.PageRankScore > 100 {
			t.Errorf("%s %s: PageRank rank %d score %d out of range", where, site, s.PageRankRank, s.PageRankScore)
		}
	}
	// A page sorted by name, from the second row: ranks are over all sites.
	list, err := a.Review.Sites(ctx, store.SiteQuery{Sort: "site", Offset: 1, Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Rows) != 3 {
		t.Fatalf("got %d rows, want 3", len(list.Rows))
	}
	prTop := 0
	all, err := a.Review.Sites(ctx, store.SiteQuery{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range append(list.Rows, all.Rows...) {
		check("sites", r.Site, r.Standing)
		if r.PageRankRank == 1 {
			prTop++
			if r.PageRankScore != 100 {
				t.Errorf("PageRank rank 1 %s scores %d, want 100", r.Site, r.PageRankScore)
			}
		}
	}
	if prTop == 0 {
		t.Errorf("no site ranked 1 by PageRank")
	}
	d, err := a.Review.Site(ctx, "c.test", "")
	if err != nil {
		t.Fatal(err)
	}
	check("site page", d.Site, d.Standing)
	for _, l := range d.OutLinks {
		if l.Site == "top.test" && l.OPICScore != 100 {
			t.Errorf("site page: link to top.test scores %d, want 100", l.OPICScore)
		}
	}
	rows, err := a.Ranking.Rank(ctx, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		check("rank", r.Site, r.Standing)
	}
	apptest.AddLibrarians(t, a, "ana")
	q, err := a.Review.ReviewQueue(ctx, review.QueueRequest{Librarian: "ana", IncludeFailed: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Rows) != 5 {
		t.Fatalf("queue has %d rows, want 5", len(q.Rows))
	}
	for _, r := range q.Rows {
		check("queue", r.Site, r.Standing)
	}
	card, err := a.Review.Review(ctx, "d.test", "ana")
	if err != nil {
		t.Fatal(err)
	}
	check("review card", card.Site, card.Standing)
}
