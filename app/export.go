package app

import (
	"context"
	"fmt"

	"sitesift/sites"
	"sitesift/sites/store"
)

// Seed is one site of an exported seed list.
type Seed struct {
	SeedURL  string  `json:"seed_url"`
	Site     string  `json:"site"`
	OPIC     float64 `json:"opic"`
	PageRank float64 `json:"pagerank"`
	Pages    int     `json:"pages"`
}

// Seeds returns the top count sites by OPIC importance as seeds. The sites
// whose crawl gave nothing worth archiving (dead, closed to robots, errors
// only: sites.Failed) are left out unless includeFailed.
func (a *App) Seeds(ctx context.Context, count int, includeFailed bool) ([]Seed, error) {
	if count <= 0 {
		return nil, badRequest(fmt.Errorf("seeds: count %d must be positive", count))
	}
	_, rows, err := a.store.ListSites(ctx, store.SiteQuery{Sort: "opic", Desc: true, Limit: count, NoFailed: !includeFailed})
	if err != nil {
		return nil, err
	}
	seeds := make([]Seed, len(rows))
	for i, r := range rows {
		seeds[i] = Seed{SeedURL: sites.HomeURL(r.Site), Site: r.Site, OPIC: r.OPIC, PageRank: r.PageRank, Pages: r.Pages}
	}
	return seeds, nil
}

// allSites returns up to limit sites (all when limit ≤ 0) by OPIC, highest first.
//
// One query, not pages of it: ListSites sorts every site before it can skip
// an offset, so reading an imported graph of 317 000 sites 500 at a time
// sorted them all 634 times (still running after 17 minutes); at once it
// takes 6 s.
func (a *App) allSites(ctx context.Context, limit int) ([]store.SiteRow, error) {
	_, rows, err := a.store.ListSites(ctx, store.SiteQuery{Sort: "opic", Desc: true, Limit: max(limit, 0)})
	if err != nil {
		return nil, err
	}
	return rows, nil
}

// RankRow is one line of `sitesift rank`.
type RankRow struct {
	Site     string  `json:"site"`
	OPIC     float64 `json:"opic"`
	PageRank float64 `json:"pagerank"`
	InSites  int     `json:"in_sites"`
	OutSites int     `json:"out_sites"`
	Pages    int     `json:"pages"`
}

// Rank recomputes PageRank and returns all sites by OPIC, highest first;
// limit > 0 keeps the first limit.
func (a *App) Rank(ctx context.Context, limit int) ([]RankRow, error) {
	// Beside the process that holds the project nothing is saved: the
	// PageRank is computed for the answer only.
	var fresh map[string]float64
	if a.project != nil && a.project.ReadOnly {
		names, edges, err := a.store.SiteGraph(ctx)
		if err != nil {
			return nil, err
		}
		if fresh, err = PageRankOf(names, edges, a.teleport); err != nil {
			return nil, err
		}
	} else if err := a.UpdatePageRank(ctx); err != nil {
		return nil, err
	}
	rows, err := a.allSites(ctx, limit)
	if err != nil {
		return nil, err
	}
	out := make([]RankRow, len(rows))
	for i, r := range rows {
		pr := r.PageRank
		if fresh != nil {
			pr = fresh[r.Site]
		}
		out[i] = RankRow{Site: r.Site, OPIC: r.OPIC, PageRank: pr, InSites: r.InSites, OutSites: r.OutSites, Pages: r.Pages}
	}
	return out, nil
}
