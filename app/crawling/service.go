package crawling

import (
	"log/slog"
	"sync"

	"sitesift/app/project"
	"sitesift/app/ranking"
	"sitesift/sites/index"
	"sitesift/sites/store"
)

// Service crawls for one open project: a crawl or a recrawl at a time in
// the background, politely, computing the sites' importance online.
type Service struct {
	project  *project.Project
	store    *store.Store
	index    *index.Index
	ranking  *ranking.Service
	log      *slog.Logger
	baseLog  *slog.Logger // the logger given, which the crawler tags with its own component
	teleport float64

	// mu makes one crawl start at a time (see startCrawl).
	mu       sync.Mutex
	crawls   *crawlJobs // the running or last crawl (crawl.go)
	lastOnce sync.Once
	last     CrawlStatus // the project's last crawl before this process, see lastCrawl
}

// New returns the crawl service of p, whose crawls rank with r; log is
// the logger the crawler tags with its own component.
func New(p *project.Project, r *ranking.Service, teleport float64, log *slog.Logger) *Service {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Service{project: p, store: p.Store, index: p.Index, ranking: r, log: log.With("component", "app"),
		baseLog: log, teleport: teleport, crawls: &crawlJobs{}}
}

// Running tells whether a crawl runs.
func (svc *Service) Running() bool {
	_, ok := svc.crawls.Running()
	return ok
}

// Close stops a running crawl and waits for it to end.
func (svc *Service) Close() { svc.crawls.Close() }
