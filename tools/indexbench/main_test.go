package main

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// TestRun runs the benchmark on a small project: every page is indexed,
// every query runs, and the report says so. It times nothing.
func TestRun(t *testing.T) {
	var out strings.Builder
	rep, err := Run(context.Background(), Config{Pages: 1500, Batch: 20, Queries: 60, Seed: 3,
		Dir: filepath.Join(t.TempDir(), "index.bleve")}, &out)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Pages != 1500 || rep.PagesPerSec <= 0 || rep.P95 < rep.P50 || rep.Max < rep.P99 || rep.MeanHits < 1 ||
		len(rep.ByKind) != 5 {
		t.Errorf("report %+v", rep)
	}
	if !strings.Contains(out.String(), "indexed 1500 pages") || !strings.Contains(out.String(), "p95 phrase") {
		t.Errorf("output:\n%s", out.String())
	}
}

func TestGeneratorDeterministic(t *testing.T) {
	a, b := newGenerator(7, 300), newGenerator(7, 300)
	for _, i := range []int{0, 17, 299} {
		if pa, pb := a.page(i), b.page(i); pa.URL != pb.URL || pa.Text != pb.Text || pa.Title != pb.Title {
			t.Fatalf("page %d differs between two generators of one seed", i)
		}
	}
	if a.sites < 2 || a.site[299] != a.sites-1 {
		t.Errorf("%d sites, last page on site %d", a.sites, a.site[299])
	}
}

// TestRunLanguages: with the sites spread over languages, every query is
// searched in each and finds the pages it finds when their language is not
// told: the content words are analysed the same way in the page and in the
// query, whatever the language.
func TestRunLanguages(t *testing.T) {
	run := func(langs int) Report {
		var out strings.Builder
		rep, err := Run(context.Background(), Config{Pages: 1500, Batch: 20, Queries: 60, Seed: 3, Languages: langs, NoFacetRun: true,
			Dir: filepath.Join(t.TempDir(), "index.bleve")}, &out)
		if err != nil {
			t.Fatal(err)
		}
		if want := map[bool]string{true: "8 languages)", false: "language not told)"}[langs == 8]; !strings.Contains(out.String(), want) {
			t.Errorf("output:\n%s", out.String())
		}
		return rep
	}
	untold, spread := run(0), run(8)
	if spread.MeanHits < 1 || spread.MeanHits < 0.95*untold.MeanHits || spread.MeanHits > 1.05*untold.MeanHits {
		t.Errorf("mean hits %.1f over 8 languages, %.1f untold; want about the same", spread.MeanHits, untold.MeanHits)
	}
	if _, err := Run(context.Background(), Config{Pages: 10, Batch: 5, Queries: 1, Languages: len(benchLanguages) + 1,
		Dir: filepath.Join(t.TempDir(), "index.bleve")}, io.Discard); err == nil {
		t.Errorf("-languages %d: no error", len(benchLanguages)+1)
	}
}
