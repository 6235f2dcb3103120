package app_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"sitesift/app"
	"sitesift/app/apptest"
	"sitesift/app/project"
	"sitesift/sites"
)

// A kill between a batch's commit to the store and to the index left the
// batch out of the index for good; the next open now indexes it.
func TestOpenIndexesWhatAKillLeftOut(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	p := apptest.OpenDir(t, dir, true)
	// A batch saved and indexed as a crawl does, then one saved only: the
	// process died before the index batch.
	first := apptest.KillPages(0, 30)
	apptest.Save(t, p, first)
	apptest.AddToIndex(t, p, first)
	apptest.Save(t, p, apptest.KillPages(30, 20))
	if got := apptest.SearchTotal(t, p.Index, "gramophone"); got != 30 {
		t.Fatalf("before reopening the index holds %d pages, want 30", got)
	}
	p.Close()

	var reports []int
	p, err := project.Open(dir, false, project.SearchTimeout(project.NoSearchTimeout), project.IndexProgress(func(done, total int) {
		if total != 20 {
			t.Errorf("progress total %d, want the 20 missing pages", total)
		}
		reports = append(reports, done)
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if got := apptest.SearchTotal(t, p.Index, "gramophone"); got != 50 {
		t.Errorf("after reopening the index holds %d pages, want 50", got)
	}
	if len(reports) == 0 || reports[len(reports)-1] != 20 {
		t.Errorf("progress reports %v, want them to end at 20", reports)
	}
	if n, err := p.Store.Unindexed(ctx); err != nil || n != 0 {
		t.Errorf("%d pages left unindexed, %v", n, err)
	}
	a := app.New(app.Options{Project: p})
	defer a.Close()
	r, err := a.Check(ctx)
	if err != nil || len(r.Problems) != 0 || r.Repairs.Indexed != 20 || r.Indexed != 50 || r.Searchable != 50 {
		t.Errorf("Check = %+v, %v; want 20 pages mended and no problem", r, err)
	}
}

// Check finds a store and an index that disagree.
func TestCheckFindsAnIndexBehindTheStore(t *testing.T) {
	ctx := context.Background()
	p := apptest.OpenDir(t, t.TempDir(), true)
	defer p.Close()
	apptest.Save(t, p, apptest.KillPages(0, 5))
	if _, err := p.Store.StartCrawl(ctx, nil); err != nil {
		t.Fatal(err)
	}
	a := app.New(app.Options{Project: p})
	defer a.Close()
	r, err := a.Check(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Problems) != 3 || r.Unindexed != 5 || r.Indexed != 0 || r.RunningCrawls != 1 {
		t.Errorf("Check = %+v; want 5 unindexed pages, an index 5 behind and a crawl left running", r)
	}
}

// Check finds OPIC cash that does not sum to 1, which a crawl's batches
// keep whole.
func TestCheckFindsCashNotWhole(t *testing.T) {
	p := apptest.OpenDir(t, t.TempDir(), true)
	defer p.Close()
	a := app.New(app.Options{Project: p})
	defer a.Close()
	ctx := context.Background()
	whole := []sites.SiteState{{Site: "a.test", Cash: 0.25, History: 1}, {Site: "b.test", Cash: 0.75}}
	if err := p.Store.SaveCrawlBatch(ctx, nil, whole); err != nil {
		t.Fatal(err)
	}
	if r, err := a.Check(ctx); err != nil || len(r.Problems) != 0 || math.Abs(r.OPICCash-1) > 1e-12 {
		t.Errorf("whole cash: %+v, %v", r, err)
	}
	if err := p.Store.SaveCrawlBatch(ctx, nil, whole[:1]); err != nil {
		t.Fatal(err)
	}
	if err := p.Store.SaveCrawlBatch(ctx, nil, []sites.SiteState{{Site: "b.test", Cash: 0.5}}); err != nil {
		t.Fatal(err)
	}
	if r, err := a.Check(ctx); err != nil || len(r.Problems) != 1 || !strings.Contains(r.Problems[0], "sums to 0.75") {
		t.Errorf("cash of 0.75: %+v, %v", r, err)
	}
}
