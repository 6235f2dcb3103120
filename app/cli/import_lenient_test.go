package cli

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// ukwa1996 holds the kinds of typos of the UK web's 1996 host graph among
// good lines: lines 2, 4, 5 and 6 name no host.
const ukwa1996 = `www.bbc.co.uk www.ac.uk
www.ac.uk www,umass.edu
www.ox.ac.uk www.bbc.co.uk
www..igc.apc.org www.ox.ac.uk
www.ox.ac.uk 194.131.191
artaids.dcs.qmw.ac.uk.8001 www.bbc.co.uk
www.ac.uk www.ox.ac.uk
`

// TestCLIImportSkipsBadLines: import and rank --edges read the good lines
// of a host graph with typos, and say on standard error how many lines
// they skipped, why, and which, one a line; --strict refuses the file,
// naming the lines one a line.
func TestCLIImportSkipsBadLines(t *testing.T) {
	path := writeFile(t, "ukwa1996.txt", ukwa1996)
	named := func(t *testing.T, stderr string) {
		t.Helper()
		for _, n := range []int{2, 4, 5, 6} {
			if want := fmt.Sprintf("\n%s:%d: ", path, n); !strings.Contains(stderr, want) {
				t.Errorf("stderr lacks a line starting %q:\n%s", want[1:], stderr)
			}
		}
		for _, n := range []int{1, 3, 7} {
			if strings.Contains(stderr, fmt.Sprintf("%s:%d:", path, n)) {
				t.Errorf("stderr names good line %d:\n%s", n, stderr)
			}
		}
	}
	dir := filepath.Join(t.TempDir(), "project")
	code, out, stderr := runCLI(t, "import", "--project", dir, "--edges", path)
	if code != 0 {
		t.Fatalf("import: exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "3 sites, 3 edges (0 self-edges dropped, 4 bad lines skipped)") {
		t.Errorf("stdout %q", out)
	}
	if !strings.Contains(stderr, "4 bad lines skipped (--strict refuses the file):") ||
		!strings.Contains(stderr, "\n  2 lines: the source name is no host name") {
		t.Errorf("stderr:\n%s", stderr)
	}
	named(t, stderr)
	if rows := rankCSV(t, "--project", dir); len(rows) != 3 || rows["bbc.co.uk"] == nil {
		t.Errorf("ranked %v, want the 3 sites of the good lines", rows)
	}

	code, out, stderr = runCLI(t, "rank", "--edges", path, "--format", "csv")
	if code != 0 || strings.Count(out, "\n") != 4 {
		t.Fatalf("rank --edges: exit %d, stdout %q, stderr %s", code, out, stderr)
	}
	named(t, stderr)

	for _, args := range [][]string{
		{"rank", "--edges", path, "--strict"},
		{"import", "--project", filepath.Join(t.TempDir(), "p"), "--edges", path, "--strict"},
	} {
		code, out, stderr = runCLI(t, args...)
		if code != 1 || out != "" || !strings.Contains(stderr, "4 bad lines, nothing imported:\n") {
			t.Errorf("%v: exit %d, stdout %q, stderr %s; want the file refused", args, code, out, stderr)
		}
		named(t, stderr)
	}
}

// TestCLIImportIDs: a graph of integer ids is imported and ranked by its
// ids, and the summary says so.
func TestCLIImportIDs(t *testing.T) {
	path := writeFile(t, "ids.txt", "# LAW\n0 1\n0 2\n1 2\n2 0\n")
	dir := filepath.Join(t.TempDir(), "project")
	code, out, stderr := runCLI(t, "import", "--project", dir, "--edges", path)
	if code != 0 {
		t.Fatalf("import: exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "3 sites (node ids), 4 edges") || !strings.Contains(stderr, "a graph of ids") {
		t.Errorf("stdout %q, stderr %q", out, stderr)
	}
	rows := rankCSV(t, "--project", dir)
	if len(rows) != 3 || rows["0"] == nil || rows["2"][3] != "2" {
		t.Errorf("ranked %v, want ids 0, 1, 2, id 2 linked from 2 sites", rows)
	}
	if code, _, stderr := runCLI(t, "rank", "--project", dir, "--strict"); code != 2 || !strings.Contains(stderr, "--strict goes with --edges") {
		t.Errorf("rank --project --strict: exit %d, %s", code, stderr)
	}
}
