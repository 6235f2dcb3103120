package store

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"testing"
	"time"
)

// Every read the API's pages make (the sites table, a site's page, the
// review queue) returns while a crawl batch holds the write lock: the
// writer is released only once they all returned, or after a minute, which
// fails the test.
func TestReadsReturnWhileAWriterHoldsTheLock(t *testing.T) {
	t.Parallel()
	s := openFixture(t)
	ctx := context.Background()
	if _, _, err := s.AddLibrarian(ctx, "ana"); err != nil {
		t.Fatal(err)
	}
	held, release := make(chan struct{}), make(chan struct{})
	var fallback bool
	writer := make(chan error, 1)
	go func() {
		writer <- s.write(ctx, "held batch", func(tx *sql.Tx) error {
			if _, err := tx.ExecContext(ctx, `UPDATE sites SET opic_cash = opic_cash + 1`); err != nil {
				return err
			}
			close(held)
			select {
			case <-release:
			case <-time.After(time.Minute):
				fallback = true
			}
			return nil
		})
	}()
	<-held
	q := QueueQuery{Librarian: "ana", NoFailed: true}
	reads := []struct {
		name string
		read func() error
	}{
		{"ListSites", func() error { _, _, err := s.ListSites(ctx, SiteQuery{Librarian: "ana", Limit: 50}); return err }},
		{"Site", func() error { _, err := s.Site(ctx, "hub.test", "ana"); return err }},
		{"QueueFailed", func() error { _, err := s.QueueFailed(ctx, q); return err }},
		{"QueueCount", func() error { _, err := s.QueueCount(ctx, q); return err }},
		{"QueueSites", func() error { _, err := s.QueueSites(ctx, q, nil, 50); return err }},
		{"ImportanceValues", func() error { _, _, _, err := s.ImportanceValues(ctx); return err }},
		{"LibrarianProfile", func() error { _, err := s.LibrarianProfile(ctx, "ana"); return err }},
		{"SitesArchiveOf", func() error { _, err := s.SitesArchiveOf(ctx, []string{"hub.test"}); return err }},
		{"SelectionStatuses", func() error { _, err := s.SelectionStatuses(ctx); return err }},
		{"TopPages", func() error { _, err := s.TopPages(ctx, "hub.test", 8); return err }},
		{"OPICSeries", func() error { _, err := s.OPICSeries(ctx, "hub.test"); return err }},
	}
	for _, r := range reads {
		if err := r.read(); err != nil {
			t.Errorf("%s beside the writer: %v", r.name, err)
		}
	}
	close(release)
	if err := <-writer; err != nil {
		t.Fatal(err)
	}
	if fallback {
		t.Fatal("the reads returned only after the writer gave up its lock")
	}
	// What the writer committed is read at once.
	var total float64
	if err := s.rdb.QueryRowContext(ctx, `SELECT SUM(opic_cash) FROM sites`).Scan(&total); err != nil || total != 3.5+4 {
		t.Errorf("cash after the write = %v, %v; want %v", total, err, 3.5+4)
	}
}

// Twenty readers at once, as twenty clients of the API, keep their
// connections: none is closed for want of room among the idle ones, and a
// second round of twenty opens no new one (a new connection parses the whole
// schema before its first query).
func TestReadersKeepTheirConnections(t *testing.T) {
	t.Parallel()
	s := openFixture(t)
	ctx := context.Background()
	const readers = 20
	round := func() {
		var wg sync.WaitGroup
		var all sync.WaitGroup // every reader in its transaction, so that they hold twenty connections at once
		all.Add(readers)
		errs := make(chan error, readers)
		for i := range readers {
			wg.Go(func() {
				tx, err := s.readTx(ctx)
				if err != nil {
					all.Done()
					errs <- fmt.Errorf("reader %d: %w", i, err)
					return
				}
				defer tx.Rollback()
				var n int
				err = tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM sites`).Scan(&n)
				all.Done()
				if err != nil {
					errs <- fmt.Errorf("reader %d: %w", i, err)
				}
				all.Wait()
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
	}
	round()
	first := s.rdb.Stats()
	round()
	second := s.rdb.Stats()
	if first.MaxIdleClosed != 0 || second.MaxIdleClosed != 0 {
		t.Errorf("connections closed for want of idle room: %d after the first round, %d after the second; want none",
			first.MaxIdleClosed, second.MaxIdleClosed)
	}
	if first.OpenConnections != readers || second.OpenConnections != readers {
		t.Errorf("open read connections: %d after the first round, %d after the second; want %d kept",
			first.OpenConnections, second.OpenConnections, readers)
	}
}

// A read connection refuses to write: a write sent to the read pool by
// mistake fails instead of taking the write lock.
func TestReadPoolRefusesWrites(t *testing.T) {
	t.Parallel()
	s := openFixture(t)
	if _, err := s.rdb.ExecContext(context.Background(), `UPDATE sites SET pagerank = 0`); err == nil {
		t.Fatal("a write through the read pool succeeded")
	}
}
