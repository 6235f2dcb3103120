package store

import (
	"context"
	"fmt"

	"sitesift/sites"
)

// Prior returns what a new crawl needs to continue the crawls stored so far,
// read in one transaction so the four parts agree:
//
//   - states: the OPIC state of every known site, in order of first sight
//     (site id), so that a crawler restoring them gives sites the same
//     relative order as before;
//   - edges: the weighted site graph (see [sites.Edge]) of the project's
//     link graph ([Store.LinkGraph]), by From then To in the same order;
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

	states, err = queryList(ctx, tx, scanSiteState, `SELECT `+siteStateColumns+` FROM sites ORDER BY id`)
	if err != nil {
		return nil, nil, nil, nil, fmt.Errorf("store: prior: states: %w", err)
	}
	g, err := linkGraph(ctx, tx)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	weight, isEdge := edgeSQL(g, "l")
	edges, err = queryList(ctx, tx, func(sc scanner) (e sites.Edge, err error) {
		err = sc.Scan(&e.From, &e.To, &e.Weight)
		return e, err
	}, `SELECT f.name, t.name, `+weight+`
		FROM site_links l
		JOIN sites f ON f.id = l.from_site_id
		JOIN sites t ON t.id = l.to_site_id
		WHERE `+isEdge+`
		ORDER BY l.from_site_id, l.to_site_id`)
	if err != nil {
		return nil, nil, nil, nil, fmt.Errorf("store: prior: edges: %w", err)
	}
	fetched, err = queryList(ctx, tx, scanValue[string], `SELECT url FROM pages ORDER BY id`)
	if err != nil {
		return nil, nil, nil, nil, fmt.Errorf("store: prior: fetched: %w", err)
	}
	// pages.url is UNIQUE, so NOT EXISTS is one index probe per link.
	frontier, err = queryList(ctx, tx, scanValue[string], `SELECT l.target_url FROM links l
		WHERE NOT EXISTS (SELECT 1 FROM pages p WHERE p.url = l.target_url)
		GROUP BY l.target_url
		ORDER BY MIN(l.page_id), l.target_url`)
	if err != nil {
		return nil, nil, nil, nil, fmt.Errorf("store: prior: frontier: %w", err)
	}
	return states, edges, fetched, frontier, nil
}

// FrontierSize counts the URLs a continued crawl would find waiting: the
// distinct link targets that are not stored pages (the frontier of
// [Store.Prior]).
func (s *Store) FrontierSize(ctx context.Context) (int, error) {
	var n int
	err := s.rdb.QueryRowContext(ctx, `SELECT COUNT(DISTINCT l.target_url) FROM links l
		WHERE NOT EXISTS (SELECT 1 FROM pages p WHERE p.url = l.target_url)`).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store: frontier size: %w", err)
	}
	return n, nil
}
