package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// foldName is the key that makes two librarian names one profile: the name
// in lower case, so "Ana" and "ana" are the same librarian.
func foldName(name string) string { return strings.ToLower(name) }

// migrationSteps are the steps of migrations that SQL alone cannot take,
// run in the migration's transaction right after its SQL file.
var migrationSteps = map[int]func(ctx context.Context, s *Store, tx *sql.Tx) error{
	9: mergeLibrarianCase,
}

// LibrarianMerge is a librarian profile that migration 0009 merged into
// another whose name differed only in case.
type LibrarianMerge struct {
	Merged string
	Into   string
	// Ratings is the number of ratings moved to Into; Dropped the number
	// of the merged profile's ratings of sites Into had rated more
	// recently, which were left out.
	Ratings  int
	Dropped  int
	MergedAt time.Time
}

// mergeLibrarianCase merges the librarian profiles whose names differ only
// in case into the oldest of them (the lowest id: the first added), so that
// name_key can be unique. Where both profiles rated one site, the more
// recent rating is kept (the oldest profile's on a tie); selection
// decisions follow the merged profile. Each merge is logged and recorded in
// librarian_merges, which `sitesift librarians` lists.
func mergeLibrarianCase(ctx context.Context, s *Store, tx *sql.Tx) error {
	type lib struct {
		id   int64
		name string
	}
	var libs []lib
	err := queryRows(ctx, tx, func(sc scanner) error {
		var l lib
		if err := sc.Scan(&l.id, &l.name); err != nil {
			return err
		}
		libs = append(libs, l)
		return nil
	}, `SELECT id, name FROM librarians ORDER BY id`)
	if err != nil {
		return fmt.Errorf("read librarians: %w", err)
	}
	now := formatTime(s.now())
	first := map[string]lib{}
	for _, l := range libs {
		key := foldName(l.name)
		into, dup := first[key]
		if !dup {
			first[key] = l
			if _, err := tx.ExecContext(ctx, `UPDATE librarians SET name_key = ? WHERE id = ?`, key, l.id); err != nil {
				return fmt.Errorf("librarian %q: %w", l.name, err)
			}
			continue
		}
		// The merged profile's ratings older than (or as old as) the
		// kept profile's rating of the same site are dropped; the kept
		// profile's older ones give way to the merged profile's.
		res, err := tx.ExecContext(ctx, `DELETE FROM ratings AS d WHERE d.librarian_id = ?1 AND EXISTS (
				SELECT 1 FROM ratings k WHERE k.librarian_id = ?2 AND k.site_id = d.site_id AND k.rated_at >= d.rated_at)`,
			l.id, into.id)
		if err != nil {
			return fmt.Errorf("merge librarian %q into %q: %w", l.name, into.name, err)
		}
		dropped, _ := res.RowsAffected()
		if _, err := tx.ExecContext(ctx, `DELETE FROM ratings AS k WHERE k.librarian_id = ?2 AND EXISTS (
				SELECT 1 FROM ratings d WHERE d.librarian_id = ?1 AND d.site_id = k.site_id)`, l.id, into.id); err != nil {
			return fmt.Errorf("merge librarian %q into %q: %w", l.name, into.name, err)
		}
		res, err = tx.ExecContext(ctx, `UPDATE ratings SET librarian_id = ? WHERE librarian_id = ?`, into.id, l.id)
		if err != nil {
			return fmt.Errorf("merge librarian %q into %q: %w", l.name, into.name, err)
		}
		moved, _ := res.RowsAffected()
		for _, col := range []string{"decided_by", "nominated_by", "approved_by", "rejected_by"} {
			if _, err := tx.ExecContext(ctx, `UPDATE selections SET `+col+` = ? WHERE `+col+` = ?`, into.id, l.id); err != nil {
				return fmt.Errorf("merge librarian %q into %q: %w", l.name, into.name, err)
			}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM librarians WHERE id = ?`, l.id); err != nil {
			return fmt.Errorf("merge librarian %q into %q: %w", l.name, into.name, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO librarian_merges (merged, into_name, ratings, dropped, merged_at)
			VALUES (?, ?, ?, ?, ?)`, l.name, into.name, moved, dropped, now); err != nil {
			return fmt.Errorf("merge librarian %q into %q: %w", l.name, into.name, err)
		}
		s.logger.Warn("librarian names differing only in case merged into the first added",
			"merged", l.name, "into", into.name, "ratings_moved", moved, "ratings_dropped", dropped)
	}
	if _, err := tx.ExecContext(ctx, `CREATE UNIQUE INDEX librarians_name_key ON librarians (name_key)`); err != nil {
		return fmt.Errorf("index librarian names: %w", err)
	}
	return nil
}

// LibrarianMerges returns the merges of librarian profiles whose names
// differed only in case, in the order they were made.
func (s *Store) LibrarianMerges(ctx context.Context) ([]LibrarianMerge, error) {
	out, err := queryList(ctx, s.rdb, func(sc scanner) (m LibrarianMerge, err error) {
		var at string
		if err := sc.Scan(&m.Merged, &m.Into, &m.Ratings, &m.Dropped, &at); err != nil {
			return m, err
		}
		m.MergedAt, err = parseTime(at)
		return m, err
	}, `SELECT merged, into_name, ratings, dropped, merged_at FROM librarian_merges ORDER BY rowid`)
	if err != nil {
		return nil, fmt.Errorf("store: librarian merges: %w", err)
	}
	return out, nil
}

// ProjectID returns the project's id, made at random when the project was
// created (or first opened by a version that keeps one).
func (s *Store) ProjectID(ctx context.Context) (string, error) {
	var id string
	if err := s.rdb.QueryRowContext(ctx, `SELECT id FROM project`).Scan(&id); err != nil {
		return "", fmt.Errorf("store: project id: %w", err)
	}
	return id, nil
}
