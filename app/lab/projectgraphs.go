package lab

import (
	"context"
	"fmt"
	"sitesift/app/ranking"
	"sitesift/importance"
	"slices"
)

// SeedGraphs reads the two graphs of a project's evaluation: the page
// graph the method runs on in the seeds paper (links between pages of
// different sites; the Communities page runs it on sites instead, see
// [communities.Service]), and the whole page graph, whose URLs label
// the results.
func (s *Service) SeedGraphs(ctx context.Context) (SeedGraphs, []string, error) {
	pageURLs, pageGraph, err := s.communities.PageSeedGraph(ctx)
	if err != nil {
		return SeedGraphs{}, nil, err
	}
	urls, arcs, err := s.store.FullPageGraph(ctx)
	if err != nil {
		return SeedGraphs{}, nil, err
	}
	wes := make([]importance.WeightedEdge, len(arcs))
	for i, arc := range arcs {
		wes[i] = importance.WeightedEdge{From: int(arc[0]), To: int(arc[1]), Weight: 1}
	}
	full, err := importance.NewGraph(len(urls), wes)
	if err != nil {
		return SeedGraphs{}, nil, fmt.Errorf("lab seeds: %w", err)
	}
	// Both URL lists are sorted, and every node of the pruned graph is one
	// of the whole graph.
	toEval := make([]int, len(pageURLs))
	for i, u := range pageURLs {
		j, ok := slices.BinarySearch(urls, u)
		if !ok {
			return SeedGraphs{}, nil, fmt.Errorf("lab seeds: %s is in the pruned page graph only", u)
		}
		toEval[i] = j
	}
	return SeedGraphs{Extract: pageGraph, Eval: full, ToEval: toEval}, urls, nil
}

// LinkGraphs reads the project's two site graphs, editorial links and all
// links, for `lab links`, with the teleport its PageRank uses.
func (s *Service) LinkGraphs(ctx context.Context) (LinkGraphs, float64, error) {
	ed, all, err := s.store.BothSiteGraphsCSR(ctx)
	if err != nil {
		return LinkGraphs{}, 0, err
	}
	return LinkGraphs{Names: ed.Names, Editorial: ranking.CSRGraph(ed), All: ranking.CSRGraph(all)}, s.teleport, nil
}
