package crawling

import (
	"context"

	"sitesift/app/project"
	"sitesift/sites/store"
)

// StartAs is [Service.Start] for the librarian of ctx: on a team server an
// admin alone starts a crawl or a recrawl, and the start is written to the
// audit log with what was asked.
func (svc *Service) StartAs(ctx context.Context, req CrawlRequest) (CrawlStatus, error) {
	what := "start a crawl"
	if req.Recrawl {
		what = "start a recrawl"
	}
	if err := project.Require(ctx, project.RoleAdmin, what); err != nil {
		return CrawlStatus{}, err
	}
	st, err := svc.Start(req)
	if err != nil {
		return st, err
	}
	return st, svc.project.Audit(ctx, "", store.AuditCrawl, "", nil, map[string]any{"recrawl": req.Recrawl,
		"seeds": len(req.Seeds), "max_pages": req.MaxPages, "strategy": req.Strategy})
}

// PauseAs, ResumeAs and StopAs are [Service.Pause], [Service.Resume] and
// [Service.Stop] for the librarian of ctx: on a team server, admins only.
func (svc *Service) PauseAs(ctx context.Context) (CrawlStatus, error) {
	if err := project.Require(ctx, project.RoleAdmin, "pause the crawl"); err != nil {
		return CrawlStatus{}, err
	}
	return svc.Pause()
}

// ResumeAs: see [Service.PauseAs].
func (svc *Service) ResumeAs(ctx context.Context) (CrawlStatus, error) {
	if err := project.Require(ctx, project.RoleAdmin, "resume the crawl"); err != nil {
		return CrawlStatus{}, err
	}
	return svc.Resume()
}

// StopAs: see [Service.PauseAs].
func (svc *Service) StopAs(ctx context.Context) (CrawlStatus, error) {
	if err := project.Require(ctx, project.RoleAdmin, "stop the crawl"); err != nil {
		return CrawlStatus{}, err
	}
	return svc.Stop()
}
