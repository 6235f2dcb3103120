package imports

import (
	"context"
	"errors"
	"fmt"

	"sitesift/app/fault"
	"sitesift/app/ranking"
	"sitesift/importance"
	"sitesift/sites/edgelist"
	"sitesift/sites/store"
)

// ImportResult is what an import did.
type ImportResult struct {
	ImportStats
	// OPICReads is the number of reads of the offline OPIC simulation run
	// on the whole site graph afterwards (10 per site).
	OPICReads int `json:"opic_reads"`
	// Read is what the reading said of the file: its layout, the bad
	// lines skipped and why, and whether it was a graph of ids.
	Read EdgeListRead `json:"read"`
}

// Import reads the edge list in path (see package sitesift/sites/edgelist
// for the format) and adds it to the project's site graph, then recomputes
// PageRank and OPIC on the whole graph. A bad line (names that are no host
// names in a host graph, a bad weight) is skipped, and the result says how
// many and why, naming the first edgelist.MaxReported; a file of bad lines
// only is refused. To refuse a file with any bad line, read it with
// [ranking.ReadEdgeListOptions] (Strict) and import it with
// [Service.ImportEdgeList]. A graph of integer ids is imported with its ids
// as the sites' names. A project that was crawled is refused: import into a
// new one.
//
// Importing a second file adds its edges; a pair already present gets the
// sum of the weights, as a repeated line within one file does.
func (s *Service) Import(ctx context.Context, path string) (ImportResult, error) {
	g, err := ranking.ReadEdgeListOptions(path, edgelist.Options{Rule: s.store.SiteRule()})
	if err != nil {
		return ImportResult{}, err
	}
	return s.ImportEdgeList(ctx, path, g)
}

// ImportEdgeList is [Service.Import] of an edge list already read; name is
// recorded as the file imported. Once it has built the site graph from g's
// edges it releases them (g.From, g.To and g.Weight become nil): at tens of
// millions of edges, holding both would double the import's memory.
func (s *Service) ImportEdgeList(ctx context.Context, name string, g *edgelist.Graph) (ImportResult, error) {
	ranking.ReleaseMemory() // the reader's tables
	ig, err := importance.FromEdgeList(len(g.Names), g.From, g.To, g.Weight)
	if err != nil {
		return ImportResult{}, fmt.Errorf("import %s: %w", name, err)
	}
	g.From, g.To, g.Weight = nil, nil, nil
	ranking.ReleaseMemory()
	sg := &store.Graph{Names: g.Names, Offsets: ig.Offsets, Targets: ig.Targets, Weights: ig.Weights}
	ig = nil
	var reads int
	var st store.ImportStats
	err = s.ranking.Exclusive(func() (err error) {
		st, err = s.store.ImportSiteGraph(ctx, name, sg, g.SelfEdges, func(ctx context.Context, whole *store.Graph) (store.NodeImportance, error) {
			imp, n, err := ranking.GraphImportance(ctx, whole, s.teleport)
			reads = n
			return imp, err
		})
		return err
	})
	if errors.Is(err, store.ErrCrawled) {
		return ImportResult{}, fault.Conflict(err)
	}
	if err != nil {
		return ImportResult{}, err
	}
	return ImportResult{ImportStats: ImportStats(st), OPICReads: reads, Read: edgeListRead(g.Summary)}, nil
}
