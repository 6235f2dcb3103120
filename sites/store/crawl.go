package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"sitesift/sites"
)

// Statements of SaveCrawlBatch, prepared once per batch transaction.
const (
	// The no-op DO UPDATE makes RETURNING yield the id of an existing row too.
	sqlUpsertSite = `INSERT INTO sites (name, first_seen) VALUES (?, ?)
		ON CONFLICT (name) DO UPDATE SET name = excluded.name
		RETURNING id`

	sqlOldPage = `SELECT id, site_id FROM pages WHERE url = ?`

	// Withdraw what the previous version of a page added to site_links: one
	// unit of weight towards every other site it linked to, and one of
	// editorial weight where one of those links was editorial. Edges it
	// alone carried go first, so that no row ever holds weight 0 (the
	// CHECK). An editorial weight still NULL (links of no kind: see
	// migration 0017) stood for the whole weight, and becomes a number.
	sqlDropSoleSiteLinks = `DELETE FROM site_links
		WHERE from_site_id = ?1 AND weight = 1 AND to_site_id IN (
			SELECT target_site_id FROM links
			WHERE page_id = ?2 AND target_site_id <> ?1)`
	sqlWithdrawSiteLinks = `UPDATE site_links SET weight = weight - 1,
			editorial_weight = COALESCE(editorial_weight, weight) - w.editorial
		FROM (SELECT target_site_id, max(editorial = 1) AS editorial FROM links
			WHERE page_id = ?2 AND target_site_id <> ?1 GROUP BY target_site_id) AS w
		WHERE site_links.from_site_id = ?1 AND site_links.to_site_id = w.target_site_id`
	sqlDeleteLinks = `DELETE FROM links WHERE page_id = ?`

	sqlUpsertPage = `INSERT INTO pages
		(url, site_id, status, content_type, title, text, depth, fetched_at, err, err_class,
			full_text, language, published)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (url) DO UPDATE SET
			site_id = excluded.site_id, status = excluded.status,
			content_type = excluded.content_type, title = excluded.title,
			text = excluded.text, depth = excluded.depth,
			full_text = excluded.full_text, language = excluded.language, published = excluded.published,
			fetched_at = excluded.fetched_at, err = excluded.err, err_class = excluded.err_class, indexed = 0
		RETURNING id`

	// A URL both editorial and template in one page is editorial: the
	// author wrote it. (2, a repeated editorial link, stays so.)
	sqlInsertLink = `INSERT INTO links (page_id, target_url, target_site_id, editorial) VALUES (?, ?, ?, ?)
		ON CONFLICT (page_id, target_url) DO UPDATE SET editorial = max(editorial, excluded.editorial)`

	// Add the new version's contribution: one unit towards every other site
	// the page links to, however many of its URLs it links to, and one unit
	// of editorial weight when one of those links is editorial.
	sqlAddSiteLinks = `INSERT INTO site_links (from_site_id, to_site_id, weight, editorial_weight)
		SELECT ?1, target_site_id, 1, max(editorial = 1) FROM links
		WHERE page_id = ?2 AND target_site_id <> ?1
		GROUP BY target_site_id
		ON CONFLICT (from_site_id, to_site_id) DO UPDATE SET weight = weight + 1,
			editorial_weight = COALESCE(editorial_weight, weight) + excluded.editorial_weight`

	sqlUpsertOPIC = `INSERT INTO sites (name, first_seen, opic_cash, opic_history, out_of_scope, trapped, delay_ms)
		VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (name) DO UPDATE SET
			opic_cash = excluded.opic_cash, opic_history = excluded.opic_history,
			out_of_scope = excluded.out_of_scope, trapped = excluded.trapped, delay_ms = excluded.delay_ms`
)

// validatePage checks what the schema and the site graph rely on. The site of
// a page and of each link must follow the project's site rule, or the site
// graph would split one site in two.
func validatePage(p *sites.Page, rule sites.Rule) error {
	if p.URL == "" {
		return fmt.Errorf("store: page with empty URL (site %q): %w", p.Site, ErrInvalid)
	}
	if p.Site == "" {
		return fmt.Errorf("store: page %q has an empty site: %w", p.URL, ErrInvalid)
	}
	site, err := rule.Of(p.URL)
	if err != nil {
		return fmt.Errorf("store: page %q: %w: %w", p.URL, ErrInvalid, err)
	}
	if site != p.Site {
		return fmt.Errorf("store: page %q: %w: site %q, but the URL's site is %q", p.URL, ErrInvalid, p.Site, site)
	}
	return nil
}

// batch carries the prepared statements of one SaveCrawlBatch transaction and
// a cache of site ids, since a batch names the same few sites many times.
type batch struct {
	tx      *sql.Tx
	now     string
	siteIDs map[string]int64
	stmts   map[string]*sql.Stmt
}

func (b *batch) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if st, ok := b.stmts[query]; ok {
		return st, nil
	}
	st, err := b.tx.PrepareContext(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("store: prepare: %w", err)
	}
	b.stmts[query] = st
	return st, nil
}

func (b *batch) close() {
	for _, st := range b.stmts {
		st.Close()
	}
}

func (b *batch) siteID(ctx context.Context, name string) (int64, error) {
	if id, ok := b.siteIDs[name]; ok {
		return id, nil
	}
	st, err := b.stmt(ctx, sqlUpsertSite)
	if err != nil {
		return 0, err
	}
	var id int64
	if err := st.QueryRowContext(ctx, name, b.now).Scan(&id); err != nil {
		return 0, fmt.Errorf("store: upsert site %q: %w", name, err)
	}
	b.siteIDs[name] = id
	return id, nil
}

// SaveCrawlBatch stores a batch of crawl results in one transaction: a site
// row for every page's site and every linked site, each page (replacing an
// earlier version with the same URL, links included), the inter-site graph
// those links imply, and the given OPIC states. Either all of it is kept or,
// on any error, none of it. Pages are validated first: an empty URL or site,
// or a site that does not follow the project's site rule, is an [ErrInvalid] error naming the
// page.
func (s *Store) SaveCrawlBatch(ctx context.Context, pages []sites.Page, states []sites.SiteState) error {
	// Validate everything before touching the database, so that a bad page
	// costs no write lock; the transaction still guards against SQL failures.
	linkSites := make([][]string, len(pages))
	for i := range pages {
		p := &pages[i]
		if err := validatePage(p, s.rule); err != nil {
			return err
		}
		var err error
		if linkSites[i], err = linkSitesOf(p, s.rule); err != nil {
			return err
		}
	}
	for _, st := range states {
		if st.Site == "" {
			return fmt.Errorf("store: OPIC state with empty site: %w", ErrInvalid)
		}
	}

	if len(pages) == 0 && len(states) == 0 {
		return nil
	}

	return s.write(ctx, fmt.Sprintf("save batch of %d pages", len(pages)), func(tx *sql.Tx) error {
		b := &batch{tx: tx, now: formatTime(s.now()), siteIDs: map[string]int64{}, stmts: map[string]*sql.Stmt{}}
		defer b.close()
		for i := range pages {
			if err := b.savePage(ctx, &pages[i], linkSites[i]); err != nil {
				return err
			}
		}
		if len(states) == 0 {
			return nil
		}
		st, err := b.stmt(ctx, sqlUpsertOPIC)
		if err != nil {
			return err
		}
		return saveOPIC(ctx, st, b.now, states)
	})
}

// saveOPIC stores OPIC states with st, a prepared sqlUpsertOPIC; now is the
// first_seen of a site not stored yet.
func saveOPIC(ctx context.Context, st *sql.Stmt, now string, states []sites.SiteState) error {
	for _, o := range states {
		if _, err := st.ExecContext(ctx, o.Site, now, o.Cash, o.History, o.OutOfScope, o.Trapped, o.DelayMS); err != nil {
			return fmt.Errorf("store: save OPIC state of %q: %w", o.Site, err)
		}
	}
	return nil
}

// savePage replaces one page and keeps site_links equal to what the links
// table implies: the old version's contribution is withdrawn before its links
// are deleted, and the new version's added after its links are inserted.
func (b *batch) savePage(ctx context.Context, p *sites.Page, linkSites []string) error {
	siteID, err := b.siteID(ctx, p.Site)
	if err != nil {
		return err
	}

	old, err := b.stmt(ctx, sqlOldPage)
	if err != nil {
		return err
	}
	var oldID, oldSite int64
	switch err := old.QueryRowContext(ctx, p.URL).Scan(&oldID, &oldSite); {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return fmt.Errorf("store: look up page %q: %w", p.URL, err)
	default:
		if err := b.withdrawLinks(ctx, oldSite, oldID, p.URL); err != nil {
			return err
		}
	}

	up, err := b.stmt(ctx, sqlUpsertPage)
	if err != nil {
		return err
	}
	var pageID int64
	if err := up.QueryRowContext(ctx, p.URL, siteID, p.Status, p.ContentType, p.Title, p.Text,
		p.Depth, formatTimeOrNull(p.FetchedAt), p.Err, p.ErrClass,
		p.FullText, p.Language, formatTimeOrNull(p.Published)).Scan(&pageID); err != nil {
		return fmt.Errorf("store: save page %q: %w", p.URL, err)
	}
	return b.addLinks(ctx, siteID, pageID, p, linkSites)
}

// linkSitesOf returns the site of each link of p under rule: its editorial
// links, then its template links, as [batch.addLinks] takes them.
func linkSitesOf(p *sites.Page, rule sites.Rule) ([]string, error) {
	out := make([]string, 0, len(p.Links)+len(p.TemplateLinks))
	for _, l := range slices.Concat(p.Links, p.TemplateLinks) {
		ls, err := rule.Of(l)
		if err != nil {
			return nil, fmt.Errorf("store: page %q: link %q: %w: %w", p.URL, l, ErrInvalid, err)
		}
		out = append(out, ls)
	}
	return out, nil
}

// addLinks stores the links of p, page pageID of site siteID, each with its
// kind (linkSites from [linkSitesOf]), and adds the page's share of the site
// graph they imply.
func (b *batch) addLinks(ctx context.Context, siteID, pageID int64, p *sites.Page, linkSites []string) error {
	if len(p.Links)+len(p.TemplateLinks) == 0 {
		return nil
	}
	ins, err := b.stmt(ctx, sqlInsertLink)
	if err != nil {
		return err
	}
	for j, l := range slices.Concat(p.Links, p.TemplateLinks) {
		targetSite, err := b.siteID(ctx, linkSites[j])
		if err != nil {
			return err
		}
		if _, err := ins.ExecContext(ctx, pageID, l, targetSite, j < len(p.Links)); err != nil {
			return fmt.Errorf("store: save link %q -> %q: %w", p.URL, l, err)
		}
	}
	add, err := b.stmt(ctx, sqlAddSiteLinks)
	if err != nil {
		return err
	}
	if _, err := add.ExecContext(ctx, siteID, pageID); err != nil {
		return fmt.Errorf("store: update site graph for %q: %w", p.URL, err)
	}
	return nil
}

// SiteGraph returns every known site, sorted by name, and the weighted
// inter-site edges (see [sites.Edge]) of the project's link graph
// ([Store.LinkGraph]), sorted by From then To. Sites that were only linked
// to, never crawled, are included.
//
// The edges are read by site id in the primary key's order and sorted here:
// joining site names in SQL and sorting by them costs a random lookup per
// edge end and a sort of strings: on an imported graph of 3.2 million edges,
// 22 s instead of 4.6 s.
func (s *Store) SiteGraph(ctx context.Context) (names []string, edges []sites.Edge, err error) {
	tx, err := s.readTx(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("store: site graph: begin: %w", err)
	}
	defer tx.Rollback()
	return siteGraph(ctx, tx)
}

// siteGraph is [Store.SiteGraph] as tx sees it.
func siteGraph(ctx context.Context, tx *sql.Tx) (names []string, edges []sites.Edge, err error) {
	g, err := linkGraph(ctx, tx)
	if err != nil {
		return nil, nil, err
	}
	weight, isEdge := edgeSQL(g, "l")
	// pos maps a site id to the site's position in names.
	pos := map[int64]int32{}
	err = queryRows(ctx, tx, func(sc scanner) error {
		var id int64
		var n string
		if err := sc.Scan(&id, &n); err != nil {
			return err
		}
		pos[id] = int32(len(names))
		names = append(names, n)
		return nil
	}, `SELECT id, name FROM sites ORDER BY name`)
	if err != nil {
		return nil, nil, fmt.Errorf("store: site graph: list sites: %w", err)
	}

	type posEdge struct {
		from, to int32
		w        float64
	}
	pes, err := queryList(ctx, tx, func(sc scanner) (posEdge, error) {
		var f, t int64
		var w float64
		if err := sc.Scan(&f, &t, &w); err != nil {
			return posEdge{}, err
		}
		pf, ok1 := pos[f]
		pt, ok2 := pos[t]
		if !ok1 || !ok2 { // the foreign keys (and ImportGraph's construction) rule it out
			return posEdge{}, fmt.Errorf("edge %d → %d names an unknown site", f, t)
		}
		return posEdge{pf, pt, w}, nil
	}, `SELECT from_site_id, to_site_id, `+weight+` FROM site_links l WHERE `+isEdge)
	if err != nil {
		return nil, nil, fmt.Errorf("store: site graph: list edges: %w", err)
	}
	slices.SortFunc(pes, func(a, b posEdge) int {
		if c := cmp.Compare(a.from, b.from); c != 0 {
			return c
		}
		return cmp.Compare(a.to, b.to)
	})
	edges = make([]sites.Edge, len(pes))
	for k, e := range pes {
		edges[k] = sites.Edge{From: names[e.from], To: names[e.to], Weight: e.w}
	}
	return names, edges, nil
}

// SetPageRank stores a PageRank value per site in one transaction; sites not
// in ranks get 0. A name in ranks that is not a known site is an
// [ErrNotFound] error and nothing is changed, since ranks are computed from
// [Store.SiteGraph] and sites are never removed.
func (s *Store) SetPageRank(ctx context.Context, ranks map[string]float64) error {
	return s.write(ctx, "set pagerank", func(tx *sql.Tx) error {
		return setPageRank(ctx, tx, ranks)
	})
}

// setPageRank is [Store.SetPageRank] in tx.
func setPageRank(ctx context.Context, tx *sql.Tx, ranks map[string]float64) error {
	return setByName(ctx, tx, "pagerank", ranks)
}

// setByName sets column col (pagerank or opic) of the sites named in
// values, and 0 for every other site.
func setByName(ctx context.Context, tx *sql.Tx, col string, values map[string]float64) error {
	if col != "pagerank" && col != "opic" {
		return fmt.Errorf("store: set %s: not an importance column", col)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE sites SET `+col+` = 0 WHERE `+col+` <> 0`); err != nil {
		return fmt.Errorf("store: set %s: reset: %w", col, err)
	}
	st, err := tx.PrepareContext(ctx, `UPDATE sites SET `+col+` = ? WHERE name = ?`)
	if err != nil {
		return fmt.Errorf("store: set %s: prepare: %w", col, err)
	}
	defer st.Close()
	for site, r := range values {
		res, err := st.ExecContext(ctx, r, site)
		if err != nil {
			return fmt.Errorf("store: set %s of %q: %w", col, site, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("store: set %s of %q: %w", col, site, err)
		} else if n == 0 {
			return fmt.Errorf("store: set %s of %q: %w", col, site, ErrNotFound)
		}
	}
	return nil
}

// OPICStates returns the stored OPIC state of every known site, sorted by
// site, so that a crawl can resume where the last one stopped.
func (s *Store) OPICStates(ctx context.Context) ([]sites.SiteState, error) {
	out, err := queryList(ctx, s.rdb, scanSiteState, `SELECT `+siteStateColumns+` FROM sites ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("store: OPIC states: %w", err)
	}
	return out, nil
}

// siteStateColumns are the columns scanSiteState reads.
const siteStateColumns = `name, opic_cash, opic_history, out_of_scope, trapped, delay_ms`

// scanSiteState reads the columns siteStateColumns.
func scanSiteState(sc scanner) (sites.SiteState, error) {
	var st sites.SiteState
	err := sc.Scan(&st.Site, &st.Cash, &st.History, &st.OutOfScope, &st.Trapped, &st.DelayMS)
	return st, err
}

// Stats returns the number of pages fetched fine (a failed fetch is not a
// page) and of known sites.
func (s *Store) Stats(ctx context.Context) (pages, sites int, err error) {
	err = s.rdb.QueryRowContext(ctx,
		`SELECT (SELECT COUNT(*) FROM pages WHERE err_class = ''), (SELECT COUNT(*) FROM sites)`).Scan(&pages, &sites)
	if err != nil {
		return 0, 0, fmt.Errorf("store: stats: %w", err)
	}
	return pages, sites, nil
}

// forEachChunk is how many pages ForEachPage reads per query.
const forEachChunk = 256

// ForEachPage calls fn for every stored page in insertion order, without
// FullText and links, and stops at the first error fn returns (that error is returned
// as is). It reads in chunks and holds no transaction while fn runs, so fn
// may take its time (re-indexing) and may use the store; pages saved during
// the walk may or may not be visited.
func (s *Store) ForEachPage(ctx context.Context, fn func(sites.Page) error) error {
	var after int64
	for {
		chunk, last, err := s.pageChunk(ctx, after)
		if err != nil {
			return err
		}
		for _, p := range chunk {
			if err := fn(p); err != nil {
				return err
			}
		}
		if len(chunk) < forEachChunk {
			return nil
		}
		after = last
	}
}

func (s *Store) pageChunk(ctx context.Context, after int64) (pages []sites.Page, last int64, err error) {
	return s.pageChunkWhere(ctx, "p.id > ?", after, forEachChunk)
}

// pageChunkWhere reads up to n pages matching where (with one parameter,
// after) in id order.
func (s *Store) pageChunkWhere(ctx context.Context, where string, after int64, n int) (pages []sites.Page, last int64, err error) {
	pages, err = queryList(ctx, s.rdb, func(sc scanner) (sites.Page, error) {
		var p sites.Page
		var fetched, published sql.NullString
		if err := sc.Scan(&last, &p.URL, &p.Site, &p.Status, &p.ContentType,
			&p.Title, &p.Text, &p.Depth, &fetched, &p.Err, &p.ErrClass, &p.Language, &published); err != nil {
			return p, err
		}
		var err error
		if p.FetchedAt, err = parseNullTime(fetched); err != nil {
			return p, fmt.Errorf("page %q: %w", p.URL, err)
		}
		if p.Published, err = parseNullTime(published); err != nil {
			return p, fmt.Errorf("page %q: published: %w", p.URL, err)
		}
		return p, nil
	}, `SELECT p.id, p.url, s.name, p.status, p.content_type,
			p.title, p.text, p.depth, p.fetched_at, p.err, p.err_class, p.language, p.published
		FROM pages p JOIN sites s ON s.id = p.site_id
		WHERE `+where+` ORDER BY p.id LIMIT ?`, after, n)
	if err != nil {
		return nil, 0, fmt.Errorf("store: read pages: %w", err)
	}
	return pages, last, nil
}

// Crawl states a crawls row can be left in by [Store.FinishCrawl]; a crawl
// still running (or interrupted by a crash) is CrawlRunning.
const (
	CrawlRunning = "running"
	CrawlDone    = "done"
	CrawlStopped = "stopped"
	CrawlFailed  = "failed"
	// CrawlInterrupted is a crawl whose process ended without recording
	// its end (killed, crashed, power cut): see [Store.MarkInterrupted].
	CrawlInterrupted = "interrupted"
)

// MarkInterrupted records every crawl still in state [CrawlRunning] as
// [CrawlInterrupted] and returns how many there were. Call it when a process
// takes the project for itself (a project is open in one process at a time):
// no crawl of another process can be running then.
func (s *Store) MarkInterrupted(ctx context.Context) (int, error) {
	var n int64
	err := s.write(ctx, "mark interrupted crawls", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE crawls SET state = ? WHERE state = ?`, CrawlInterrupted, CrawlRunning)
		if err != nil {
			return fmt.Errorf("store: mark interrupted crawls: %w", err)
		}
		n, err = res.RowsAffected()
		return err
	})
	return int(n), err
}

// Health is what [Store.Health] finds in a project database.
type Health struct {
	// Integrity lists the problems SQLite's integrity_check reports; empty
	// when the database is sound.
	Integrity []string
	// Pages counts the stored pages, Searchable those the search index
	// should hold (status 200 with a title or text), Unindexed those it
	// does not hold yet.
	Pages, Searchable, Unindexed int
	// RunningCrawls counts crawls recorded as running.
	RunningCrawls int
}

// Health checks the database: SQLite's integrity check, and the counts a
// consistency check of the project compares with its index.
func (s *Store) Health(ctx context.Context) (Health, error) {
	var h Health
	err := queryRows(ctx, s.rdb, func(sc scanner) error {
		line, err := scanValue[string](sc)
		if err == nil && line != "ok" {
			h.Integrity = append(h.Integrity, line)
		}
		return err
	}, `PRAGMA integrity_check`)
	if err != nil {
		return h, fmt.Errorf("store: integrity check: %w", err)
	}
	err = s.rdb.QueryRowContext(ctx, `SELECT COUNT(*),
			COALESCE(SUM(status = 200 AND (title <> '' OR text <> '')), 0),
			COALESCE(SUM(indexed = 0), 0),
			(SELECT COUNT(*) FROM crawls WHERE state = ?)
		FROM pages`, CrawlRunning).Scan(&h.Pages, &h.Searchable, &h.Unindexed, &h.RunningCrawls)
	if err != nil {
		return h, fmt.Errorf("store: health counts: %w", err)
	}
	return h, nil
}

// Unindexed returns how many pages the search index does not hold yet (see
// [Store.MarkIndexed]).
func (s *Store) Unindexed(ctx context.Context) (int, error) {
	var n int
	if err := s.rdb.QueryRowContext(ctx, `SELECT count(*) FROM pages WHERE indexed = 0`).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: count unindexed pages: %w", err)
	}
	return n, nil
}

// ForEachUnindexed calls fn with the pages the index does not hold yet, in
// chunks of at most n, oldest first, without Links; fn is expected to index
// them and call [Store.MarkIndexed]. It stops at the first error of fn.
func (s *Store) ForEachUnindexed(ctx context.Context, n int, fn func([]sites.Page) error) error {
	var after int64
	for {
		chunk, last, err := s.pageChunkWhere(ctx, "p.indexed = 0 AND p.id > ?", after, n)
		if err != nil {
			return err
		}
		if len(chunk) > 0 {
			if err := fn(chunk); err != nil {
				return err
			}
		}
		if len(chunk) < n {
			return nil
		}
		after = last
	}
}

// MarkAllUnindexed records that the index holds no page, for a new or
// rebuilt index.
func (s *Store) MarkAllUnindexed(ctx context.Context) error {
	return s.write(ctx, "mark all pages unindexed", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE pages SET indexed = 0 WHERE indexed <> 0`); err != nil {
			return fmt.Errorf("store: mark all pages unindexed: %w", err)
		}
		return nil
	})
}

// MarkIndexed records that the index holds the current version of the pages
// at urls. The caller marks a page only after the index committed it, so a
// kill between the two costs a second indexing, never a page missing from
// the index.
func (s *Store) MarkIndexed(ctx context.Context, urls []string) error {
	if len(urls) == 0 {
		return nil
	}
	return s.write(ctx, fmt.Sprintf("mark %d pages indexed", len(urls)), func(tx *sql.Tx) error {
		st, err := tx.PrepareContext(ctx, `UPDATE pages SET indexed = 1 WHERE url = ?`)
		if err != nil {
			return fmt.Errorf("store: mark indexed: %w", err)
		}
		defer st.Close()
		for _, u := range urls {
			if _, err := st.ExecContext(ctx, u); err != nil {
				return fmt.Errorf("store: mark %q indexed: %w", u, err)
			}
		}
		return nil
	})
}

// StartCrawl records the start of a crawl with its settings (stored as JSON)
// in state [CrawlRunning] and returns its id.
func (s *Store) StartCrawl(ctx context.Context, settings any) (int64, error) {
	js, err := json.Marshal(settings)
	if err != nil {
		return 0, fmt.Errorf("store: start crawl: encode settings: %w", err)
	}
	var id int64
	err = s.write(ctx, "start crawl", func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `INSERT INTO crawls (started_at, settings, state) VALUES (?, ?, ?)
			RETURNING id`, formatTime(s.now()), string(js), CrawlRunning).Scan(&id)
		if err != nil {
			return fmt.Errorf("store: start crawl: %w", err)
		}
		return nil
	})
	return id, err
}

// CrawlCounts is how far a crawl has got: the pages it fetched, the
// fetches it tried again after a passing failure, and the template links
// to other sites it left out (their distinct URLs and sites) when it
// follows editorial links.
type CrawlCounts struct {
	Pages, Retries                             int
	TemplateLinksLeftOut, TemplateSitesLeftOut int
}

// FinishCrawl records the end of crawl id: its final state (e.g. [CrawlDone]),
// why it ended (crawl.EndLimit …) and its counts. An unknown id is
// [ErrNotFound].
func (s *Store) FinishCrawl(ctx context.Context, id int64, state, reason string, n CrawlCounts) error {
	if state == "" {
		return fmt.Errorf("store: finish crawl %d: %w: empty state", id, ErrInvalid)
	}
	return s.write(ctx, fmt.Sprintf("finish crawl %d", id), func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE crawls SET finished_at = ?, state = ?, end_reason = ?, pages = ?, retries = ?,
			template_links_left_out = ?, template_sites_left_out = ?
			WHERE id = ?`, formatTime(s.now()), state, reason, n.Pages, n.Retries, n.TemplateLinksLeftOut, n.TemplateSitesLeftOut, id)
		if err != nil {
			return fmt.Errorf("store: finish crawl %d: %w", id, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("store: finish crawl %d: %w", id, err)
		} else if n == 0 {
			return fmt.Errorf("store: finish crawl %d: %w", id, ErrNotFound)
		}
		return nil
	})
}

// Fetches counts the stored fetches made at or after since by class: ""
// for the pages fetched fine, sites.ErrDNS … for the others (robots.txt's
// refusals included).
func (s *Store) Fetches(ctx context.Context, since time.Time) (map[string]int, error) {
	out := map[string]int{}
	err := queryRows(ctx, s.rdb, func(sc scanner) error {
		var class string
		var n int
		err := sc.Scan(&class, &n)
		out[class] = n
		return err
	}, `SELECT err_class, COUNT(*) FROM pages WHERE fetched_at >= ? GROUP BY err_class`, formatTime(since))
	if err != nil {
		return nil, fmt.Errorf("store: fetches: %w", err)
	}
	return out, nil
}

// FetchErrorQuery selects failed fetches for [Store.FetchErrors].
type FetchErrorQuery struct {
	// Since and Until bound the fetch time: at or after Since, before
	// Until (zero: no bound).
	Since, Until time.Time
	// Site and Class keep one site and one error class ("" keeps all).
	Site, Class string
	// Offset skips that many rows; Limit caps them (0: no cap).
	Offset, Limit int
}

// FetchError is a fetch that failed, answered an error or was refused by
// robots.txt.
type FetchError struct {
	URL       string
	Site      string
	Status    int    // 0 when there was no answer
	Class     string // sites.ErrDNS …
	Error     string
	FetchedAt time.Time
}

// FetchErrors returns the number of failed fetches q selects and the page
// of them it asks for, latest first.
func (s *Store) FetchErrors(ctx context.Context, q FetchErrorQuery) (total int, rows []FetchError, err error) {
	if q.Offset < 0 || q.Limit < 0 {
		return 0, nil, fmt.Errorf("store: fetch errors: %w: negative offset or limit", ErrInvalid)
	}
	until := ""
	if !q.Until.IsZero() {
		until = formatTime(q.Until)
	}
	limit := q.Limit
	if limit == 0 {
		limit = -1
	}
	where := `FROM pages p JOIN sites s ON s.id = p.site_id
		WHERE p.err_class NOT IN ('', 'redirect') AND p.fetched_at >= ?1 AND (?2 = '' OR p.fetched_at < ?2)
		AND (?3 = '' OR s.name = ?3) AND (?4 = '' OR p.err_class = ?4)`
	tx, err := s.readTx(ctx)
	if err != nil {
		return 0, nil, fmt.Errorf("store: fetch errors: begin: %w", err)
	}
	defer tx.Rollback()
	args := []any{formatTime(q.Since), until, q.Site, q.Class, limit, q.Offset}
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) `+where, args...).Scan(&total); err != nil {
		return 0, nil, fmt.Errorf("store: fetch errors: count: %w", err)
	}
	rows, err = queryList(ctx, tx, func(sc scanner) (e FetchError, err error) {
		var at sql.NullString
		if err := sc.Scan(&e.URL, &e.Site, &e.Status, &e.Class, &e.Error, &at); err != nil {
			return e, err
		}
		e.FetchedAt, err = parseNullTime(at)
		return e, err
	}, `SELECT p.url, s.name, p.status, p.err_class, substr(p.err, 1, 1000), p.fetched_at `+where+`
		ORDER BY p.fetched_at DESC, p.id DESC LIMIT ?5 OFFSET ?6`, args...)
	if err != nil {
		return 0, nil, fmt.Errorf("store: fetch errors: %w", err)
	}
	return total, rows, nil
}

// CrawlProgress records how far crawl id has got, so that a crawl a kill
// cuts short keeps its counts.
func (s *Store) CrawlProgress(ctx context.Context, id int64, n CrawlCounts) error {
	return s.write(ctx, fmt.Sprintf("crawl %d progress", id), func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE crawls SET pages = ?, retries = ?, template_links_left_out = ?, template_sites_left_out = ?
			WHERE id = ?`, n.Pages, n.Retries, n.TemplateLinksLeftOut, n.TemplateSitesLeftOut, id)
		return err
	})
}

// Crawl is the record of one crawl.
type Crawl struct {
	ID         int64
	StartedAt  time.Time
	FinishedAt time.Time // zero while running
	Settings   json.RawMessage
	State      string
	EndReason  string // why it ended; "" while running
	CrawlCounts
}

// Crawls returns the recorded crawls, newest first.
func (s *Store) Crawls(ctx context.Context) ([]Crawl, error) {
	out, err := queryList(ctx, s.rdb, scanCrawl, `SELECT id, started_at, finished_at, settings, state, end_reason, pages,
		retries, template_links_left_out, template_sites_left_out FROM crawls ORDER BY id DESC`)
	if err != nil {
		return nil, fmt.Errorf("store: crawls: %w", err)
	}
	return out, nil
}

func scanCrawl(sc scanner) (c Crawl, err error) {
	var started, settings string
	var finished sql.NullString
	if err := sc.Scan(&c.ID, &started, &finished, &settings, &c.State, &c.EndReason, &c.Pages, &c.Retries,
		&c.TemplateLinksLeftOut, &c.TemplateSitesLeftOut); err != nil {
		return c, err
	}
	if c.StartedAt, err = parseTime(started); err != nil {
		return c, fmt.Errorf("crawl %d: %w", c.ID, err)
	}
	if c.FinishedAt, err = parseNullTime(finished); err != nil {
		return c, fmt.Errorf("crawl %d: %w", c.ID, err)
	}
	c.Settings = json.RawMessage(settings)
	return c, nil
}
