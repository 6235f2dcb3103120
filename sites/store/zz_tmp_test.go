package store

import (
	"context"
	"os"
	"testing"
	"time"

	"sitesift/sites"
	"sitesift/sites/edgelist"
)

func TestZZTmpBigImport(t *testing.T) {
	path := os.Getenv("SS_BIG")
	if path == "" {
		t.Skip()
	}
	g, err := edgelist.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	edges := make([]sites.Edge, len(g.From))
	for k := range edges {
		edges[k] = sites.Edge{From: g.Names[g.From[k]], To: g.Names[g.To[k]], Weight: g.Weight[k]}
	}
	s := openTest(t)
	ctx := context.Background()
	t0 := time.Now()
	st, err := s.ImportGraph(ctx, path, g.Names, edges, 0)
	t.Logf("import %v %+v %v", time.Since(t0), st, err)
	if os.Getenv("SS_ONLY") != "" {
		return
	}
	t0 = time.Now()
	names, es, err := s.SiteGraph(ctx)
	t.Logf("sitegraph %v %d %d %v", time.Since(t0), len(names), len(es), err)
	rank := map[string]float64{}
	for i, n := range names {
		rank[n] = float64(i)
	}
	t0 = time.Now()
	err = s.SetPageRank(ctx, rank)
	t.Logf("setpagerank %v %v", time.Since(t0), err)
}
