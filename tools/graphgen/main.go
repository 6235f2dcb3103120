// Command graphgen writes a synthetic site graph (importance.Synthetic:
// power-law in-degrees, seeded and reproducible) as an edge list that
// sitesift, igraph's Read_Ncol and networkx's read_edgelist all read: one
// "SRC DST" line per arc, grouped by source. Nodes without any arc do not
// appear, so the three tools see the same node set.
//
//	go run ./tools/graphgen --nodes 320000 --avg-out 10 --out /tmp/graph.txt
//	go run ./tools/graphgen --names law --order crawl --out /tmp/law.txt
//
// --names site (the default) names node 42 site0000042.example. --names law
// names it n42: the node numbers of a LAW or SNAP edge list, each made a
// host name by its letter, as sitesift refuses a bare number (in a URL, a
// host of digits only is an IPv4 address).
//
// --order model (the default) numbers the nodes as the graph model draws
// them, so that a node's links go to nodes anywhere in the numbering.
// --order crawl numbers them as a breadth-first crawl discovers them from
// the most linked node (the next unnumbered node when it runs out): a node's
// targets first found through it get consecutive numbers, as the sites of a
// real crawl's file do, and the arcs are written in that order.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"slices"
	"strconv"

	"sitesift/importance"
)

func main() {
	nodes := flag.Int("nodes", 320000, "number of nodes")
	avgOut := flag.Float64("avg-out", 10, "mean out-degree")
	seed := flag.Uint64("seed", 1, "random seed")
	names := flag.String("names", "site", "node names: site (site0000042.example) or law (n42)")
	order := flag.String("order", "model", "node numbering: model (as drawn) or crawl (breadth-first discovery)")
	out := flag.String("out", "", "output file (required)")
	flag.Parse()
	name, ok := map[string]func([]byte, int) []byte{"site": siteName, "law": lawName}[*names]
	if *out == "" || flag.NArg() > 0 || !ok || *order != "model" && *order != "crawl" {
		fmt.Fprintln(os.Stderr, "usage: graphgen [--nodes N] [--avg-out D] [--seed S] [--names site|law] [--order model|crawl] --out FILE")
		os.Exit(2)
	}
	g := importance.Synthetic(*nodes, *avgOut, *seed)
	if *order == "crawl" {
		g = renumber(g, crawlOrder(g))
	}
	if err := write(*out, g, name); err != nil {
		fmt.Fprintln(os.Stderr, "graphgen:", err)
		os.Exit(1)
	}
}

// crawlOrder returns the nodes of g in the order a breadth-first crawl
// discovers them: from the node of highest in-degree, then from the
// lowest-numbered node not yet found whenever the crawl runs out.
func crawlOrder(g *importance.Graph) []int32 {
	in := make([]int, g.N)
	for _, t := range g.Targets {
		in[t]++
	}
	found := make([]bool, g.N)
	order := make([]int32, 0, g.N)
	crawl := func(seed int) {
		found[seed] = true
		order = append(order, int32(seed))
		for next := len(order) - 1; next < len(order); next++ {
			u := order[next]
			for _, v := range g.Targets[g.Offsets[u]:g.Offsets[u+1]] {
				if !found[v] {
					found[v] = true
					order = append(order, v)
				}
			}
		}
	}
	if g.N > 0 {
		crawl(slices.Index(in, slices.Max(in)))
	}
	for u := range g.N {
		if !found[u] {
			crawl(u)
		}
	}
	return order
}

// renumber returns g with node order[i] numbered i, each row's targets
// sorted by their new numbers.
func renumber(g *importance.Graph, order []int32) *importance.Graph {
	id := make([]int32, g.N)
	for i, u := range order {
		id[u] = int32(i)
	}
	r := &importance.Graph{N: g.N, Offsets: make([]int, g.N+1), Targets: make([]int32, 0, len(g.Targets)),
		Weights: g.Weights, OutW: make([]float64, g.N)}
	for i, u := range order {
		row := len(r.Targets)
		for _, v := range g.Targets[g.Offsets[u]:g.Offsets[u+1]] {
			r.Targets = append(r.Targets, id[v])
		}
		slices.Sort(r.Targets[row:])
		r.Offsets[i+1] = len(r.Targets)
		r.OutW[i] = g.OutW[u]
	}
	return r
}

// write writes the arcs of g to path, through a temporary file so that an
// interrupted run never leaves a truncated graph behind for a cache to reuse.
func write(path string, g *importance.Graph, name func([]byte, int) []byte) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var line []byte
	for u := 0; u < g.N; u++ {
		for k := g.Offsets[u]; k < g.Offsets[u+1]; k++ {
			line = name(line[:0], u)
			line = append(line, ' ')
			line = name(line, int(g.Targets[k]))
			line = append(line, '\n')
			w.Write(line)
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "graphgen: %d nodes, %d arcs -> %s\n", g.N, g.Arcs(), path)
	return os.Rename(tmp, path)
}

// siteName appends the site name of node u: site0000042.example.
func siteName(b []byte, u int) []byte {
	b = append(b, "site"...)
	s := strconv.Itoa(u)
	for range 7 - len(s) {
		b = append(b, '0')
	}
	b = append(b, s...)
	return append(b, ".example"...)
}

// lawName appends the LAW-style name of node u: n42.
func lawName(b []byte, u int) []byte {
	return strconv.AppendInt(append(b, 'n'), int64(u), 10)
}
