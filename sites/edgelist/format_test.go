package edgelist

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestSummaryFormat: a reading names the layout it recognised, for the
// summary a librarian reads: a plain edge list (of host names or of ids),
// or one of the domain graphs of the Archives Unleashed Toolkit.
func TestSummaryFormat(t *testing.T) {
	for _, tc := range []struct {
		name, file, text string
		want             string
	}{
		{name: "host names", text: "a.test b.test\nb.test c.test\n", want: FormatEdgeList},
		{name: "ids", text: "0 1\n1 2\n", want: FormatEdgeList},
		{name: "csv", file: "domain-graph.csv", want: FormatDomainCSV},
		{name: "graphml", file: "domain-graph.graphml", want: FormatGraphML},
		{name: "gexf", file: "domain-graph.gexf", want: FormatGEXF},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var g *Graph
			var err error
			if tc.file != "" {
				g, err = ReadFileOptions(filepath.Join("testdata", "aut", tc.file), Options{})
			} else {
				g, err = ReadOptions(strings.NewReader(tc.text), tc.name, Options{})
			}
			if err != nil {
				t.Fatal(err)
			}
			if g.Format != tc.want {
				t.Errorf("format = %q, want %q", g.Format, tc.want)
			}
		})
	}
}
