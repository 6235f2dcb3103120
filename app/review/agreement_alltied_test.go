package review_test

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"sitesift/app"
	"sitesift/app/apptest"
	"sitesift/app/export"
	"sitesift/app/exports"
	"sitesift/app/project"
	"sitesift/app/review"
	"sitesift/sites"
)

// TestAgreementMeasuresCannotTell: when every rated site has the same link
// structure (each linked from the same two hubs and linking to none), no
// computed measure can tell them apart. The agreement says so once,
// MeasuresTied, and gives no measure a kappa or a correlation, which would
// otherwise score the librarians' spread against one rank (a kappa of
// −0.26 and the like); the table says it in words.
func TestAgreementMeasuresCannotTell(t *testing.T) {
	p, err := project.Open(filepath.Join(t.TempDir(), "project"), true)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	names := []string{"hub0.test", "hub1.test"}
	var edges []sites.Edge
	var rated []string
	for i := range 8 {
		s := fmt.Sprintf("s%d.test", i)
		names, rated = append(names, s), append(rated, s)
		for h := range 2 {
			edges = append(edges, sites.Edge{From: names[h], To: s, Weight: 1})
		}
	}
	ctx := context.Background()
	if _, err := p.Store.ImportGraph(ctx, "same.tsv", names, edges, 0); err != nil {
		t.Fatal(err)
	}
	a := app.New(app.Options{Project: p})
	defer a.Close()
	apptest.AddLibrarians(t, a, "ana", "ben")
	ratings := [][2]int{{4, 4}, {1, 1}, {3, 4}, {2, 1}, {4, 3}, {1, 2}, {3, 3}, {2, 2}}
	for i, r := range ratings {
		for l, v := range r {
			if _, err := a.Review.Rate(ctx, []string{"ana", "ben"}[l], rated[i], v, ""); err != nil {
				t.Fatal(err)
			}
		}
	}
	ag, err := a.Review.Agreement(ctx, review.AgreementOptions{Biased: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range ag.Rows {
		// The biased PageRank is fed the ratings: it tells the sites
		// apart by them, not by their links.
		if row.Kind != review.KindMeasure || row.Rater == review.MeasureBiased || row.Rater == review.MeasureBiasedCV {
			continue
		}
		if !row.AllTied || !math.IsNaN(float64(row.KappaW)) || !math.IsNaN(float64(row.Spearman)) {
			t.Errorf("%s: all tied %v, kappa %v, spearman %v; want all tied, no kappa, no spearman", row.Rater, row.AllTied, row.KappaW, row.Spearman)
		}
	}
	if !ag.MeasuresTied {
		t.Errorf("measures_tied is false, though no measure tells the rated sites apart")
	}
	var b strings.Builder
	if err := exports.WriteAgreement(&b, ag, export.Table); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "The measures cannot tell these sites apart") {
		t.Errorf("the table does not say the measures cannot tell the sites apart:\n%s", b.String())
	}
}
