package importance

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"sitesift/internal/refdata"
)

// loadPolblogs returns the polblogs graph (duplicate arcs collapsed, as the
// reference scores were computed) and its node labels. It skips the test
// when the shared data is absent (refdata.Shared).
func loadPolblogs(t testing.TB) (*Graph, []string) {
	t.Helper()
	g, labels := loadPolblogsCounts(t)
	return g.Binary(), labels
}

// loadPolblogsCounts returns the polblogs graph with a repeated link
// weighing the number of times it is listed (the links weighting of a site
// graph), and its node labels.
func loadPolblogsCounts(t testing.TB) (*Graph, []string) {
	t.Helper()
	f, err := os.Open(refdata.Shared(t, "polblogs", "edges.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ids := map[string]int{}
	var labels []string
	id := func(s string) int {
		if i, ok := ids[s]; ok {
			return i
		}
		ids[s] = len(labels)
		labels = append(labels, s)
		return ids[s]
	}
	var edges []WeightedEdge
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if strings.HasPrefix(text, "#") || strings.TrimSpace(text) == "" {
			continue
		}
		src, dst, ok := strings.Cut(text, "\t")
		if !ok {
			t.Fatalf("edges.tsv:%d: no tab", line)
		}
		edges = append(edges, WeightedEdge{From: id(src), To: id(dst), Weight: 1})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	g, err := NewGraph(len(labels), edges)
	if err != nil {
		t.Fatal(err)
	}
	return g, labels
}

// referenceScores reads reference-scores.tsv: label → [pagerank, hub, authority].
func referenceScores(t testing.TB) map[string][3]float64 {
	t.Helper()
	data, err := os.ReadFile(refdata.Shared(t, "polblogs", "reference-scores.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	ref := map[string][3]float64{}
	for i, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			t.Fatalf("reference-scores.tsv:%d: %d fields", i+1, len(f))
		}
		var v [3]float64
		for k := range v {
			if v[k], err = strconv.ParseFloat(f[k+1], 64); err != nil {
				t.Fatalf("reference-scores.tsv:%d: %v", i+1, err)
			}
		}
		ref[f[0]] = v
	}
	return ref
}
