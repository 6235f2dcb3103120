package lab

import (
	"encoding/csv"
	"math"
	"strings"
	"testing"

	"sitesift/importance"
)

// linksGraph builds a graph of n nodes from [from, to] pairs, weight 1.
func linksGraph(t *testing.T, n int, arcs ...[2]int) *importance.Graph {
	t.Helper()
	es := make([]importance.WeightedEdge, len(arcs))
	for i, a := range arcs {
		es[i] = importance.WeightedEdge{From: a[0], To: a[1], Weight: 1}
	}
	g, err := importance.NewGraph(n, es)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// The comparison lists each graph's top sites with their place in the
// other, and the rank correlation of the two rankings: a share site every
// page links to in its template tops all links and is nowhere on the
// editorial links.
func TestLinksOutput(t *testing.T) {
	names := []string{"blog.test", "news.test", "share.test", "zine.test"}
	// news → blog, zine → blog, blog → news; on all links news, zine and
	// blog also link to share.
	editorial := [][2]int{{1, 0}, {3, 0}, {0, 1}}
	all := append(editorial, [2]int{1, 2}, [2]int{3, 2}, [2]int{0, 2})
	out, err := LinksOutput(LinkGraphs{Names: names, Editorial: linksGraph(t, 4, editorial...), All: linksGraph(t, 4, all...)},
		2, importance.DefaultTeleport, "demo")
	if err != nil {
		t.Fatal(err)
	}
	read := func(name string) [][]string {
		f, ok := out.File(name)
		if !ok {
			t.Fatalf("no %s", name)
		}
		rows, err := csv.NewReader(strings.NewReader(string(f.Data))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	top := read("links-top.csv")
	if len(top) != 3 || top[1][1] != "blog.test" || top[1][4] != "share.test" || top[1][6] != "3" {
		t.Errorf("links-top.csv = %q; want blog.test first on editorial links, share.test first on all links and 3rd on editorial", top)
	}
	if sites := read("links-sites.csv"); len(sites) != 5 || sites[1][0] != "blog.test" {
		t.Errorf("links-sites.csv = %q", sites)
	}
	summary := map[string]string{}
	for _, r := range read("links-summary.csv")[1:] {
		summary[r[0]] = r[1]
	}
	if summary["edges_editorial"] != "3" || summary["edges_all"] != "6" || summary["top_k_overlap"] != "0.5" {
		t.Errorf("links-summary.csv = %v", summary)
	}
	ed, _ := importance.PageRank(linksGraph(t, 4, editorial...), importance.DefaultPageRankOptions())
	al, _ := importance.PageRank(linksGraph(t, 4, all...), importance.DefaultPageRankOptions())
	if want := importance.Spearman(ed.Rank, al.Rank); summary["spearman"] != num(want) || math.IsNaN(want) {
		t.Errorf("spearman %s, want %v", summary["spearman"], want)
	}
	if len(out.Summary) != 2 || !strings.Contains(out.Summary[1], "top 2 shared 50%") {
		t.Errorf("summary %q", out.Summary)
	}
	if _, err := LinksOutput(LinkGraphs{Names: names, Editorial: linksGraph(t, 4), All: linksGraph(t, 4)}, 0, 0.15, "demo"); err == nil {
		t.Error("--top 0 accepted")
	}
}
