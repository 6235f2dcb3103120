package communities

import (
	"context"
	"log/slog"

	"sitesift/app/project"
	"sitesift/app/ranking"
	"sitesift/sites/index"
	"sitesift/sites/store"
)

// Service finds the communities of one open project's link graph and
// keeps the collections librarians make of them.
type Service struct {
	project    *project.Project
	store      *store.Store
	index      *index.Index
	ranking    *ranking.Service
	log        *slog.Logger
	extraction communityMemo  // the last seed extraction (communities.go)
	membership membershipMemo // sites → communities, for review (membership.go)
}

// New returns the communities service of p, which places sites with r.
func New(p *project.Project, r *ranking.Service, log *slog.Logger) *Service {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Service{project: p, store: p.Store, index: p.Index, ranking: r, log: log}
}

// Current returns the communities of the extraction the app shows: the
// last one made if the graph has not changed since, else the paper's
// setting with [DefaultCommunityCount] seeds.
func (s *Service) Current(ctx context.Context) ([]Community, error) {
	_, cs, err := s.current(ctx)
	return cs, err
}
