package app

import (
	"context"
	"fmt"
	"slices"

	"sitesift/app/lab"
	"sitesift/app/ranking"
	"sitesift/importance"
)

// SeedGraphs reads the two graphs of a project's evaluation: the page
// graph the method runs on in the seeds paper (links between pages of
// different sites; the Communities page runs it on sites instead, see
// [App.loadCommunityGraph]), and the whole page graph, whose URLs label
// the results.
func (a *App) SeedGraphs(ctx context.Context) (lab.SeedGraphs, []string, error) {
	cg, err := a.loadPageSeedGraph(ctx)
	if err != nil {
		return lab.SeedGraphs{}, nil, err
	}
	urls, arcs, err := a.store.FullPageGraph(ctx)
	if err != nil {
		return lab.SeedGraphs{}, nil, err
	}
	wes := make([]importance.WeightedEdge, len(arcs))
	for i, arc := range arcs {
		wes[i] = importance.WeightedEdge{From: int(arc[0]), To: int(arc[1]), Weight: 1}
	}
	full, err := importance.NewGraph(len(urls), wes)
	if err != nil {
		return lab.SeedGraphs{}, nil, fmt.Errorf("lab seeds: %w", err)
	}
	// Both URL lists are sorted, and every node of the pruned graph is one
	// of the whole graph.
	toEval := make([]int, len(cg.urls))
	for i, u := range cg.urls {
		j, ok := slices.BinarySearch(urls, u)
		if !ok {
			return lab.SeedGraphs{}, nil, fmt.Errorf("lab seeds: %s is in the pruned page graph only", u)
		}
		toEval[i] = j
	}
	return lab.SeedGraphs{Extract: cg.g, Eval: full, ToEval: toEval}, urls, nil
}

// LinkGraphs reads the project's two site graphs, editorial links and all
// links, for `lab links`, with the teleport its PageRank uses.
func (a *App) LinkGraphs(ctx context.Context) (lab.LinkGraphs, float64, error) {
	ed, all, err := a.store.BothSiteGraphsCSR(ctx)
	if err != nil {
		return lab.LinkGraphs{}, 0, err
	}
	return lab.LinkGraphs{Names: ed.Names, Editorial: ranking.CSRGraph(ed), All: ranking.CSRGraph(all)}, a.teleport, nil
}
