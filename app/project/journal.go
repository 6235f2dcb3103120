package project

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"sitesift/sites"
	"sitesift/sites/store"
)

// JournalFile is the journal of a crawl: a line of JSON a record (page,
// failed fetch, refusal, redirect), written the moment the crawler makes
// it, before it waits for its batch. A kill loses a batch not yet saved;
// the journal keeps it, and opening the project saves what the journal
// holds, so that a continued crawl asks again only for the requests that
// were in flight. A crawl that ends empties it.
const JournalFile = "crawl.journal"

// Journal appends records to a project's JournalFile. A write is one system
// call, so a killed process leaves every record written but the one under
// way (which replay skips as a torn line).
type Journal struct {
	f      *os.File
	log    *slog.Logger
	failed bool // a write failed: said once, the crawl goes on
}

// OpenJournal opens the journal named name in dir: JournalFile or
// RecrawlJournalFile.
func OpenJournal(dir, name string, log *slog.Logger) (*Journal, error) {
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("crawl journal: %w", err)
	}
	return &Journal{f: f, log: log}, nil
}

// Write appends p. The journal only shortens what a kill loses: a failed
// write is logged, not fatal.
func (j *Journal) Write(p sites.Page) {
	b, err := json.Marshal(p)
	if err == nil {
		_, err = j.f.Write(append(b, '\n'))
	}
	if err != nil && !j.failed {
		j.failed = true
		j.log.Error("crawl journal", "err", err)
	}
}

// Close closes the journal, emptied when every record it holds is saved.
func (j *Journal) Close(saved bool) error {
	if saved {
		if err := j.f.Truncate(0); err != nil {
			j.f.Close()
			return fmt.Errorf("crawl journal: %w", err)
		}
	}
	return j.f.Close()
}

// journalBatch is how many journaled records replay saves at once.
const journalBatch = 200

// replayJournal saves into st the records the journal in dir holds — the
// batches a kill kept from the store — then empties it, and returns how
// many it saved. A line that does not decode (the one a kill cut short) is
// skipped. Saving a record the store has already is saving it again.
//
// The journal of a recrawl (RecrawlJournalFile) is saved after the crawl's,
// into its open round, as the recrawl would have saved it. It holds the
// records of the batches committed before the kill too: the round counts a
// page it has already saved once (store.SaveRecrawlBatch), so replaying
// them, once or twice, leaves the round's counts as they were.
func replayJournal(ctx context.Context, st *store.Store, dir string) (int, error) {
	n, err := replayJournalFile(ctx, dir, JournalFile, func(batch []sites.Page) error {
		return st.SaveCrawlBatch(ctx, batch, nil)
	})
	if err != nil {
		return n, err
	}
	m, err := replayJournalFile(ctx, dir, RecrawlJournalFile, func(batch []sites.Page) error {
		return saveRecrawlRecords(ctx, st, batch)
	})
	return n + m, err
}

// replayJournalFile replays the journal named name in dir through save.
func replayJournalFile(ctx context.Context, dir, name string, save func([]sites.Page) error) (int, error) {
	path := filepath.Join(dir, name)
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("crawl journal: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	var batch []sites.Page
	saved := 0
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		if err := save(batch); err != nil {
			return fmt.Errorf("crawl journal %s: %w", name, err)
		}
		saved += len(batch)
		batch = batch[:0]
		return nil
	}
	for sc.Scan() {
		var p sites.Page
		if json.Unmarshal(sc.Bytes(), &p) != nil || p.URL == "" {
			continue
		}
		if batch = append(batch, p); len(batch) == journalBatch {
			if err := flush(); err != nil {
				return saved, err
			}
		}
	}
	if err := sc.Err(); err != nil {
		return saved, fmt.Errorf("crawl journal: %w", err)
	}
	if err := flush(); err != nil {
		return saved, err
	}
	if err := os.Truncate(path, 0); err != nil {
		return saved, fmt.Errorf("crawl journal: %w", err)
	}
	return saved, nil
}

// RecrawlJournalFile is the journal of a recrawl, replayed into its round.
const RecrawlJournalFile = "recrawl.journal"

// saveRecrawlRecords saves a recrawl's records into its open round, or as
// a crawl's when no round is open.
func saveRecrawlRecords(ctx context.Context, st *store.Store, pages []sites.Page) error {
	r, ok, err := st.OpenRound(ctx)
	if err != nil {
		return err
	}
	if !ok {
		return st.SaveCrawlBatch(ctx, pages, nil)
	}
	_, err = st.SaveRecrawlBatch(ctx, r.Round, pages, nil)
	return err
}
