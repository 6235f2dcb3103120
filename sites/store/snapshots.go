package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// MaxOPICSnapshots bounds the OPIC snapshots a project keeps. Past it,
// [Store.SnapshotOPIC] drops every other snapshot but the first and the
// newest, so the series keeps spanning the whole crawl at a coarser step —
// enough for the small chart of a site's importance over the crawl — and the
// table stays within MaxOPICSnapshots × sites rows.
const MaxOPICSnapshots = 96

// OPICPoint is one point of a site's importance over the crawl.
type OPICPoint struct {
	// Pages is the number of crawled pages of the project when the
	// snapshot was taken: the crawl step.
	Pages int
	At    time.Time
	// OPIC is the site's share of all OPIC importance then.
	OPIC float64
}

// SnapshotOPIC records the current OPIC share of every site with some
// importance, at the current number of crawled pages; a snapshot taken at a
// page count that has one already replaces it. It returns whether a
// snapshot was written: none is when no site has importance yet.
func (s *Store) SnapshotOPIC(ctx context.Context) (bool, error) {
	wrote := false
	err := s.write(ctx, "snapshot OPIC", func(tx *sql.Tx) error {
		var pages int
		var total float64
		if err := tx.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM pages),
			(SELECT COALESCE(SUM(opic), 0) FROM sites)`).Scan(&pages, &total); err != nil {
			return fmt.Errorf("store: snapshot OPIC: %w", err)
		}
		if !(total > 0) {
			return nil
		}
		var id int64
		if err := tx.QueryRowContext(ctx, `INSERT INTO opic_snapshots (pages, taken_at) VALUES (?, ?)
			ON CONFLICT (pages) DO UPDATE SET taken_at = excluded.taken_at
			RETURNING id`, pages, formatTime(s.now())).Scan(&id); err != nil {
			return fmt.Errorf("store: snapshot OPIC: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM opic_snapshot_sites WHERE snapshot_id = ?`, id); err != nil {
			return fmt.Errorf("store: snapshot OPIC: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO opic_snapshot_sites (site_id, snapshot_id, opic)
			SELECT id, ?1, opic / ?2 FROM sites
			WHERE opic > 0`, id, total); err != nil {
			return fmt.Errorf("store: snapshot OPIC: %w", err)
		}
		wrote = true
		return thinSnapshots(ctx, tx)
	})
	return wrote, err
}

// thinSnapshots drops every other snapshot (the 2nd, 4th, ... by page
// count), keeping the first and the newest, once there are more than
// MaxOPICSnapshots.
func thinSnapshots(ctx context.Context, tx *sql.Tx) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM opic_snapshots`).Scan(&n); err != nil {
		return fmt.Errorf("store: thin OPIC snapshots: %w", err)
	}
	if n <= MaxOPICSnapshots {
		return nil
	}
	// Deleting the snapshot rows first spares the cascade a look-up per
	// snapshot.
	const doomed = `SELECT id FROM (
			SELECT id, ROW_NUMBER() OVER (ORDER BY pages) AS k FROM opic_snapshots)
		WHERE k % 2 = 0 AND k < ?`
	if _, err := tx.ExecContext(ctx, `DELETE FROM opic_snapshot_sites WHERE snapshot_id IN (`+doomed+`)`, n); err != nil {
		return fmt.Errorf("store: thin OPIC snapshots: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM opic_snapshots WHERE id IN (`+doomed+`)`, n); err != nil {
		return fmt.Errorf("store: thin OPIC snapshots: %w", err)
	}
	return nil
}

// OPICSeries returns site's importance at every snapshot, oldest first; a
// snapshot in which the site had no importance yet gives a point of 0, so
// every site's series has the same steps. An unknown site is
// [ErrNotFound]; a project never crawled has an empty series.
func (s *Store) OPICSeries(ctx context.Context, site string) ([]OPICPoint, error) {
	tx, err := s.readTx(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: OPIC series of %q: begin: %w", site, err)
	}
	defer tx.Rollback()
	id, err := siteIDByName(ctx, tx, site)
	if err != nil {
		return nil, fmt.Errorf("store: OPIC series of %q: %w", site, err)
	}
	out, err := queryList(ctx, tx, func(sc scanner) (p OPICPoint, err error) {
		var at string
		if err := sc.Scan(&p.Pages, &at, &p.OPIC); err != nil {
			return p, err
		}
		p.At, err = parseTime(at)
		return p, err
	}, `SELECT sn.pages, sn.taken_at, COALESCE(v.opic, 0)
		FROM opic_snapshots sn
		LEFT JOIN opic_snapshot_sites v ON v.snapshot_id = sn.id AND v.site_id = ?
		ORDER BY sn.pages`, id)
	if err != nil {
		return nil, fmt.Errorf("store: OPIC series of %q: %w", site, err)
	}
	return out, nil
}
