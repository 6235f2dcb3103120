package app

import (
	"bytes"
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
	p, err := project.Open(dir, create)
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
	p, err := project.Open(dir, false, project.IndexProgress(func(done, total int) {
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
	req := CrawlRequest{Seeds: []string{"http://a.test/"}, MaxPages: 10, SettingsUpdate: SettingsUpdate{DelayMS: Set(1), Parallel: Set(2)}, Proxy: srv.URL}
	st, err := a.RunCrawl(context.Background(), req, time.Second, nil)
	if err != nil || st.State != StateDone || st.Pages != 4 || st.BadLinks != 4 {
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

// A crawl writes its records to the journal as it goes and empties it when
// it ends, every record saved.
func TestCrawlEmptiesItsJournal(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>Page</title><a href="/next">next</a>`)
	}))
	defer srv.Close()
	p := openProject(t, t.TempDir(), true)
	defer p.Close()
	a := New(Options{Project: p})
	defer a.Close()
	var journaled int
	req := CrawlRequest{Seeds: []string{srv.URL + "/"}, MaxPages: 2, SettingsUpdate: SettingsUpdate{DelayMS: Set(0)}}
	js, err := a.startCrawl(req)
	if err != nil {
		t.Fatal(err)
	}
	done, err := a.crawls.Done(js.ID)
	if err != nil {
		t.Fatal(err)
	}
	for journaled == 0 {
		if fi, err := os.Stat(filepath.Join(p.Dir, project.JournalFile)); err == nil && fi.Size() > 0 {
			journaled = int(fi.Size())
		}
		select {
		case <-done:
			journaled = -1
		default:
		}
	}
	<-done
	if fi, err := os.Stat(filepath.Join(p.Dir, project.JournalFile)); err != nil || fi.Size() != 0 {
		t.Errorf("the journal after the crawl: %v, %v (journaled %d bytes while it ran)", fi, err, journaled)
	}
}

// Each batch records the crawl's progress, so that a kill keeps its count of
// pages and retries.
func TestCrawlRecordsItsProgress(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(20 * time.Millisecond)
		fmt.Fprintf(w, `<title>Page</title><a href="%s1">next</a>`, r.URL.Path)
	}))
	defer srv.Close()
	p := openProject(t, t.TempDir(), true)
	defer p.Close()
	a := New(Options{Project: p})
	defer a.Close()
	js, err := a.startCrawl(CrawlRequest{Seeds: []string{srv.URL + "/"}, MaxPages: 1000, SettingsUpdate: SettingsUpdate{DelayMS: Set(0)}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { a.StopCrawl(); a.crawls.Wait(context.Background(), js.ID) }()
	deadline := time.Now().Add(time.Minute) // only a crawl that records nothing takes this long
	for time.Now().Before(deadline) {
		cs, err := p.Store.Crawls(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) == 1 && cs[0].FinishedAt.IsZero() && cs[0].Pages > 0 {
			return // recorded while it runs
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Error("the running crawl's record has no pages after a minute")
}

// A kill during a recrawl leaves its journal holding the records of the
// batches already committed as well as those of the batch it lost: the
// journal is emptied only when the recrawl ends. Replaying it at the next
// open counted every committed page a second time (488 unchanged pages
// became 976). Each page counts once in its round, however often its
// record is replayed, and the round ends with the counts of a recrawl
// never killed.
func TestRecrawlJournalOfCommittedBatchesCountsOnce(t *testing.T) {
	web := &changingWeb{}
	// The changed web's 503 page is gone instead, so that no retry waits.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if web.version.Load() == 1 && r.URL.Host == "s4.test" && r.URL.Path == "/p2" {
			http.Error(w, "gone", http.StatusGone)
			return
		}
		web.ServeHTTP(w, r)
	}))
	defer srv.Close()
	dir := t.TempDir()
	ctx := context.Background()
	p := openProject(t, dir, true)
	a := New(Options{Project: p})
	fast := SettingsUpdate{DelayMS: Set(0), Parallel: Set(4)}
	if st, err := a.RunCrawl(ctx, CrawlRequest{Seeds: []string{pageURL(1, 0)}, SettingsUpdate: fast, Proxy: srv.URL, NoWARC: true}, time.Second, nil); err != nil || st.State != StateDone {
		t.Fatalf("crawl: %+v, %v", st, err)
	}
	web.version.Store(1)
	// One site at a time, 30 ms apart: slow enough to be caught halfway.
	slow := SettingsUpdate{DelayMS: Set(30), Parallel: Set(1)}
	if _, err := a.StartCrawl(CrawlRequest{Recrawl: true, SettingsUpdate: slow, Proxy: srv.URL, NoWARC: true}); err != nil {
		t.Fatal(err)
	}
	// The journal as a kill would leave it once some batches are committed.
	journalPath := filepath.Join(dir, project.RecrawlJournalFile)
	waitFor(t, "10 pages recrawled", func() bool { return a.CrawlStatus().Pages >= 10 })
	var journal []byte
	waitFor(t, "the journal of a committed batch", func() bool {
		r := a.CrawlStatus().Recrawl
		b, err := os.ReadFile(journalPath)
		journal = b
		return err == nil && r != nil && r.Unchanged+r.Changed+r.Gone+r.Failed+r.New > 0 && bytes.Count(b, []byte("\n")) >= 10
	})
	if _, err := a.StopCrawl(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the recrawl stopped", func() bool { return a.CrawlStatus().State == StateStopped })
	rounds, err := p.Store.Rounds(ctx)
	if err != nil || len(rounds) != 2 {
		t.Fatalf("rounds after the stop: %+v, %v", rounds, err)
	}
	committed := rounds[1].RecrawlCounts
	a.Close()
	p.Close()

	// Every record of the journal was committed before the stop; the next
	// open replays them, and again after a second kill before the journal
	// was emptied.
	for range 2 {
		if err := os.WriteFile(journalPath, journal, 0o644); err != nil {
			t.Fatal(err)
		}
		p = openProject(t, dir, false)
		if p.Repairs.Journaled == 0 {
			t.Errorf("nothing replayed from a journal of %d bytes", len(journal))
		}
		rs, err := p.Store.Rounds(ctx)
		if err != nil || rs[1].RecrawlCounts != committed {
			t.Errorf("round 1 after replaying the journal: %+v, %v; want the committed counts %+v", rs[1].RecrawlCounts, err, committed)
		}
		p.Close()
	}

	p = openProject(t, dir, false)
	defer p.Close()
	a = New(Options{Project: p})
	defer a.Close()
	st, err := a.RunCrawl(ctx, CrawlRequest{Recrawl: true, SettingsUpdate: fast, Proxy: srv.URL, NoWARC: true}, time.Second, nil)
	if err != nil || st.Recrawl == nil || !st.Recrawl.Finished {
		t.Fatalf("continued recrawl: %+v, %v", st, err)
	}
	// As a recrawl never killed: every page changed but the two gone.
	n := changingSites * changingPages
	if want := (store.RecrawlCounts{Changed: n - 2, Gone: 2}); st.Recrawl.RecrawlCounts != want {
		t.Errorf("round 1 at its end: %+v, want %+v", st.Recrawl.RecrawlCounts, want)
	}
}
