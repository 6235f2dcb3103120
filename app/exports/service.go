package exports

import (
	"sitesift/app/communities"
	"sitesift/app/crawling"
	"sitesift/app/project"
	"sitesift/app/ranking"
	"sitesift/app/review"
	"sitesift/sites/store"
)

// Service writes what one open project hands over: the approved seeds,
// the top sites, the community seeds, the ratings file, the sites table,
// the crawler configurations and the crawl as a WACZ file, each under a
// name that starts with the project's.
type Service struct {
	project     *project.Project
	store       *store.Store
	ranking     *ranking.Service
	communities *communities.Service
	crawling    *crawling.Service
	review      *review.Service
	replay      replayCache
}

// Services are the services the exports read from.
type Services struct {
	Ranking     *ranking.Service
	Communities *communities.Service
	Crawling    *crawling.Service
	Review      *review.Service
}

// New returns the export service of p.
func New(p *project.Project, deps Services) *Service {
	return &Service{project: p, store: p.Store, ranking: deps.Ranking, communities: deps.Communities,
		crawling: deps.Crawling, review: deps.Review}
}
