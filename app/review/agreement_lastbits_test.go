package review_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sitesift/app/apptest"
	"sitesift/app/exports"
	"sitesift/app/review"
)

// lastBitsEdges is a graph whose sites s0…s5 have one link structure: each
// is linked from the hubs h1…h4 and links to h1; the hubs are linked from
// 0, 1, 2 and 3 other sites. OPIC, summed in the order of the file's
// lines, gives s0…s5 shares that differ in their last bits, and which site
// gets the larger bits follows the order of the lines.
func lastBitsEdges() []string {
	var lines []string
	hubs := []string{"h1.test", "h2.test", "h3.test", "h4.test"}
	for i, h := range hubs {
		for k := range i {
			lines = append(lines, fmt.Sprintf("x%d%d.test %s", i, k, h))
		}
	}
	for s := range 6 {
		for _, h := range hubs {
			lines = append(lines, fmt.Sprintf("%s s%d.test", h, s))
		}
		lines = append(lines, fmt.Sprintf("s%d.test h1.test", s))
	}
	return lines
}

// lastBitsAgreement imports lastBitsEdges with its lines shuffled by seed,
// has ana and ben rate the sites of ratings alike, and returns the row of
// measure.
func lastBitsAgreement(t *testing.T, seed uint64, ratings map[string]int, measure string) review.AgreementRow {
	t.Helper()
	lines := lastBitsEdges()
	rand.New(rand.NewPCG(seed, 1)).Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
	p := apptest.EmptyStoreApp(t)
	f := filepath.Join(t.TempDir(), "edges.txt")
	if err := os.WriteFile(f, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := p.Imports.Import(ctx, f); err != nil {
		t.Fatal(err)
	}
	apptest.AddLibrarians(t, p.App, "ana", "ben")
	for site, r := range ratings {
		for _, l := range []string{"ana", "ben"} {
			if _, err := p.Review.Rate(ctx, l, site, r, ""); err != nil {
				t.Fatal(err)
			}
		}
	}
	ag, err := p.Review.Agreement(ctx, review.AgreementOptions{Rater: measure})
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range ag.Rows {
		if row.Rater == measure {
			return row
		}
	}
	t.Fatalf("no %s row in %+v", measure, ag.Rows)
	return review.AgreementRow{}
}

// TestAgreementInputOrder: the OPIC score, kappa and Spearman's
// correlation of sites of one link structure, whose shares differ in the
// last bits by the order of the input file, are the same whatever that
// order: they are one tie group.
func TestAgreementInputOrder(t *testing.T) {
	ratings := map[string]int{"s0.test": 1, "s1.test": 1, "s2.test": 2, "s3.test": 2, "s4.test": 3, "s5.test": 3,
		"h1.test": 4, "x10.test": 1}
	type score struct {
		pct, kappa, rho float64
		confusion       string
	}
	var first score
	for seed := range 6 {
		row := lastBitsAgreement(t, uint64(seed), ratings, review.MeasureOPIC)
		if row.AllTied {
			t.Fatalf("seed %d: OPIC all tied over sites of different structures", seed)
		}
		sc := score{float64(row.ScorePct), float64(row.KappaW), float64(row.Spearman), fmt.Sprint(row)}
		sc.confusion = sc.confusion[strings.LastIndex(sc.confusion, "[["):] // the unexported confusion matrix
		if seed == 0 {
			first = sc
			continue
		}
		if sc != first {
			t.Errorf("the order of the input file changes the OPIC agreement: %+v, then %+v", first, sc)
		}
	}
}

// TestAgreementAllTied: when a measure cannot tell the rated sites apart,
// the row says so and gives no kappa or correlation.
func TestAgreementAllTied(t *testing.T) {
	ratings := map[string]int{"s0.test": 1, "s1.test": 1, "s2.test": 2, "s3.test": 2, "s4.test": 3, "s5.test": 4}
	for seed := range 3 {
		for _, m := range []string{review.MeasureOPIC, review.MeasurePageRank, review.MeasureInSites} {
			row := lastBitsAgreement(t, uint64(seed), ratings, m)
			if !row.AllTied || !math.IsNaN(float64(row.KappaW)) || !math.IsNaN(float64(row.Spearman)) {
				t.Errorf("seed %d, %s: all tied %v, kappa %v, Spearman %v; want all tied and no kappa nor Spearman",
					seed, m, row.AllTied, row.KappaW, row.Spearman)
			}
		}
	}
	// The table says so too, where it shows no kappa.
	var table strings.Builder
	if err := exports.WriteAgreement(&table, review.Agreement{Rows: []review.AgreementRow{lastBitsAgreement(t, 0, ratings, review.MeasureOPIC)}}, "table"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(table.String(), "all tied: it cannot tell the rated sites apart") {
		t.Errorf("the table does not say OPIC cannot tell the sites apart:\n%s", table.String())
	}
	// The librarians can tell them apart.
	row := lastBitsAgreement(t, 0, ratings, "ana")
	if row.AllTied || math.IsNaN(float64(row.KappaW)) {
		t.Errorf("ana: all tied %v, kappa %v", row.AllTied, row.KappaW)
	}
}
