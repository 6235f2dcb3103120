package export

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
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
		if got := Cell(tc.in); got != tc.want {
			t.Errorf("Cell(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if back := Uncell(Cell(tc.in)); back != tc.in {
			t.Errorf("Uncell(Cell(%q)) = %q", tc.in, back)
		}
	}
}

// FuzzCSVCell: a cell Cell writes never starts a formula unless it is a
// decimal number, and Uncell gives the text back.
func FuzzCSVCell(f *testing.F) {
	for _, s := range []string{"=1", "'=1", "-0.5", "-1+2", "''@", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := Cell(s)
		if c != "" && strings.IndexByte(formulaStart, c[0]) >= 0 && !decimalNumber(c) {
			t.Fatalf("Cell(%q) = %q starts a formula", s, c)
		}
		if back := Uncell(c); back != s {
			t.Fatalf("Uncell(Cell(%q)) = %q", s, back)
		}
	})
}

// TestCSVWriterEverywhere: no file of app or its packages but this one
// makes a csv.Writer of its own, so every CSV goes through CSVWriter.
func TestCSVWriterEverywhere(t *testing.T) {
	var files []string
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") && path != filepath.Join("..", "export", "csv.go") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 10 {
		t.Fatalf("only %d files found under app/: %v", len(files), files)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == "csv" && (sel.Sel.Name == "NewWriter" || sel.Sel.Name == "Writer") {
					t.Errorf("%s: csv.%s: write CSV through export.NewCSVWriter", fset.Position(sel.Pos()), sel.Sel.Name)
				}
			}
			return true
		})
	}
}
