package app

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sitesift/app/export"
	"sitesift/importance"
)

// handEdges is a three-site graph whose PageRank (teleport 0.15, M*) is
// known in closed form. a splits its links 3:1 between b and c; b and c
// link back to a. With x_b + x_c = 1 − x_a, a receives 0.85·(1 − x_a) +
// 0.05, so x_a = 0.9/1.85 = 18/37 under either weighting.
//
//	links:  x_b = 0.85·¾·x_a + 0.05 = 13.325/37, x_c = 0.85·¼·x_a + 0.05 = 5.675/37
//	binary: x_b = x_c = (1 − x_a)/2 = 19/74
//
// The URL and the upper-case name must map to the sites a.test and b.test;
// the self-edge and the comment are dropped.
const handEdges = `# hand example
http://a.test/page b.test 2
A.TEST c.test
a.test	b.test 1   # a repeat: weight 3 in all
b.test a.test
c.test http://a.test/
c.test c.test 5
`

var (
	handLinks  = map[string]float64{"a.test": 18.0 / 37, "b.test": 13.325 / 37, "c.test": 5.675 / 37}
	handBinary = map[string]float64{"a.test": 18.0 / 37, "b.test": 19.0 / 74, "c.test": 19.0 / 74}
)

// writeSynthetic writes importance.Synthetic(n, avgOut, 1) as an edge list.
func writeSynthetic(t testing.TB, path string, n int, avgOut float64) {
	t.Helper()
	g := importance.Synthetic(n, avgOut, 1)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for u := 0; u < g.N; u++ {
		for k := g.Offsets[u]; k < g.Offsets[u+1]; k++ {
			fmt.Fprintf(w, "site%d.example site%d.example\n", u, g.Targets[k])
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkRankEdgeFile times `sitesift rank --edges --no-opic` on a
// 100 000-node, 1M-arc synthetic graph: parse, build, PageRank, sort.
func BenchmarkRankEdgeFile(b *testing.B) {
	path := filepath.Join(b.TempDir(), "synthetic.txt")
	writeSynthetic(b, path, 100000, 10)
	for b.Loop() {
		if _, err := RankEdgeFile(context.Background(), path, EdgeRankOptions{NoOPIC: true, Weighting: WeightingBinary}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestWriteRankCSVMatchesEncodingCSV: the hand-made CSV lines equal what
// csvWriter writes, quoting and neutralising included, whatever the site
// name.
func TestWriteRankCSVMatchesEncodingCSV(t *testing.T) {
	names := []string{"a.test", "with,comma", `with"quote`, " leading-space", "\tleading-tab", "\u00a0nbsp", "é.test",
		`\.`, "", "line\nbreak", "cr\rx", "#hash", "plain-123.example", "=cmd|' /c calc'!a1", "-x.test", "+1", "@a", "'=x", "-0.5", "'a"}
	var rows []RankRow
	for i, n := range names {
		rows = append(rows, RankRow{Site: n, OPIC: 1 / float64(i+3), PageRank: float64(i) * 1e-17, InSites: i, OutSites: 2 * i, Pages: i % 3})
	}
	var got, want strings.Builder
	if err := writeRankCSV(&got, rows); err != nil {
		t.Fatal(err)
	}
	cw := export.NewCSVWriter(&want)
	cw.Write([]string{"site", "opic", "pagerank", "in_sites", "out_sites", "pages"})
	for _, r := range rows {
		cw.Write([]string{r.Site, export.Ftoa(r.OPIC), export.Ftoa(r.PageRank), strconv.Itoa(r.InSites), strconv.Itoa(r.OutSites), strconv.Itoa(r.Pages)})
	}
	cw.Flush()
	if got.String() != want.String() {
		t.Errorf("got\n%s\nwant\n%s", got.String(), want.String())
	}
}
