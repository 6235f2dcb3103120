package store

import (
	"cmp"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"sitesift/sites"
)

// ErrCrawled is returned (wrapped) by [Store.ImportGraph] when the project
// holds a crawl: crawled pages or a crawl record. A crawled site graph counts
// pages and is kept in step with the links table; an imported one is neither,
// so the two never share a project.
var ErrCrawled = errors.New("store: the project holds a crawl")

// ImportStats is the record of one imported edge list.
type ImportStats struct {
	ID         int64
	File       string
	ImportedAt time.Time
	// Sites is the number of distinct sites the file names, including
	// those that appear only in self-edges.
	Sites int
	// Edges is the number of distinct site pairs of the file, repeats merged.
	Edges int
	// SelfEdges counts the edges dropped because both ends are one site.
	SelfEdges int
}

// Rows per multi-row INSERT of an import. Each row binds 2 (sites) or 3
// (edges) parameters; SQLite allows 32766 per statement. At 500 rows the
// per-statement cost of database/sql no longer shows in a profile of a
// 3.2-million-edge import: SQLite's B-tree work is all of it.
const (
	importSiteRows = 500
	importEdgeRows = 500
)

// defaultCacheKiB is SQLite's default page cache, 2 MiB, which a
// connection set up for a large write goes back to.
const defaultCacheKiB = -2000

// bulkCacheKiB is the page cache of a [Store.bulkWrite] connection, negative
// as SQLite takes a size in KiB: 256 MiB.
const bulkCacheKiB = -256 * 1024

// appendCacheKiB is the page cache of a bulk write that only appends rows in
// key order (a new project's import): such a write touches each page once,
// and a larger cache only holds memory that the importance computation
// running beside it needs. 32 MiB.
const appendCacheKiB = -32 * 1024

// archiveCacheKiB is the page cache of an archive file's import: its pages,
// links and their indexes outgrow the default 2 MiB within a few thousand
// pages, after which every insert re-reads pages the cache let go. 64 MiB.
const archiveCacheKiB = -64 * 1024

// sortCacheKiB is the page cache while indexes are rebuilt; SQLite's sort
// keeps runs of up to that size in memory, one for each of its threads.
// 32 MiB.
const sortCacheKiB = -32 * 1024

// importEdge is an edge between two positions of the names given to
// ImportGraph, then between two site ids once the sites are stored.
type importEdge struct {
	from, to int64
	w        float64
}

// ImportGraph stores a site graph read from an edge list (file is recorded
// as given, for the record only) in one transaction: a site row for every
// name, the edges added to site_links, and an imports row. Repeated edges,
// within edges or with a graph imported before, add their weights, exactly as
// repeated lines of one file do; weights may be fractional and are stored as
// REAL. Self-edges in edges are dropped and counted with selfEdges, the
// number the parser already dropped, in the record.
//
// Names must be non-empty and every edge must join two of them with a
// positive finite weight, or the result is an [ErrInvalid] error. A project
// with crawled pages or a recorded crawl is refused with [ErrCrawled]. On any
// error nothing is stored.
//
// Without the [WithImportance] option, OPIC states and PageRank are not
// touched, and the importance is marked stale ([Store.ImportanceStale]):
// the caller computes it on the whole graph afterwards. With it,
// they are computed and stored in the same transaction as the graph, so a
// kill at any point leaves the project either as it was or with the new
// graph and its importance, never the graph alone (and never a graph that a
// second run of the same file would add to twice).
func (s *Store) ImportGraph(ctx context.Context, file string, names []string, edges []sites.Edge, selfEdges int, opts ...ImportOption) (ImportStats, error) {
	var o importOptions
	for _, f := range opts {
		f(&o)
	}
	what := fmt.Sprintf("import %q", file)
	if selfEdges < 0 {
		return ImportStats{}, fmt.Errorf("store: %s: %w: negative self-edge count %d", what, ErrInvalid, selfEdges)
	}
	// Check everything before taking the write lock; positions in uniq
	// stand for the sites until they have ids.
	pos := make(map[string]int64, len(names))
	uniq := make([]string, 0, len(names))
	for _, n := range names {
		if n == "" {
			return ImportStats{}, fmt.Errorf("store: %s: %w: empty site name", what, ErrInvalid)
		}
		if _, ok := pos[n]; !ok {
			pos[n] = int64(len(uniq))
			uniq = append(uniq, n)
		}
	}
	ies := make([]importEdge, 0, len(edges))
	self := selfEdges
	for _, e := range edges {
		f, ok1 := pos[e.From]
		t, ok2 := pos[e.To]
		if !ok1 || !ok2 {
			return ImportStats{}, fmt.Errorf("store: %s: %w: edge %q → %q names a site not in the list", what, ErrInvalid, e.From, e.To)
		}
		if !(e.Weight > 0) || math.IsInf(e.Weight, 0) {
			return ImportStats{}, fmt.Errorf("store: %s: %w: edge %q → %q has weight %v, not positive and finite", what, ErrInvalid, e.From, e.To, e.Weight)
		}
		if f == t {
			self++
			continue
		}
		ies = append(ies, importEdge{f, t, e.Weight})
	}

	st := ImportStats{File: file, ImportedAt: s.now().UTC(), Sites: len(uniq), SelfEdges: self}
	err := s.bulkWrite(ctx, what, func(tx *sql.Tx) error {
		var pages, crawls int
		if err := tx.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM (SELECT 1 FROM pages LIMIT 1)),
				(SELECT COUNT(*) FROM (SELECT 1 FROM crawls LIMIT 1))`).Scan(&pages, &crawls); err != nil {
			return fmt.Errorf("store: %s: look for a crawl: %w", what, err)
		}
		if pages > 0 || crawls > 0 {
			return fmt.Errorf("store: %s: %w: import into a new project instead", what, ErrCrawled)
		}
		ids, err := importSites(ctx, tx, uniq, formatTime(st.ImportedAt))
		if err != nil {
			return fmt.Errorf("store: %s: %w", what, err)
		}
		for i := range ies {
			ies[i].from, ies[i].to = ids[ies[i].from], ids[ies[i].to]
		}
		ies = mergeImportEdges(ies)
		st.Edges = len(ies)
		// Degrees stored by an earlier import (ImportSiteGraph) no longer
		// hold: the listing counts site_links again.
		if _, err := tx.ExecContext(ctx, `UPDATE sites SET in_sites = NULL, out_sites = NULL
				WHERE in_sites IS NOT NULL OR out_sites IS NOT NULL`); err != nil {
			return fmt.Errorf("store: %s: reset degrees: %w", what, err)
		}
		if err := importEdges(ctx, tx, ies); err != nil {
			return fmt.Errorf("store: %s: %w", what, err)
		}
		ies, pos = nil, nil // written: the importance needs the memory
		err = tx.QueryRowContext(ctx, `INSERT INTO imports (file, imported_at, sites, edges, self_edges)
			VALUES (?, ?, ?, ?, ?) RETURNING id`,
			file, formatTime(st.ImportedAt), st.Sites, st.Edges, st.SelfEdges).Scan(&st.ID)
		if err != nil {
			return fmt.Errorf("store: %s: record the import: %w", what, err)
		}
		// Without its importance the graph waits for the caller's.
		if err := setImportanceStale(ctx, tx, o.importance == nil); err != nil {
			return fmt.Errorf("store: %s: %w", what, err)
		}
		if o.importance != nil {
			return storeImportance(ctx, tx, what, formatTime(st.ImportedAt), o.importance)
		}
		return nil
	})
	if err != nil {
		return ImportStats{}, err
	}
	return st, nil
}

// ImportanceTotals returns the sums over all sites of OPIC importance
// (history plus cash) and of PageRank, and the number of sites. After a
// crawl or a complete import neither sum is 0 when there are sites.
func (s *Store) ImportanceTotals(ctx context.Context) (opic, pagerank float64, n int, err error) {
	err = s.rdb.QueryRowContext(ctx, `SELECT COALESCE(SUM(opic), 0),
		COALESCE(SUM(pagerank), 0), COUNT(*) FROM sites`).Scan(&opic, &pagerank, &n)
	if err != nil {
		return 0, 0, 0, fmt.Errorf("store: importance totals: %w", err)
	}
	return opic, pagerank, n, nil
}

// ImportanceStale reports whether the sites' importance (PageRank and OPIC)
// is not that of the site graph the project holds: an archive import
// committed what a file adds to the graph and was stopped (or is still
// running) before it saved the importance of the whole graph. The mark is
// set in the transaction that commits such a file ([Store.ImportArchiveFile])
// and cleared in the one that saves the importance of the whole graph
// ([Store.SetImportance], and the imports that compute it in their own
// transaction).
func (s *Store) ImportanceStale(ctx context.Context) (bool, error) {
	var stale bool
	if err := s.rdb.QueryRowContext(ctx, `SELECT importance_stale FROM project`).Scan(&stale); err != nil {
		return false, fmt.Errorf("store: is the importance stale: %w", err)
	}
	return stale, nil
}

// setImportanceStale marks, in tx, the importance as stale or as that of the
// graph tx holds.
func setImportanceStale(ctx context.Context, tx *sql.Tx, stale bool) error {
	if _, err := tx.ExecContext(ctx, `UPDATE project SET importance_stale = ?`, stale); err != nil {
		return fmt.Errorf("mark the importance stale=%v: %w", stale, err)
	}
	return nil
}

// Importance is what is computed from a whole site graph after an import:
// PageRank and OPIC's fixpoint per site, and each site's OPIC state.
type Importance struct {
	PageRank, Fixpoint map[string]float64
	OPIC               []sites.SiteState
}

// ImportOption configures [Store.ImportGraph].
type ImportOption func(*importOptions)

type importOptions struct {
	importance func(ctx context.Context, names []string, edges []sites.Edge) (Importance, error)
}

// WithImportance has ImportGraph call f with the whole site graph once the
// import is written, inside the import's transaction, and store what it
// returns in that transaction; f's error undoes the import.
func WithImportance(f func(ctx context.Context, names []string, edges []sites.Edge) (Importance, error)) ImportOption {
	return func(o *importOptions) { o.importance = f }
}

// storeImportance computes the importance of the graph tx holds and stores it.
func storeImportance(ctx context.Context, tx *sql.Tx, what, now string, f func(context.Context, []string, []sites.Edge) (Importance, error)) error {
	// The bulk page cache has done its work: give its memory to the
	// computation (dirty pages spill to the WAL, still uncommitted).
	for _, p := range []string{fmt.Sprintf("PRAGMA cache_size = %d", defaultCacheKiB), "PRAGMA shrink_memory"} {
		if _, err := tx.ExecContext(ctx, p); err != nil {
			return fmt.Errorf("store: %s: %s: %w", what, p, err)
		}
	}
	names, edges, err := siteGraph(ctx, tx)
	if err != nil {
		return fmt.Errorf("store: %s: %w", what, err)
	}
	imp, err := f(ctx, names, edges)
	if err != nil {
		return fmt.Errorf("store: %s: importance: %w", what, err)
	}
	if err := setPageRank(ctx, tx, imp.PageRank); err != nil {
		return fmt.Errorf("store: %s: %w", what, err)
	}
	if err := setByName(ctx, tx, "opic", imp.Fixpoint); err != nil {
		return fmt.Errorf("store: %s: %w", what, err)
	}
	st, err := tx.PrepareContext(ctx, sqlUpsertOPIC)
	if err != nil {
		return fmt.Errorf("store: %s: OPIC: %w", what, err)
	}
	defer st.Close()
	// Every site is in the graph just read, so no row is inserted and now
	// is never used.
	if err := saveOPIC(ctx, st, now, imp.OPIC); err != nil {
		return fmt.Errorf("store: %s: %w", what, err)
	}
	return nil
}

// bulkWrite is [Store.write] for a transaction that writes millions of rows,
// on a connection set up for it. SQLite's default page cache (2 MiB) is far
// smaller than the B-trees a large graph fills, and with it most inserts into
// the to_site_id index evict and re-read pages; the cache grows only as
// pages are used. A multi-row INSERT that may fail halfway keeps a statement
// journal, by default spilled to a temporary file; temp_store must be MEMORY
// when the transaction begins to keep it in memory. Both settings, and the
// sort threads an index rebuild may have left set when it failed, go back to
// their defaults before the connection returns to the pool. (Importing 3.2
// million edges took 54 s on a default connection, 28 s with these two.)
//
// Foreign keys are not checked (they can be switched off only outside a
// transaction): checking them costs two lookups in sites per edge (a third
// of the import's time), and fn must write only ids it has just read or
// written in the same transaction. A connection whose settings cannot be
// restored is closed, never returned to the pool without foreign keys.
func (s *Store) bulkWrite(ctx context.Context, what string, fn func(tx *sql.Tx) error) error {
	return s.writeOn(ctx, what,
		[]string{fmt.Sprintf("cache_size = %d", bulkCacheKiB), "temp_store = MEMORY", "foreign_keys = OFF"},
		[]string{fmt.Sprintf("cache_size = %d", defaultCacheKiB), "temp_store = DEFAULT", "threads = 0", "foreign_keys = ON"}, fn)
}

// writeOn is [Store.write] on a connection of its own with the given
// PRAGMAs set; defaults are set back before the connection returns to the
// pool. A connection whose settings cannot be set back is closed, never
// returned to the pool as it was set.
func (s *Store) writeOn(ctx context.Context, what string, pragmas, defaults []string, fn func(tx *sql.Tx) error) error {
	release, err := s.writer(ctx, what)
	if err != nil {
		return err
	}
	defer release()

	conn, err := s.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("store: %s: connection: %w", what, err)
	}
	defer conn.Close()
	set := func(ctx context.Context, pragmas ...string) error {
		for _, p := range pragmas {
			if _, err := conn.ExecContext(ctx, "PRAGMA "+p); err != nil {
				return fmt.Errorf("store: %s: PRAGMA %s: %w", what, p, err)
			}
		}
		return nil
	}
	defer func() {
		if set(context.WithoutCancel(ctx), defaults...) != nil {
			conn.Raw(func(any) error { return driver.ErrBadConn })
		}
	}()
	if err := set(ctx, pragmas...); err != nil {
		return err
	}
	return inTx(ctx, conn, what, fn)
}

// mergeImportEdges sorts edges by (from, to), the primary key's order, so
// that inserts append to the B-tree instead of landing all over it, and adds
// the weights of repeated pairs.
func mergeImportEdges(es []importEdge) []importEdge {
	slices.SortFunc(es, func(a, b importEdge) int {
		if c := cmp.Compare(a.from, b.from); c != 0 {
			return c
		}
		return cmp.Compare(a.to, b.to)
	})
	w := 0
	for _, e := range es {
		if w > 0 && es[w-1].from == e.from && es[w-1].to == e.to {
			es[w-1].w += e.w
			continue
		}
		es[w] = e
		w++
	}
	return es[:w]
}

// valuesSQL returns "(?, ?), (?, ?)": rows groups of cols placeholders.
func valuesSQL(rows, cols int) string {
	row := "(" + strings.TrimSuffix(strings.Repeat("?, ", cols), ", ") + ")"
	return strings.TrimSuffix(strings.Repeat(row+", ", rows), ", ")
}

// batchStmts prepares a multi-row INSERT once per number of rows: once for
// the full batches and once for the last, shorter one.
type batchStmts struct {
	tx             *sql.Tx
	prefix, suffix string
	cols           int
	stmts          map[int]*sql.Stmt // by number of rows
}

func (b *batchStmts) stmt(ctx context.Context, rows int) (*sql.Stmt, error) {
	if st, ok := b.stmts[rows]; ok {
		return st, nil
	}
	st, err := b.tx.PrepareContext(ctx, b.prefix+valuesSQL(rows, b.cols)+b.suffix)
	if err != nil {
		return nil, fmt.Errorf("prepare: %w", err)
	}
	b.stmts[rows] = st
	return st, nil
}

func (b *batchStmts) close() {
	for _, st := range b.stmts {
		st.Close()
	}
}

// importSites upserts names and returns their site ids, by position.
func importSites(ctx context.Context, tx *sql.Tx, names []string, now string) ([]int64, error) {
	b := &batchStmts{tx: tx, cols: 2, stmts: map[int]*sql.Stmt{},
		prefix: `INSERT INTO sites (name, first_seen) VALUES `,
		// The no-op update makes RETURNING yield existing rows too. The
		// order of RETURNING rows is not promised, hence the name.
		suffix: ` ON CONFLICT (name) DO UPDATE SET name = excluded.name RETURNING name, id`}
	defer b.close()
	ids := make([]int64, len(names))
	byName := make(map[string]int64, importSiteRows)
	args := make([]any, 0, 2*importSiteRows)
	for lo := 0; lo < len(names); lo += importSiteRows {
		chunk := names[lo:min(lo+importSiteRows, len(names))]
		st, err := b.stmt(ctx, len(chunk))
		if err != nil {
			return nil, fmt.Errorf("sites: %w", err)
		}
		args = args[:0]
		for _, n := range chunk {
			args = append(args, n, now)
		}
		rows, err := st.QueryContext(ctx, args...)
		if err != nil {
			return nil, fmt.Errorf("sites %q…: %w", chunk[0], err)
		}
		clear(byName)
		err = eachRow(rows, func(sc scanner) error {
			var n string
			var id int64
			if err := sc.Scan(&n, &id); err != nil {
				return err
			}
			byName[n] = id
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("sites %q…: %w", chunk[0], err)
		}
		for i, n := range chunk {
			id, ok := byName[n]
			if !ok {
				return nil, fmt.Errorf("site %q: no id returned", n)
			}
			ids[lo+i] = id
		}
	}
	return ids, nil
}

// bulkIndexRows is the number of edges from which an import rebuilds the
// indexes of site_links instead of updating them row by row, when the import
// at least doubles the table. An index update is a random B-tree insertion;
// CREATE INDEX sorts once and writes the tree in order: on 3.2 million edges
// the import took 11.5 s instead of 17 s.
const bulkIndexRows = 100_000

// importEdges adds edges to site_links; a pair already there gets the sum.
func importEdges(ctx context.Context, tx *sql.Tx, es []importEdge) error {
	if len(es) >= bulkIndexRows {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM site_links`).Scan(&n); err != nil {
			return fmt.Errorf("site links: count: %w", err)
		}
		if len(es) >= n {
			rebuild, err := dropIndexes(ctx, tx, "site_links")
			if err != nil {
				return err
			}
			if err := insertEdges(ctx, tx, es); err != nil {
				return err
			}
			return rebuild.rebuild(ctx, tx)
		}
	}
	return insertEdges(ctx, tx, es)
}

// droppedIndexes are the explicit indexes of a table that a bulk write
// dropped, to build each once at the end: sorted once and written in order
// instead of taking a random insertion per row.
type droppedIndexes struct {
	table  string
	create []string // as the schema stores them, so no copy can drift from the migrations
}

// dropIndexes drops the explicit indexes of table and returns them, to be
// rebuilt by [droppedIndexes.rebuild] in the same transaction.
func dropIndexes(ctx context.Context, tx *sql.Tx, table string) (droppedIndexes, error) {
	d := droppedIndexes{table: table}
	var names []string
	err := queryRows(ctx, tx, func(sc scanner) error {
		var n, q string
		if err := sc.Scan(&n, &q); err != nil {
			return err
		}
		names, d.create = append(names, n), append(d.create, q)
		return nil
	}, `SELECT name, sql FROM sqlite_schema
		WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY name`, table)
	if err != nil {
		return droppedIndexes{}, fmt.Errorf("%s: list indexes: %w", table, err)
	}
	for _, n := range names {
		// n comes from the schema, never from input; quoted all the same.
		if _, err := tx.ExecContext(ctx, `DROP INDEX "`+strings.ReplaceAll(n, `"`, `""`)+`"`); err != nil {
			return droppedIndexes{}, fmt.Errorf("%s: drop index %s: %w", table, n, err)
		}
	}
	return d, nil
}

// rebuild creates the dropped indexes again. SQLite sorts an index's keys
// in memory up to the page cache's size and then in temporary runs that it
// merges; a bulk write keeps temporary files in memory (see
// [Store.bulkWrite]), where the runs of an index of fifty million links
// would take gigabytes, so the runs go to temporary files on disk while the
// indexes are built, sorted by two threads.
func (d droppedIndexes) rebuild(ctx context.Context, tx *sql.Tx) error {
	if len(d.create) == 0 {
		return nil
	}
	var cache int
	if err := tx.QueryRowContext(ctx, "PRAGMA cache_size").Scan(&cache); err != nil {
		return fmt.Errorf("%s: rebuild indexes: cache size: %w", d.table, err)
	}
	pragmas := func(ps ...string) error {
		for _, p := range ps {
			if _, err := tx.ExecContext(ctx, "PRAGMA "+p); err != nil {
				return fmt.Errorf("%s: rebuild indexes: PRAGMA %s: %w", d.table, p, err)
			}
		}
		return nil
	}
	if err := pragmas("temp_store = FILE", "threads = 2", fmt.Sprintf("cache_size = %d", sortCacheKiB)); err != nil {
		return err
	}
	for _, q := range d.create {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("%s: rebuild index: %w", d.table, err)
		}
	}
	return pragmas("temp_store = MEMORY", "threads = 0", fmt.Sprintf("cache_size = %d", cache))
}

func insertEdges(ctx context.Context, tx *sql.Tx, es []importEdge) error {
	b := &batchStmts{tx: tx, cols: 3, stmts: map[int]*sql.Stmt{},
		prefix: `INSERT INTO site_links (from_site_id, to_site_id, weight) VALUES `,
		// An edge list has no link kinds: its edges count in both graphs
		// (editorial_weight NULL, or grown with weight).
		suffix: ` ON CONFLICT (from_site_id, to_site_id) DO UPDATE SET weight = weight + excluded.weight,
			editorial_weight = editorial_weight + excluded.weight`}
	defer b.close()
	args := make([]any, 0, 3*importEdgeRows)
	for lo := 0; lo < len(es); lo += importEdgeRows {
		chunk := es[lo:min(lo+importEdgeRows, len(es))]
		st, err := b.stmt(ctx, len(chunk))
		if err != nil {
			return fmt.Errorf("site links: %w", err)
		}
		args = args[:0]
		for _, e := range chunk {
			args = append(args, e.from, e.to, e.w)
		}
		if _, err := st.ExecContext(ctx, args...); err != nil {
			return fmt.Errorf("site links %d–%d: %w", lo, lo+len(chunk), err)
		}
	}
	return nil
}

// HasImport reports whether an edge list was ever imported into the project.
func (s *Store) HasImport(ctx context.Context) (bool, error) {
	var n int
	if err := s.rdb.QueryRowContext(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM imports LIMIT 1)`).Scan(&n); err != nil {
		return false, fmt.Errorf("store: look for imports: %w", err)
	}
	return n > 0, nil
}

// Imports returns the record of every import, oldest first.
func (s *Store) Imports(ctx context.Context) ([]ImportStats, error) {
	out, err := queryList(ctx, s.rdb, scanImport, `SELECT id, file, imported_at, sites, edges, self_edges
		FROM imports ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("store: imports: %w", err)
	}
	return out, nil
}

func scanImport(sc scanner) (st ImportStats, err error) {
	var at string
	if err := sc.Scan(&st.ID, &st.File, &at, &st.Sites, &st.Edges, &st.SelfEdges); err != nil {
		return st, err
	}
	if st.ImportedAt, err = parseTime(at); err != nil {
		return st, fmt.Errorf("import %d: %w", st.ID, err)
	}
	return st, nil
}

// OPICFixpoint returns how the stored OPIC importance reached its fixpoint
// (Rounds 0: not computed yet).
func (s *Store) OPICFixpoint(ctx context.Context) (Fixpoint, error) {
	var f Fixpoint
	if err := s.rdb.QueryRowContext(ctx, `SELECT opic_rounds, opic_residual FROM project`).Scan(&f.Rounds, &f.Residual); err != nil {
		return Fixpoint{}, fmt.Errorf("store: OPIC fixpoint: %w", err)
	}
	return f, nil
}
