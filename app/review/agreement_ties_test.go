package review_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"sitesift/app"
	"sitesift/app/apptest"
	"sitesift/app/project"
	"sitesift/app/review"
	"sitesift/sites"
)

// TestAgreementSiteNames: the in-linking-sites baseline ties many sites;
// naming the sites so that they sort the other way round leaves every
// score of it unchanged, and the sites of one tie get one rank.
func TestAgreementSiteNames(t *testing.T) {
	// Twelve rated sites; hubs link to them so that their in-linking sites
	// are 4, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1: ties across the quartiles.
	inSites := []int{4, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1}
	ratings := [][2]int{{4, 4}, {4, 3}, {3, 3}, {2, 3}, {3, 2}, {2, 2}, {1, 2}, {2, 1}, {1, 1}, {2, 2}, {1, 1}, {3, 3}}
	score := func(name func(i int) string) review.AgreementRow {
		t.Helper()
		p, err := project.Open(filepath.Join(t.TempDir(), "project"), true)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		var names []string
		var edges []sites.Edge
		for h := range 4 {
			names = append(names, fmt.Sprintf("hub%d.test", h))
		}
		for i, n := range inSites {
			names = append(names, name(i))
			for h := range n {
				edges = append(edges, sites.Edge{From: names[h], To: name(i), Weight: 1})
			}
		}
		ctx := context.Background()
		if _, err := p.Store.ImportGraph(ctx, "ties.tsv", names, edges, 0); err != nil {
			t.Fatal(err)
		}
		a := app.New(app.Options{Project: p})
		defer a.Close()
		apptest.AddLibrarians(t, a, "ana", "ben")
		for i, r := range ratings {
			for l, v := range r {
				if _, err := a.Review.Rate(ctx, []string{"ana", "ben"}[l], name(i), v, ""); err != nil {
					t.Fatal(err)
				}
			}
		}
		ag, err := a.Review.Agreement(ctx, review.AgreementOptions{Rater: review.MeasureInSites})
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range ag.Rows {
			if row.Rater == review.MeasureInSites {
				return row
			}
		}
		t.Fatalf("no %s row in %+v", review.MeasureInSites, ag.Rows)
		return review.AgreementRow{}
	}
	up := score(func(i int) string { return fmt.Sprintf("s%02d.test", i) })
	down := score(func(i int) string { return fmt.Sprintf("s%02d.test", 99-i) })
	if fmt.Sprint(up) != fmt.Sprint(down) {
		t.Errorf("scores depend on the site names:\n%+v\n%+v", up, down)
	}
	// Reference (means rounded half up): 4, 4, 3, 3, 3, 2, 2, 2, 1, 2, 1, 3:
	// two 1s, four 2s, four 3s, two 4s, so classes hold positions [0,2),
	// [2,6), [6,10), [10,12) by in-linking sites. The four sites with 1
	// (positions 0–3, median 2) take class 2, the four with 2 (4–7, median
	// 6) class 3, the three with 3 (8–10, median 9.5) class 3, the one with
	// 4 class 4. Split by name, as before, the two orders scored 1 and 2 of
	// the four sites with 1.
	want := 0
	rank := map[int]int{4: 4, 3: 3, 2: 3, 1: 2}
	for i, r := range ratings {
		ref := int(float64(r[0]+r[1])/2 + 0.5)
		if rank[inSites[i]] == ref {
			want++
		}
	}
	if got := float64(up.ScorePct); got != 100*float64(want)/12 {
		t.Errorf("in-linking sites score %v%%, want %v%% (%d of 12)", got, 100*float64(want)/12, want)
	}
}
