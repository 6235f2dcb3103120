package ranking_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sitesift/app"
	"sitesift/app/apptest"
	"sitesift/app/project"
	"sitesift/importance"
	"sitesift/sites/store"
)

// shown is every site's OPIC and PageRank as the Sites page lists them.
type shown map[string][2]float64

func listShown(t *testing.T, a *app.App) shown {
	t.Helper()
	list, err := a.Review.Sites(context.Background(), store.SiteQuery{Sort: "site"})
	if err != nil {
		t.Fatal(err)
	}
	out := shown{}
	for _, r := range list.Rows {
		out[r.Site] = [2]float64{r.OPIC, r.PageRank}
	}
	return out
}

// sameShown fails unless got holds the sites of want with the same OPIC and
// PageRank to 1e-9.
func sameShown(t *testing.T, what string, got, want shown) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d sites, want %d", what, len(got), len(want))
	}
	for site, w := range want {
		g, ok := got[site]
		if !ok {
			t.Fatalf("%s: %s missing", what, site)
		}
		if math.Abs(g[0]-w[0]) > 1e-9 || math.Abs(g[1]-w[1]) > 1e-9 {
			t.Errorf("%s: %s OPIC %v PageRank %v, was %v %v", what, site, g[0], g[1], w[0], w[1])
		}
	}
}

// TestImportanceWhateverThePath crawls the demo web (pages with their
// template: menus, footers, share buttons) and checks that the importance
// shown is one value per site for the graph, whatever the path: right after
// the crawl; after the links setting is switched to all links and back; after
// `rank`; and, for the all-links graph, after an import of that graph into a
// new project, whose sites are numbered in another order. The OPIC shown is
// OPIC carried on to its fixpoint, so it also agrees with PageRank.
func TestImportanceWhateverThePath(t *testing.T) {
	ctx := context.Background()
	a, p, _ := apptest.OpenProject(t, apptest.CrawledProject(t))
	afterCrawl := listShown(t, a)
	if len(afterCrawl) < 20 {
		t.Fatalf("the crawl met %d sites", len(afterCrawl))
	}
	var opic, pr []float64
	for _, v := range afterCrawl {
		opic, pr = append(opic, v[0]), append(pr, v[1])
	}
	if rho := importance.Spearman(opic, pr); rho < 0.99 {
		t.Errorf("Spearman(OPIC, PageRank) after the crawl = %.3f, want the fixpoint's agreement (≥ 0.99)", rho)
	}
	basis, err := a.Ranking.Basis(ctx)
	if err != nil || basis.Fixpoint.Rounds < 2 || !(basis.Fixpoint.Residual < 1e-12) {
		t.Errorf("basis %+v, %v: want the fixpoint's rounds and residual", basis, err)
	}

	links := func(v string) {
		t.Helper()
		if _, err := a.Ranking.SetSettings(ctx, project.SettingsUpdate{Links: &v}); err != nil {
			t.Fatal(err)
		}
	}
	links("all")
	allLinks := listShown(t, a)
	links("editorial")
	sameShown(t, "links all, then editorial again", listShown(t, a), afterCrawl)
	if _, err := a.Ranking.Rank(ctx, 0); err != nil {
		t.Fatal(err)
	}
	sameShown(t, "after rank", listShown(t, a), afterCrawl)

	// The all-links graph, imported as an edge list, last site first.
	links("all")
	names, edges, err := p.Store.SiteGraph(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i := len(edges) - 1; i >= 0; i-- {
		fmt.Fprintf(&b, "%s %s %v\n", edges[i].From, edges[i].To, edges[i].Weight)
	}
	linked := map[string]bool{}
	for _, e := range edges {
		linked[e.From], linked[e.To] = true, true
	}
	for _, n := range names {
		if !linked[n] {
			t.Fatalf("%s has no link in the all-links graph: an edge list cannot hold it", n)
		}
	}
	path := filepath.Join(t.TempDir(), "graph.txt")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	imported := apptest.Empty(t)
	if _, err := imported.Imports.Import(ctx, path); err != nil {
		t.Fatal(err)
	}
	sameShown(t, "the all-links graph imported", listShown(t, imported), allLinks)
}
