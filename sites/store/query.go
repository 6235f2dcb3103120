package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sitesift/sites"
	"strings"
)

// SiteQuery selects, orders and pages the rows of [Store.ListSites].
type SiteQuery struct {
	// Sort is one of the keys of SortKeys; "" means "opic".
	Sort string
	// Desc sorts in descending order. Ties are always broken by site name,
	// ascending, so pages of a listing never overlap or skip rows.
	Desc bool
	// Filter keeps the sites whose name contains it, ignoring case.
	Filter string
	// Offset skips that many rows; Limit caps the rows returned, 0 meaning
	// no cap.
	Offset, Limit int
	// Librarian names whose rating fills SiteRow.Rating; "" leaves it nil.
	Librarian string
	// Unrated keeps only the sites Librarian has not rated (the review
	// queue); it needs a Librarian.
	Unrated bool
	// Status keeps only the sites of that crawl status (sites.SiteOK …);
	// "" keeps all.
	Status string
	// NoFailed leaves out the sites whose crawl status sites.Failed
	// reports: dead, closed to robots, errors only.
	NoFailed bool
	// Archived keeps the sites an imported archive index holds
	// (ArchivedYes) or those it does not (ArchivedNo); "" keeps all.
	Archived string
}

// sortKeys maps every accepted SiteQuery.Sort key to the SQL expression it
// orders by. Sorting by "opic" orders by history+cash, which is the order of
// the normalised OPIC value without the division's rounding.
var sortKeys = map[string]string{
	"opic":      "(s.opic_history + s.opic_cash)",
	"pagerank":  "s.pagerank",
	"pages":     "pages",
	"in_sites":  "in_sites",
	"out_sites": "out_sites",
	"site":      "s.name",
	"rating":    "r.rating",
}

// SortKeys returns the accepted values of SiteQuery.Sort.
func SortKeys() []string {
	return []string{"opic", "pagerank", "pages", "in_sites", "out_sites", "site", "rating"}
}

// SiteRow is one site in a listing.
type SiteRow struct {
	Site string `json:"site"`
	// OPIC is the site's share of all OPIC importance: (history+cash) over
	// the sum of (history+cash) of all sites, 0 when that sum is 0.
	OPIC     float64 `json:"opic"`
	PageRank float64 `json:"pagerank"`
	// Pages is the number of pages of the site fetched fine; a failed fetch
	// is not a page.
	Pages int `json:"pages"`
	// Errors is the number of fetches of the site that failed or answered
	// an error (robots-blocked URLs are not fetches).
	Errors int `json:"errors"`
	// CrawlStatus is what the crawl got of the site (sites.SiteOK …).
	CrawlStatus string `json:"crawl_status"`
	// InSites and OutSites count the other sites linking to it and linked
	// from it.
	InSites  int `json:"in_sites"`
	OutSites int `json:"out_sites"`
	// Rating is the rating of SiteQuery.Librarian, nil when there is none.
	Rating *int `json:"rating"`
	// Standing places the site among all sites; the store leaves it zero
	// and the app fills it (app.Standings).
	Standing
}

// Standing is a site's place among all the project's sites by OPIC and by
// PageRank, in numbers a reader can compare: the rank (1 is the highest
// value; sites of equal value share a rank, and the next rank skips as many,
// as in 1, 2, 2, 4) and the score, 100 × value / highest value, rounded to
// a whole number (the top site scores 100). Zero means not computed.
type Standing struct {
	OPICRank      int `json:"opic_rank"`
	OPICScore     int `json:"opic_score"`
	PageRankRank  int `json:"pagerank_rank"`
	PageRankScore int `json:"pagerank_score"`
}

// PageRow is one crawled page of a site, as listed in [SiteDetail].
type PageRow struct {
	URL         string `json:"url"`
	Title       string `json:"title"`
	Status      int    `json:"status"`
	ContentType string `json:"content_type"`
	// ErrorClass is why the fetch failed (sites.ErrDNS …), "" when it did
	// not.
	ErrorClass string `json:"error_class"`
}

// SiteLink is a neighbour in the site graph: the other site, the weight of
// the edge and the other site's normalised OPIC.
type SiteLink struct {
	Site   string  `json:"site"`
	Weight float64 `json:"weight"`
	OPIC   float64 `json:"opic"`
	// OPICScore is the other site's OPIC as 0–100 of the top site's
	// (Standing.OPICScore); the app fills it.
	OPICScore int `json:"opic_score"`
}

// SiteDetail is everything the site page shows. The counts of the embedded
// row are complete; the lists are capped at [MaxDetailRows].
type SiteDetail struct {
	SiteRow
	// Pages is ordered by depth then URL.
	Pages []PageRow
	// InLinks and OutLinks are ordered by weight, heaviest first, then name.
	InLinks, OutLinks []SiteLink
	// Ratings holds every librarian's rating, ordered by librarian.
	Ratings []Rating
	// Report counts what the crawl got of the site.
	Report SiteReport
}

// SiteReport counts what the crawl got of a site: the pages fetched fine,
// the failed fetches by class (sites.ErrDNS …, robots.txt's refusals
// apart) and the URLs robots.txt kept the crawler from.
type SiteReport struct {
	PagesOK       int            `json:"pages_ok"`
	ErrorsByClass map[string]int `json:"errors_by_class"`
	RobotsBlocked int            `json:"robots_blocked"`
	// OutOfScope and Trapped count the distinct URLs of the site the crawls
	// found and left out (out of scope or too deep; by a trap guard);
	// DelayMS is the delay between two requests the last crawl kept there.
	OutOfScope int `json:"out_of_scope"`
	// Redirects counts the URLs of the site that redirected elsewhere.
	Redirects int `json:"redirects"`
	Trapped   int `json:"trapped"`
	DelayMS   int `json:"delay_ms"`
}

// MarshalJSON writes the detail in the shape of GET /api/sites/{site}: the
// row's page count is "pages_count" because "pages" is the page list.
func (d SiteDetail) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Site        string     `json:"site"`
		OPIC        float64    `json:"opic"`
		PageRank    float64    `json:"pagerank"`
		PagesCount  int        `json:"pages_count"`
		Errors      int        `json:"errors"`
		CrawlStatus string     `json:"crawl_status"`
		InSites     int        `json:"in_sites"`
		OutSites    int        `json:"out_sites"`
		Rating      *int       `json:"rating"`
		Pages       []PageRow  `json:"pages"`
		InLinks     []SiteLink `json:"in_links"`
		OutLinks    []SiteLink `json:"out_links"`
		Ratings     []Rating   `json:"ratings"`
		Report      SiteReport `json:"report"`
		Standing
	}{
		d.Site, d.OPIC, d.PageRank, d.SiteRow.Pages, d.Errors, d.CrawlStatus, d.InSites, d.OutSites, d.Rating,
		orEmpty(d.Pages), orEmpty(d.InLinks), orEmpty(d.OutLinks), orEmpty(d.Ratings), d.Report, d.Standing,
	})
}

// orEmpty makes a nil list marshal as [] rather than null, which the
// frontend can iterate without a check.
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// MaxDetailRows caps each list of a [SiteDetail]: a hub can link to
// thousands of sites, and the site page shows the heaviest links first.
const MaxDetailRows = 500

// siteStatus is the SQL of a site's crawl status (sites.SiteOK …) from its
// pages' error classes: ok with one page fetched fine, not-fetched with no
// page, errors-only when it answered with errors, slow when its robots.txt
// asks for a Crawl-delay over the cap, robots-closed when robots.txt kept
// every URL, dead otherwise. Each test is an indexed lookup
// (pages_site_class).
const siteStatus = `(CASE
		WHEN EXISTS (SELECT 1 FROM pages p WHERE p.site_id = s.id AND p.err_class IN ('', 'redirect')) THEN 'ok'
		WHEN NOT EXISTS (SELECT 1 FROM pages p WHERE p.site_id = s.id) THEN 'not-fetched'
		WHEN EXISTS (SELECT 1 FROM pages p WHERE p.site_id = s.id
			AND p.err_class IN ('http-4xx', 'http-5xx', 'incomplete')) THEN 'errors-only'
		WHEN EXISTS (SELECT 1 FROM pages p WHERE p.site_id = s.id AND p.err_class = 'slow') THEN 'slow'
		WHEN NOT EXISTS (SELECT 1 FROM pages p WHERE p.site_id = s.id AND p.err_class <> 'robots') THEN 'robots-closed'
		ELSE 'dead' END)`

// siteRowSelect computes SiteRow columns. ?9 is the OPIC total of all sites,
// NULL to have it summed. ?1 is the librarian whose rating
// is joined. The counts are correlated subqueries over indexed columns
// (pages_site, site_links' primary key and site_links_to), and site_links
// has no zero-weight rows, so COUNT(*) is the number of neighbour sites;
// an imported graph stores both counts (migration 0013).
const siteRowSelect = `SELECT s.name,
		CASE WHEN t.total > 0 THEN (s.opic_history + s.opic_cash) / t.total ELSE 0 END,
		s.pagerank,
		(SELECT COUNT(*) FROM pages p WHERE p.site_id = s.id AND p.err_class = '') AS pages,
		(SELECT COUNT(*) FROM pages p WHERE p.site_id = s.id AND p.err_class NOT IN ('', 'robots', 'slow', 'redirect')) AS errors,
		` + siteStatus + ` AS crawl_status,
		COALESCE(s.in_sites, (SELECT COUNT(*) FROM site_links l WHERE l.to_site_id = s.id)) AS in_sites,
		COALESCE(s.out_sites, (SELECT COUNT(*) FROM site_links l WHERE l.from_site_id = s.id)) AS out_sites,
		r.rating,
		s.id
	FROM sites s
	CROSS JOIN (SELECT COALESCE(?9, (SELECT SUM(opic_history + opic_cash) FROM sites)) AS total) t
	LEFT JOIN ratings r ON r.site_id = s.id
		AND r.librarian_id = (SELECT id FROM librarians WHERE name = ?1)`

func scanSiteRow(sc scanner, id *int64) (SiteRow, error) {
	var row SiteRow
	var rating sql.NullInt64
	if err := sc.Scan(&row.Site, &row.OPIC, &row.PageRank, &row.Pages, &row.Errors, &row.CrawlStatus,
		&row.InSites, &row.OutSites, &rating, id); err != nil {
		return SiteRow{}, err
	}
	if rating.Valid {
		r := int(rating.Int64)
		row.Rating = &r
	}
	return row, nil
}

// ImportanceValues returns every site's OPIC share (as [SiteRow.OPIC]
// computes it, so that the same site gives the same float) and PageRank, in
// no particular order: what a rank among all sites is counted against.
func (s *Store) ImportanceValues(ctx context.Context) (opic, pagerank []float64, err error) {
	rows, err := s.db.QueryContext(ctx, `SELECT
			CASE WHEN t.total > 0 THEN (s.opic_history + s.opic_cash) / t.total ELSE 0 END, s.pagerank
		FROM sites s CROSS JOIN (SELECT SUM(opic_history + opic_cash) AS total FROM sites) t`)
	if err != nil {
		return nil, nil, fmt.Errorf("store: importance values: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var o, p float64
		if err := rows.Scan(&o, &p); err != nil {
			return nil, nil, fmt.Errorf("store: importance values: %w", err)
		}
		opic, pagerank = append(opic, o), append(pagerank, p)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("store: importance values: %w", err)
	}
	return opic, pagerank, nil
}

// ListSites returns the number of sites matching q.Filter and the page of
// them q selects, sorted in SQL. An unknown sort key or a negative offset or
// limit is an [ErrInvalid] error.
func (s *Store) ListSites(ctx context.Context, q SiteQuery) (total int, rows []SiteRow, err error) {
	key := q.Sort
	if key == "" {
		key = "opic"
	}
	expr, ok := sortKeys[key]
	if !ok {
		return 0, nil, fmt.Errorf("store: list sites: %w: unknown sort key %q (want one of %s)",
			ErrInvalid, q.Sort, strings.Join(SortKeys(), ", "))
	}
	if q.Offset < 0 || q.Limit < 0 {
		return 0, nil, fmt.Errorf("store: list sites: %w: negative offset or limit", ErrInvalid)
	}
	unrated := ""
	if q.Unrated {
		if q.Librarian == "" {
			return 0, nil, fmt.Errorf("store: list sites: %w: unrated sites of no librarian", ErrInvalid)
		}
		unrated = ` AND NOT EXISTS (SELECT 1 FROM ratings u WHERE u.site_id = s.id AND u.rating IS NOT NULL
			AND u.librarian_id = (SELECT id FROM librarians WHERE name = ?1))`
	}
	switch q.Status {
	case "", sites.SiteOK, sites.SiteDead, sites.SiteRobotsClosed, sites.SiteErrorsOnly, sites.SiteSlow, sites.SiteNotFetched:
	default:
		return 0, nil, fmt.Errorf("store: list sites: %w: unknown crawl status %q (want %s, %s, %s, %s, %s or %s)", ErrInvalid,
			q.Status, sites.SiteOK, sites.SiteDead, sites.SiteRobotsClosed, sites.SiteErrorsOnly, sites.SiteSlow, sites.SiteNotFetched)
	}
	status := ""
	if q.Status != "" {
		status += ` AND ` + siteStatus + ` = ?5`
	}
	if q.NoFailed {
		status += ` AND ` + siteStatus + ` NOT IN ('dead', 'robots-closed', 'errors-only')`
	}
	archived, err := archivedFilter(q.Archived)
	if err != nil {
		return 0, nil, err
	}
	status += archived
	dir := "ASC"
	if q.Desc {
		dir = "DESC"
	}
	limit := q.Limit
	if limit == 0 {
		limit = -1 // SQLite: no limit
	}
	// Site names are lower-case already (sites.Of); lowering the filter in Go
	// handles non-ASCII, which SQLite's lower() does not. instr() rather than
	// LIKE, so '%' and '_' in the filter are literal.
	filter := strings.ToLower(q.Filter)

	tx, err := s.readTx(ctx)
	if err != nil {
		return 0, nil, fmt.Errorf("store: list sites: begin: %w", err)
	}
	defer tx.Rollback()

	// The site count and OPIC total of the whole table are cached (see
	// totals); a filtered count reads the sites.
	nsites, opicTotal, err := s.totals(ctx)
	if err != nil {
		return 0, nil, err
	}
	total = nsites
	if filter != "" || unrated != "" || status != "" {
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM sites s WHERE instr(s.name, ?2) > 0`+unrated+status,
			q.Librarian, filter, nil, nil, q.Status).Scan(&total); err != nil {
			return 0, nil, fmt.Errorf("store: list sites: count: %w", err)
		}
	}
	// expr and dir come from the whitelist above, never from the caller.
	query := siteRowSelect + `
		WHERE instr(s.name, ?2) > 0` + unrated + status + `
		ORDER BY ` + expr + ` ` + dir + ` NULLS LAST, s.name ASC
		LIMIT ?3 OFFSET ?4`
	rows, err = queryList(ctx, tx, func(sc scanner) (SiteRow, error) {
		var id int64
		return scanSiteRow(sc, &id)
	}, query, q.Librarian, filter, limit, q.Offset, q.Status, nil, nil, nil, opicTotal)
	if err != nil {
		return 0, nil, fmt.Errorf("store: list sites: %w", err)
	}
	return total, rows, nil
}

// Site returns the detail of one site, with librarian's rating in the row
// (nil if librarian is "" or has not rated it). An unknown site is
// [ErrNotFound].
func (s *Store) Site(ctx context.Context, name, librarian string) (SiteDetail, error) {
	tx, err := s.readTx(ctx)
	if err != nil {
		return SiteDetail{}, fmt.Errorf("store: site %q: begin: %w", name, err)
	}
	defer tx.Rollback()

	var d SiteDetail
	var id int64
	d.SiteRow, err = scanSiteRow(tx.QueryRowContext(ctx, siteRowSelect+` WHERE s.name = ?2`, librarian, name,
		nil, nil, nil, nil, nil, nil, nil), &id)
	if errors.Is(err, sql.ErrNoRows) {
		return SiteDetail{}, fmt.Errorf("store: site %q: %w", name, ErrNotFound)
	}
	if err != nil {
		return SiteDetail{}, fmt.Errorf("store: site %q: %w", name, err)
	}

	if d.Pages, err = sitePages(ctx, tx, id); err != nil {
		return SiteDetail{}, fmt.Errorf("store: site %q: pages: %w", name, err)
	}
	if d.InLinks, err = siteLinks(ctx, tx, id, true); err != nil {
		return SiteDetail{}, fmt.Errorf("store: site %q: in-links: %w", name, err)
	}
	if d.OutLinks, err = siteLinks(ctx, tx, id, false); err != nil {
		return SiteDetail{}, fmt.Errorf("store: site %q: out-links: %w", name, err)
	}
	if d.Ratings, err = ratings(ctx, tx, `WHERE r.site_id = ?`, id); err != nil {
		return SiteDetail{}, fmt.Errorf("store: site %q: ratings: %w", name, err)
	}
	d.Report = SiteReport{ErrorsByClass: map[string]int{}}
	if err := tx.QueryRowContext(ctx, `SELECT out_of_scope, trapped, delay_ms FROM sites WHERE id = ?`, id).Scan(
		&d.Report.OutOfScope, &d.Report.Trapped, &d.Report.DelayMS); err != nil {
		return SiteDetail{}, fmt.Errorf("store: site %q: report: %w", name, err)
	}
	err = queryRows(ctx, tx, func(sc scanner) error {
		var class string
		var n int
		if err := sc.Scan(&class, &n); err != nil {
			return err
		}
		switch class {
		case "":
			d.Report.PagesOK = n
		case sites.ErrRobots:
			d.Report.RobotsBlocked = n
		case sites.ErrRedirect:
			d.Report.Redirects = n
		default:
			d.Report.ErrorsByClass[class] = n
		}
		return nil
	}, `SELECT err_class, COUNT(*) FROM pages WHERE site_id = ? GROUP BY err_class`, id)
	if err != nil {
		return SiteDetail{}, fmt.Errorf("store: site %q: report: %w", name, err)
	}
	return d, nil
}

// siteIDByName returns the id of the site called name, or a bare
// [ErrNotFound] for the caller to wrap with what it was doing.
func siteIDByName(ctx context.Context, tx *sql.Tx, name string) (int64, error) {
	var id int64
	err := tx.QueryRowContext(ctx, `SELECT id FROM sites WHERE name = ?`, name).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, ErrNotFound
	}
	return id, err
}

func sitePages(ctx context.Context, tx *sql.Tx, siteID int64) ([]PageRow, error) {
	return queryList(ctx, tx, func(sc scanner) (p PageRow, err error) {
		err = sc.Scan(&p.URL, &p.Title, &p.Status, &p.ContentType, &p.ErrorClass)
		return p, err
	}, `SELECT url, substr(title, 1, 1000), status, substr(content_type, 1, 200), err_class FROM pages
		WHERE site_id = ? ORDER BY depth, url LIMIT ?`, siteID, MaxDetailRows)
}

// siteLinks lists the neighbours of a site: those linking to it when in is
// true, those it links to otherwise.
func siteLinks(ctx context.Context, tx *sql.Tx, siteID int64, in bool) ([]SiteLink, error) {
	self, other := "from_site_id", "to_site_id"
	if in {
		self, other = other, self
	}
	return queryList(ctx, tx, func(sc scanner) (l SiteLink, err error) {
		err = sc.Scan(&l.Site, &l.Weight, &l.OPIC)
		return l, err
	}, `SELECT o.name, l.weight,
			CASE WHEN t.total > 0 THEN (o.opic_history + o.opic_cash) / t.total ELSE 0 END
		FROM site_links l
		JOIN sites o ON o.id = l.`+other+`
		CROSS JOIN (SELECT SUM(opic_history + opic_cash) AS total FROM sites) t
		WHERE l.`+self+` = ?
		ORDER BY l.weight DESC, o.name
		LIMIT ?`, siteID, MaxDetailRows)
}
