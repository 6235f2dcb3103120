package exports

import (
	"strconv"
	"strings"
	"testing"

	"sitesift/app/export"
	"sitesift/app/ranking"
)

// TestWriteRankCSVMatchesEncodingCSV: the hand-made CSV lines equal what
// csvWriter writes, quoting and neutralising included, whatever the site
// name.
func TestWriteRankCSVMatchesEncodingCSV(t *testing.T) {
	names := []string{"a.test", "with,comma", `with"quote`, " leading-space", "\tleading-tab", "\u00a0nbsp", "é.test",
		`\.`, "", "line\nbreak", "cr\rx", "#hash", "plain-123.example", "=cmd|' /c calc'!a1", "-x.test", "+1", "@a", "'=x", "-0.5", "'a"}
	// The graph's names, one with a comma to quote.
	graphs := []string{ranking.GraphEditorial, ranking.GraphWithImports, ranking.GraphNoPages}
	var rows []ranking.RankRow
	for i, n := range names {
		rows = append(rows, ranking.RankRow{Site: n, OPIC: 1 / float64(i+3), PageRank: float64(i) * 1e-17, InSites: i, OutSites: 2 * i, Pages: i % 3,
			Graph: graphs[i%len(graphs)]})
		rows[i].Standing = ranking.Standing{OPICRank: i + 1, OPICScore: 100 - i, PageRankRank: len(names) - i, PageRankScore: i, OPICTies: i % 2}
	}
	var got, want strings.Builder
	if err := writeRankCSV(&got, rows); err != nil {
		t.Fatal(err)
	}
	cw := export.NewCSVWriter(&want)
	cw.Write([]string{"site", "opic", "pagerank", "in_sites", "out_sites", "pages", "opic_rank", "opic_score", "pagerank_rank", "pagerank_score", "graph", "opic_ties"})
	for _, r := range rows {
		cw.Write([]string{r.Site, export.Ftoa(r.OPIC), export.Ftoa(r.PageRank), strconv.Itoa(r.InSites), strconv.Itoa(r.OutSites), strconv.Itoa(r.Pages),
			strconv.Itoa(r.OPICRank), strconv.Itoa(r.OPICScore), strconv.Itoa(r.PageRankRank), strconv.Itoa(r.PageRankScore), r.Graph, strconv.Itoa(r.OPICTies)})
	}
	cw.Flush()
	if got.String() != want.String() {
		t.Errorf("got\n%s\nwant\n%s", got.String(), want.String())
	}
}
