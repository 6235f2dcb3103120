package review

import (
	"context"
	"log/slog"

	"sitesift/app/communities"
	"sitesift/app/project"
	"sitesift/app/ranking"
	"sitesift/sites/index"
	"sitesift/sites/store"
)

// Service is the librarians' side of one open project: the sites table
// and a site's page, search, librarians and their ratings and notes, the
// review queue and card, the two-person selection, ratings files and the
// agreement of ratings with each other and with the computed importance.
type Service struct {
	project     *project.Project
	store       *store.Store
	index       *index.Index
	search      func(context.Context, index.Query) (index.Result, error)
	ranking     *ranking.Service
	communities *communities.Service
	log         *slog.Logger
	biased      biasedMemo // the review queue's biased order (review.go)
}

// Services are the services the review stands on.
type Services struct {
	Ranking     *ranking.Service
	Communities *communities.Service
}

// New returns the review service of p. search answers the searches: the
// project's index, or the holder's over its socket beside it.
func New(p *project.Project, search func(context.Context, index.Query) (index.Result, error), deps Services, log *slog.Logger) *Service {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Service{project: p, store: p.Store, index: p.Index, search: search, ranking: deps.Ranking,
		communities: deps.Communities, log: log}
}
