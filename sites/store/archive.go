package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"sitesift/sites"
)

// ErrAlreadyImported is returned (wrapped) by [Store.ImportArchiveFile] for
// a file imported before.
var ErrAlreadyImported = errors.New("store: the file was imported already")

// ArchiveFile names a file imported from a web archive or a crawl engine:
// its kind ("warc", "cdx", "crawl-log", "cc-vertices", "cc-edges",
// "cc-ranks"), path as given, size and digest ("sha256:HEX"), and for the
// Common Crawl host graph's files the slice of it they were read with. Two
// files of one kind with the same size, digest and slice are the same
// import, wherever they lie.
type ArchiveFile struct {
	Kind   string
	Path   string
	Size   int64
	Digest string
	// Slice names the hosts kept of a Common Crawl graph (its TLDs and host
	// suffixes, as the importer writes them); "" for any other file.
	Slice string
}

// sameImport selects the records of archive_files that are the import of a
// file, with [ArchiveFile.sameImportArgs]: the same kind, size and digest,
// and the same slice or none (see [Store.ArchiveImported]).
const sameImport = `kind = ? AND size = ? AND digest = ? AND slice IN (?, '')`

// sameImportArgs are the arguments of sameImport for f.
func (f ArchiveFile) sameImportArgs() []any { return []any{f.Kind, f.Size, f.Digest, f.Slice} }

// ArchiveImport is the record of one imported file.
type ArchiveImport struct {
	ArchiveFile
	ID         int64
	ImportedAt time.Time
	// Summary is what the file added, as the importer described it.
	Summary json.RawMessage
}

// ArchiveImported returns the record of the import of f (by kind, size,
// digest and slice), and whether there is one. A record without a slice
// (a host graph file imported before slices were recorded) stands for
// any slice: its links are in the project, and reading the file again
// would add their weights twice.
func (s *Store) ArchiveImported(ctx context.Context, f ArchiveFile) (ArchiveImport, bool, error) {
	r, err := scanArchiveImport(s.rdb.QueryRowContext(ctx, `SELECT id, kind, path, size, digest, slice, imported_at, summary
		FROM archive_files WHERE `+sameImport+` ORDER BY slice = '' LIMIT 1`, f.sameImportArgs()...))
	if errors.Is(err, sql.ErrNoRows) {
		return ArchiveImport{}, false, nil
	}
	if err != nil {
		return ArchiveImport{}, false, fmt.Errorf("store: look up import of %s: %w", f.Path, err)
	}
	return r, true, nil
}

// ArchiveImports returns the record of every imported archive file, oldest
// first.
func (s *Store) ArchiveImports(ctx context.Context) ([]ArchiveImport, error) {
	out, err := queryList(ctx, s.rdb, scanArchiveImport, `SELECT id, kind, path, size, digest, slice, imported_at, summary
		FROM archive_files ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("store: archive imports: %w", err)
	}
	return out, nil
}

func scanArchiveImport(sc scanner) (r ArchiveImport, err error) {
	var at, sum string
	if err := sc.Scan(&r.ID, &r.Kind, &r.Path, &r.Size, &r.Digest, &r.Slice, &at, &sum); err != nil {
		return r, err
	}
	r.Summary = json.RawMessage(sum)
	if r.ImportedAt, err = parseTime(at); err != nil {
		return r, fmt.Errorf("archive import %d: %w", r.ID, err)
	}
	return r, nil
}

// ImportArchiveFile imports one file in one transaction: fill reads the
// file and writes what it holds through the [ArchiveTx]; then the file is
// recorded with summary (marshalled to JSON once fill has returned). On
// any error of fill, nothing of the file is kept; a file already recorded
// (by kind, size, digest and slice, or without a slice: see
// [Store.ArchiveImported]) is refused with [ErrAlreadyImported]. A file
// that adds to the site graph (pages, links, sites) marks the importance
// stale ([Store.ImportanceStale]) in the same transaction.
func (s *Store) ImportArchiveFile(ctx context.Context, f ArchiveFile, fill func(*ArchiveTx) error, summary func() any) (ArchiveImport, error) {
	what := fmt.Sprintf("import %s %s", f.Kind, f.Path)
	rec := ArchiveImport{ArchiveFile: f, ImportedAt: s.now().UTC()}
	err := s.writeOn(ctx, what, []string{fmt.Sprintf("cache_size = %d", archiveCacheKiB)}, []string{fmt.Sprintf("cache_size = %d", defaultCacheKiB)}, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM archive_files WHERE `+sameImport,
			f.sameImportArgs()...).Scan(&n); err != nil {
			return fmt.Errorf("store: %s: %w", what, err)
		}
		if n > 0 {
			return fmt.Errorf("store: %s: %w", what, ErrAlreadyImported)
		}
		a := &ArchiveTx{batch: batch{tx: tx, now: formatTime(s.now()), siteIDs: map[string]int64{}, stmts: map[string]*sql.Stmt{}}, rule: s.rule}
		defer a.close()
		if err := fill(a); err != nil {
			return err
		}
		// The importance of the graph the file changed is computed once
		// the import's files are in: until it is saved, it is stale.
		if a.graph {
			if err := setImportanceStale(ctx, tx, true); err != nil {
				return fmt.Errorf("store: %s: %w", what, err)
			}
		}
		sum, err := json.Marshal(summary())
		if err != nil {
			return fmt.Errorf("store: %s: summary: %w", what, err)
		}
		rec.Summary = sum
		return tx.QueryRowContext(ctx, `INSERT INTO archive_files (kind, path, size, digest, slice, imported_at, summary)
			VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`, f.Kind, f.Path, f.Size, f.Digest, f.Slice,
			formatTime(rec.ImportedAt), string(sum)).Scan(&rec.ID)
	})
	if err != nil {
		return ArchiveImport{}, err
	}
	return rec, nil
}

// ArchiveTx writes what one archive file holds, inside the transaction of
// [Store.ImportArchiveFile]. Sites follow the project's site rule.
type ArchiveTx struct {
	batch
	rule  sites.Rule
	graph bool // sites, pages or links were written: the importance is stale
}

// Rule returns the project's site rule.
func (a *ArchiveTx) Rule() sites.Rule { return a.rule }

// SavePage stores a captured page as a crawl would (links, site graph),
// unless the project holds a later capture of its URL, and adds captures to
// the page's count of archived captures. A page whose capture is no later
// than the stored one only adds its captures. It reports whether the page
// was written.
func (a *ArchiveTx) SavePage(ctx context.Context, p sites.Page, captures int) (bool, error) {
	if err := validatePage(&p, a.rule); err != nil {
		return false, err
	}
	linkSites, err := a.linkSites(&p)
	if err != nil {
		return false, err
	}
	var at sql.NullString
	var old int
	err = a.tx.QueryRowContext(ctx, `SELECT fetched_at, captures FROM pages WHERE url = ?`, p.URL).Scan(&at, &old)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return false, fmt.Errorf("store: look up page %q: %w", p.URL, err)
	case at.Valid && at.String >= formatTime(p.FetchedAt):
		_, err := a.tx.ExecContext(ctx, `UPDATE pages SET captures = captures + ? WHERE url = ?`, captures, p.URL)
		if err != nil {
			return false, fmt.Errorf("store: count captures of %q: %w", p.URL, err)
		}
		return false, nil
	}
	a.graph = true
	if err := a.savePage(ctx, &p, linkSites); err != nil {
		return false, err
	}
	if _, err := a.tx.ExecContext(ctx, `UPDATE pages SET captures = ? WHERE url = ?`, old+captures, p.URL); err != nil {
		return false, fmt.Errorf("store: count captures of %q: %w", p.URL, err)
	}
	return true, nil
}

func (a *ArchiveTx) linkSites(p *sites.Page) ([]string, error) {
	return linkSitesOf(p, a.rule)
}

// AddLinks adds links to the stored page url, keeping its content, and the
// site graph with them; a page not stored yet is stored as p (whose URL is
// url). It reports whether the page was new.
func (a *ArchiveTx) AddLinks(ctx context.Context, p sites.Page) (bool, error) {
	if err := validatePage(&p, a.rule); err != nil {
		return false, err
	}
	linkSites, err := a.linkSites(&p)
	if err != nil {
		return false, err
	}
	a.graph = true
	var id, site int64
	err = a.tx.QueryRowContext(ctx, `SELECT id, site_id FROM pages WHERE url = ?`, p.URL).Scan(&id, &site)
	if errors.Is(err, sql.ErrNoRows) {
		return true, a.savePage(ctx, &p, linkSites)
	}
	if err != nil {
		return false, fmt.Errorf("store: look up page %q: %w", p.URL, err)
	}
	// As savePage: withdraw the page's share of the site graph, change its
	// links, add its share again.
	for _, q := range []string{sqlDropSoleSiteLinks, sqlWithdrawSiteLinks} {
		if _, err := a.tx.ExecContext(ctx, q, site, id); err != nil {
			return false, fmt.Errorf("store: add links of %q: %w", p.URL, err)
		}
	}
	return false, a.addLinks(ctx, site, id, &p, linkSites)
}

// AddCaptures adds n captures, the last at last, to the stored page url (a
// revisit record's): its capture time becomes last when that is later. It
// reports whether the page is stored.
func (a *ArchiveTx) AddCaptures(ctx context.Context, url string, n int, last time.Time) (bool, error) {
	res, err := a.tx.ExecContext(ctx, `UPDATE pages SET captures = captures + ?,
		fetched_at = CASE WHEN fetched_at IS NULL OR fetched_at < ?2 THEN ?2 ELSE fetched_at END
		WHERE url = ?3`, n, formatTime(last), url)
	if err != nil {
		return false, fmt.Errorf("store: count captures of %q: %w", url, err)
	}
	k, err := res.RowsAffected()
	return k > 0, err
}

// AddSite stores the site name, when missing.
func (a *ArchiveTx) AddSite(ctx context.Context, name string) error {
	if name == "" {
		return fmt.Errorf("store: empty site name: %w", ErrInvalid)
	}
	a.graph = true
	_, err := a.siteID(ctx, name)
	return err
}

// AddSiteLink adds w to the weight of the site graph's edge from → to
// (both stored when missing). An edge within one site is refused.
func (a *ArchiveTx) AddSiteLink(ctx context.Context, from, to string, w float64) error {
	if from == to || !(w > 0) {
		return fmt.Errorf("store: site link %q → %q weight %v: %w", from, to, w, ErrInvalid)
	}
	a.graph = true
	f, err := a.siteID(ctx, from)
	if err != nil {
		return err
	}
	t, err := a.siteID(ctx, to)
	if err != nil {
		return err
	}
	// A graph without pages has no link kinds: the edge counts in both
	// graphs (editorial_weight NULL, or grown with weight).
	st, err := a.stmt(ctx, `INSERT INTO site_links (from_site_id, to_site_id, weight) VALUES (?, ?, ?)
		ON CONFLICT (from_site_id, to_site_id) DO UPDATE SET weight = weight + excluded.weight,
			editorial_weight = editorial_weight + excluded.weight`)
	if err != nil {
		return err
	}
	if _, err := st.ExecContext(ctx, f, t, w); err != nil {
		return fmt.Errorf("store: site link %q → %q: %w", from, to, err)
	}
	return nil
}

// SiteArchive is what an archive's index holds of a site.
type SiteArchive struct {
	URLs, Captures int
	First, Last    time.Time
}

// AddSiteArchive adds what an archive index holds of site to what is
// stored: URLs and captures add up, the first and last captures widen.
func (a *ArchiveTx) AddSiteArchive(ctx context.Context, site string, sa SiteArchive) error {
	a.graph = true // the site joins the ranking, without links
	id, err := a.siteID(ctx, site)
	if err != nil {
		return err
	}
	st, err := a.stmt(ctx, `INSERT INTO site_archive (site_id, urls, captures, first_capture, last_capture)
		VALUES (?, ?, ?, ?, ?) ON CONFLICT (site_id) DO UPDATE SET
			urls = urls + excluded.urls, captures = captures + excluded.captures,
			first_capture = min(first_capture, excluded.first_capture),
			last_capture = max(last_capture, excluded.last_capture)`)
	if err != nil {
		return err
	}
	if _, err := st.ExecContext(ctx, id, sa.URLs, sa.Captures, formatTime(sa.First), formatTime(sa.Last)); err != nil {
		return fmt.Errorf("store: archive of %q: %w", site, err)
	}
	return nil
}

// AddOutsideInlinks adds n to the links the site receives from hosts
// outside the imported slice of a larger graph.
func (a *ArchiveTx) AddOutsideInlinks(ctx context.Context, site string, n int) error {
	id, err := a.siteID(ctx, site)
	if err != nil {
		return err
	}
	st, err := a.stmt(ctx, `INSERT INTO site_cc (site_id, inlinks_outside) VALUES (?, ?)
		ON CONFLICT (site_id) DO UPDATE SET inlinks_outside = inlinks_outside + excluded.inlinks_outside`)
	if err != nil {
		return err
	}
	if _, err := st.ExecContext(ctx, id, n); err != nil {
		return fmt.Errorf("store: outside in-links of %q: %w", site, err)
	}
	return nil
}

// SetCCRanks stores Common Crawl's harmonic centrality and PageRank of a
// stored site, a NaN as a missing value; a site not stored is skipped
// (reported false).
func (a *ArchiveTx) SetCCRanks(ctx context.Context, site string, harmonic, pagerank float64) (bool, error) {
	st, err := a.stmt(ctx, `INSERT INTO site_cc (site_id, harmonic, pagerank)
		SELECT id, ?2, ?3 FROM sites WHERE name = ?1
		ON CONFLICT (site_id) DO UPDATE SET harmonic = excluded.harmonic, pagerank = excluded.pagerank`)
	if err != nil {
		return false, err
	}
	value := func(v float64) any {
		if math.IsNaN(v) {
			return nil
		}
		return v
	}
	res, err := st.ExecContext(ctx, site, value(harmonic), value(pagerank))
	if err != nil {
		return false, fmt.Errorf("store: Common Crawl ranks of %q: %w", site, err)
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// SiteArchiveInfo is what the project knows of a site from archives and
// the Common Crawl graph.
type SiteArchiveInfo struct {
	URLs           int
	Captures       int
	First          time.Time
	Last           time.Time
	InlinksOutside int
	CCHarmonic     *float64
	CCPageRank     *float64
}

// SitesArchive returns, by site name, what archives and the Common Crawl
// graph say of the sites they name.
func (s *Store) SitesArchive(ctx context.Context) (map[string]SiteArchiveInfo, error) {
	return s.sitesArchive(ctx, `WHERE a.site_id IS NOT NULL OR c.site_id IS NOT NULL`)
}

// SitesArchiveOf is [Store.SitesArchive] of the sites named only (a page
// of the sites table).
func (s *Store) SitesArchiveOf(ctx context.Context, names []string) (map[string]SiteArchiveInfo, error) {
	if len(names) == 0 {
		return map[string]SiteArchiveInfo{}, nil
	}
	js, err := json.Marshal(names)
	if err != nil {
		return nil, err
	}
	return s.sitesArchive(ctx, `WHERE s.name IN (SELECT value FROM json_each(?1))
		AND (a.site_id IS NOT NULL OR c.site_id IS NOT NULL)`, string(js))
}

func (s *Store) sitesArchive(ctx context.Context, where string, args ...any) (map[string]SiteArchiveInfo, error) {
	out := map[string]SiteArchiveInfo{}
	err := queryRows(ctx, s.rdb, func(sc scanner) error {
		var name string
		var urls, caps, in sql.NullInt64
		var first, last sql.NullString
		var h, pr sql.NullFloat64
		if err := sc.Scan(&name, &urls, &caps, &first, &last, &in, &h, &pr); err != nil {
			return err
		}
		var i SiteArchiveInfo
		i.URLs, i.Captures, i.InlinksOutside = int(urls.Int64), int(caps.Int64), int(in.Int64)
		if first.Valid {
			i.First, _ = parseTime(first.String)
			i.Last, _ = parseTime(last.String)
		}
		if h.Valid {
			i.CCHarmonic = &h.Float64
		}
		if pr.Valid {
			i.CCPageRank = &pr.Float64
		}
		out[name] = i
		return nil
	}, `SELECT s.name, a.urls, a.captures, a.first_capture, a.last_capture, c.inlinks_outside, c.harmonic, c.pagerank
		FROM sites s LEFT JOIN site_archive a ON a.site_id = s.id LEFT JOIN site_cc c ON c.site_id = s.id `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("store: sites' archive: %w", err)
	}
	return out, nil
}

// PageCaptures returns the archived captures of the page url and the time
// of its latest capture; found is false when the page is not stored.
func (s *Store) PageCaptures(ctx context.Context, url string) (captures int, last time.Time, found bool, err error) {
	var at sql.NullString
	err = s.rdb.QueryRowContext(ctx, `SELECT captures, fetched_at FROM pages WHERE url = ?`, url).Scan(&captures, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, time.Time{}, false, nil
	}
	if err != nil {
		return 0, time.Time{}, false, fmt.Errorf("store: captures of %q: %w", url, err)
	}
	if at.Valid {
		if last, err = parseTime(at.String); err != nil {
			return 0, time.Time{}, false, err
		}
	}
	return captures, last, true, nil
}

// Values of SiteQuery.Archived.
const (
	ArchivedYes = "yes"
	ArchivedNo  = "no"
)

// archivedFilter is the SQL condition of SiteQuery.Archived.
func archivedFilter(v string) (string, error) {
	switch v {
	case "":
		return "", nil
	case ArchivedYes:
		return ` AND s.id IN (SELECT a.site_id FROM site_archive a)`, nil
	case ArchivedNo:
		return ` AND s.id NOT IN (SELECT a.site_id FROM site_archive a)`, nil
	}
	return "", fmt.Errorf("store: list sites: %w: archived=%q (want yes or no)", ErrInvalid, v)
}
