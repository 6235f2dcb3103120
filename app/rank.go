package app

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"sitesift/importance"
	"sitesift/sites"
)

// Weightings of the site graph's edges for PageRank.
const (
	// WeightingLinks weighs an edge by its weight: on a crawled graph the
	// number of pages of one site linking to the other, on an imported one
	// the file's weights (repeats added).
	WeightingLinks = "links"
	// WeightingBinary counts each linked site pair once, whatever its weight.
	WeightingBinary = "binary"
)

// checkWeighting returns an error for a weighting that is not known.
func checkWeighting(w string) error {
	if w != WeightingLinks && w != WeightingBinary {
		return badRequest(fmt.Errorf("rank: unknown weighting %q (want links or binary)", w))
	}
	return nil
}

// RankTolerance is the L1 residual at which `rank` stops PageRank's power
// iteration. M* is a contraction of factor 1−d in L1, so the distance to the
// fixpoint is at most (1−d)/d times the last residual: 5.7e-10 at d = 0.15,
// below the 1e-9 the rank is reported to.
const RankTolerance = 1e-10

// RankWeighted is [App.Rank] with PageRank computed under a weighting. With
// WeightingLinks it is Rank: the stored PageRank is recomputed and saved.
// With WeightingBinary the PageRank of the binary graph is computed for the
// answer only; the stored (links-weighted) PageRank is left as it is.
func (a *App) RankWeighted(ctx context.Context, limit int, weighting string) ([]RankRow, error) {
	if err := checkWeighting(weighting); err != nil {
		return nil, err
	}
	if weighting == WeightingLinks {
		return a.Rank(ctx, limit)
	}
	sg, err := a.store.SiteGraphCSR(ctx)
	if err != nil {
		return nil, err
	}
	res, err := importance.PageRank(csrGraph(sg).Binary(), rankPageRankOptions(a.teleport))
	if err != nil {
		return nil, fmt.Errorf("rank: %w", err)
	}
	byName := make(map[string]float64, len(sg.Names))
	for i, n := range sg.Names {
		byName[n] = res.Rank[i]
	}
	rows, err := a.allSites(ctx, limit)
	if err != nil {
		return nil, err
	}
	out := make([]RankRow, len(rows))
	for i, r := range rows {
		out[i] = RankRow{Site: r.Site, OPIC: r.OPIC, PageRank: byName[r.Site], InSites: r.InSites, OutSites: r.OutSites, Pages: r.Pages}
	}
	return out, nil
}

func rankPageRankOptions(teleport float64) importance.PageRankOptions {
	opt := importance.DefaultPageRankOptions()
	opt.Teleport = teleport
	opt.Tolerance = RankTolerance
	return opt
}

// EdgeRankOptions sets up [RankEdgeFile].
type EdgeRankOptions struct {
	// Weighting is WeightingLinks (the default, "") or WeightingBinary.
	Weighting string
	// Teleport is PageRank's teleport probability and OPIC's teleport
	// share; 0 means importance.DefaultTeleport.
	Teleport float64
	// NoOPIC skips the OPIC simulation: the opic column is then 0.
	NoOPIC bool
	// Limit > 0 keeps the first Limit rows.
	Limit int
}

// RankEdgeFile ranks the sites of an edge list without a project: PageRank
// (Kim–Lee M*, to [RankTolerance]) and, unless NoOPIC, OPIC by the offline
// Greedy simulation of [App.UpdateImportedImportance] (10·N reads), both on
// the graph under the weighting. InSites and OutSites come from the graph;
// Pages is 0. Rows are sorted by OPIC, then PageRank, highest first, then by
// site name.
func RankEdgeFile(ctx context.Context, path string, o EdgeRankOptions) ([]RankRow, error) {
	if o.Weighting == "" {
		o.Weighting = WeightingLinks
	}
	if err := checkWeighting(o.Weighting); err != nil {
		return nil, err
	}
	if o.Teleport == 0 {
		o.Teleport = importance.DefaultTeleport
	}
	el, err := ReadEdgeList(path, sites.RuleHost)
	if err != nil {
		return nil, err
	}
	weights := el.Weight
	if o.Weighting == WeightingBinary {
		weights = nil // every line counts 1; Binary below handles repeats
	}
	releaseMemory() // the reader's tables, before the graph takes as much again
	g, err := importance.FromEdgeList(len(el.Names), el.From, el.To, weights)
	if err != nil {
		return nil, fmt.Errorf("rank %s: %w", path, err)
	}
	// The parser's slices are as large as the edges read; let them go
	// before the iteration allocates its vectors.
	names := el.Names
	el, weights = nil, nil
	releaseMemory()
	if o.Weighting == WeightingBinary && g.Arcs() > 0 && slices.Max(g.Weights) > 1 {
		g = g.Binary() // a pair was repeated: its merged weight is above 1
	}
	pr, err := importance.PageRank(g, rankPageRankOptions(o.Teleport))
	if err != nil {
		return nil, fmt.Errorf("rank %s: %w", path, err)
	}
	var opic []float64
	if !o.NoOPIC {
		op, _, err := simulateOPIC(ctx, g, o.Teleport)
		if err != nil {
			return nil, fmt.Errorf("rank %s: %w", path, err)
		}
		opic = op.Estimate()
	}
	in := make([]int, g.N)
	for _, t := range g.Targets {
		in[t]++
	}
	// Sort small keys, not rows (eight words to move), with plain float
	// comparisons: no value is NaN.
	type key struct {
		opic, pr float64
		u        int32
	}
	keys := make([]key, g.N)
	for u := range keys {
		keys[u] = key{pr: pr.Rank[u], u: int32(u)}
		if opic != nil {
			keys[u].opic = opic[u]
		}
	}
	slices.SortFunc(keys, func(a, b key) int {
		switch {
		case a.opic > b.opic:
			return -1
		case a.opic < b.opic:
			return 1
		case a.pr > b.pr:
			return -1
		case a.pr < b.pr:
			return 1
		}
		return strings.Compare(names[a.u], names[b.u])
	})
	if o.Limit > 0 && o.Limit < len(keys) {
		keys = keys[:o.Limit]
	}
	rows := make([]RankRow, len(keys))
	for i, k := range keys {
		u := k.u
		rows[i] = RankRow{Site: names[u], OPIC: k.opic, PageRank: k.pr, InSites: in[u], OutSites: g.Offsets[u+1] - g.Offsets[u]}
	}
	return rows, nil
}
