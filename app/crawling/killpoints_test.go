package crawling

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sitesift/app/project"
	"testing"
	"time"
)

// A crawl writes its records to the journal as it goes and empties it when
// it ends, every record saved.
func TestCrawlEmptiesItsJournal(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>Page</title><a href="/next">next</a>`)
	}))
	defer srv.Close()
	p := openProject(t, t.TempDir(), true)
	defer p.Close()
	a := newService(p)
	defer a.Close()
	var journaled int
	req := CrawlRequest{Seeds: []string{srv.URL + "/"}, MaxPages: 2, SettingsUpdate: project.SettingsUpdate{DelayMS: new(0)}}
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
	a := newService(p)
	defer a.Close()
	js, err := a.startCrawl(CrawlRequest{Seeds: []string{srv.URL + "/"}, MaxPages: 1000, SettingsUpdate: project.SettingsUpdate{DelayMS: new(0)}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { a.Stop(); a.crawls.Wait(context.Background(), js.ID) }()
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
	a := newService(p)
	fast := project.SettingsUpdate{DelayMS: new(0), Parallel: new(4)}
	if st, err := a.Run(ctx, CrawlRequest{Seeds: []string{pageURL(1, 0)}, SettingsUpdate: fast, Proxy: srv.URL, NoWARC: true}, time.Second, nil); err != nil || st.State != StateDone {
		t.Fatalf("crawl: %+v, %v", st, err)
	}
	web.version.Store(1)
	// One site at a time, 30 ms apart: slow enough to be caught halfway.
	slow := project.SettingsUpdate{DelayMS: new(30), Parallel: new(1)}
	if _, err := a.Start(CrawlRequest{Recrawl: true, SettingsUpdate: slow, Proxy: srv.URL, NoWARC: true}); err != nil {
		t.Fatal(err)
	}
	// The journal as a kill would leave it once some batches are committed.
	journalPath := filepath.Join(dir, project.RecrawlJournalFile)
	waitFor(t, "10 pages recrawled", func() bool { return a.Status().Pages >= 10 })
	var journal []byte
	waitFor(t, "the journal of a committed batch", func() bool {
		r := a.Status().Recrawl
		b, err := os.ReadFile(journalPath)
		journal = b
		return err == nil && r != nil && r.Unchanged+r.Changed+r.Gone+r.Failed+r.New > 0 && bytes.Count(b, []byte("\n")) >= 10
	})
	if _, err := a.Stop(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the recrawl stopped", func() bool { return a.Status().State == StateStopped })
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
	a = newService(p)
	defer a.Close()
	st, err := a.Run(ctx, CrawlRequest{Recrawl: true, SettingsUpdate: fast, Proxy: srv.URL, NoWARC: true}, time.Second, nil)
	if err != nil || st.Recrawl == nil || !st.Recrawl.Finished {
		t.Fatalf("continued recrawl: %+v, %v", st, err)
	}
	// As a recrawl never killed: every page changed but the two gone.
	n := changingSites * changingPages
	if want := (RecrawlCounts{Changed: n - 2, Gone: 2}); st.Recrawl.RecrawlCounts != want {
		t.Errorf("round 1 at its end: %+v, want %+v", st.Recrawl.RecrawlCounts, want)
	}
}
