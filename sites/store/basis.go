package store

import (
	"context"
	"fmt"
)

// RankBasis is what the importance of a project's sites rests on, its
// platform sites left out: how many sites are ranked, how many of them
// had a page fetched (a site's out-links, its votes, are known only from
// its pages), how many pages were fetched, and how many sites are known
// from the link of one other site at most, whose rank says little.
type RankBasis struct {
	Sites        int `json:"sites"`
	FetchedSites int `json:"fetched_sites"`
	Pages        int `json:"pages"`
	OneLink      int `json:"one_link"`
}

// RankBasis counts what the importance rests on, in the project's link
// graph ([Store.LinkGraph]), in one read transaction.
func (s *Store) RankBasis(ctx context.Context) (RankBasis, error) {
	tx, err := s.readTx(ctx)
	if err != nil {
		return RankBasis{}, fmt.Errorf("store: rank basis: begin: %w", err)
	}
	defer tx.Rollback()
	g, err := linkGraph(ctx, tx)
	if err != nil {
		return RankBasis{}, err
	}
	ids, err := s.platformIDs(ctx, tx)
	if err != nil {
		return RankBasis{}, err
	}
	noPlatforms, err := platformWhere(PlatformsNone, ids)
	if err != nil {
		return RankBasis{}, err
	}
	var b RankBasis
	err = tx.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(fetched), 0), COALESCE(SUM(linked <= 1), 0) FROM (
		SELECT EXISTS (SELECT 1 FROM pages p WHERE p.site_id = s.id AND p.err_class = '') AS fetched,
			`+degreeSQL(g, true)+` AS linked
		FROM sites s WHERE 1`+noPlatforms+`)`).Scan(&b.Sites, &b.FetchedSites, &b.OneLink)
	if err != nil {
		return RankBasis{}, fmt.Errorf("store: rank basis: %w", err)
	}
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM pages WHERE err_class = ''`).Scan(&b.Pages); err != nil {
		return RankBasis{}, fmt.Errorf("store: rank basis: pages: %w", err)
	}
	return b, nil
}
