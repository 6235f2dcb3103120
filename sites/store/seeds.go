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

// FetchedURLs calls fn with the site and URL of every page that answered
// 2xx (a redirect or a failed fetch is no such page), of the sites named,
// or of every site when names is nil. A name the project does not hold has
// no page. The URLs of a site come together; the order is otherwise
// unspecified.
func (s *Store) FetchedURLs(ctx context.Context, names []string, fn func(site, url string) error) error {
	tx, err := s.readTx(ctx)
	if err != nil {
		return fmt.Errorf("store: fetched URLs: begin: %w", err)
	}
	defer tx.Rollback()
	scan := func(sc scanner) error {
		var site, url string
		if err := sc.Scan(&site, &url); err != nil {
			return err
		}
		return fn(site, url)
	}
	if names == nil {
		err := queryRows(ctx, tx, scan, `SELECT s.name, p.url FROM pages p JOIN sites s ON s.id = p.site_id
			WHERE `+fetchedOK+` ORDER BY p.site_id`)
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
		err = queryRows(ctx, tx, scan, `SELECT ?1, p.url FROM pages p WHERE p.site_id = ?2 AND `+fetchedOK, name, id)
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
