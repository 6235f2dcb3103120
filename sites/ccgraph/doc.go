// Package ccgraph reads the host-level web graph Common Crawl publishes, as
// its text dumps: vertices ("id<TAB>reversed host name", e.g.
// "42<TAB>com.example.news"), edges ("from-id<TAB>to-id") and ranks
// (harmonic centrality and PageRank by reversed host), each gzip-compressed
// and often split into many files.
//
// The whole graph has hundreds of millions of hosts and billions of links;
// a library wants a national or thematic slice of it. A [Filter] chooses
// the hosts; an [IDs] keeps the ids of the chosen ones only, sorted, so that
// the edge files are streamed against it, and an [IDSet] the ids of all the
// hosts as runs of consecutive ids (a few a file, as the dumps number
// their hosts), so that an edge naming an id no vertices file gives is told
// from one linking a host outside the slice. A vertices file that gives an
// id twice is refused, naming both lines:
//
//	keep := ccgraph.Filter{TLDs: []string{"fr"}}
//	var ids ccgraph.IDs
//	err := ccgraph.ReadVertices(f, "vertices.txt.gz", func(id int64, host string) error {
//		if keep.Keep(host) {
//			ids.Add(id, host)
//		}
//		return nil
//	})
//	ids.Sort()
//	err = ccgraph.ReadEdges(g, "edges.txt.gz", func(from, to int64) error { … ids.Find(from) … })
package ccgraph
