package imports

import (
	"log/slog"

	"sitesift/app/project"
	"sitesift/app/ranking"
	"sitesift/sites/index"
	"sitesift/sites/store"
)

// Service imports into one open project what other tools wrote: edge
// lists, WARC and ARC files, CDX indexes, crawl logs and the Common Crawl
// host graph, in the foreground or as a background job.
type Service struct {
	project  *project.Project
	store    *store.Store
	index    *index.Index
	ranking  *ranking.Service
	log      *slog.Logger
	teleport float64
	imports  *importJobs // the running or last archive import (import_job.go)
	// crawling tells whether a crawl runs, which an import must not run
	// beside; nil is never.
	crawling func() bool
	// folder is the import folder of a team server (team.go).
	folder importFolder
}

// New returns the import service of p, which ranks what it imports with
// r; crawling, when not nil, tells whether a crawl runs.
func New(p *project.Project, r *ranking.Service, teleport float64, log *slog.Logger, crawling func() bool) *Service {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Service{project: p, store: p.Store, index: p.Index, ranking: r, log: log, teleport: teleport,
		imports: newImportJobs(log), crawling: crawling}
}

// Close cancels the running archive import and waits for its end.
func (s *Service) Close() { s.imports.Close() }

// Running tells whether an archive import runs.
func (s *Service) Running() bool {
	_, ok := s.imports.Running()
	return ok
}
