package app

import (
	"context"
	"sync"

	"sitesift/sites/store"
)

// standingsMemo keeps the last [Standings] with the importance version they
// were computed at. Ranking every site reads and sorts two floats a site,
// seconds at five million sites, and every page of the sites table, the
// site page and the review card place their sites with it; the importance
// changes far less often than they are read (a rating does not change it).
type standingsMemo struct {
	mu      sync.Mutex
	valid   bool
	version int64
	st      Standings
}

// get returns the standings of s's sites, ranked again only when their
// importance changed since the last call.
func (m *standingsMemo) get(ctx context.Context, s *store.Store) (Standings, error) {
	v, err := s.ImportanceVersion(ctx)
	if err != nil {
		return Standings{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.valid && m.version == v {
		return m.st, nil
	}
	opic, pr, v, err := s.ImportanceValues(ctx)
	if err != nil {
		return Standings{}, err
	}
	m.st = Standings{OPIC: NewRanking(opic), PageRank: NewRanking(pr)}
	m.version, m.valid = v, true
	return m.st, nil
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
