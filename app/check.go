package app

import (
	"context"
	"fmt"
	"math"
	"sitesift/app/project"
	"sitesift/app/ranking"
)

// CheckReport is what [App.Check] finds: what opening the project mended,
// the database's health, and whether the search index matches the store.
type CheckReport struct {
	Repairs       project.Repairs `json:"repairs"`
	Pages         int             `json:"pages"`
	Searchable    int             `json:"searchable"`     // pages the index should hold
	Indexed       uint64          `json:"indexed"`        // documents the index holds
	Unindexed     int             `json:"unindexed"`      // pages the store records as not in the index
	RunningCrawls int             `json:"running_crawls"` // crawls recorded as running
	// OPICCash is the total OPIC cash of the sites, which a crawl keeps at
	// 1 (the virtual page hands its share out after every read); 0 for a
	// project with no OPIC state.
	OPICCash float64 `json:"opic_cash"`
	// ImportanceStale is set when an import committed its site graph and
	// was stopped before it saved the sites' PageRank and OPIC.
	ImportanceStale bool     `json:"importance_stale"`
	Problems        []string `json:"problems"` // empty when the project is consistent
}

// Check verifies the project's consistency, as an operator does after a
// crash: SQLite's integrity check, every searchable page in the index and
// nothing more, the OPIC cash whole, the importance that of the site graph
// (not stale: [ranking.ErrImportanceStale]), and no crawl recorded as running when
// none runs. Opening the project has already mended what a kill can leave
// in the store and the index (see [OpenProject]); Check reports it, and any
// problem that remains. A stale importance is one: Check does not compute
// the ranking an import left ([App.RepairImportance] does, when the command
// line or the desktop opens the project), it says what finishes it.
func (a *App) Check(ctx context.Context) (CheckReport, error) {
	h, err := a.store.Health(ctx)
	if err != nil {
		return CheckReport{}, err
	}
	n, err := a.index.Count()
	if err != nil {
		return CheckReport{}, err
	}
	r := CheckReport{Pages: h.Pages, Searchable: h.Searchable, Indexed: n, Unindexed: h.Unindexed,
		RunningCrawls: h.RunningCrawls, Problems: []string{}}
	if a.project != nil {
		r.Repairs = a.project.Repairs
	}
	for _, p := range h.Integrity {
		r.Problems = append(r.Problems, "database: "+p)
	}
	if h.Unindexed > 0 {
		r.Problems = append(r.Problems, fmt.Sprintf("%d pages are not in the search index", h.Unindexed))
	}
	if n != uint64(h.Searchable) {
		r.Problems = append(r.Problems, fmt.Sprintf("the search index holds %d pages, the store %d searchable ones", n, h.Searchable))
	}
	states, err := a.store.OPICStates(ctx)
	if err != nil {
		return CheckReport{}, err
	}
	var importance float64
	for _, st := range states {
		r.OPICCash += st.Cash
		importance += st.Cash + st.History
	}
	if importance > 0 && math.Abs(r.OPICCash-1) > 1e-9 {
		r.Problems = append(r.Problems, fmt.Sprintf("the OPIC cash of the sites sums to %.12g, not 1", r.OPICCash))
	}
	if r.ImportanceStale, err = a.store.ImportanceStale(ctx); err != nil {
		return CheckReport{}, err
	}
	if r.ImportanceStale {
		r.Problems = append(r.Problems, fmt.Sprintf("%v; %s", ranking.ErrImportanceStale, a.Ranking.FinishRankingHint()))
	}
	if h.RunningCrawls > 0 && !a.Crawling.Running() {
		r.Problems = append(r.Problems, fmt.Sprintf("%d crawls are recorded as running, and none runs", h.RunningCrawls))
	}
	return r, nil
}
