package store

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"slices"
)

// ImportedSiteLinks returns the site graph of a project without pages, one
// whose graph is an imported site graph, as [Store.SiteGraphCSR] does but
// without the weights (Weights is nil: each link counts once), for the
// computations that count links rather than weigh them; ok is false, and
// no graph is read, when the project has pages (its graph is then
// [Store.PageGraph]'s). Both are read in one transaction, so a crawl that
// saves its first pages meanwhile cannot make a crawled project's sites
// pass for an imported graph.
func (s *Store) ImportedSiteLinks(ctx context.Context) (g *Graph, ok bool, err error) {
	tx, err := s.readTx(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("store: site links: begin: %w", err)
	}
	defer tx.Rollback()
	var hasPages bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pages)`).Scan(&hasPages); err != nil {
		return nil, false, fmt.Errorf("store: site links: %w", err)
	}
	if hasPages {
		return nil, false, nil
	}
	g, err = siteLinkLists(ctx, tx)
	return g, err == nil, err
}

// siteLinkLists reads the sites and their links as tx sees them, nodes in order
// of site id. The links come one row a site, its targets' ids joined by
// commas: a row costs far more through database/sql than its ids take to
// parse, and a site has ten links on average.
func siteLinkLists(ctx context.Context, tx *sql.Tx) (*Graph, error) {
	g, err := siteNodes(ctx, tx, "site links", false)
	if err != nil {
		return nil, err
	}
	pos := idPositions(g.IDs)
	from := -1
	var list sql.RawBytes // valid until the next row: parsed at once
	err = queryRows(ctx, tx, func(sc scanner) error {
		var f int64
		if err := sc.Scan(&f, &list); err != nil {
			return err
		}
		pf := pos(f)
		if pf < 0 || int(pf) <= from { // the foreign keys and GROUP BY rule it out
			return fmt.Errorf("links of site %d: unknown site or out of order", f)
		}
		for ; from < int(pf); from++ {
			g.Offsets = append(g.Offsets, len(g.Targets))
		}
		row := len(g.Targets)
		var t int64
		digits := 0
		for i := 0; i <= len(list); i++ {
			if i < len(list) && list[i] >= '0' && list[i] <= '9' && t <= (math.MaxInt64-9)/10 {
				t = t*10 + int64(list[i]-'0')
				digits++
				continue
			}
			if digits == 0 || (i < len(list) && list[i] != ',') {
				return fmt.Errorf("links of site %d: bad target list at byte %d", f, i)
			}
			pt := pos(t)
			if pt < 0 {
				return fmt.Errorf("link %d → %d names an unknown site", f, t)
			}
			g.Targets = append(g.Targets, pt)
			t, digits = 0, 0
		}
		// SQL leaves the order inside a group open; the primary key's
		// order is what SQLite gives, and then this sorts nothing.
		if r := g.Targets[row:]; !slices.IsSorted(r) {
			slices.Sort(r)
		}
		return nil
	}, `SELECT from_site_id, group_concat(to_site_id) FROM site_links GROUP BY from_site_id ORDER BY from_site_id`)
	if err != nil {
		return nil, fmt.Errorf("store: site links: list links: %w", err)
	}
	for ; from < len(g.Names); from++ {
		g.Offsets = append(g.Offsets, len(g.Targets))
	}
	return g, nil
}
