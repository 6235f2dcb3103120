package edgelist

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestReadIDs: a file of integer ids is a graph of ids, its nodes named by
// their digits ("007" is "7"), with weights as in a host graph.
func TestReadIDs(t *testing.T) {
	g, err := Read(strings.NewReader("# SNAP\n0 1\n1\t2 2.5\n007 1\n2 0\n"), "ids.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !g.IDs {
		t.Error("IDs = false, want a graph of ids")
	}
	// 3 to 6, named by no line, are nodes too, as igraph reads ids.
	if want := []string{"0", "1", "2", "7", "3", "4", "5", "6"}; !slices.Equal(g.Names, want) || g.Unnamed != 4 {
		t.Errorf("Names = %q, want %q", g.Names, want)
	}
	if len(g.From) != 4 || g.Weight[1] != 2.5 {
		t.Errorf("edges %v %v %v, want 4, the second of weight 2.5", g.From, g.To, g.Weight)
	}
	if r := g.Report("ids.txt"); !strings.Contains(r, "a graph of ids") || !strings.Contains(r, "4 ids up to the largest") {
		t.Errorf("Report = %q, want it to say a graph of ids", r)
	}
	h, err := Read(strings.NewReader("a.example b.example\n"), "h.txt")
	if err != nil || h.IDs {
		t.Errorf("a host graph: IDs %v, %v; want false", h != nil && h.IDs, err)
	}
}

// TestReadIDsSparse: ids no line names are left out when they are more
// than the ids named, and the reading says so.
func TestReadIDsSparse(t *testing.T) {
	g, err := Read(strings.NewReader("0 1\n1 999999\n"), "sparse.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Names) != 3 || g.Unnamed != 999997 || !g.UnnamedLeftOut {
		t.Errorf("%d names, Unnamed %d, left out %v; want 3, 999997, true", len(g.Names), g.Unnamed, g.UnnamedLeftOut)
	}
	if r := g.Report("sparse.txt"); !strings.Contains(r, "the 999997 ids up to the largest that no line names are left out") {
		t.Errorf("Report = %q", r)
	}
}

// TestReadIDsOtherNames: in a graph of ids, a host name or an id too long
// is a bad line; in a host graph an integer is no host name.
func TestReadIDsOtherNames(t *testing.T) {
	in := "0 1\n1 2\n2 a.example\n3 12345678901234567890\n3 0\n"
	g, err := ReadOptions(strings.NewReader(in), "ids.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !g.IDs || g.Skipped != 2 || len(g.From) != 3 {
		t.Fatalf("IDs %v, %d skipped, %d edges; want a graph of ids, 2 skipped, 3 edges", g.IDs, g.Skipped, len(g.From))
	}
	if l := g.SkippedLines; l[0].Line != 3 || !strings.Contains(l[0].Msg, "no node id") || l[1].Line != 4 || !strings.Contains(l[1].Msg, "19 digits") {
		t.Errorf("SkippedLines = %v", l)
	}
	g, err = ReadOptions(strings.NewReader("a.example b.example\nb.example c.example\n12 34\n"), "h.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if g.IDs || g.Skipped != 1 || g.SkippedLines[0].Line != 3 {
		t.Errorf("host graph: IDs %v, skipped %v; want line 3 skipped", g.IDs, g.SkippedLines)
	}
}

// ukwa is a host graph with the typos of the UK web's 1996 host graph
// among good lines.
const ukwa = `www.bbc.co.uk www.ac.uk
www.ac.uk www,umass.edu
www.ox.ac.uk www.bbc.co.uk
www..igc.apc.org www.ox.ac.uk
www.ox.ac.uk 194.131.191
artaids.dcs.qmw.ac.uk.8001 www.bbc.co.uk
www.ac.uk www.ox.ac.uk 2
`

// TestReadLenientTypos: by default the lines whose names are no host
// names are skipped, counted and named, and the good ones read; strict
// refuses the file, naming them.
func TestReadLenientTypos(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ukwa1996.txt")
	if err := os.WriteFile(path, []byte(ukwa), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := ReadFileOptions(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"www.bbc.co.uk", "www.ac.uk", "www.ox.ac.uk"}; !slices.Equal(g.Names, want) || len(g.From) != 3 {
		t.Errorf("Names %q, %d edges; want %q and 3", g.Names, len(g.From), want)
	}
	var lines []int
	for _, l := range g.SkippedLines {
		lines = append(lines, l.Line)
	}
	if g.Skipped != 4 || !slices.Equal(lines, []int{2, 4, 5, 6}) {
		t.Errorf("skipped %d, lines %v; want 4: 2, 4, 5, 6", g.Skipped, g.SkippedLines)
	}
	n := 0
	for _, c := range g.SkippedWhy {
		n += c
	}
	if n != 4 {
		t.Errorf("SkippedWhy = %v, want 4 lines in all", g.SkippedWhy)
	}
	r := g.Report(path)
	if !strings.Contains(r, "4 bad lines skipped") || !strings.Contains(r, path+":6: the source name is no host name") ||
		!strings.Contains(r, "\n  2 lines: the source name is no host name") || strings.Contains(r, "read as") {
		t.Errorf("Report =\n%s", r)
	}

	_, err = ReadFileOptions(path, Options{Strict: true})
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Total != 4 || len(pe.Lines) != 4 || pe.Lines[0].Line != 2 {
		t.Fatalf("strict: error %v, want a ParseError naming 4 lines", err)
	}
	if !strings.Contains(err.Error(), "\n"+path+":5: ") {
		t.Errorf("strict error %q, want one line for each bad line", err)
	}
}

// TestReadLenientLimits: a lenient reading names the first MaxReported
// skipped lines and counts them all; a file of bad lines only is refused,
// and so is one whose reading stops (a line too long).
func TestReadLenientLimits(t *testing.T) {
	in := "a.example b.example\n" + strings.Repeat("a..example b.example\n", 30)
	g, err := ReadOptions(strings.NewReader(in), "many.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Skipped != 30 || len(g.SkippedLines) != MaxReported || len(g.From) != 1 {
		t.Errorf("skipped %d, %d named, %d edges; want 30, %d, 1", g.Skipped, len(g.SkippedLines), len(g.From), MaxReported)
	}
	if r := g.Report("many.txt"); !strings.Contains(r, "(10 more)") {
		t.Errorf("Report =\n%s", r)
	}
	_, err = ReadOptions(strings.NewReader("a..example b.example\nx\n"), "bad.txt", Options{})
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Total != 2 {
		t.Errorf("bad lines only: error %v, want a ParseError of 2 lines", err)
	}
	long := "a.example b.example\n" + strings.Repeat("x", 40) + " b.example\n"
	_, err = readBuffer(strings.NewReader(long), "long.txt", 0, 64, 32, CompactEdges, Options{})
	if !errors.As(err, &pe) || pe.Total != 1 || !strings.Contains(pe.Lines[0].Msg, "longer than") {
		t.Errorf("a line too long: error %v, want the file refused", err)
	}
}
