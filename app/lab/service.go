package lab

import (
	"log/slog"

	"sitesift/app/communities"
	"sitesift/app/project"
	"sitesift/app/ranking"
	"sitesift/sites/store"
)

// Service runs the lab's experiments for the Lab page of one open
// project, one at a time in the background, on synthetic graphs or the
// project's own, and keeps the last few runs' files.
type Service struct {
	project     *project.Project
	store       *store.Store
	ranking     *ranking.Service
	communities *communities.Service
	log         *slog.Logger
	teleport    float64
	jobs        *labJobs
}

// NewService returns the lab service of p, which reads the project's
// graphs through r and c.
func NewService(p *project.Project, r *ranking.Service, c *communities.Service, teleport float64, log *slog.Logger) *Service {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Service{project: p, store: p.Store, ranking: r, communities: c, log: log, teleport: teleport,
		jobs: newLabJobs(log)}
}

// Close cancels the running experiment, waits for it, and refuses new
// ones.
func (s *Service) Close() { s.jobs.Close() }
