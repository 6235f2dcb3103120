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
	// Platforms keeps the platform sites alone (PlatformsOnly) or leaves
	// them out (PlatformsNone); "" keeps all.
	Platforms string
}

// sortKeys maps every accepted SiteQuery.Sort key to the SQL expression over
// sites s it orders by. Sorting by "opic" orders by history+cash, which is
// the order of the normalised OPIC value without the division's rounding.
// Pages and ratings are sorted apart (sparseSortIDs).
var sortKeys = map[string]string{
	"opic":      "s.opic",
	"pagerank":  "s.pagerank",
	"pages":     "",
	"in_sites":  "", // degreeSQL, in the project's link graph
	"out_sites": "",
	"site":      "s.name",
	"rating":    "",
}

// SortKeys returns the accepted values of SiteQuery.Sort.
func SortKeys() []string {
	return []string{"opic", "pagerank", "pages", "in_sites", "out_sites", "site", "rating"}
}

// SiteRow is one site in a listing.
type SiteRow struct {
	Site string
	// OPIC is the site's share of all OPIC importance: (history+cash) over
	// the sum of (history+cash) of all sites, 0 when that sum is 0.
	OPIC     float64
	PageRank float64
	// Pages is the number of pages of the site fetched fine; a failed fetch
	// is not a page.
	Pages int
	// Errors is the number of fetches of the site that failed or answered
	// an error (robots-blocked URLs are not fetches).
	Errors int
	// CrawlStatus is what the crawl got of the site (sites.SiteOK …).
	CrawlStatus string
	// InSites and OutSites count the other sites linking to it and linked
	// from it.
	InSites  int
	OutSites int
	// Rating is the rating of SiteQuery.Librarian, nil when there is none.
	Rating *int
	// Platform is true of a platform site: one the list of platforms names
	// (sites.IsPlatform) unless a librarian moved it out, or one a
	// librarian moved in.
	Platform bool
	// Standing places the site among all sites; the store leaves it zero
	// and the app fills it (ranking.Standings).
	Standing
}

// Standing is a site's place among all the project's sites by OPIC and by
// PageRank, in numbers a reader can compare: the rank (1 is the highest
// value; sites of equal value share a rank, and the next rank skips as many,
// as in 1, 2, 2, 4) and the score, 100 × value / highest value, rounded to
// a whole number (the top site scores 100). Zero means not computed.
type Standing struct {
	OPICRank      int
	OPICScore     int
	OPICTies      int
	PageRankRank  int
	PageRankScore int
}

// PageRow is one crawled page of a site, as listed in [SiteDetail].
type PageRow struct {
	URL         string
	Title       string
	Status      int
	ContentType string
	// ErrorClass is why the fetch failed (sites.ErrDNS …), "" when it did
	// not.
	ErrorClass string
}

// SiteLink is a neighbour in the site graph: the other site, the weight of
// the edge and the other site's normalised OPIC.
type SiteLink struct {
	Site   string
	Weight float64
	OPIC   float64
	// OPICScore is the other site's OPIC as 0–100 of the top site's
	// (Standing.OPICScore); the app fills it.
	OPICScore int
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
	// PlatformListed is true when the list of platforms names the site;
	// PlatformChosen when a librarian chose for this project whether it is
	// one (SiteRow.Platform says what was chosen).
	PlatformListed, PlatformChosen bool
}

// SiteReport counts what the crawl got of a site: the pages fetched fine,
// the failed fetches by class (sites.ErrDNS …, robots.txt's refusals
// apart) and the URLs robots.txt kept the crawler from.
type SiteReport struct {
	PagesOK       int
	ErrorsByClass map[string]int
	RobotsBlocked int
	// OutOfScope and Trapped count the distinct URLs of the site the crawls
	// found and left out (out of scope or too deep; by a trap guard);
	// DelayMS is the delay between two requests the last crawl kept there.
	OutOfScope int
	// Redirects counts the URLs of the site that redirected elsewhere.
	Redirects int
	Trapped   int
	DelayMS   int
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
//
// The degrees count the edges of the project's link graph g.
func siteRowSelect(g LinkGraph) string {
	return `SELECT s.name,
		CASE WHEN t.total > 0 THEN s.opic / t.total ELSE 0 END,
		s.pagerank,
		(SELECT COUNT(*) FROM pages p WHERE p.site_id = s.id AND p.err_class = '') AS pages,
		(SELECT COUNT(*) FROM pages p WHERE p.site_id = s.id AND p.err_class NOT IN ('', 'robots', 'slow', 'redirect')) AS errors,
		` + siteStatus + ` AS crawl_status,
		` + degreeSQL(g, true) + ` AS in_sites,
		` + degreeSQL(g, false) + ` AS out_sites,
		r.rating,
		` + sitePlatform + `,
		s.id
	FROM sites s
	CROSS JOIN (SELECT COALESCE(?9, (SELECT SUM(opic) FROM sites)) AS total) t
	LEFT JOIN ratings r ON r.site_id = s.id
		AND r.librarian_id = (SELECT id FROM librarians WHERE name = ?1)`
}

// degreeSQL counts the neighbour sites of the site s in graph g: the sites
// linking to it (in) or those it links to. An imported graph stores both
// counts (migration 0013), the same in both graphs since its links have no
// kind; NULL means counted.
func degreeSQL(g LinkGraph, in bool) string {
	self, stored := "from_site_id", "s.out_sites"
	if in {
		self, stored = "to_site_id", "s.in_sites"
	}
	_, isEdge := edgeSQL(g, "l")
	return "COALESCE(" + stored + ", (SELECT COUNT(*) FROM site_links l WHERE l." + self + " = s.id AND " + isEdge + "))"
}

func scanSiteRow(sc scanner, id *int64) (SiteRow, error) {
	var row SiteRow
	var rating sql.NullInt64
	if err := sc.Scan(&row.Site, &row.OPIC, &row.PageRank, &row.Pages, &row.Errors, &row.CrawlStatus,
		&row.InSites, &row.OutSites, &rating, &row.Platform, id); err != nil {
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
// no particular order, but the platform sites': what a site's rank is
// counted against, among the sites a librarian ranks (a platform is ranked
// with all, and placed among none); and the [Store.ImportanceVersion] they
// were read at, which a librarian's move of a site into or out of the
// platforms moves too.
func (s *Store) ImportanceValues(ctx context.Context) (opic, pagerank []float64, version int64, err error) {
	tx, err := s.readTx(ctx)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("store: importance values: begin: %w", err)
	}
	defer tx.Rollback()
	if version, err = importanceVersion(ctx, tx); err != nil {
		return nil, nil, 0, err
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM sites`).Scan(&n); err != nil {
		return nil, nil, 0, fmt.Errorf("store: importance values: %w", err)
	}
	ids, err := s.platformIDs(ctx, tx)
	if err != nil {
		return nil, nil, 0, err
	}
	noPlatforms, err := platformWhere(PlatformsNone, ids)
	if err != nil {
		return nil, nil, 0, err
	}
	opic, pagerank = make([]float64, 0, n), make([]float64, 0, n)
	err = queryRows(ctx, tx, func(sc scanner) error {
		var o, p float64
		if err := sc.Scan(&o, &p); err != nil {
			return err
		}
		opic, pagerank = append(opic, o), append(pagerank, p)
		return nil
	}, `SELECT CASE WHEN t.total > 0 THEN s.opic / t.total ELSE 0 END, s.pagerank
		FROM sites s CROSS JOIN (SELECT SUM(opic) AS total FROM sites) t WHERE 1`+noPlatforms)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("store: importance values: %w", err)
	}
	return opic, pagerank, version, nil
}

// ListSites returns the number of sites matching q.Filter and the page of
// them q selects, sorted in SQL. An unknown sort key or a negative offset or
// limit is an [ErrInvalid] error.
//
// The page is found first as site ids, ordered by the sort key alone, and
// the columns of SiteRow, a dozen lookups a site, are read for those ids
// only. Every sort the Sites page offers reads its first page through an
// index, so it costs the same at five million sites as at five hundred:
// OPIC, PageRank and the name have indexes; the degrees an import stores
// too (a crawled project counts its links, see siteRowSelect); pages and
// ratings are held by few sites of a large project, so those sites are
// sorted apart and the others follow (or come first, for pages ascending)
// in name order. A name filter reads every name: no index finds a part of a
// name.
func (s *Store) ListSites(ctx context.Context, q SiteQuery) (total int, rows []SiteRow, err error) {
	l, err := listingOf(q)
	if err != nil {
		return 0, nil, err
	}
	tx, err := s.readTx(ctx)
	if err != nil {
		return 0, nil, fmt.Errorf("store: list sites: begin: %w", err)
	}
	defer tx.Rollback()
	g, err := linkGraph(ctx, tx)
	if err != nil {
		return 0, nil, err
	}
	if l.key == "in_sites" || l.key == "out_sites" {
		l.expr = degreeSQL(g, l.key == "in_sites")
	}
	w, err := s.siteWhereOf(ctx, tx, q, l)
	if err != nil {
		return 0, nil, err
	}
	total, opicTotal, err := s.countSites(ctx, tx, q, l, w)
	if err != nil {
		return 0, nil, err
	}
	if l.limit < 0 || l.limit > maxIDPage {
		// A long listing (every site, for an export or a ranking) reads its
		// rows in one query, in order, rather than holding every id first.
		rows, err = queryList(ctx, tx, func(sc scanner) (SiteRow, error) {
			var id int64
			return scanSiteRow(sc, &id)
		}, siteRowSelect(g)+w.sql+` ORDER BY `+l.rowOrder()+` LIMIT ?3 OFFSET ?4`,
			q.Librarian, l.filter, l.limit, q.Offset, q.Status, nil, nil, nil, opicTotal)
		if err != nil {
			return 0, nil, fmt.Errorf("store: list sites: %w", err)
		}
		return total, rows, nil
	}
	ids, err := pageIDs(ctx, tx, q, l, w, total)
	if err != nil {
		return 0, nil, fmt.Errorf("store: list sites: %w", err)
	}
	rows, err = siteRowsOf(ctx, tx, ids, q.Librarian, opicTotal)
	if err != nil {
		return 0, nil, fmt.Errorf("store: list sites: %w", err)
	}
	return total, rows, nil
}

// listing is a [SiteQuery] checked, in the terms of its SQL.
type listing struct {
	key  string // the sort key, "opic" for none
	expr string // the sort key's SQL over s ("" for pages and ratings)
	dir  string // ASC or DESC
	// limit is the page's length, -1 for no limit (SQLite's).
	limit int
	// filter is the part of a name asked for, lower-cased: site names are
	// lower-case already (sites.Of), and lowering it in Go handles
	// non-ASCII, which SQLite's lower() does not.
	filter string
	// unrated and archived are conditions of the WHERE clause ("" for
	// none), each starting with AND.
	unrated, archived string
}

// listingOf checks q: an unknown sort key, crawl status, archive or
// platform choice, a negative offset or limit, or the sites unrated by no
// librarian is an [ErrInvalid] error.
func listingOf(q SiteQuery) (listing, error) {
	l := listing{key: q.Sort, dir: "ASC", limit: q.Limit, filter: strings.ToLower(q.Filter)}
	if l.key == "" {
		l.key = "opic"
	}
	var ok bool
	if l.expr, ok = sortKeys[l.key]; !ok {
		return listing{}, fmt.Errorf("store: list sites: %w: unknown sort key %q (want one of %s)",
			ErrInvalid, q.Sort, strings.Join(SortKeys(), ", "))
	}
	if q.Offset < 0 || q.Limit < 0 {
		return listing{}, fmt.Errorf("store: list sites: %w: negative offset or limit", ErrInvalid)
	}
	if q.Unrated {
		if q.Librarian == "" {
			return listing{}, fmt.Errorf("store: list sites: %w: unrated sites of no librarian", ErrInvalid)
		}
		l.unrated = ` AND s.id NOT IN (SELECT u.site_id FROM ratings u WHERE u.rating IS NOT NULL
			AND u.librarian_id = (SELECT id FROM librarians WHERE name = ?1))`
	}
	switch q.Status {
	case "", sites.SiteOK, sites.SiteDead, sites.SiteRobotsClosed, sites.SiteErrorsOnly, sites.SiteSlow, sites.SiteNotFetched:
	default:
		return listing{}, fmt.Errorf("store: list sites: %w: unknown crawl status %q (want %s, %s, %s, %s, %s or %s)", ErrInvalid,
			q.Status, sites.SiteOK, sites.SiteDead, sites.SiteRobotsClosed, sites.SiteErrorsOnly, sites.SiteSlow, sites.SiteNotFetched)
	}
	var err error
	if l.archived, err = archivedFilter(q.Archived); err != nil {
		return listing{}, err
	}
	if _, err := platformWhere(q.Platforms, nil); err != nil {
		return listing{}, fmt.Errorf("store: list sites: %w", err)
	}
	if q.Desc {
		l.dir = "DESC"
	}
	if l.limit == 0 {
		l.limit = -1
	}
	return l, nil
}

// siteWhere is the WHERE clause of a listing over the sites s and its
// parts. Its parameters are ?1 (the librarian), ?2 (the name filter) and
// ?5 (the status), and args gives them (with ?3 the limit and ?4 the
// offset). Its parts come from whitelists, never from the caller.
type siteWhere struct {
	sql string
	// status and platform are the conditions on the crawl status (and the
	// archives) and on the platforms, "" for none.
	status, platform string
	// platformIDs are the platform sites, read when the query chooses by
	// them.
	platformIDs []int64
	args        []any
}

// siteWhereOf builds the WHERE clause of q, as l checked it.
func (s *Store) siteWhereOf(ctx context.Context, tx *sql.Tx, q SiteQuery, l listing) (siteWhere, error) {
	var w siteWhere
	if q.Status != "" || q.NoFailed {
		// A project without pages (an imported graph) has every site
		// not-fetched; the test of a status reads a site's pages.
		var fetched bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pages)`).Scan(&fetched); err != nil {
			return siteWhere{}, fmt.Errorf("store: list sites: %w", err)
		}
		switch {
		case fetched && q.Status != "":
			w.status += ` AND ` + siteStatus + ` = ?5`
		case !fetched && q.Status != "" && q.Status != sites.SiteNotFetched:
			w.status += ` AND 0`
		}
		if fetched && q.NoFailed {
			w.status += ` AND ` + siteStatus + ` NOT IN ('dead', 'robots-closed', 'errors-only')`
		}
	}
	w.status += l.archived
	if q.Platforms != "" {
		var err error
		if w.platformIDs, err = s.platformIDs(ctx, tx); err != nil {
			return siteWhere{}, err
		}
		if w.platform, err = platformWhere(q.Platforms, w.platformIDs); err != nil {
			return siteWhere{}, err
		}
	}
	// instr() rather than LIKE, so '%' and '_' in the filter are literal.
	w.sql = ` WHERE 1` + l.unrated + w.status + w.platform
	if l.filter != "" {
		w.sql = ` WHERE instr(s.name, ?2) > 0` + l.unrated + w.status + w.platform
	}
	w.args = []any{q.Librarian, l.filter, l.limit, q.Offset, q.Status}
	return w, nil
}

// countSites returns the number of sites w selects and the OPIC total of
// every site. The site count and OPIC total of the whole table are cached
// (see totals), the platforms are counted already and the review queue's
// count is every site but those rated; any other filter counts in SQL.
func (s *Store) countSites(ctx context.Context, tx *sql.Tx, q SiteQuery, l listing, w siteWhere) (total int, opicTotal float64, err error) {
	nsites, opicTotal, err := s.totals(ctx, tx)
	if err != nil {
		return 0, 0, err
	}
	total = nsites
	switch {
	case l.filter == "" && w.status == "" && l.unrated == "" && w.platform != "":
		total = len(w.platformIDs)
		if q.Platforms == PlatformsNone {
			total = nsites - len(w.platformIDs)
		}
	case l.filter == "" && w.status == "" && w.platform == "" && l.unrated != "":
		var rated int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM ratings WHERE rating IS NOT NULL
				AND librarian_id = (SELECT id FROM librarians WHERE name = ?)`, q.Librarian).Scan(&rated); err != nil {
			return 0, 0, fmt.Errorf("store: list sites: count: %w", err)
		}
		total = nsites - rated
	case l.filter != "" || l.unrated != "" || w.status != "" || w.platform != "":
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM sites s`+w.sql, w.args...).Scan(&total); err != nil {
			return 0, 0, fmt.Errorf("store: list sites: count: %w", err)
		}
	}
	return total, opicTotal, nil
}

// rowOrder is the ORDER BY of a listing read as rows, in one query
// ([siteRowSelect]'s columns): by the sort key in l's direction, ties (and
// the sites without a value) by name.
func (l listing) rowOrder() string {
	switch l.key {
	case "site":
		return `s.name ` + l.dir
	case "pages", "in_sites", "out_sites": // the columns of siteRowSelect
		return l.key + ` ` + l.dir + ` NULLS LAST, s.name ASC`
	case "rating":
		return `r.rating ` + l.dir + ` NULLS LAST, s.name ASC`
	}
	return l.expr + ` ` + l.dir + ` NULLS LAST, s.name ASC`
}

// pageIDs returns the ids of the sites of the page q asks for, in order;
// total is the number of sites w selects.
func pageIDs(ctx context.Context, tx *sql.Tx, q SiteQuery, l listing, w siteWhere, total int) ([]int64, error) {
	switch l.key {
	case "pages", "rating":
		// keyed lists the sites holding a value of the key (id, v); the
		// others have 0 pages or no rating.
		keyed := `SELECT site_id, COUNT(*) FROM pages WHERE err_class = '' GROUP BY site_id`
		if l.key == "rating" {
			keyed = `SELECT site_id, rating FROM ratings WHERE rating IS NOT NULL
				AND librarian_id = (SELECT id FROM librarians WHERE name = ?1)`
		}
		// A site with no rating comes last either way (NULLS LAST); one
		// with no page first when ascending (0 pages).
		return sparseSortIDs(ctx, tx, keyed, w.sql, l.dir, l.key == "pages" && !q.Desc, total, l.limit, q.Offset, w.args)
	}
	order, err := l.idOrder(ctx, tx)
	if err != nil {
		return nil, err
	}
	return queryList(ctx, tx, scanID, `SELECT s.id FROM sites s`+w.sql+` ORDER BY `+order+`
			LIMIT ?3 OFFSET ?4`, w.args...)
}

// idOrder is the ORDER BY of a page of site ids sorted by a key every site
// holds, read through the key's index where one serves.
func (l listing) idOrder(ctx context.Context, tx *sql.Tx) (string, error) {
	expr := l.expr
	if l.key == "in_sites" || l.key == "out_sites" {
		// An imported graph stores every site's degrees and sorts by
		// them through their index; NULL means counted.
		var counted bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM sites WHERE `+l.key+` IS NULL)`).Scan(&counted); err != nil {
			return "", err
		}
		if !counted {
			expr = "s." + l.key
		}
	}
	if l.filter != "" {
		// Walking an index in order, reading each site's name, took
		// seconds for a name that few sites match; reading the table
		// and sorting the matches takes a fraction of that whatever
		// the name. The unary + keeps SQLite off the index.
		expr = "+" + expr
	}
	if l.key == "site" {
		return expr + ` ` + l.dir, nil
	}
	return expr + ` ` + l.dir + ` NULLS LAST, s.name ASC`, nil
}

// maxIDPage is the longest page ListSites finds as ids before it reads
// their rows; a longer one is read in one query.
const maxIDPage = 1000

func scanID(sc scanner) (id int64, err error) {
	err = sc.Scan(&id)
	return id, err
}

// sparseSortIDs returns the ids of a page of the sites where selects (args
// as in ListSites), sorted by a key that few sites hold: keyed lists them
// (site id, value), sorted by value in dir then by name; the others follow
// in name order, or come first when restFirst. total is the number of sites
// where selects.
func sparseSortIDs(ctx context.Context, tx *sql.Tx, keyed, where, dir string, restFirst bool,
	total, limit, offset int, args []any) ([]int64, error) {
	var nkeyed int
	if err := tx.QueryRowContext(ctx, `WITH k (id, v) AS (`+keyed+`)
		SELECT COUNT(*) FROM k JOIN sites s ON s.id = k.id`+where, args...).Scan(&nkeyed); err != nil {
		return nil, fmt.Errorf("count: %w", err)
	}
	keyedPage := `WITH k (id, v) AS (` + keyed + `)
		SELECT s.id FROM k JOIN sites s ON s.id = k.id` + where + `
		ORDER BY k.v ` + dir + `, s.name ASC LIMIT ?6 OFFSET ?7`
	restPage := `SELECT s.id FROM sites s` + where + ` AND s.id NOT IN (SELECT k.site_id FROM (` + keyed + `) k)
		ORDER BY s.name ASC LIMIT ?6 OFFSET ?7`
	first, second, nfirst := keyedPage, restPage, nkeyed
	if restFirst {
		first, second, nfirst = restPage, keyedPage, total-nkeyed
	}
	page := func(query string, limit, offset int) ([]int64, error) {
		return queryList(ctx, tx, scanID, query, append(args, limit, offset)...)
	}
	if offset >= nfirst {
		return page(second, limit, offset-nfirst)
	}
	ids, err := page(first, limit, offset)
	if err != nil || (limit >= 0 && len(ids) >= limit) {
		return ids, err
	}
	more := -1
	if limit >= 0 {
		more = limit - len(ids)
	}
	rest, err := page(second, more, 0)
	return append(ids, rest...), err
}

// siteRowsOf reads the rows of the sites ids, in that order, with
// librarian's rating; opicTotal is the OPIC total of all sites.
func siteRowsOf(ctx context.Context, tx *sql.Tx, ids []int64, librarian string, opicTotal float64) ([]SiteRow, error) {
	if len(ids) == 0 {
		return []SiteRow{}, nil
	}
	g, err := linkGraph(ctx, tx)
	if err != nil {
		return nil, err
	}
	js, err := json.Marshal(ids)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]SiteRow, len(ids))
	err = queryRows(ctx, tx, func(sc scanner) error {
		var id int64
		row, err := scanSiteRow(sc, &id)
		byID[id] = row
		return err
	}, siteRowSelect(g)+` WHERE s.id IN (SELECT value FROM json_each(?2))`,
		librarian, string(js), nil, nil, nil, nil, nil, nil, opicTotal)
	if err != nil {
		return nil, err
	}
	rows := make([]SiteRow, 0, len(ids))
	for _, id := range ids {
		if row, ok := byID[id]; ok {
			rows = append(rows, row)
		}
	}
	return rows, nil
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
	_, opicTotal, err := s.totals(ctx, tx)
	if err != nil {
		return SiteDetail{}, err
	}
	g, err := linkGraph(ctx, tx)
	if err != nil {
		return SiteDetail{}, err
	}
	d.SiteRow, err = scanSiteRow(tx.QueryRowContext(ctx, siteRowSelect(g)+` WHERE s.name = ?2`, librarian, name,
		nil, nil, nil, nil, nil, nil, opicTotal), &id)
	if errors.Is(err, sql.ErrNoRows) {
		return SiteDetail{}, fmt.Errorf("store: site %q: %w", name, ErrNotFound)
	}
	if err != nil {
		return SiteDetail{}, fmt.Errorf("store: site %q: %w", name, err)
	}

	if d.Pages, err = sitePages(ctx, tx, id); err != nil {
		return SiteDetail{}, fmt.Errorf("store: site %q: pages: %w", name, err)
	}
	if d.InLinks, err = siteLinks(ctx, tx, g, id, true, opicTotal); err != nil {
		return SiteDetail{}, fmt.Errorf("store: site %q: in-links: %w", name, err)
	}
	if d.OutLinks, err = siteLinks(ctx, tx, g, id, false, opicTotal); err != nil {
		return SiteDetail{}, fmt.Errorf("store: site %q: out-links: %w", name, err)
	}
	if d.Ratings, err = ratings(ctx, tx, `WHERE r.site_id = ?`, id); err != nil {
		return SiteDetail{}, fmt.Errorf("store: site %q: ratings: %w", name, err)
	}
	d.Report = SiteReport{ErrorsByClass: map[string]int{}}
	if err := tx.QueryRowContext(ctx, `SELECT out_of_scope, trapped, delay_ms,
			EXISTS (SELECT 1 FROM platform_choices WHERE site_id = ?1) FROM sites WHERE id = ?1`, id).Scan(
		&d.Report.OutOfScope, &d.Report.Trapped, &d.Report.DelayMS, &d.PlatformChosen); err != nil {
		return SiteDetail{}, fmt.Errorf("store: site %q: report: %w", name, err)
	}
	d.PlatformListed = sites.IsPlatform(d.Site)
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
// true, those it links to otherwise; opicTotal is the OPIC total of all
// sites (totals), which summing again would read every site. The links and
// their weights are those of graph g.
func siteLinks(ctx context.Context, tx *sql.Tx, g LinkGraph, siteID int64, in bool, opicTotal float64) ([]SiteLink, error) {
	self, other := "from_site_id", "to_site_id"
	if in {
		self, other = other, self
	}
	weight, isEdge := edgeSQL(g, "l")
	return queryList(ctx, tx, func(sc scanner) (l SiteLink, err error) {
		err = sc.Scan(&l.Site, &l.Weight, &l.OPIC)
		return l, err
	}, `SELECT o.name, `+weight+` AS w,
			CASE WHEN t.total > 0 THEN o.opic / t.total ELSE 0 END
		FROM site_links l
		JOIN sites o ON o.id = l.`+other+`
		CROSS JOIN (SELECT ? AS total) t
		WHERE l.`+self+` = ? AND `+isEdge+`
		ORDER BY w DESC, o.name
		LIMIT ?`, opicTotal, siteID, MaxDetailRows)
}
