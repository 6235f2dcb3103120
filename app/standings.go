package app

import (
	"context"
	"fmt"
	"sync"

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
	mu      sync.Mutex
	valid   bool
	version int64
	st      Standings
	// ranking is closed when the ranking under way ends; nil when none is.
	ranking chan struct{}
	// values reads what the sites are ranked by; nil means
	// Store.ImportanceValues (tests slow it down).
	values func(context.Context) (opic, pagerank []float64, version int64, err error)
}

// get returns the standings of s's sites: ranked again when their
// importance changed since the last ranking, unless another reader is
// ranking them, in which case the last ranking is returned.
func (m *standingsMemo) get(ctx context.Context, s *store.Store) (Standings, error) {
	v, err := s.ImportanceVersion(ctx)
	if err != nil {
		return Standings{}, err
	}
	for {
		m.mu.Lock()
		// A ranking at a later version than v is at least as fresh as
		// the caller's own reads.
		if m.valid && (m.version >= v || m.ranking != nil) {
			st := m.st
			m.mu.Unlock()
			return st, nil
		}
		if m.ranking == nil {
			break // m.mu held: this reader ranks
		}
		wait := m.ranking
		m.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return Standings{}, fmt.Errorf("standings: %w", ctx.Err())
		}
	}
	done := make(chan struct{})
	m.ranking = done
	values := m.values
	m.mu.Unlock()
	if values == nil {
		values = s.ImportanceValues
	}
	opic, pr, v, err := values(ctx)
	var st Standings
	if err == nil {
		st = Standings{OPIC: NewRanking(opic), PageRank: NewRanking(pr)}
	}
	m.mu.Lock()
	m.ranking = nil
	close(done)
	if err == nil && (!m.valid || v >= m.version) {
		m.st, m.version, m.valid = st, v, true
	}
	m.mu.Unlock()
	if err != nil {
		return Standings{}, err
	}
	return st, nil
}

// Warm ranks the sites and counts them in the background, so that the
// first page of the sites table a window or a browser asks for does not
// wait for it (over a second at a million sites). A listing asked for
// meanwhile waits for it rather than ranking the sites a second time.
func (a *App) Warm() {
	go func() {
		_, _ = a.Sites(context.Background(), store.SiteQuery{Sort: "opic", Desc: true, Limit: 1})
	}()
}
