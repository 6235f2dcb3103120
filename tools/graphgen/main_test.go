package main

import (
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"sitesift/importance"
	"sitesift/sites/edgelist"
)

// TestCrawlOrder: the crawl order numbers every node once, starts from the
// most linked node, and gives the targets a node is the first to reach the
// numbers that follow in the crawl; renumbering keeps the graph, each arc
// u→v becoming id[u]→id[v].
func TestCrawlOrder(t *testing.T) {
	g := importance.Synthetic(2000, 6, 3)
	order := crawlOrder(g)
	if len(order) != g.N {
		t.Fatalf("%d nodes ordered, want %d", len(order), g.N)
	}
	seen := make([]bool, g.N)
	for _, u := range order {
		if seen[u] {
			t.Fatalf("node %d ordered twice", u)
		}
		seen[u] = true
	}
	in := make([]int, g.N)
	for _, v := range g.Targets {
		in[v]++
	}
	if in[order[0]] != slices.Max(in) {
		t.Errorf("the crawl starts from node %d of in-degree %d, want one of %d", order[0], in[order[0]], slices.Max(in))
	}
	// The seed's targets are all found through it: numbers 1 to its out-degree.
	seed := order[0]
	row := g.Targets[g.Offsets[seed]:g.Offsets[seed+1]]
	if got := slices.Sorted(slices.Values(order[1 : 1+len(row)])); !slices.Equal(got, row) {
		t.Errorf("numbers 1–%d go to %v, want the seed's targets %v", len(row), got, row)
	}
	r := renumber(g, order)
	id := make([]int32, g.N)
	for i, u := range order {
		id[u] = int32(i)
	}
	if r.Arcs() != g.Arcs() {
		t.Fatalf("%d arcs after renumbering, want %d", r.Arcs(), g.Arcs())
	}
	for u := range g.N {
		var want []int32
		for _, v := range g.Targets[g.Offsets[u]:g.Offsets[u+1]] {
			want = append(want, id[v])
		}
		slices.Sort(want)
		i := id[u]
		if got := r.Targets[r.Offsets[i]:r.Offsets[i+1]]; !slices.Equal(got, want) {
			t.Fatalf("node %d (now %d) links to %v, want %v", u, i, got, want)
		}
	}
}

// TestWriteLawNames: --names law writes node u as "n" and u, a host name
// sitesift's reader takes for a site, one line an arc.
func TestWriteLawNames(t *testing.T) {
	g := importance.Synthetic(50, 3, 1)
	path := filepath.Join(t.TempDir(), "g.txt")
	if err := write(path, g, lawName); err != nil {
		t.Fatal(err)
	}
	el, err := edgelist.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(el.From) != g.Arcs() {
		t.Errorf("%d edges read, want %d arcs", len(el.From), g.Arcs())
	}
	first := "n" + strconv.Itoa(int(g.Targets[0]))
	if el.Names[0] != "n0" || el.Names[1] != first {
		t.Errorf("the first line names %q and %q, want n0 and %s", el.Names[0], el.Names[1], first)
	}
}
