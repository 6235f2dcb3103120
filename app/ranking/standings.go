package ranking

import (
	"context"
	"fmt"

	"sitesift/app/internal/memo"
	"sitesift/sites/store"
)

// standingsMemo keeps the last [Standings] with the importance version they
// were computed at. Ranking every site reads and sorts two floats a site,
// seconds at five million sites, and every page of the sites table, the
// site page and the review card place their sites with it; the importance
// changes far less often than they are read (a rating does not change it).
//
// A crawl changes the importance at every batch, a few times a second. The
// sites are ranked again by one reader at a time, outside the lock; while
// that runs, the other readers get the last ranking, a batch or so old,
// rather than wait behind it (only the first ranking of all is waited for).
// A reader alone, with no ranking under way, always gets the ranking of the
// importance it reads.
type standingsMemo struct {
	memo memo.Memo[int64, Standings]
	// values reads what the sites are ranked by; nil means
	// Store.ImportanceValues (tests slow it down).
	values func(context.Context) (opic, pagerank []float64, version int64, err error)
}

// init makes m serve the last ranking while a new one is made, and keep
// the later importance of two rankings that ended out of order.
func (m *standingsMemo) init() {
	m.memo.Stale = true
	m.memo.Replaces = func(kept, made int64) bool { return made >= kept }
}

// get returns the standings of s's sites: ranked again when their
// importance changed since the last ranking, unless another reader is
// ranking them, in which case the last ranking is returned.
func (m *standingsMemo) get(ctx context.Context, s *store.Store) (Standings, error) {
	v, err := s.ImportanceVersion(ctx)
	if err != nil {
		return Standings{}, err
	}
	// A ranking at a later version than v is at least as fresh as the
	// caller's own reads.
	st, err := m.memo.Get(ctx, func(kept int64) bool { return kept >= v }, func(ctx context.Context) (Standings, int64, error) {
		values := m.values
		if values == nil {
			values = s.ImportanceValues
		}
		opic, pr, v, err := values(ctx)
		if err != nil {
			return Standings{}, 0, err
		}
		return Standings{OPIC: NewRanking(opic), PageRank: NewRanking(pr)}, v, nil
	})
	if err != nil {
		return Standings{}, fmt.Errorf("standings: %w", err)
	}
	return st, nil
}
