package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"

	"modernc.org/sqlite"

	"sitesift/sites"
)

// Platform sites: the list of sites/urlrules/platforms.txt, read through a
// SQL function so that SQL can select by it, with the project's own
// choices of migration 0018 over it.

func init() {
	// Registered with the driver, so every connection the store opens,
	// the read pool's and a read-only store's too, knows it.
	sqlite.MustRegisterDeterministicScalarFunction("sitesift_platform", 1,
		func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
			name, _ := args[0].(string)
			if sites.IsPlatform(name) {
				return int64(1), nil
			}
			return int64(0), nil
		})
}

// sitePlatform is the SQL of whether site s is a platform: the project's
// choice where a librarian made one, the list otherwise.
const sitePlatform = `COALESCE((SELECT c.platform FROM platform_choices c WHERE c.site_id = s.id), sitesift_platform(s.name))`

// The values of SiteQuery.Platforms.
const (
	// PlatformsOnly keeps the platform sites alone.
	PlatformsOnly = "only"
	// PlatformsNone leaves the platform sites out.
	PlatformsNone = "none"
)

// platformList caches the ids of the sites the list names, while the
// importance version (which moves when a site is added or removed) stays:
// finding them reads every site's name, a second or more at millions of
// sites, where the sites listing's page reads fifty rows.
type platformList struct {
	mu      sync.Mutex
	valid   bool
	version int64
	ids     []int64 // sorted
}

// platformIDs returns the ids of the platform sites as q sees them,
// sorted: those the list names, as cached, less those a librarian moved out,
// plus those moved in.
func (s *Store) platformIDs(ctx context.Context, q rowQuerier) ([]int64, error) {
	v, err := importanceVersion(ctx, q)
	if err != nil {
		return nil, err
	}
	c := &s.platforms
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.valid || c.version != v {
		ids, err := queryList(ctx, q, scanID, `SELECT id FROM sites WHERE sitesift_platform(name) ORDER BY id`)
		if err != nil {
			return nil, fmt.Errorf("store: platform sites: %w", err)
		}
		c.valid, c.version, c.ids = true, v, ids
	}
	set := make(map[int64]bool, len(c.ids))
	for _, id := range c.ids {
		set[id] = true
	}
	err = queryRows(ctx, q, func(sc scanner) error {
		var id int64
		var platform bool
		if err := sc.Scan(&id, &platform); err != nil {
			return err
		}
		if platform {
			set[id] = true
		} else {
			delete(set, id)
		}
		return nil
	}, `SELECT site_id, platform FROM platform_choices`)
	if err != nil {
		return nil, fmt.Errorf("store: platform choices: %w", err)
	}
	ids := make([]int64, 0, len(set))
	for id := range set {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids, nil
}

// platformWhere is the SQL condition over sites s of SiteQuery.Platforms
// (PlatformsOnly, PlatformsNone or ""), with the platform sites' ids
// written in: they are integers the store read, and a set of ids is looked
// up, where sitePlatform would be computed for every site walked.
func platformWhere(v string, ids []int64) (string, error) {
	js, err := json.Marshal(ids)
	if err != nil {
		return "", err
	}
	set := `(SELECT value FROM json_each('` + string(js) + `'))`
	switch v {
	case "":
		return "", nil
	case PlatformsOnly:
		return ` AND s.id IN ` + set, nil
	case PlatformsNone:
		return ` AND s.id NOT IN ` + set, nil
	}
	return "", fmt.Errorf("%w: platforms=%q (want %s or %s)", ErrInvalid, v, PlatformsOnly, PlatformsNone)
}

// PlatformCount returns the number of the project's platform sites.
func (s *Store) PlatformCount(ctx context.Context) (int, error) {
	ids, err := s.platformIDs(ctx, s.rdb)
	return len(ids), err
}

// PlatformSites returns the names of the project's platform sites, by OPIC
// importance, highest first, then by name.
func (s *Store) PlatformSites(ctx context.Context) ([]string, error) {
	tx, err := s.readTx(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: platform sites: begin: %w", err)
	}
	defer tx.Rollback()
	ids, err := s.platformIDs(ctx, tx)
	if err != nil {
		return nil, err
	}
	js, err := json.Marshal(ids)
	if err != nil {
		return nil, err
	}
	names, err := queryList(ctx, tx, func(sc scanner) (n string, err error) {
		err = sc.Scan(&n)
		return n, err
	}, `SELECT s.name FROM sites s WHERE s.id IN (SELECT value FROM json_each(?))
		ORDER BY s.opic DESC, s.name`, string(js))
	if err != nil {
		return nil, fmt.Errorf("store: platform sites: %w", err)
	}
	return names, nil
}

// PlatformsAmong returns which of names are platform sites, by the rule
// of [sitePlatform]: the project's choice where a librarian made one, the
// list otherwise. A name the store does not hold yet (a site a running
// crawl found since its last batch was saved) has no choice, so the list
// decides.
func (s *Store) PlatformsAmong(ctx context.Context, names []string) (map[string]bool, error) {
	out := map[string]bool{}
	if len(names) == 0 {
		return out, nil
	}
	js, err := json.Marshal(names)
	if err != nil {
		return nil, err
	}
	err = queryRows(ctx, s.rdb, func(sc scanner) error {
		var n string
		if err := sc.Scan(&n); err != nil {
			return err
		}
		out[n] = true
		return nil
	}, `SELECT j.value FROM json_each(?) j
		WHERE COALESCE((SELECT c.platform FROM platform_choices c JOIN sites s ON s.id = c.site_id WHERE s.name = j.value),
			sitesift_platform(j.value))`, string(js))
	if err != nil {
		return nil, fmt.Errorf("store: platforms among %d sites: %w", len(names), err)
	}
	return out, nil
}

// PlatformState is a site's place in or out of the platforms, as the audit
// log keeps a librarian's move of it.
type PlatformState struct {
	// Platform is whether the site is one.
	Platform bool `json:"platform"`
	// Listed is whether the list of platforms names it.
	Listed bool `json:"listed"`
	// Chosen is whether a librarian's choice decides it, over the list.
	Chosen bool `json:"chosen"`
}

// SetPlatform records a librarian's choice (who may be "") that site is a
// platform or is not, for this project, over what the list says, and moves
// the importance version: the sites ranked among one another
// ([Store.ImportanceValues]) changed. An unknown site is [ErrNotFound].
// audit, if given, logs the change in its transaction (see [Auditor]).
func (s *Store) SetPlatform(ctx context.Context, site string, platform bool, who string, audit ...Auditor[PlatformState]) error {
	now := formatTime(s.now())
	what := fmt.Sprintf("set platform of %q", site)
	return s.write(ctx, what, func(tx *sql.Tx) error {
		id, err := siteIDByName(ctx, tx, site)
		if err != nil {
			return fmt.Errorf("store: %s: %w", what, err)
		}
		listed := sites.IsPlatform(site)
		before := PlatformState{Platform: listed, Listed: listed}
		var chosen sql.NullBool
		err = tx.QueryRowContext(ctx, `SELECT platform FROM platform_choices WHERE site_id = ?`, id).Scan(&chosen)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("store: %s: choice before: %w", what, err)
		}
		if chosen.Valid {
			before.Platform, before.Chosen = chosen.Bool, true
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO platform_choices (site_id, platform, who, chosen_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (site_id) DO UPDATE SET platform = excluded.platform, who = excluded.who, chosen_at = excluded.chosen_at`,
			id, platform, who, now); err != nil {
			return fmt.Errorf("store: %s: %w", what, err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE importance_version SET version = version + 1 WHERE id = 1`); err != nil {
			return fmt.Errorf("store: %s: %w", what, err)
		}
		after := PlatformState{Platform: platform, Listed: listed, Chosen: true}
		return logChange(ctx, s, tx, what, audit, &before, &after)
	})
}
