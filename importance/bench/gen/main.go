// Command gen writes a synthetic site graph (importance.Synthetic: power-law
// in-degrees, seeded and reproducible) as an edge list that sitesift,
// igraph's Read_Ncol and networkx's read_edgelist all read: one "SRC DST"
// line per arc, sites named site0000042.example. Nodes without any arc do
// not appear, so the three tools see the same node set.
//
//	go run ./importance/bench/gen --nodes 320000 --avg-out 10 --out /tmp/graph.txt
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strconv"

	"sitesift/importance"
)

func main() {
	nodes := flag.Int("nodes", 320000, "number of nodes")
	avgOut := flag.Float64("avg-out", 10, "mean out-degree")
	seed := flag.Uint64("seed", 1, "random seed")
	out := flag.String("out", "", "output file (required)")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: gen [--nodes N] [--avg-out D] [--seed S] --out FILE")
		os.Exit(2)
	}
	if err := write(*out, importance.Synthetic(*nodes, *avgOut, *seed)); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// write writes the arcs of g to path, through a temporary file so that an
// interrupted run never leaves a truncated graph behind for a cache to reuse.
func write(path string, g *importance.Graph) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var line []byte
	for u := 0; u < g.N; u++ {
		for k := g.Offsets[u]; k < g.Offsets[u+1]; k++ {
			line = appendName(line[:0], u)
			line = append(line, ' ')
			line = appendName(line, int(g.Targets[k]))
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
	fmt.Fprintf(os.Stderr, "gen: %d nodes, %d arcs -> %s\n", g.N, g.Arcs(), path)
	return os.Rename(tmp, path)
}

// appendName appends the site name of node u: site0000042.example.
func appendName(b []byte, u int) []byte {
	b = append(b, "site"...)
	s := strconv.Itoa(u)
	for range 7 - len(s) {
		b = append(b, '0')
	}
	b = append(b, s...)
	return append(b, ".example"...)
}
