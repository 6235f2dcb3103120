package store

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"math"
	"slices"

	"sitesift/sites"
)

// PageGraph returns the page-level link graph the seeds method works on
// (the seeds paper, Daneshpajouh et al., section 3.3.1): every link between
// two pages of different sites, once, and none between pages of one site,
// "for navigational purposes" and the reason HITS would otherwise find its
// hubs and authorities inside single sites.
//
// urls are the nodes, sorted, so that node ids (and the ties the extraction
// breaks by id) do not depend on the order pages were crawled in: every
// crawled page, and every URL a crawled page of another site links to. A URL
// that only pages of its own site link to and that was never crawled is left
// out: after the pruning it would be an isolated node no method can use.
// arcs are [from, to] indexes into urls, sorted and without repeats.
//
// A project with no pages but a site graph (one imported from an edge list)
// has no page links to prune: its site graph is returned, each site
// standing for its home page http://NAME/ ([sites.HomeURL]), with an arc per
// weighted edge.
//
// The links are those of the project's link graph ([Store.LinkGraph]): a
// page's editorial links only, unless the project ranks on all links.
//
// It reads the pages and the links between sites once each, in one read
// transaction; beside that scan it sorts the URLs and the arcs.
func (s *Store) PageGraph(ctx context.Context) (urls []string, arcs [][2]int32, err error) {
	return s.pageGraph(ctx, true)
}

// FullPageGraph is [Store.PageGraph] without the pruning: links between
// pages of one site are kept, and the URLs only they lead to are nodes too.
// The seeds paper measures distances and simulates its crawls on this
// graph (its Table 1 gives the average distance before pruning). For an
// imported site graph it is the same as PageGraph.
func (s *Store) FullPageGraph(ctx context.Context) (urls []string, arcs [][2]int32, err error) {
	return s.pageGraph(ctx, false)
}

func (s *Store) pageGraph(ctx context.Context, prune bool) (urls []string, arcs [][2]int32, err error) {
	tx, err := s.readTx(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("store: page graph: begin: %w", err)
	}
	defer tx.Rollback()

	var hasPages bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pages)`).Scan(&hasPages); err != nil {
		return nil, nil, fmt.Errorf("store: page graph: %w", err)
	}
	if hasPages {
		var g LinkGraph
		if g, err = linkGraph(ctx, tx); err != nil {
			return nil, nil, err
		}
		urls, arcs, err = pageLinkGraph(ctx, tx, prune, g)
	} else {
		urls, arcs, err = siteLinkGraph(ctx, tx)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("store: page graph: %w", err)
	}
	return urls, arcs, nil
}

// pageLinkGraph builds the graph of page links of link graph g, only those
// between sites when prune is set.
func pageLinkGraph(ctx context.Context, tx *sql.Tx, prune bool, g LinkGraph) ([]string, [][2]int32, error) {
	// Page ids are dense in practice, but a map keeps this right whatever
	// ids SQLite handed out.
	pageURL := map[int64]string{}
	node := map[string]int32{}
	err := queryRows(ctx, tx, func(sc scanner) error {
		var id int64
		var u string
		if err := sc.Scan(&id, &u); err != nil {
			return err
		}
		pageURL[id] = u
		node[u] = 0
		return nil
	}, `SELECT id, url FROM pages`)
	if err != nil {
		return nil, nil, fmt.Errorf("list pages: %w", err)
	}

	// The join on the page's primary key is a lookup per link; the filter
	// leaves the links inside a site in the database.
	type link struct {
		page   int64
		target string
	}
	kind := "1"
	if g == EditorialLinks {
		kind = "l.editorial = 1"
	}
	query := `SELECT l.page_id, l.target_url FROM links l WHERE ` + kind
	if prune {
		query = `SELECT l.page_id, l.target_url
		FROM links l JOIN pages p ON p.id = l.page_id
		WHERE l.target_site_id <> p.site_id AND ` + kind
	}
	links, err := queryList(ctx, tx, func(sc scanner) (l link, err error) {
		if err = sc.Scan(&l.page, &l.target); err == nil {
			node[l.target] = 0
		}
		return l, err
	}, query)
	if err != nil {
		return nil, nil, fmt.Errorf("list links: %w", err)
	}
	if len(node) > math.MaxInt32 {
		return nil, nil, fmt.Errorf("%d nodes do not fit int32 ids", len(node))
	}

	urls := make([]string, 0, len(node))
	for u := range node {
		urls = append(urls, u)
	}
	slices.Sort(urls)
	for i, u := range urls {
		node[u] = int32(i)
	}
	arcs := make([][2]int32, 0, len(links))
	for _, l := range links {
		// A page's link to itself joins no two pages.
		if from, to := node[pageURL[l.page]], node[l.target]; from != to {
			arcs = append(arcs, [2]int32{from, to})
		}
	}
	return urls, sortArcs(arcs), nil
}

// siteLinkGraph builds the graph of an imported site graph: sites as home
// page URLs, site links as arcs.
func siteLinkGraph(ctx context.Context, tx *sql.Tx) ([]string, [][2]int32, error) {
	type site struct {
		id  int64
		url string
	}
	all, err := queryList(ctx, tx, func(sc scanner) (site, error) {
		var st site
		var name string
		err := sc.Scan(&st.id, &name)
		st.url = sites.HomeURL(name)
		return st, err
	}, `SELECT id, name FROM sites`)
	if err != nil {
		return nil, nil, fmt.Errorf("list sites: %w", err)
	}
	if len(all) > math.MaxInt32 {
		return nil, nil, fmt.Errorf("%d sites do not fit int32 ids", len(all))
	}
	// Sorted by URL, not by name: "a.b.c" sorts after "a.b" but
	// "http://a.b.c/" before "http://a.b/".
	slices.SortFunc(all, func(a, b site) int { return cmp.Compare(a.url, b.url) })
	id := make(map[int64]int32, len(all))
	urls := make([]string, len(all))
	for i, st := range all {
		id[st.id] = int32(i)
		urls[i] = st.url
	}
	arcs, err := queryList(ctx, tx, func(sc scanner) ([2]int32, error) {
		var f, t int64
		err := sc.Scan(&f, &t)
		return [2]int32{id[f], id[t]}, err
	}, `SELECT from_site_id, to_site_id FROM site_links`)
	if err != nil {
		return nil, nil, fmt.Errorf("list site links: %w", err)
	}
	return urls, sortArcs(arcs), nil
}

// sortArcs sorts arcs by source then target and drops repeats.
func sortArcs(arcs [][2]int32) [][2]int32 {
	slices.SortFunc(arcs, func(a, b [2]int32) int {
		return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1]))
	})
	arcs = slices.Compact(arcs)
	if arcs == nil {
		arcs = [][2]int32{}
	}
	return arcs
}
