package ranking_test

import (
	"context"
	"math"
	"testing"

	"sitesift/app"
	"sitesift/app/apptest"
	"sitesift/sites"
)

// A project whose import stored the graph but not its importance (as a kill
// could leave it before graph and importance were one transaction) gets its
// importance at the next open instead of ranking every site 0.
func TestRepairImportanceOfAHalfImport(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	p := apptest.OpenDir(t, dir, true)
	names := []string{"a.test", "b.test", "c.test"}
	edges := []sites.Edge{{From: "a.test", To: "b.test", Weight: 1}, {From: "b.test", To: "c.test", Weight: 1},
		{From: "c.test", To: "a.test", Weight: 1}, {From: "a.test", To: "c.test", Weight: 1}}
	if _, err := p.Store.ImportGraph(ctx, "g.txt", names, edges, 0); err != nil {
		t.Fatal(err)
	}
	a := app.New(app.Options{Project: p})
	defer a.Close()
	defer p.Close()
	repaired, err := a.Ranking.RepairImportance(ctx)
	if err != nil || !repaired {
		t.Fatalf("RepairImportance = %v, %v; want a repair", repaired, err)
	}
	opic, pr, _, err := p.Store.ImportanceTotals(ctx)
	// OPIC's history and cash are not normalised: only PageRank sums to 1.
	if err != nil || !(opic > 0) || math.Abs(pr-1) > 1e-9 {
		t.Errorf("after the repair OPIC sums to %v and PageRank to %v (%v), want > 0 and 1", opic, pr, err)
	}
	if again, err := a.Ranking.RepairImportance(ctx); err != nil || again {
		t.Errorf("a second RepairImportance = %v, %v; want nothing to do", again, err)
	}
}
