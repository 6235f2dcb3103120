package store

import (
	"context"
	"database/sql"
	"fmt"
	"math"
)

// Graph is a site graph in compressed sparse row form, 12 bytes an edge: node
// u is the site Names[u], and its out-edges go to the nodes
// Targets[Offsets[u]:Offsets[u+1]], in increasing order, with the matching
// Weights. It is the layout of importance.Graph, so the importance
// computations read it without a copy. A graph read from the store also
// has IDs, the site id of each node.
type Graph struct {
	Names   []string
	IDs     []int64 // site ids by node; nil for a graph not read from the store
	Offsets []int
	Targets []int32
	Weights []float64
}

// Edges returns the number of edges.
func (g *Graph) Edges() int { return len(g.Targets) }

// check returns what makes g no site graph: a bad shape, an empty or
// repeated name is left to the sites table, an edge that is a self-edge,
// out of order (which also rules out repeats) or of a weight that is not
// positive and finite.
func (g *Graph) check() error {
	n := len(g.Names)
	if len(g.Offsets) != n+1 || g.Offsets[0] != 0 || g.Offsets[n] != len(g.Targets) || len(g.Weights) != len(g.Targets) {
		return fmt.Errorf("%w: a graph of %d names, %d offsets, %d targets and %d weights", ErrInvalid, n, len(g.Offsets), len(g.Targets), len(g.Weights))
	}
	for u := range n {
		if g.Names[u] == "" {
			return fmt.Errorf("%w: empty site name", ErrInvalid)
		}
		lo, hi := g.Offsets[u], g.Offsets[u+1]
		if lo > hi {
			return fmt.Errorf("%w: offsets of %q decrease", ErrInvalid, g.Names[u])
		}
		prev := int32(-1)
		for k := lo; k < hi; k++ {
			t := g.Targets[k]
			if t <= prev || int(t) >= n || int(t) == u {
				return fmt.Errorf("%w: edge %d of %q: target %d out of order, out of range or the site itself", ErrInvalid, k-lo, g.Names[u], t)
			}
			if w := g.Weights[k]; !(w > 0) || math.IsInf(w, 0) {
				return fmt.Errorf("%w: edge %q → %q has weight %v, not positive and finite", ErrInvalid, g.Names[u], g.Names[t], w)
			}
			prev = t
		}
	}
	return nil
}

// NodeImportance is the importance of every node of a [Graph], by position:
// PageRank and OPIC's fixpoint, what is shown (see migration 0020), and
// optionally an OPIC state (cash and history) for a crawl to go on from.
type NodeImportance struct {
	PageRank, OPIC []float64
	// Cash and History, when not nil, replace the running OPIC state of
	// the sites (an import's); nil leaves a crawl's as it is.
	Cash, History []float64
	// Fixpoint is how OPIC reached its fixpoint.
	Fixpoint Fixpoint
}

// Fixpoint is how the stored OPIC importance reached its fixpoint: the
// rounds read (each reads every site once) and the L1 distance between the
// last two. Rounds 0 means it was not computed yet.
type Fixpoint struct {
	Rounds   int     `json:"rounds"`
	Residual float64 `json:"residual"`
}

// ImportanceFunc computes the importance of the whole site graph g. It may
// run while the store writes, so it must not use the store, nor change g.
type ImportanceFunc func(ctx context.Context, g *Graph) (NodeImportance, error)

// ImportSiteGraph is [Store.ImportGraph] with [WithImportance] for a graph
// already merged and in [Graph] form: it stores g (file recorded as given,
// selfEdges counted in the record), then has importance compute the
// importance of the project's whole site graph and stores it, all in one
// transaction, so a kill leaves the project as it was or complete. Every
// site of g gets a row, every edge is added to site_links, a pair already
// there getting the sum of the weights.
//
// Into a project without sites, the whole graph is g itself: the edges are
// written in their primary key's order with site_links' indexes built
// afterwards while importance computes, in a goroutine of its own, what is
// then written with the sites, so memory holds g and nothing of its size
// besides but what importance allocates. Into a project with
// sites, the merged graph is read back from the transaction ([Graph] form)
// for importance, and the sites' importance updated by id.
//
// A project with crawled pages or a recorded crawl is refused with
// [ErrCrawled]; a malformed g, or one whose names repeat, with [ErrInvalid].
// On any error nothing is stored.
func (s *Store) ImportSiteGraph(ctx context.Context, file string, g *Graph, selfEdges int, importance ImportanceFunc) (ImportStats, error) {
	what := fmt.Sprintf("import %q", file)
	if selfEdges < 0 {
		return ImportStats{}, fmt.Errorf("store: %s: %w: negative self-edge count %d", what, ErrInvalid, selfEdges)
	}
	if err := g.check(); err != nil {
		return ImportStats{}, fmt.Errorf("store: %s: %w", what, err)
	}
	st := ImportStats{File: file, ImportedAt: s.now().UTC(), Sites: len(g.Names), Edges: g.Edges(), SelfEdges: selfEdges}
	now := formatTime(st.ImportedAt)
	err := s.bulkWrite(ctx, what, func(tx *sql.Tx) error {
		var pages, crawls, known int
		if err := tx.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM (SELECT 1 FROM pages LIMIT 1)),
				(SELECT COUNT(*) FROM (SELECT 1 FROM crawls LIMIT 1)),
				(SELECT COUNT(*) FROM (SELECT 1 FROM sites LIMIT 1))`).Scan(&pages, &crawls, &known); err != nil {
			return fmt.Errorf("store: %s: look for a crawl: %w", what, err)
		}
		if pages > 0 || crawls > 0 {
			return fmt.Errorf("store: %s: %w: import into a new project instead", what, ErrCrawled)
		}
		var err error
		if known == 0 {
			err = importNewGraph(ctx, tx, g, now, importance)
		} else {
			st.Edges, err = importMoreGraph(ctx, tx, g, now, importance)
		}
		if err == nil {
			// The importance of the whole graph is saved with it.
			err = setImportanceStale(ctx, tx, false)
		}
		if err != nil {
			return fmt.Errorf("store: %s: %w", what, err)
		}
		err = tx.QueryRowContext(ctx, `INSERT INTO imports (file, imported_at, sites, edges, self_edges)
			VALUES (?, ?, ?, ?, ?) RETURNING id`,
			file, now, st.Sites, st.Edges, st.SelfEdges).Scan(&st.ID)
		if err != nil {
			return fmt.Errorf("store: %s: record the import: %w", what, err)
		}
		return nil
	})
	if err != nil {
		return ImportStats{}, err
	}
	return st, nil
}

// importNewGraph writes g into a project without sites: node u becomes site
// id u+1, so the edges, in CSR order, are in site_links' key order.
//
// The edges do not depend on the importance, so they are written while it
// is computed: on two cores the import takes about the longer of the two
// instead of their sum. The sites' rows, which hold the importance, follow.
func importNewGraph(ctx context.Context, tx *sql.Tx, g *Graph, now string, importance ImportanceFunc) error {
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA cache_size = %d", appendCacheKiB)); err != nil {
		return fmt.Errorf("cache size: %w", err)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		imp NodeImportance
		err error
	}
	done := make(chan result, 1)
	go func() {
		imp, err := importance(ctx, g)
		done <- result{imp, err}
	}()
	if err := writeGraphEdges(ctx, tx, g); err != nil {
		cancel()
		<-done // g stays the computation's until it returns
		return err
	}
	r := <-done
	if r.err != nil {
		return fmt.Errorf("importance: %w", r.err)
	}
	if err := r.imp.check(len(g.Names)); err != nil {
		return err
	}
	return writeGraphSites(ctx, tx, g, now, r.imp)
}

// writeGraphEdges writes the edges of g, a new project's whole graph, with
// site_links' indexes built afterwards.
func writeGraphEdges(ctx context.Context, tx *sql.Tx, g *Graph) error {
	rebuild, err := dropIndexes(ctx, tx, "site_links")
	if err != nil {
		return err
	}
	if err := insertGraphEdges(ctx, tx, g, func(u int) int64 { return int64(u + 1) }); err != nil {
		return err
	}
	return rebuild.rebuild(ctx, tx)
}

// writeGraphSites writes a row for every site of g, a new project's whole
// graph, with its importance and degrees, and the sites' indexes built
// afterwards.
func writeGraphSites(ctx context.Context, tx *sql.Tx, g *Graph, now string, imp NodeImportance) error {
	rebuild, err := dropIndexes(ctx, tx, "sites")
	if err != nil {
		return err
	}
	in := g.inDegrees()
	b := &batchStmts{tx: tx, cols: 9, stmts: map[int]*sql.Stmt{},
		prefix: `INSERT INTO sites (id, name, first_seen, pagerank, opic, opic_cash, opic_history, in_sites, out_sites) VALUES `}
	defer b.close()
	args := make([]any, 0, 9*importSiteRows)
	cash, history := imp.Cash, imp.History
	if cash == nil {
		cash, history = make([]float64, len(g.Names)), make([]float64, len(g.Names))
	}
	for lo := 0; lo < len(g.Names); lo += importSiteRows {
		hi := min(lo+importSiteRows, len(g.Names))
		stmt, err := b.stmt(ctx, hi-lo)
		if err != nil {
			return fmt.Errorf("sites: %w", err)
		}
		args = args[:0]
		for u := lo; u < hi; u++ {
			args = append(args, int64(u+1), g.Names[u], now, imp.PageRank[u], imp.OPIC[u], cash[u], history[u],
				int64(in[u]), int64(g.Offsets[u+1]-g.Offsets[u]))
		}
		if _, err := stmt.ExecContext(ctx, args...); err != nil {
			return fmt.Errorf("sites %q…: %w", g.Names[lo], err)
		}
	}
	if err := setFixpoint(ctx, tx, imp.Fixpoint); err != nil {
		return err
	}
	return rebuild.rebuild(ctx, tx)
}

// insertGraphEdges inserts g's edges into site_links, node u as site id(u),
// in CSR order, importEdgeRows to a statement with the arguments bound as
// int64 and float64 values.
func insertGraphEdges(ctx context.Context, tx *sql.Tx, g *Graph, id func(u int) int64) error {
	b := &batchStmts{tx: tx, cols: 3, stmts: map[int]*sql.Stmt{},
		prefix: `INSERT INTO site_links (from_site_id, to_site_id, weight) VALUES `}
	defer b.close()
	args := make([]any, 0, 3*importEdgeRows)
	rows := 0
	flush := func(k int) error {
		if rows == 0 {
			return nil
		}
		stmt, err := b.stmt(ctx, rows)
		if err != nil {
			return fmt.Errorf("site links: %w", err)
		}
		if _, err := stmt.ExecContext(ctx, args...); err != nil {
			return fmt.Errorf("site links %d–%d: %w", k-rows, k, err)
		}
		args, rows = args[:0], 0
		return nil
	}
	k := 0
	for u := range len(g.Names) {
		from := id(u)
		for ; k < g.Offsets[u+1]; k++ {
			args = append(args, from, id(int(g.Targets[k])), g.Weights[k])
			if rows++; rows == importEdgeRows {
				if err := flush(k + 1); err != nil {
					return err
				}
			}
		}
	}
	return flush(k)
}

// importMoreGraph adds g to a project that has sites, then reads the whole
// merged graph back for its importance. It returns the number of distinct
// edges g added or added to.
func importMoreGraph(ctx context.Context, tx *sql.Tx, g *Graph, now string, importance ImportanceFunc) (int, error) {
	ids, err := importSites(ctx, tx, g.Names, now)
	if err != nil {
		return 0, err
	}
	ies := make([]importEdge, 0, g.Edges())
	for u := range len(g.Names) {
		for k := g.Offsets[u]; k < g.Offsets[u+1]; k++ {
			ies = append(ies, importEdge{ids[u], ids[g.Targets[k]], g.Weights[k]})
		}
	}
	ids = nil
	ies = mergeImportEdges(ies) // sorted by id; no pair repeats
	if err := importEdges(ctx, tx, ies); err != nil {
		return 0, err
	}
	n := len(ies)
	ies = nil
	whole, err := siteGraphCSR(ctx, tx)
	if err != nil {
		return 0, err
	}
	imp, err := importance(ctx, whole)
	if err != nil {
		return 0, fmt.Errorf("importance: %w", err)
	}
	if err := setImportanceByID(ctx, tx, whole, imp); err != nil {
		return 0, err
	}
	return n, nil
}

// setFixpoint records in tx how the OPIC importance stored reached its
// fixpoint.
func setFixpoint(ctx context.Context, tx *sql.Tx, f Fixpoint) error {
	if _, err := tx.ExecContext(ctx, `UPDATE project SET opic_rounds = ?, opic_residual = ?`, f.Rounds, f.Residual); err != nil {
		return fmt.Errorf("importance: fixpoint: %w", err)
	}
	return nil
}

// inDegrees returns the number of in-edges of every node.
func (g *Graph) inDegrees() []int32 {
	in := make([]int32, len(g.Names))
	for _, t := range g.Targets {
		in[t]++
	}
	return in
}

// check says whether imp holds one value of each kind for each of n nodes.
func (imp NodeImportance) check(n int) error {
	if len(imp.PageRank) != n || len(imp.OPIC) != n {
		return fmt.Errorf("importance: %d PageRank and %d OPIC values for %d sites", len(imp.PageRank), len(imp.OPIC), n)
	}
	if (imp.Cash != nil || imp.History != nil) && (len(imp.Cash) != n || len(imp.History) != n) {
		return fmt.Errorf("importance: %d cash and %d history values for %d sites", len(imp.Cash), len(imp.History), n)
	}
	return nil
}

// setImportanceByID stores imp and the degrees of the sites of g, a graph
// read from tx, with the sites' explicit indexes rebuilt afterwards. The
// degrees are stored for a graph without page links only (migration 0013):
// a project with pages has two graphs, editorial and all links, which the
// listing counts in the one chosen, and a crawl changes them with every
// batch.
func setImportanceByID(ctx context.Context, tx *sql.Tx, g *Graph, imp NodeImportance) error {
	ids := g.IDs
	if err := imp.check(len(ids)); err != nil {
		return err
	}
	var pageLinks bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM links)`).Scan(&pageLinks); err != nil {
		return fmt.Errorf("importance: %w", err)
	}
	degree := func(d int) any {
		if pageLinks {
			return nil
		}
		return int64(d)
	}
	in := g.inDegrees()
	rebuild, err := dropIndexes(ctx, tx, "sites")
	if err != nil {
		return err
	}
	state := imp.Cash != nil
	q := `UPDATE sites SET pagerank = ?1, opic = ?2, in_sites = ?3, out_sites = ?4 WHERE id = ?5`
	if state {
		q = `UPDATE sites SET pagerank = ?1, opic = ?2, in_sites = ?3, out_sites = ?4, opic_cash = ?6, opic_history = ?7 WHERE id = ?5`
	}
	stmt, err := tx.PrepareContext(ctx, q)
	if err != nil {
		return fmt.Errorf("importance: prepare: %w", err)
	}
	defer stmt.Close()
	for u, id := range ids {
		args := []any{imp.PageRank[u], imp.OPIC[u], degree(int(in[u])), degree(g.Offsets[u+1] - g.Offsets[u]), id}
		if state {
			args = append(args, imp.Cash[u], imp.History[u])
		}
		if _, err := stmt.ExecContext(ctx, args...); err != nil {
			return fmt.Errorf("importance of site %d: %w", id, err)
		}
	}
	if err := setFixpoint(ctx, tx, imp.Fixpoint); err != nil {
		return err
	}
	return rebuild.rebuild(ctx, tx)
}

// SiteGraphCSR returns every known site and the weighted inter-site edges
// of the project's link graph ([Store.LinkGraph]) in [Graph] form, nodes in order of site id, 12 bytes an edge plus the
// names: the form in which a graph of tens of millions of edges fits in
// memory, where [Store.SiteGraph]'s edges take about ten times as much.
func (s *Store) SiteGraphCSR(ctx context.Context) (*Graph, error) {
	tx, err := s.readTx(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: site graph: begin: %w", err)
	}
	defer tx.Rollback()
	return siteGraphCSR(ctx, tx)
}

// BothSiteGraphsCSR returns [Store.SiteGraphCSR] of the editorial links
// and of all links, whatever the project's setting, read in one
// transaction so that both have the same sites: the lab compares them.
func (s *Store) BothSiteGraphsCSR(ctx context.Context) (editorial, all *Graph, err error) {
	tx, err := s.readTx(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("store: site graphs: begin: %w", err)
	}
	defer tx.Rollback()
	if editorial, err = siteGraphCSROf(ctx, tx, EditorialLinks); err != nil {
		return nil, nil, err
	}
	if all, err = siteGraphCSROf(ctx, tx, AllLinks); err != nil {
		return nil, nil, err
	}
	return editorial, all, nil
}

// siteGraphCSR is [Store.SiteGraphCSR] as tx sees it. site_links is read in
// its primary key's order, (from, to) by id, and nodes are in order of id,
// so the rows come in CSR order and nothing is sorted.
func siteGraphCSR(ctx context.Context, tx *sql.Tx) (*Graph, error) {
	lg, err := linkGraph(ctx, tx)
	if err != nil {
		return nil, err
	}
	return siteGraphCSROf(ctx, tx, lg)
}

// siteGraphCSROf is [siteGraphCSR] of the link graph lg.
func siteGraphCSROf(ctx context.Context, tx *sql.Tx, lg LinkGraph) (*Graph, error) {
	weight, isEdge := edgeSQL(lg, "l")
	g, err := siteNodes(ctx, tx, "site graph", true)
	if err != nil {
		return nil, err
	}
	pos := idPositions(g.IDs)
	from := -1
	err = queryRows(ctx, tx, func(sc scanner) error {
		var f, t int64
		var w float64
		if err := sc.Scan(&f, &t, &w); err != nil {
			return err
		}
		pf, pt := pos(f), pos(t)
		if pf < 0 || pt < 0 { // the foreign keys (and the imports' construction) rule it out
			return fmt.Errorf("edge %d → %d names an unknown site", f, t)
		}
		if int(pf) < from {
			return fmt.Errorf("edge %d → %d out of key order", f, t)
		}
		for ; from < int(pf); from++ {
			g.Offsets = append(g.Offsets, len(g.Targets))
		}
		g.Targets = append(g.Targets, pt)
		g.Weights = append(g.Weights, w)
		return nil
	}, `SELECT from_site_id, to_site_id, `+weight+` FROM site_links l WHERE `+isEdge+` ORDER BY from_site_id, to_site_id`)
	if err != nil {
		return nil, fmt.Errorf("store: site graph: list edges: %w", err)
	}
	for ; from < len(g.Names); from++ {
		g.Offsets = append(g.Offsets, len(g.Targets))
	}
	return g, nil
}

// siteNodes reads the sites as tx sees them into a [Graph], nodes in order
// of id, with room in its edge arrays for every link (Weights only when
// weighted); what names the reading in errors.
func siteNodes(ctx context.Context, tx *sql.Tx, what string, weighted bool) (*Graph, error) {
	var n, m int
	if err := tx.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM sites), (SELECT COUNT(*) FROM site_links)`).Scan(&n, &m); err != nil {
		return nil, fmt.Errorf("store: %s: count: %w", what, err)
	}
	g := &Graph{Names: make([]string, 0, n), IDs: make([]int64, 0, n), Offsets: make([]int, 0, n+1),
		Targets: make([]int32, 0, m)}
	if weighted {
		g.Weights = make([]float64, 0, m)
	}
	err := queryRows(ctx, tx, func(sc scanner) error {
		var id int64
		var name string
		if err := sc.Scan(&id, &name); err != nil {
			return err
		}
		g.IDs = append(g.IDs, id)
		g.Names = append(g.Names, name)
		return nil
	}, `SELECT id, name FROM sites ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("store: %s: list sites: %w", what, err)
	}
	if len(g.Names) > math.MaxInt32 {
		return nil, fmt.Errorf("store: %s: %d sites, more than node ids hold", what, len(g.Names))
	}
	return g, nil
}

// idPositions returns the position of a site id in ids, which are
// increasing, or -1: a table by id when the ids are dense enough (4 bytes a
// possible id), else a binary search.
func idPositions(ids []int64) func(id int64) int32 {
	if len(ids) == 0 {
		return func(int64) int32 { return -1 }
	}
	if top := ids[len(ids)-1]; ids[0] >= 0 && top < 4*int64(len(ids))+1024 {
		table := make([]int32, top+1)
		for i := range table {
			table[i] = -1
		}
		for u, id := range ids {
			table[id] = int32(u)
		}
		return func(id int64) int32 {
			if id < 0 || id > top {
				return -1
			}
			return table[id]
		}
	}
	return func(id int64) int32 {
		lo, hi := 0, len(ids)
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			if ids[m] < id {
				lo = m + 1
			} else {
				hi = m
			}
		}
		if lo < len(ids) && ids[lo] == id {
			return int32(lo)
		}
		return -1
	}
}

// SetImportance stores PageRank and the OPIC state of the sites of g, a
// graph read by [Store.SiteGraphCSR], by position; sites not in g keep
// theirs. The importance is then that of the graph: no longer stale
// ([Store.ImportanceStale]). (An import computes it once its files are
// committed, and one import runs at a time: none commits a file between
// the reading of g and this.)
func (s *Store) SetImportance(ctx context.Context, g *Graph, imp NodeImportance) error {
	if g.IDs == nil {
		return fmt.Errorf("store: set importance: %w: a graph without site ids", ErrInvalid)
	}
	return s.bulkWrite(ctx, "set importance", func(tx *sql.Tx) error {
		if err := setImportanceByID(ctx, tx, g, imp); err != nil {
			return fmt.Errorf("store: set importance: %w", err)
		}
		if err := setImportanceStale(ctx, tx, false); err != nil {
			return fmt.Errorf("store: set importance: %w", err)
		}
		return nil
	})
}
