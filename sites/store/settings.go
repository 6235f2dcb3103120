package store

import (
	"context"
	"database/sql"
	"fmt"
	"sitesift/sites"
)

// Settings returns the project's settings, by key; keys never set are
// absent.
func (s *Store) Settings(ctx context.Context) (map[string]string, error) {
	type setting struct{ key, value string }
	rows, err := queryList(ctx, s.rdb, func(sc scanner) (kv setting, err error) {
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

// keySiteRule is the setting of the project's site rule.
const keySiteRule = "site_rule"

// loadSiteRule reads the project's site rule, and gives a project that has
// none (a new one) the default rule.
func (s *Store) loadSiteRule(ctx context.Context) error {
	if _, err := s.db.ExecContext(ctx, `INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)`,
		keySiteRule, string(sites.DefaultRule)); err != nil {
		return fmt.Errorf("store: open %q: site rule: %w", s.path, err)
	}
	var v string
	if err := s.rdb.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, keySiteRule).Scan(&v); err != nil {
		return fmt.Errorf("store: open %q: site rule: %w", s.path, err)
	}
	r, err := sites.ParseRule(v)
	if err != nil {
		return fmt.Errorf("store: open %q: %w", s.path, err)
	}
	s.rule = r
	return nil
}

// SiteRule returns the project's site rule: how the URLs of its pages and
// links map to sites.
func (s *Store) SiteRule() sites.Rule { return s.rule }

// SetSiteRule chooses the project's site rule. It can only be chosen while
// the project has no site: the sites stored follow the rule they were made
// with. Choosing the rule the project has is no change.
func (s *Store) SetSiteRule(ctx context.Context, r sites.Rule) error {
	if _, err := sites.ParseRule(string(r)); err != nil || r == "" {
		return fmt.Errorf("store: set site rule: %w: unknown rule %q", ErrInvalid, r)
	}
	if r == s.rule {
		return nil
	}
	err := s.write(ctx, "set site rule", func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM sites`).Scan(&n); err != nil {
			return fmt.Errorf("store: set site rule: %w", err)
		}
		if n > 0 {
			return fmt.Errorf("store: set site rule: %w: the project has sites made with the rule %q; "+
				"a site rule is chosen when a project is created", ErrInvalid, s.rule)
		}
		_, err := tx.ExecContext(ctx, `UPDATE settings SET value = ? WHERE key = ?`, string(r), keySiteRule)
		return err
	})
	if err == nil {
		s.rule = r
	}
	return err
}
