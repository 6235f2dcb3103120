package review_test

import (
	"bytes"
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"sitesift/app"
	"sitesift/app/apptest"
	"sitesift/app/exports"
	"sitesift/app/imports"
	"sitesift/app/project"
	"sitesift/app/ranking"
	"sitesift/app/review"
	"sitesift/importance"
	"sitesift/sites/store"
)

// ccProject imports a Common Crawl–style slice (.fr, host rule) whose ranks
// file gives four of its five sites harmonic centrality in the order the
// librarians rate them and PageRank in the reverse order; www.bnf.fr has
// no Common Crawl ranks. ana and ben rate all five alike.
func ccProject(t *testing.T) apptest.StoreApp {
	t.Helper()
	d := t.TempDir()
	v := apptest.WriteGz(t, filepath.Join(d, "v-00000.txt.gz"), "0\tcom.example", "1\tfr.bnf", "2\tfr.bnf.www",
		"3\tfr.gouv.culture", "4\tfr.lemonde", "5\tfr.lonely", "6\torg.wikipedia.fr")
	e := apptest.WriteGz(t, filepath.Join(d, "e-00000.txt.gz"), "0\t1", "0\t4", "1\t2", "1\t3", "2\t3", "3\t4", "4\t1", "6\t1", "6\t3")
	ranks := apptest.WriteGz(t, filepath.Join(d, "ranks.txt.gz"),
		"#harmonicc_pos\t#harmonicc_val\t#pr_pos\t#pr_val\t#host_rev",
		"1\t9.5e6\t4\t0.001\tfr.bnf", "2\t9e6\t1\t0.009\tcom.example", "3\t8e6\t3\t0.002\tfr.lemonde",
		"4\t5e6\t2\t0.003\tfr.gouv.culture", "5\t1e6\t1\t0.004\tfr.lonely")
	p := apptest.EmptyStoreApp(t)
	ctx := context.Background()
	if _, err := p.Ranking.SetSettings(ctx, project.SettingsUpdate{SiteRule: app.Set("host")}); err != nil {
		t.Fatal(err)
	}
	req := imports.ArchiveImportRequest{CCVertices: []string{v}, CCEdges: []string{e}, CCRanks: []string{ranks}, TLDs: []string{"fr"}}
	if _, err := p.Imports.ImportArchives(ctx, req, nil); err != nil {
		t.Fatal(err)
	}
	apptest.AddLibrarians(t, p.App, "ana", "ben")
	for site, r := range map[string]int{"bnf.fr": 4, "www.bnf.fr": 3, "lemonde.fr": 3, "culture.gouv.fr": 2, "lonely.fr": 1} {
		for _, l := range []string{"ana", "ben"} {
			if _, err := p.Review.Rate(ctx, l, site, r, ""); err != nil {
				t.Fatal(err)
			}
		}
	}
	return p
}

// TestAgreementCommonCrawlRanks: Common Crawl's harmonic centrality and
// PageRank are scored against the librarians as the other measures are
// (a rated site without them unranked), and set beside sitesift's OPIC and
// PageRank over every site that has them.
func TestAgreementCommonCrawlRanks(t *testing.T) {
	p := ccProject(t)
	ctx := context.Background()
	ag, err := p.Review.Agreement(ctx, review.AgreementOptions{Rater: review.MeasureCCHarmonic})
	if err != nil {
		t.Fatal(err)
	}
	if ag.ReferenceSites != 5 {
		t.Fatalf("reference sites %d, want 5", ag.ReferenceSites)
	}
	rows := map[string]review.AgreementRow{}
	for _, r := range ag.Rows {
		rows[r.Rater] = r
	}
	h, ok := rows[review.MeasureCCHarmonic]
	if !ok || h.Kind != review.KindMeasure {
		t.Fatalf("no measure row %s in %v", review.MeasureCCHarmonic, ag.Rows)
	}
	// Four of the five rated sites have ranks; harmonic centrality orders
	// them as the librarians do, Common Crawl's PageRank the other way.
	if h.Sites != 4 || h.ScorePct != 100 || h.Spearman != 1 {
		t.Errorf("cc_harmonic: %d sites, score %v%%, spearman %v; want 4, 100, 1", h.Sites, h.ScorePct, h.Spearman)
	}
	if len(h.Thresholds) != 3 || h.ThresholdScores[0] != ranking.Score100(float64(h.Thresholds[0]), 9.5e6) {
		t.Errorf("cc_harmonic thresholds %v, scores %v: want 0–100 of the slice's top, 9.5e6", h.Thresholds, h.ThresholdScores)
	}
	pr := rows[review.MeasureCCPageRank]
	if pr.Sites != 4 || pr.Spearman != -1 || pr.ScorePct >= h.ScorePct {
		t.Errorf("cc_pagerank: %d sites, score %v%%, spearman %v; want 4, below cc_harmonic's, -1", pr.Sites, pr.ScorePct, pr.Spearman)
	}
	if c := ag.Confusion; c == nil || c.Matrix[0][0] != 1 || c.Matrix[3][3] != 1 || c.Matrix[2][2] != 1 {
		t.Errorf("cc_harmonic confusion %+v: want the diagonal of the four ranked sites", c)
	}

	// Beside sitesift's measures, over the four sites with Common Crawl
	// ranks, in sitesift's values as the sites table lists them.
	list, err := p.Review.Sites(ctx, store.SiteQuery{Sort: "site"})
	if err != nil {
		t.Fatal(err)
	}
	harmonic := map[string]float64{"bnf.fr": 9.5e6, "lemonde.fr": 8e6, "culture.gouv.fr": 5e6, "lonely.fr": 1e6}
	var cc, opic, rank []float64
	for _, r := range list.Rows {
		if v, ok := harmonic[r.Site]; ok {
			cc, opic, rank = append(cc, v), append(opic, r.OPIC), append(rank, r.PageRank)
		}
	}
	if len(ag.Comparisons) != 4 {
		t.Fatalf("comparisons %+v, want cc_harmonic and cc_pagerank each with opic and pagerank", ag.Comparisons)
	}
	for _, c := range ag.Comparisons[:2] {
		with := map[string][]float64{review.MeasureOPIC: opic, review.MeasurePageRank: rank}[c.With]
		if c.Measure != review.MeasureCCHarmonic || with == nil {
			t.Fatalf("comparison %+v: want cc_harmonic with opic, then pagerank", c)
		}
		if want := importance.Spearman(cc, with); c.Sites != 4 || math.Abs(float64(c.Spearman)-want) > 1e-12 || c.TopK != 4 {
			t.Errorf("%s with %s: %d sites, spearman %v, k %d; want 4, %v, 4", c.Measure, c.With, c.Sites, c.Spearman, c.TopK, want)
		}
	}

	var b bytes.Buffer
	if err := exports.WriteAgreement(&b, ag, "table"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"cc_harmonic", "cc_pagerank", "Common Crawl's ranks beside sitesift's"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the agreement table lacks %q:\n%s", want, b.String())
		}
	}
}

// TestAgreementWithoutCommonCrawlRanks: a project without Common Crawl
// ranks has neither their rows nor comparisons.
func TestAgreementWithoutCommonCrawlRanks(t *testing.T) {
	a, _ := apptest.Open(t, apptest.ReviewProject(t))
	ag, err := a.Review.Agreement(context.Background(), review.AgreementOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range ag.Rows {
		if strings.HasPrefix(r.Rater, "cc_") {
			t.Errorf("row %s without Common Crawl ranks", r.Rater)
		}
	}
	if len(ag.Comparisons) != 0 {
		t.Errorf("comparisons %+v without Common Crawl ranks", ag.Comparisons)
	}
}
