package ranking

import (
	"bufio"
	"context"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestRankEdgeFileIDsMatchesIgraph: a graph of integer ids (as LAW, SNAP,
// networkx and igraph write it) is ranked by its ids, and its PageRank is
// igraph's PRPACK to 1e-9 (testdata/ids.igraph.tsv, written by
// testdata/ids_igraph.py).
func TestRankEdgeFileIDsMatchesIgraph(t *testing.T) {
	want := map[string]float64{}
	f, err := os.Open("testdata/ids.igraph.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		id, v, _ := strings.Cut(sc.Text(), "\t")
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			t.Fatal(err)
		}
		want[id] = x
	}
	rows, err := RankEdgeFile(context.Background(), "testdata/ids.txt", EdgeRankOptions{NoOPIC: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want igraph's %d nodes", len(rows), len(want))
	}
	worst := 0.0
	for _, r := range rows {
		x, ok := want[r.Site]
		if !ok {
			t.Fatalf("node %q is not one of igraph's ids", r.Site)
		}
		if d := math.Abs(r.PageRank - x); d > worst {
			worst = d
		}
	}
	if worst > 1e-9 {
		t.Errorf("PageRank is %g from igraph's at most, want ≤ 1e-9", worst)
	}
	t.Logf("PageRank within %.2g of igraph's PRPACK over %d ids", worst, len(rows))
}
