package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
)

// TopPage is one of the most important crawled pages of a site, as the
// review page shows it.
type TopPage struct {
	URL   string
	Title string
	// Text is the start of the page's text, at most TopPageText characters.
	Text  string
	Depth int
	// InLinks is the number of crawled pages of other sites that link to it.
	InLinks int
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

// QueueQuery selects the sites of a librarian's review queue: those
// Librarian has not rated (a note alone is no rating), whose name contains
// Filter (ignoring case), and, with NoFailed, not those whose crawl gave
// nothing worth archiving (sites.Failed: dead, closed to robots, errors
// only). They are the sites of ListSites with Unrated, Filter and NoFailed.
//
// With NoPlatforms the platform sites are left out too (see
// [Store.QueuePlatforms]).
type QueueQuery struct {
	Librarian   string
	Filter      string
	NoFailed    bool
	NoPlatforms bool

	// platforms is the condition of NoPlatforms, with the platform sites'
	// ids written in (withPlatforms).
	platforms string
}

// withPlatforms returns q with the condition of NoPlatforms made from the
// platform sites as r sees them.
func (s *Store) withPlatforms(ctx context.Context, r rowQuerier, q QueueQuery) (QueueQuery, error) {
	q.platforms = ""
	if !q.NoPlatforms {
		return q, nil
	}
	ids, err := s.platformIDs(ctx, r)
	if err != nil {
		return q, err
	}
	q.platforms, err = platformWhere(PlatformsNone, ids)
	return q, err
}

// queueWhere is the SQL condition over sites s of the queue q; its
// parameters are ?1 (the librarian) and ?2 (the name filter, lower case).
// The failed sites are those with pages (a site without any is
// not-fetched), few beside the sites of an imported graph: the status of
// each is computed once per query, not that of every site.
func queueWhere(q QueueQuery) string {
	where := ` s.id NOT IN (SELECT u.site_id FROM ratings u WHERE u.rating IS NOT NULL
			AND u.librarian_id = (SELECT id FROM librarians WHERE name = ?1))`
	if q.Filter != "" {
		where += ` AND instr(s.name, ?2) > 0`
	}
	if q.NoFailed {
		// Row by row, not NOT IN (failedSites): the queue walks the OPIC
		// index and stops at its page, so the status of a few dozen sites
		// is computed, where the set of failed sites would be built from
		// every site with pages on each request.
		where += ` AND NOT ` + siteFailed
	}
	return where + q.platforms
}

// siteFailed is true of a site s whose crawl status sites.Failed reports
// (one without pages is not-fetched, not failed).
const siteFailed = `(` + siteStatus + ` IN ('dead', 'robots-closed', 'errors-only'))`

// failedSites selects the ids of the sites whose crawl status sites.Failed
// reports, reading only the sites that have pages (pages_site_class).
const failedSites = `SELECT s.id FROM sites s WHERE s.id IN (SELECT site_id FROM pages) AND ` + siteFailed

func (q QueueQuery) args() []any {
	return []any{q.Librarian, strings.ToLower(q.Filter)}
}

// QueueCount returns the number of sites Librarian has not rated whose
// name contains Filter; NoFailed and NoPlatforms are ignored (see
// [Store.QueueFailed], [Store.QueuePlatforms]). The
// count without a filter is the cached number of sites less the
// librarian's ratings; a filter reads every name, as no index finds a part
// of a name.
func (s *Store) QueueCount(ctx context.Context, q QueueQuery) (int, error) {
	if q.Librarian == "" {
		return 0, fmt.Errorf("store: review queue count: %w: no librarian", ErrInvalid)
	}
	q.NoFailed = false
	tx, err := s.readTx(ctx)
	if err != nil {
		return 0, fmt.Errorf("store: review queue count: begin: %w", err)
	}
	defer tx.Rollback()
	nsites, _, err := s.totals(ctx, tx)
	if err != nil {
		return 0, err
	}
	filter := strings.ToLower(q.Filter)
	if filter != "" {
		if nsites, err = s.nameCounts.get(ctx, tx, filter); err != nil {
			return 0, err
		}
	}
	// The librarian's ratings are few: those of the matching sites are
	// counted through the ratings' primary key.
	var rated int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM ratings r JOIN sites s ON s.id = r.site_id
			WHERE r.rating IS NOT NULL AND r.librarian_id = (SELECT id FROM librarians WHERE name = ?1)
			AND (?2 = '' OR instr(s.name, ?2) > 0)`, q.Librarian, filter).Scan(&rated); err != nil {
		return 0, fmt.Errorf("store: review queue count: %w", err)
	}
	return nsites - rated, nil
}

// nameCounts keeps the number of sites whose name contains a filter, for
// the last few filters, while the importance version (which moves when a
// site is added or removed) stays: counting reads every name, a fraction of
// a second at a million sites, and the review page asks again with the same
// filter each time it tops its queue up.
type nameCounts struct {
	mu      sync.Mutex
	version int64
	counts  map[string]int
}

// maxNameCounts bounds the filters nameCounts keeps.
const maxNameCounts = 32

// get returns the number of sites whose name contains filter (lower case)
// as tx sees them.
func (m *nameCounts) get(ctx context.Context, tx *sql.Tx, filter string) (int, error) {
	v, err := importanceVersion(ctx, tx)
	if err != nil {
		return 0, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.counts == nil || m.version != v || len(m.counts) >= maxNameCounts {
		m.version, m.counts = v, map[string]int{}
	}
	if n, ok := m.counts[filter]; ok {
		return n, nil
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM sites WHERE instr(name, ?) > 0`, filter).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: count sites named like %q: %w", filter, err)
	}
	m.counts[filter] = n
	return n, nil
}

// QueueFailed returns the number of sites Librarian has not rated whose
// name contains Filter and whose crawl status sites.Failed reports: the
// sites NoFailed leaves out. It reads the sites with pages only.
func (s *Store) QueueFailed(ctx context.Context, q QueueQuery) (int, error) {
	if q.Librarian == "" {
		return 0, fmt.Errorf("store: review queue failed sites: %w: no librarian", ErrInvalid)
	}
	q.NoFailed = false
	// The failed platform sites are counted with the platforms.
	q, err := s.withPlatforms(ctx, s.rdb, q)
	if err != nil {
		return 0, err
	}
	var n int
	if err := s.rdb.QueryRowContext(ctx, `SELECT COUNT(*) FROM sites s WHERE s.id IN (`+failedSites+`) AND`+queueWhere(q),
		q.args()...).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: review queue failed sites: %w", err)
	}
	return n, nil
}

// QueuePlatforms returns the number of platform sites Librarian has not
// rated whose name contains Filter: the sites NoPlatforms leaves out.
func (s *Store) QueuePlatforms(ctx context.Context, q QueueQuery) (int, error) {
	if q.Librarian == "" {
		return 0, fmt.Errorf("store: review queue platform sites: %w: no librarian", ErrInvalid)
	}
	q.NoFailed, q.NoPlatforms = false, false
	tx, err := s.readTx(ctx)
	if err != nil {
		return 0, fmt.Errorf("store: review queue platform sites: begin: %w", err)
	}
	defer tx.Rollback()
	ids, err := s.platformIDs(ctx, tx)
	if err != nil {
		return 0, err
	}
	only, err := platformWhere(PlatformsOnly, ids)
	if err != nil {
		return 0, err
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM sites s WHERE`+queueWhere(q)+only,
		q.args()...).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: review queue platform sites: %w", err)
	}
	return n, nil
}

// queueOrder is the queue's order by importance, as ListSites sorts by
// "opic" descending: OPIC highest first, then by name.
const queueOrder = ` ORDER BY s.opic DESC NULLS LAST, s.name ASC`

// QueueSites returns the first limit sites of the queue q by OPIC
// importance, highest first, then by name, leaving out the sites named in
// except; each row has Librarian's rating. Without a filter the sites are
// read through the OPIC index and the page stops at limit sites, however
// many there are.
func (s *Store) QueueSites(ctx context.Context, q QueueQuery, except []string, limit int) ([]SiteRow, error) {
	if q.Librarian == "" || limit <= 0 {
		return nil, fmt.Errorf("store: review queue: %w: librarian %q, limit %d", ErrInvalid, q.Librarian, limit)
	}
	q, err := s.withPlatforms(ctx, s.rdb, q)
	if err != nil {
		return nil, fmt.Errorf("store: review queue: %w", err)
	}
	args := append(q.args(), limit)
	exceptWhere := ""
	if len(except) > 0 {
		js, err := json.Marshal(except)
		if err != nil {
			return nil, err
		}
		exceptWhere = ` AND s.name NOT IN (SELECT value FROM json_each(?4))`
		args = append(args, string(js))
	}
	where := queueWhere(q) + exceptWhere
	if q.Filter == "" {
		return s.queueRows(ctx, q, func(tx *sql.Tx) ([]int64, error) {
			return queryList(ctx, tx, scanID, `SELECT s.id FROM sites s WHERE`+where+queueOrder+` LIMIT ?3`, args...)
		})
	}
	// A filter most names match finds its page early in the OPIC index;
	// one few names match would walk all of it, reading each name, slower
	// than reading the table and sorting the matches. The first
	// filterPrefix sites of the queue by OPIC are read first, their names
	// matched here: a page found whole there is the page of all sites,
	// which follow in the same order.
	unfiltered := q
	unfiltered.Filter = ""
	walk := `SELECT s.id, s.name FROM sites s WHERE` + queueWhere(unfiltered) + exceptWhere + queueOrder
	filter := strings.ToLower(q.Filter)
	return s.queueRows(ctx, q, func(tx *sql.Tx) ([]int64, error) {
		var ids []int64
		read := 0
		err := queryRows(ctx, tx, func(sc scanner) error {
			var id int64
			var name string
			if err := sc.Scan(&id, &name); err != nil {
				return err
			}
			if read++; strings.Contains(name, filter) {
				ids = append(ids, id)
			}
			if len(ids) == limit || read == filterPrefix {
				return errWalked
			}
			return nil
		}, walk, args...)
		if err != nil && !errors.Is(err, errWalked) {
			return nil, err
		}
		if len(ids) == limit || read < filterPrefix {
			return ids, nil
		}
		return queryList(ctx, tx, scanID, `SELECT s.id FROM sites s WHERE`+where+
			` ORDER BY +s.opic DESC NULLS LAST, s.name ASC LIMIT ?3`, args...)
	})
}

// errWalked ends a walk over rows that has read what it needed.
var errWalked = errors.New("store: walk ended")

// filterPrefix is how many sites by OPIC QueueSites reads for a name
// filter's page before it reads them all (a variable for the tests).
var filterPrefix = 10000

// QueueSitesNamed returns the sites named that the queue q holds (unknown
// names are left out), by OPIC importance, highest first, then by name:
// the rows of a queue ordered by something else than importance (a
// community, a biased ranking, a search), which reorders them from there.
func (s *Store) QueueSitesNamed(ctx context.Context, q QueueQuery, names []string) ([]SiteRow, error) {
	if q.Librarian == "" {
		return nil, fmt.Errorf("store: review queue: %w: no librarian", ErrInvalid)
	}
	if len(names) == 0 {
		return []SiteRow{}, nil
	}
	js, err := json.Marshal(names)
	if err != nil {
		return nil, err
	}
	if q, err = s.withPlatforms(ctx, s.rdb, q); err != nil {
		return nil, fmt.Errorf("store: review queue: %w", err)
	}
	return s.queueRows(ctx, q, func(tx *sql.Tx) ([]int64, error) {
		return queryList(ctx, tx, scanID, `SELECT s.id FROM sites s WHERE s.name IN (SELECT value FROM json_each(?3)) AND`+
			queueWhere(q)+queueOrder, append(q.args(), string(js))...)
	})
}

// queueRows reads the ids that find selects, then their rows.
func (s *Store) queueRows(ctx context.Context, q QueueQuery, find func(*sql.Tx) ([]int64, error)) ([]SiteRow, error) {
	tx, err := s.readTx(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: review queue: begin: %w", err)
	}
	defer tx.Rollback()
	_, opicTotal, err := s.totals(ctx, tx)
	if err != nil {
		return nil, err
	}
	ids, err := find(tx)
	if err != nil {
		return nil, fmt.Errorf("store: review queue: %w", err)
	}
	rows, err := siteRowsOf(ctx, tx, ids, q.Librarian, opicTotal)
	if err != nil {
		return nil, fmt.Errorf("store: review queue: %w", err)
	}
	return rows, nil
}

// PageTitles returns the titles of site's pages that have one, by URL:
// the names a list of its captures gives. An unknown site is
// [ErrNotFound].
func (s *Store) PageTitles(ctx context.Context, site string) (map[string]string, error) {
	tx, err := s.readTx(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: page titles of %q: begin: %w", site, err)
	}
	defer tx.Rollback()
	id, err := siteIDByName(ctx, tx, site)
	if err != nil {
		return nil, fmt.Errorf("store: page titles of %q: %w", site, err)
	}
	out := map[string]string{}
	err = queryRows(ctx, tx, func(sc scanner) error {
		var u, t string
		if err := sc.Scan(&u, &t); err != nil {
			return err
		}
		out[u] = t
		return nil
	}, `SELECT url, substr(title, 1, 1000) FROM pages WHERE site_id = ? AND title <> ''`, id)
	if err != nil {
		return nil, fmt.Errorf("store: page titles of %q: %w", site, err)
	}
	return out, nil
}
