package store

import (
	"context"
	"fmt"
)

// TopPage is one of the most important crawled pages of a site, as the
// review page shows it.
type TopPage struct {
	URL   string `json:"url"`
	Title string `json:"title"`
	// Text is the start of the page's text, at most TopPageText characters.
	Text  string `json:"text"`
	Depth int    `json:"depth"`
	// InLinks is the number of crawled pages of other sites that link to it.
	InLinks int `json:"in_links"`
}

// TopPageText is how much of a page's text [Store.TopPages] returns, in
// characters.
const TopPageText = 1000

// TopPages returns up to limit successfully fetched pages of site, the most
// important first: the pages most linked to from other sites (the links a
// site's own navigation adds say nothing of its standing), then the
// shallowest (closest to a seed), then by URL. An unknown site is
// [ErrNotFound].
func (s *Store) TopPages(ctx context.Context, site string, limit int) ([]TopPage, error) {
	if limit <= 0 {
		return nil, fmt.Errorf("store: top pages of %q: %w: limit %d", site, ErrInvalid, limit)
	}
	tx, err := s.readTx(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: top pages of %q: begin: %w", site, err)
	}
	defer tx.Rollback()
	id, err := siteIDByName(ctx, tx, site)
	if err != nil {
		return nil, fmt.Errorf("store: top pages of %q: %w", site, err)
	}
	// links_target_site finds the links into the site; each links row is
	// one linking page (its primary key is page, target URL).
	out, err := queryList(ctx, tx, func(sc scanner) (p TopPage, err error) {
		err = sc.Scan(&p.URL, &p.Title, &p.Text, &p.Depth, &p.InLinks)
		return p, err
	}, `WITH inl AS (
			SELECT l.target_url AS url, COUNT(*) AS n
			FROM links l JOIN pages src ON src.id = l.page_id
			WHERE l.target_site_id = ?1 AND src.site_id <> ?1
			GROUP BY l.target_url)
		SELECT p.url, substr(p.title, 1, 1000), substr(p.text, 1, ?2), p.depth, COALESCE(inl.n, 0) AS n
		FROM pages p LEFT JOIN inl ON inl.url = p.url
		WHERE p.site_id = ?1 AND p.status = 200
		ORDER BY n DESC, p.depth, p.url
		LIMIT ?3`, id, TopPageText, limit)
	if err != nil {
		return nil, fmt.Errorf("store: top pages of %q: %w", site, err)
	}
	return out, nil
}
