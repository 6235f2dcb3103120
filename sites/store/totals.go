package store

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
)

// siteTotals caches the number of sites and the sum of their OPIC importance
// (history + cash), which every page of the sites listing needs: counting
// and summing read every site, over a second at five million sites, where
// the page itself reads fifty rows through an index. The cache is valid
// while the database is unchanged, which PRAGMA data_version on a
// connection of its own tells: it changes when any other connection, of
// this process or another, commits.
type siteTotals struct {
	mu      sync.Mutex
	conn    *sql.Conn // holds the data_version it was read from
	version int64
	valid   bool
	sites   int
	opic    float64
}

// totals returns the number of sites and their total OPIC importance, read
// again only when the database changed since the last call.
func (s *Store) totals(ctx context.Context) (sites int, opic float64, err error) {
	t := &s.siteTotals
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.conn == nil {
		if t.conn, err = s.db.Conn(ctx); err != nil {
			return 0, 0, fmt.Errorf("store: site totals: connection: %w", err)
		}
	}
	var v int64
	if err := t.conn.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&v); err != nil {
		t.conn.Close()
		t.conn, t.valid = nil, false
		return 0, 0, fmt.Errorf("store: site totals: data version: %w", err)
	}
	if t.valid && v == t.version {
		return t.sites, t.opic, nil
	}
	// Read on the same connection, so that a commit after this read
	// changes the version the next call sees.
	if err := t.conn.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM sites),
			(SELECT COALESCE(SUM(opic_history + opic_cash), 0) FROM sites)`).Scan(&t.sites, &t.opic); err != nil {
		t.valid = false
		return 0, 0, fmt.Errorf("store: site totals: %w", err)
	}
	t.version, t.valid = v, true
	return t.sites, t.opic, nil
}

// closeTotals releases the totals' connection.
func (s *Store) closeTotals() {
	t := &s.siteTotals
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.conn != nil {
		t.conn.Close()
		t.conn, t.valid = nil, false
	}
}
