package apptest

import (
	"context"
	"testing"

	"sitesift/app/project"
	"sitesift/sites/store"
)

// SetOPIC gives the sites of p named in opic that OPIC importance, and every
// other site 0, keeping each site's PageRank. A project's importance is
// OPIC's fixpoint over its site graph; SetOPIC is for the tests of what is
// done with an importance (orders, ranks, scores, exports), which choose it.
func SetOPIC(t testing.TB, p *project.Project, opic map[string]float64) {
	t.Helper()
	ctx := context.Background()
	g, err := p.Store.SiteGraphCSR(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, rows, err := p.Store.ListSites(ctx, store.SiteQuery{Sort: "site"})
	if err != nil {
		t.Fatal(err)
	}
	pr := make(map[string]float64, len(rows))
	for _, r := range rows {
		pr[r.Site] = r.PageRank
	}
	imp := store.NodeImportance{PageRank: make([]float64, len(g.Names)), OPIC: make([]float64, len(g.Names)),
		Fixpoint: store.Fixpoint{Rounds: 1}}
	for u, n := range g.Names {
		imp.PageRank[u], imp.OPIC[u] = pr[n], opic[n]
	}
	if err := p.Store.SetImportance(ctx, g, imp); err != nil {
		t.Fatal(err)
	}
}

// OPICFromStates is [SetOPIC] with the importance a crawl's running OPIC
// state estimates: each site's history plus cash, over their sum.
func OPICFromStates(t testing.TB, p *project.Project) {
	t.Helper()
	states, err := p.Store.OPICStates(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var total float64
	for _, s := range states {
		total += s.History + s.Cash
	}
	opic := map[string]float64{}
	for _, s := range states {
		if total > 0 {
			opic[s.Site] = (s.History + s.Cash) / total
		}
	}
	SetOPIC(t, p, opic)
}
