package store

import (
	"context"
	"database/sql"
	"fmt"
)

// Settings returns the project's settings, by key; keys never set are
// absent.
func (s *Store) Settings(ctx context.Context) (map[string]string, error) {
	type setting struct{ key, value string }
	rows, err := queryList(ctx, s.db, func(sc scanner) (kv setting, err error) {
		return kv, sc.Scan(&kv.key, &kv.value)
	}, `SELECT key, value FROM settings`)
	if err != nil {
		return nil, fmt.Errorf("store: settings: %w", err)
	}
	out := make(map[string]string, len(rows))
	for _, kv := range rows {
		out[kv.key] = kv.value
	}
	return out, nil
}

// SetSettings stores the settings of set in one transaction, replacing the
// values their keys had; an empty value removes its key. Keys not in set
// keep their values.
func (s *Store) SetSettings(ctx context.Context, set map[string]string) error {
	return s.write(ctx, "set settings", func(tx *sql.Tx) error {
		for k, v := range set {
			var err error
			if v == "" {
				_, err = tx.ExecContext(ctx, `DELETE FROM settings WHERE key = ?`, k)
			} else {
				_, err = tx.ExecContext(ctx, `INSERT INTO settings (key, value) VALUES (?, ?)
					ON CONFLICT (key) DO UPDATE SET value = excluded.value`, k, v)
			}
			if err != nil {
				return fmt.Errorf("store: set setting %q: %w", k, err)
			}
		}
		return nil
	})
}
