package app

import (
	"context"

	"sitesift/app/lab"
	"sitesift/app/ranking"
)

// LinkGraphs reads the project's two site graphs, editorial links and all
// links, for `lab links`, with the teleport its PageRank uses.
func (a *App) LinkGraphs(ctx context.Context) (lab.LinkGraphs, float64, error) {
	ed, all, err := a.store.BothSiteGraphsCSR(ctx)
	if err != nil {
		return lab.LinkGraphs{}, 0, err
	}
	return lab.LinkGraphs{Names: ed.Names, Editorial: ranking.CSRGraph(ed), All: ranking.CSRGraph(all)}, a.teleport, nil
}
