package store

import (
	"context"
	"database/sql"
	"fmt"

	"sitesift/sites"
)

// Prior returns what a new crawl needs to continue the crawls stored so far,
// read in one transaction so the four parts agree:
//
//   - states: the OPIC state of every known site, in order of first sight
//     (site id), so that a crawler restoring them gives sites the same
//     relative order as before;
//   - edges: the weighted site graph (see [sites.Edge]), by From then To in
//     the same order;
//   - fetched: the URL of every stored page, failed fetches included, in
//     order of first storage. Pages are stored under the final URL of a
//     redirect; the store does not keep the URL that redirected, so it is
//     not here (it appears in frontier when a page links to it);
//   - frontier: the distinct link targets that are not stored pages, ordered
//     by the first page (lowest page id) linking to them, then by URL.
//
// An empty project gives four empty slices.
func (s *Store) Prior(ctx context.Context) (states []sites.SiteState, edges []sites.Edge, fetched, frontier []string, err error) {
	tx, err := s.readTx(ctx)
	if err != nil {
		return nil, nil, nil, nil, fmt.Errorf("store: prior: begin: %w", err)
	}
	defer tx.Rollback()

	err = priorRows(ctx, tx, "states",
		`SELECT name, opic_cash, opic_history FROM sites ORDER BY id`,
		func(rows *sql.Rows) error {
			var st sites.SiteState
			if err := rows.Scan(&st.Site, &st.Cash, &st.History); err != nil {
				return err
			}
			states = append(states, st)
			return nil
		})
	if err != nil {
		return nil, nil, nil, nil, err
	}
	err = priorRows(ctx, tx, "edges",
		`SELECT f.name, t.name, l.weight
		FROM site_links l
		JOIN sites f ON f.id = l.from_site_id
		JOIN sites t ON t.id = l.to_site_id
		ORDER BY l.from_site_id, l.to_site_id`,
		func(rows *sql.Rows) error {
			var e sites.Edge
			if err := rows.Scan(&e.From, &e.To, &e.Weight); err != nil {
				return err
			}
			edges = append(edges, e)
			return nil
		})
	if err != nil {
		return nil, nil, nil, nil, err
	}
	scanURL := func(dst *[]string) func(*sql.Rows) error {
		return func(rows *sql.Rows) error {
			var u string
			if err := rows.Scan(&u); err != nil {
				return err
			}
			*dst = append(*dst, u)
			return nil
		}
	}
	if err := priorRows(ctx, tx, "fetched", `SELECT url FROM pages ORDER BY id`, scanURL(&fetched)); err != nil {
		return nil, nil, nil, nil, err
	}
	// pages.url is UNIQUE, so NOT EXISTS is one index probe per link.
	err = priorRows(ctx, tx, "frontier",
		`SELECT l.target_url FROM links l
		WHERE NOT EXISTS (SELECT 1 FROM pages p WHERE p.url = l.target_url)
		GROUP BY l.target_url
		ORDER BY MIN(l.page_id), l.target_url`,
		scanURL(&frontier))
	if err != nil {
		return nil, nil, nil, nil, err
	}
	return states, edges, fetched, frontier, nil
}

// priorRows runs query in tx and calls scan for each row; what names the
// part of the answer in errors.
func priorRows(ctx context.Context, tx *sql.Tx, what, query string, scan func(*sql.Rows) error) error {
	rows, err := tx.QueryContext(ctx, query)
	if err != nil {
		return fmt.Errorf("store: prior: %s: %w", what, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return fmt.Errorf("store: prior: %s: scan: %w", what, err)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: prior: %s: %w", what, err)
	}
	return nil
}
