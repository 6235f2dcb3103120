package store

import (
	"context"
	"fmt"
)

// ImportedSiteGraphCSR returns the site graph of a project without pages,
// one whose graph is an imported site graph, as [Store.SiteGraphCSR] does;
// ok is false, and no graph is read, when the project has pages (its graph
// is then [Store.PageGraph]'s). Both are read in one transaction, so a
// crawl that saves its first pages meanwhile cannot make a crawled
// project's sites pass for an imported graph.
func (s *Store) ImportedSiteGraphCSR(ctx context.Context) (g *Graph, ok bool, err error) {
	tx, err := s.readTx(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("store: site graph: begin: %w", err)
	}
	defer tx.Rollback()
	var hasPages bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pages)`).Scan(&hasPages); err != nil {
		return nil, false, fmt.Errorf("store: site graph: %w", err)
	}
	if hasPages {
		return nil, false, nil
	}
	g, err = siteGraphCSR(ctx, tx)
	return g, err == nil, err
}
