package cli

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// autData is where the domain graphs laid out as the Archives Unleashed
// Toolkit writes them are kept (see sites/edgelist/derivative_test.go).
var autData = filepath.Join("..", "..", "sites", "edgelist", "testdata", "aut")

// TestCLIImportAUTDomainGraph imports and ranks AUT's domain-graph CSV,
// GraphML and GEXF with --edges: each ranks as the plain edge list of its
// pairs, the counts of a pair summed over its crawl dates.
func TestCLIImportAUTDomainGraph(t *testing.T) {
	plain := writeFile(t, "plain.txt", "liberal.ca youtube.com 18\nndp.ca liberal.ca 3\ngreenparty.ca ndp.ca 4\n")
	want := rankCSV(t, "--edges", plain)
	for _, f := range []string{"domain-graph.graphml", "domain-graph.gexf"} {
		if got := rankCSV(t, "--edges", filepath.Join(autData, f)); !reflect.DeepEqual(got, want) {
			t.Errorf("rank --edges %s = %v, want %v", f, got, want)
		}
	}
	plainCSV := writeFile(t, "plain-csv.txt", "liberal.ca youtube.com 18\nndp.ca liberal.ca 3\ngreenparty.ca ndp.ca 4\nconservative.ca liberal.ca 6\n")
	if got, want := rankCSV(t, "--edges", filepath.Join(autData, "domain-graph.csv")), rankCSV(t, "--edges", plainCSV); !reflect.DeepEqual(got, want) {
		t.Errorf("rank --edges domain-graph.csv = %v, want %v", got, want)
	}

	dir := filepath.Join(t.TempDir(), "project")
	code, out, stderr := runCLI(t, "import", "--project", dir, "--edges", filepath.Join(autData, "domain-graph.csv"))
	if code != 0 {
		t.Fatalf("import: exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "5 sites, 4 edges (1 self-edges dropped)") {
		t.Errorf("import output %q", out)
	}
}

// TestCLIHelpNamesAUT checks that the help of --edges names the domain
// graphs it reads.
func TestCLIHelpNamesAUT(t *testing.T) {
	for _, cmd := range []string{"import", "rank"} {
		_, out, stderr := runCLI(t, cmd, "-h")
		if !strings.Contains(out+stderr, "GraphML, GEXF") {
			t.Errorf("%s -h does not name AUT's formats:\n%s%s", cmd, out, stderr)
		}
	}
}
