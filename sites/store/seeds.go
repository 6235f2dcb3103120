package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// fetchedOK selects the pages p that answered 2xx and were kept as pages:
// not redirects, not broken bodies.
const fetchedOK = `p.status BETWEEN 200 AND 299 AND p.err_class = ''`

// redirectedOK selects the redirect records r (a URL that answered 3xx,
// recorded as "redirected to TARGET") whose target t is a page of the same
// site that answered 2xx: t's URL is unique, so the join reads one row.
const redirectedOK = `FROM pages r JOIN pages t ON t.url = substr(r.err, 15) AND t.site_id = r.site_id
	WHERE r.err_class = 'redirect' AND substr(r.err, 1, 14) = 'redirected to '
	AND t.status BETWEEN 200 AND 299 AND t.err_class = ''`

// FetchedURLs calls fn with the site and URL of every page that answered
// 2xx (a redirect or a failed fetch is no such page), with redirect false,
// and of every URL that redirected to such a page of its own site, with
// redirect true, of the sites named, or of every site when names is nil. A
// name the project does not hold has no page. The URLs of a site come
// together; the order is otherwise unspecified.
func (s *Store) FetchedURLs(ctx context.Context, names []string, fn func(site, url string, redirect bool) error) error {
	tx, err := s.readTx(ctx)
	if err != nil {
		return fmt.Errorf("store: fetched URLs: begin: %w", err)
	}
	defer tx.Rollback()
	scan := func(sc scanner) error {
		var site, url string
		var redirect bool
		if err := sc.Scan(&site, &url, &redirect); err != nil {
			return err
		}
		return fn(site, url, redirect)
	}
	if names == nil {
		err := queryRows(ctx, tx, scan, `SELECT s.name, u.url, u.redirect FROM (
				SELECT p.site_id, p.url, 0 AS redirect FROM pages p WHERE `+fetchedOK+`
				UNION ALL SELECT r.site_id, r.url, 1 `+redirectedOK+`
			) u JOIN sites s ON s.id = u.site_id ORDER BY u.site_id`)
		if err != nil {
			return fmt.Errorf("store: fetched URLs: %w", err)
		}
		return nil
	}
	// One query a site, over pages_site, reads the few sites of a seed
	// list without reading every page of a large crawl.
	for _, name := range names {
		id, err := siteIDByName(ctx, tx, name)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return fmt.Errorf("store: fetched URLs of %q: %w", name, err)
		}
		err = queryRows(ctx, tx, scan, `SELECT ?1, p.url, 0 FROM pages p WHERE p.site_id = ?2 AND `+fetchedOK+`
			UNION ALL SELECT ?1, r.url, 1 `+redirectedOK+` AND r.site_id = ?2`, name, id)
		if err != nil {
			return fmt.Errorf("store: fetched URLs of %q: %w", name, err)
		}
	}
	return nil
}

// CrawlStatuses returns the crawl status (sites.SiteOK …) of each site
// named that the project holds.
func (s *Store) CrawlStatuses(ctx context.Context, names []string) (map[string]string, error) {
	tx, err := s.readTx(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: crawl statuses: begin: %w", err)
	}
	defer tx.Rollback()
	st, err := tx.PrepareContext(ctx, `SELECT `+siteStatus+` FROM sites s WHERE s.name = ?`)
	if err != nil {
		return nil, fmt.Errorf("store: crawl statuses: %w", err)
	}
	defer st.Close()
	out := make(map[string]string, len(names))
	for _, name := range names {
		var status string
		err := st.QueryRowContext(ctx, name).Scan(&status)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("store: crawl status of %q: %w", name, err)
		}
		out[name] = status
	}
	return out, nil
}
