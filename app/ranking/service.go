package ranking

import (
	"log/slog"
	"sync"

	"sitesift/app/project"
	"sitesift/sites/store"
)

// Service ranks the sites of one open project: it computes their
// PageRank and, for an imported graph, an offline OPIC, and places every
// site among the others.
type Service struct {
	project  *project.Project
	store    *store.Store
	log      *slog.Logger
	teleport float64
	// rankM makes one ranking at a time write the sites' importance.
	rankM     sync.Mutex
	standings standingsMemo // every site's rank, while the importance stays (standings.go)
	// importing tells whether an archive import runs, which leaves the
	// importance stale until it ends; nil is never.
	importing func() bool
}

// New returns the ranking service of p, whose OPIC and PageRank use the
// teleport probability given; importing, when not nil, tells whether an archive import runs.
func New(p *project.Project, teleport float64, log *slog.Logger, importing func() bool) *Service {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Service{project: p, store: p.Store, log: log, teleport: teleport, importing: importing}
	s.standings.init()
	return s
}

// Exclusive runs f while no ranking of s writes the sites' importance: an
// import that writes the importance of its graph itself runs through it.
func (s *Service) Exclusive(f func() error) error {
	s.rankM.Lock()
	defer s.rankM.Unlock()
	return f()
}
