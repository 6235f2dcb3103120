package app

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sitesift/app/crawling"
	"sitesift/app/project"
	"sitesift/sites"
	"sitesift/sites/index"
	"sitesift/sites/store"
)

// killPages is a batch of searchable pages on one site.
func killPages(from, n int) []sites.Page {
	pages := make([]sites.Page, n)
	for i := range pages {
		u := fmt.Sprintf("http://kill.test/p%d", from+i)
		pages[i] = sites.Page{URL: u, Site: "kill.test", Status: 200, ContentType: "text/html",
			Title: fmt.Sprintf("page %d", from+i), Text: "gramophone cylinders", FetchedAt: time.Now()}
	}
	return pages
}

// openProject opens the project in dir (a new one when create), as the
// next process would after a kill.
func openProject(t *testing.T, dir string, create bool) *project.Project {
	t.Helper()
	p, err := project.Open(dir, create, project.SearchTimeout(project.NoSearchTimeout))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// save commits pages to the store, as a crawl batch does.
func save(t *testing.T, p *project.Project, pages []sites.Page) {
	t.Helper()
	if err := p.Store.SaveCrawlBatch(context.Background(), pages, nil); err != nil {
		t.Fatal(err)
	}
}

// addToIndex adds pages to the search index and marks them indexed, as a crawl
// batch does after its commit.
func addToIndex(t *testing.T, p *project.Project, pages []sites.Page) {
	t.Helper()
	if err := project.IndexPages(context.Background(), p.Store, p.Index, pages); err != nil {
		t.Fatal(err)
	}
}

func searchTotal(t *testing.T, ix *index.Index, q string) uint64 {
	t.Helper()
	res, err := ix.Search(context.Background(), index.Query{Text: q})
	if err != nil {
		t.Fatal(err)
	}
	return res.Total
}

// A kill between a batch's commit to the store and to the index left the
// batch out of the index for good; the next open now indexes it.
func TestOpenIndexesWhatAKillLeftOut(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	p := openProject(t, dir, true)
	// A batch saved and indexed as a crawl does, then one saved only: the
	// process died before the index batch.
	first := killPages(0, 30)
	save(t, p, first)
	addToIndex(t, p, first)
	save(t, p, killPages(30, 20))
	if got := searchTotal(t, p.Index, "gramophone"); got != 30 {
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
	if got := searchTotal(t, p.Index, "gramophone"); got != 50 {
		t.Errorf("after reopening the index holds %d pages, want 50", got)
	}
	if len(reports) == 0 || reports[len(reports)-1] != 20 {
		t.Errorf("progress reports %v, want them to end at 20", reports)
	}
	if n, err := p.Store.Unindexed(ctx); err != nil || n != 0 {
		t.Errorf("%d pages left unindexed, %v", n, err)
	}
	a := New(Options{Project: p})
	defer a.Close()
	r, err := a.Check(ctx)
	if err != nil || len(r.Problems) != 0 || r.Repairs.Indexed != 20 || r.Indexed != 50 || r.Searchable != 50 {
		t.Errorf("Check = %+v, %v; want 20 pages mended and no problem", r, err)
	}
}

// Check finds a store and an index that disagree.
func TestCheckFindsAnIndexBehindTheStore(t *testing.T) {
	ctx := context.Background()
	p := openProject(t, t.TempDir(), true)
	defer p.Close()
	save(t, p, killPages(0, 5))
	if _, err := p.Store.StartCrawl(ctx, nil); err != nil {
		t.Fatal(err)
	}
	a := New(Options{Project: p})
	defer a.Close()
	r, err := a.Check(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Problems) != 3 || r.Unindexed != 5 || r.Indexed != 0 || r.RunningCrawls != 1 {
		t.Errorf("Check = %+v; want 5 unindexed pages, an index 5 behind and a crawl left running", r)
	}
}

// A kill during a rebuild left a partial index that was never completed,
// since the index was rebuilt only when empty.
func TestOpenCompletesAPartialIndex(t *testing.T) {
	dir := t.TempDir()
	p := openProject(t, dir, true)
	all := killPages(0, 450)
	save(t, p, all)
	// The rebuild got through its first batch of pages before the kill.
	addToIndex(t, p, all[:project.IndexBatch])
	p.Close()

	p = openProject(t, dir, false)
	defer p.Close()
	if got := searchTotal(t, p.Index, "gramophone"); got != 450 {
		t.Errorf("index holds %d of 450 pages after reopening", got)
	}
}

// A page saved again is indexed again: the index must not keep the old
// version because the flag said "indexed".
func TestNewVersionOfAPageIsIndexedAgain(t *testing.T) {
	dir := t.TempDir()
	p := openProject(t, dir, true)
	v1 := killPages(0, 1)
	save(t, p, v1)
	addToIndex(t, p, v1)
	v2 := killPages(0, 1)
	v2[0].Text = "phonograph"
	save(t, p, v2)
	p.Close() // killed before the index got v2

	p = openProject(t, dir, false)
	defer p.Close()
	if got := searchTotal(t, p.Index, "phonograph"); got != 1 {
		t.Errorf("the new version is not in the index (%d hits)", got)
	}
}

// A crawl whose process was killed stayed "running" in the crawls table.
func TestOpenMarksKilledCrawlsInterrupted(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	p := openProject(t, dir, true)
	id, err := p.Store.StartCrawl(ctx, map[string]int{"max_pages": 10})
	if err != nil {
		t.Fatal(err)
	}
	p.Close() // killed: FinishCrawl never ran

	p = openProject(t, dir, false)
	defer p.Close()
	crawls, err := p.Store.Crawls(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(crawls) != 1 || crawls[0].ID != id || crawls[0].State != store.CrawlInterrupted {
		t.Errorf("crawls after reopening: %+v, want crawl %d interrupted", crawls, id)
	}
}

// A project whose import stored the graph but not its importance (as a kill
// could leave it before graph and importance were one transaction) gets its
// importance at the next open instead of ranking every site 0.
func TestRepairImportanceOfAHalfImport(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	p := openProject(t, dir, true)
	names := []string{"a.test", "b.test", "c.test"}
	edges := []sites.Edge{{From: "a.test", To: "b.test", Weight: 1}, {From: "b.test", To: "c.test", Weight: 1},
		{From: "c.test", To: "a.test", Weight: 1}, {From: "a.test", To: "c.test", Weight: 1}}
	if _, err := p.Store.ImportGraph(ctx, "g.txt", names, edges, 0); err != nil {
		t.Fatal(err)
	}
	a := New(Options{Project: p})
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

// One page linking to "http://../x" made every batch of the project fail:
// the crawl ended failed with 0 pages, and again on every restart. Crawled
// into a real project, the link is dropped and counted, the rest is kept.
func TestBadLinkDoesNotFailTheCrawl(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/robots.txt":
			http.NotFound(w, r)
		case "/":
			fmt.Fprint(w, `<title>Home</title><a href="http://../x">bad</a> <a href="http://a.test:99999/">bad</a>
				<a href="/next">next</a> <a href="http://b.test/">b</a>`)
		default:
			fmt.Fprint(w, `<title>Page</title><p>gramophone</p>`)
		}
	}))
	defer srv.Close()
	p := openProject(t, t.TempDir(), true)
	defer p.Close()
	a := New(Options{Project: p})
	defer a.Close()
	req := crawling.CrawlRequest{Seeds: []string{"http://a.test/"}, MaxPages: 10, SettingsUpdate: project.SettingsUpdate{DelayMS: Set(1), Parallel: Set(2)}, Proxy: srv.URL}
	st, err := a.Crawling.Run(context.Background(), req, time.Second, nil)
	if err != nil || st.State != crawling.StateDone || st.Pages != 4 || st.BadLinks != 4 {
		t.Fatalf("crawl: %+v, %v; want done with 4 pages (a.test and b.test, each / and /next) and their 4 bad links", st, err)
	}
}

// A project whose pages are all failed fetches (dead hosts) has an empty
// index; opening it must not take that for a lost index and index every
// page again each time.
func TestOpenDoesNotReindexAnEmptyIndex(t *testing.T) {
	dir := t.TempDir()
	p := openProject(t, dir, true)
	dead := []sites.Page{{URL: "http://dead.test/", Site: "dead.test", Err: "connection refused", FetchedAt: time.Now()}}
	save(t, p, dead)
	addToIndex(t, p, dead)
	p.Close()
	p = openProject(t, dir, false)
	defer p.Close()
	if p.Repairs.Indexed != 0 {
		t.Errorf("opening indexed %d pages again, want 0", p.Repairs.Indexed)
	}
}

// Check finds OPIC cash that does not sum to 1, which a crawl's batches
// keep whole.
func TestCheckFindsCashNotWhole(t *testing.T) {
	p := openProject(t, t.TempDir(), true)
	defer p.Close()
	a := New(Options{Project: p})
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

// The records a kill kept from their batch wait in the crawl journal; the
// next open saves them (a torn last line skipped) and empties it.
func TestOpenReplaysTheJournal(t *testing.T) {
	dir := t.TempDir()
	p := openProject(t, dir, true)
	p.Close()
	var lines []byte
	for _, pg := range killPages(0, 2) {
		b, err := json.Marshal(pg)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(append(lines, b...), '\n')
	}
	lines = append(lines, `{"URL":"http://kill.test/torn","Site":"ki`...)
	if err := os.WriteFile(filepath.Join(dir, project.JournalFile), lines, 0o644); err != nil {
		t.Fatal(err)
	}
	p = openProject(t, dir, false)
	defer p.Close()
	if p.Repairs.Journaled != 2 || searchTotal(t, p.Index, "gramophone") != 2 {
		t.Errorf("journaled %d, index %d; want the 2 whole records saved and indexed", p.Repairs.Journaled, searchTotal(t, p.Index, "gramophone"))
	}
	if fi, err := os.Stat(filepath.Join(dir, project.JournalFile)); err != nil || fi.Size() != 0 {
		t.Errorf("the journal after the replay: %v, %v", fi, err)
	}
}
