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
// while the importance version (migration 0014) is unchanged: it moves when
// a site is added or removed or its importance written, by this process or
// another, and not when a librarian rates a site.
type siteTotals struct {
	mu      sync.Mutex
	version int64
	valid   bool
	sites   int
	opic    float64
}

// ImportanceVersion returns the number that changes whenever a site is
// added or removed or its OPIC or PageRank written, for caches of values
// computed from every site's importance.
func (s *Store) ImportanceVersion(ctx context.Context) (int64, error) {
	return importanceVersion(ctx, s.rdb)
}

func importanceVersion(ctx context.Context, q rowQuerier) (int64, error) {
	var v int64
	if err := q.QueryRowContext(ctx, `SELECT version FROM importance_version WHERE id = 1`).Scan(&v); err != nil {
		return 0, fmt.Errorf("store: importance version: %w", err)
	}
	return v, nil
}

// totals returns the number of sites and their total OPIC importance as tx
// sees them, read again only when the importance changed since the last
// call.
func (s *Store) totals(ctx context.Context, tx *sql.Tx) (sites int, opic float64, err error) {
	v, err := importanceVersion(ctx, tx)
	if err != nil {
		return 0, 0, err
	}
	t := &s.siteTotals
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.valid && v == t.version {
		return t.sites, t.opic, nil
	}
	// Read in tx, the snapshot v was read from.
	if err := tx.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM sites),
			(SELECT COALESCE(SUM(opic), 0) FROM sites)`).Scan(&sites, &opic); err != nil {
		return 0, 0, fmt.Errorf("store: site totals: %w", err)
	}
	t.version, t.valid, t.sites, t.opic = v, true, sites, opic
	return sites, opic, nil
}
