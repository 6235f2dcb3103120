package project_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"sitesift/app/apptest"
	"sitesift/app/project"
	"sitesift/sites"
	"sitesift/sites/store"
)

// A kill during a rebuild left a partial index that was never completed,
// since the index was rebuilt only when empty.
func TestOpenCompletesAPartialIndex(t *testing.T) {
	dir := t.TempDir()
	p := apptest.OpenDir(t, dir, true)
	all := apptest.KillPages(0, 450)
	apptest.Save(t, p, all)
	// The rebuild got through its first batch of pages before the kill.
	apptest.AddToIndex(t, p, all[:project.IndexBatch])
	p.Close()

	p = apptest.OpenDir(t, dir, false)
	defer p.Close()
	if got := apptest.SearchTotal(t, p.Index, "gramophone"); got != 450 {
		t.Errorf("index holds %d of 450 pages after reopening", got)
	}
}

// A page saved again is indexed again: the index must not keep the old
// version because the flag said "indexed".
func TestNewVersionOfAPageIsIndexedAgain(t *testing.T) {
	dir := t.TempDir()
	p := apptest.OpenDir(t, dir, true)
	v1 := apptest.KillPages(0, 1)
	apptest.Save(t, p, v1)
	apptest.AddToIndex(t, p, v1)
	v2 := apptest.KillPages(0, 1)
	v2[0].Text = "phonograph"
	apptest.Save(t, p, v2)
	p.Close() // killed before the index got v2

	p = apptest.OpenDir(t, dir, false)
	defer p.Close()
	if got := apptest.SearchTotal(t, p.Index, "phonograph"); got != 1 {
		t.Errorf("the new version is not in the index (%d hits)", got)
	}
}

// A crawl whose process was killed stayed "running" in the crawls table.
func TestOpenMarksKilledCrawlsInterrupted(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	p := apptest.OpenDir(t, dir, true)
	id, err := p.Store.StartCrawl(ctx, map[string]int{"max_pages": 10})
	if err != nil {
		t.Fatal(err)
	}
	p.Close() // killed: FinishCrawl never ran

	p = apptest.OpenDir(t, dir, false)
	defer p.Close()
	crawls, err := p.Store.Crawls(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(crawls) != 1 || crawls[0].ID != id || crawls[0].State != store.CrawlInterrupted {
		t.Errorf("crawls after reopening: %+v, want crawl %d interrupted", crawls, id)
	}
}

// A project whose pages are all failed fetches (dead hosts) has an empty
// index; opening it must not take that for a lost index and index every
// page again each time.
func TestOpenDoesNotReindexAnEmptyIndex(t *testing.T) {
	dir := t.TempDir()
	p := apptest.OpenDir(t, dir, true)
	dead := []sites.Page{{URL: "http://dead.test/", Site: "dead.test", Err: "connection refused", FetchedAt: time.Now()}}
	apptest.Save(t, p, dead)
	apptest.AddToIndex(t, p, dead)
	p.Close()
	p = apptest.OpenDir(t, dir, false)
	defer p.Close()
	if p.Repairs.Indexed != 0 {
		t.Errorf("opening indexed %d pages again, want 0", p.Repairs.Indexed)
	}
}

// The records a kill kept from their batch wait in the crawl journal; the
// next open saves them (a torn last line skipped) and empties it.
func TestOpenReplaysTheJournal(t *testing.T) {
	dir := t.TempDir()
	p := apptest.OpenDir(t, dir, true)
	p.Close()
	var lines []byte
	for _, pg := range apptest.KillPages(0, 2) {
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
	p = apptest.OpenDir(t, dir, false)
	defer p.Close()
	if p.Repairs.Journaled != 2 || apptest.SearchTotal(t, p.Index, "gramophone") != 2 {
		t.Errorf("journaled %d, index %d; want the 2 whole records saved and indexed", p.Repairs.Journaled, apptest.SearchTotal(t, p.Index, "gramophone"))
	}
	if fi, err := os.Stat(filepath.Join(dir, project.JournalFile)); err != nil || fi.Size() != 0 {
		t.Errorf("the journal after the replay: %v, %v", fi, err)
	}
}
