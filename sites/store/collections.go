package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// ErrNameTaken is returned (wrapped) when a collection is created or
// renamed with the name of another collection of the project.
var ErrNameTaken = errors.New("store: name taken")

// Collection is a saved communities run with a librarian's edits: a named
// seed list. The store keeps it as given; the rules of what may be edited
// are the caller's.
type Collection struct {
	ID        int64
	Name      string
	CreatedBy string
	CreatedAt time.Time
	UpdatedAt time.Time
	// Params and Graph are JSON documents of the caller's: the settings of
	// the extraction and the picture of the site graph when it was saved.
	Params json.RawMessage
	Graph  json.RawMessage
	// Communities are in the order of extraction; Added the seeds added by
	// hand, in the order added.
	Communities []CollectionCommunity
	Added       []CollectionSeed
}

// CollectionCommunity is one community of a [Collection].
type CollectionCommunity struct {
	Core int
	Name string
	// Topic is the label computed from the community's pages.
	Topic string
	// Kept is false when the librarian unchecked the seed.
	Kept         bool
	Seed         string
	Site         string
	FromHub      string
	HubScore     float64
	CoverDensity float64
	Hubs         []string
	Authorities  []string
}

// CollectionSeed is a seed added by hand to a [Collection].
type CollectionSeed struct {
	URL  string
	Site string
}

// CollectionSummary is a [Collection] as listed: its name, who made it and
// when, and how many communities and seeds it holds.
type CollectionSummary struct {
	ID          int64
	Name        string
	CreatedBy   string
	CreatedAt   time.Time
	UpdatedAt   time.Time
	Communities int
	// Kept is the number of communities whose seed is kept; Added the
	// number of seeds added by hand.
	Kept  int
	Added int
}

// CreateCollection saves c as a new collection, created and updated now,
// and returns it with its ID and times. A name another collection has is
// an [ErrNameTaken] error.
func (s *Store) CreateCollection(ctx context.Context, c Collection) (Collection, error) {
	err := s.write(ctx, "create collection", func(tx *sql.Tx) error {
		now := s.now()
		c.CreatedAt, c.UpdatedAt = now, now
		res, err := tx.ExecContext(ctx, `INSERT INTO collections (name, created_by, created_at, updated_at, params, graph)
			VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING`,
			c.Name, c.CreatedBy, formatTime(now), formatTime(now), jsonOr(c.Params, "{}"), jsonOr(c.Graph, "{}"))
		if err != nil {
			return fmt.Errorf("store: create collection %q: %w", c.Name, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("store: create collection: %w: %q", ErrNameTaken, c.Name)
		}
		if c.ID, err = res.LastInsertId(); err != nil {
			return fmt.Errorf("store: create collection %q: %w", c.Name, err)
		}
		return writeCollectionRows(ctx, tx, c)
	})
	return c, err
}

// jsonOr returns m as text, or def when m is empty.
func jsonOr(m json.RawMessage, def string) string {
	if len(m) == 0 {
		return def
	}
	return string(m)
}

// writeCollectionRows replaces the communities and added seeds of c.
func writeCollectionRows(ctx context.Context, tx *sql.Tx, c Collection) error {
	for _, q := range []string{`DELETE FROM collection_communities WHERE collection_id = ?`,
		`DELETE FROM collection_seeds WHERE collection_id = ?`} {
		if _, err := tx.ExecContext(ctx, q, c.ID); err != nil {
			return fmt.Errorf("store: save collection %d: %w", c.ID, err)
		}
	}
	for _, k := range c.Communities {
		hubs, err := json.Marshal(nonNil(k.Hubs))
		if err != nil {
			return err
		}
		auths, err := json.Marshal(nonNil(k.Authorities))
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO collection_communities
			(collection_id, core, name, topic, kept, seed, site, from_hub, hub_score, cover_density, hubs, authorities)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			c.ID, k.Core, k.Name, k.Topic, k.Kept, k.Seed, k.Site, k.FromHub, k.HubScore, k.CoverDensity,
			string(hubs), string(auths)); err != nil {
			return fmt.Errorf("store: save collection %d, community %d: %w", c.ID, k.Core, err)
		}
	}
	for i, a := range c.Added {
		if _, err := tx.ExecContext(ctx, `INSERT INTO collection_seeds (collection_id, position, url, site) VALUES (?, ?, ?, ?)`,
			c.ID, i, a.URL, a.Site); err != nil {
			return fmt.Errorf("store: save collection %d, seed %q: %w", c.ID, a.URL, err)
		}
	}
	return nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Collections lists the project's collections, the one updated last first.
func (s *Store) Collections(ctx context.Context) ([]CollectionSummary, error) {
	out := []CollectionSummary{}
	err := queryRows(ctx, s.rdb, func(r scanner) error {
		var c CollectionSummary
		var created, updated string
		if err := r.Scan(&c.ID, &c.Name, &c.CreatedBy, &created, &updated, &c.Communities, &c.Kept, &c.Added); err != nil {
			return err
		}
		var err error
		if c.CreatedAt, err = parseTime(created); err != nil {
			return err
		}
		if c.UpdatedAt, err = parseTime(updated); err != nil {
			return err
		}
		out = append(out, c)
		return nil
	}, `SELECT c.id, c.name, c.created_by, c.created_at, c.updated_at,
		(SELECT count(*) FROM collection_communities k WHERE k.collection_id = c.id),
		(SELECT count(*) FROM collection_communities k WHERE k.collection_id = c.id AND k.kept),
		(SELECT count(*) FROM collection_seeds a WHERE a.collection_id = c.id)
		FROM collections c ORDER BY c.updated_at DESC, c.id DESC`)
	if err != nil {
		return nil, fmt.Errorf("store: list collections: %w", err)
	}
	return out, nil
}

// Collection returns the collection id, or an [ErrNotFound] error.
func (s *Store) Collection(ctx context.Context, id int64) (Collection, error) {
	c, err := readCollection(ctx, s.rdb, id)
	if err != nil {
		return c, fmt.Errorf("store: collection %d: %w", id, err)
	}
	return c, nil
}

// rowQuerier runs queries: *sql.DB and *sql.Tx do.
type rowQuerier interface {
	querier
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func readCollection(ctx context.Context, q rowQuerier, id int64) (Collection, error) {
	c := Collection{ID: id, Communities: []CollectionCommunity{}, Added: []CollectionSeed{}}
	var created, updated, params, graph string
	err := q.QueryRowContext(ctx, `SELECT name, created_by, created_at, updated_at, params, graph FROM collections WHERE id = ?`, id).
		Scan(&c.Name, &c.CreatedBy, &created, &updated, &params, &graph)
	if errors.Is(err, sql.ErrNoRows) {
		return c, ErrNotFound
	}
	if err != nil {
		return c, err
	}
	if c.CreatedAt, err = parseTime(created); err != nil {
		return c, err
	}
	if c.UpdatedAt, err = parseTime(updated); err != nil {
		return c, err
	}
	c.Params, c.Graph = json.RawMessage(params), json.RawMessage(graph)
	err = queryRows(ctx, q, func(r scanner) error {
		var k CollectionCommunity
		var hubs, auths string
		if err := r.Scan(&k.Core, &k.Name, &k.Topic, &k.Kept, &k.Seed, &k.Site, &k.FromHub, &k.HubScore, &k.CoverDensity,
			&hubs, &auths); err != nil {
			return err
		}
		if err := json.Unmarshal([]byte(hubs), &k.Hubs); err != nil {
			return fmt.Errorf("community %d hubs: %w", k.Core, err)
		}
		if err := json.Unmarshal([]byte(auths), &k.Authorities); err != nil {
			return fmt.Errorf("community %d authorities: %w", k.Core, err)
		}
		c.Communities = append(c.Communities, k)
		return nil
	}, `SELECT core, name, topic, kept, seed, site, from_hub, hub_score, cover_density, hubs, authorities
		FROM collection_communities WHERE collection_id = ? ORDER BY core`, id)
	if err != nil {
		return c, err
	}
	err = queryRows(ctx, q, func(r scanner) error {
		var a CollectionSeed
		if err := r.Scan(&a.URL, &a.Site); err != nil {
			return err
		}
		c.Added = append(c.Added, a)
		return nil
	}, `SELECT url, site FROM collection_seeds WHERE collection_id = ? ORDER BY position`, id)
	return c, err
}

// UpdateCollection reads the collection id, lets edit change it and saves
// the result with UpdatedAt now, all in one writing transaction, so that
// two edits at once cannot lose one another. The ID and creation are kept
// whatever edit does. An error of edit is returned as is and nothing is
// saved; a missing collection is an [ErrNotFound] error, a name another
// collection has an [ErrNameTaken] error.
func (s *Store) UpdateCollection(ctx context.Context, id int64, edit func(*Collection) error) (Collection, error) {
	var out Collection
	err := s.write(ctx, "update collection", func(tx *sql.Tx) error {
		c, err := readCollection(ctx, tx, id)
		if err != nil {
			return fmt.Errorf("store: collection %d: %w", id, err)
		}
		created, by := c.CreatedAt, c.CreatedBy
		if err := edit(&c); err != nil {
			return err
		}
		c.ID, c.CreatedAt, c.CreatedBy, c.UpdatedAt = id, created, by, s.now()
		var taken int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM collections WHERE name = ? AND id <> ?`, c.Name, id).Scan(&taken); err != nil {
			return fmt.Errorf("store: update collection %d: %w", id, err)
		}
		if taken > 0 {
			return fmt.Errorf("store: rename collection %d: %w: %q", id, ErrNameTaken, c.Name)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE collections SET name = ?, updated_at = ?, params = ?, graph = ? WHERE id = ?`,
			c.Name, formatTime(c.UpdatedAt), jsonOr(c.Params, "{}"), jsonOr(c.Graph, "{}"), id); err != nil {
			return fmt.Errorf("store: update collection %d: %w", id, err)
		}
		if err := writeCollectionRows(ctx, tx, c); err != nil {
			return err
		}
		out = c
		return nil
	})
	return out, err
}

// DeleteCollection deletes the collection id with its communities and
// seeds, or returns an [ErrNotFound] error.
func (s *Store) DeleteCollection(ctx context.Context, id int64) error {
	return s.write(ctx, "delete collection", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM collections WHERE id = ?`, id)
		if err != nil {
			return fmt.Errorf("store: delete collection %d: %w", id, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("store: delete collection %d: %w", id, ErrNotFound)
		}
		return nil
	})
}
