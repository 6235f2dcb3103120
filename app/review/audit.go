package review

import (
	"context"

	"sitesift/sites/store"
)

// AuditLog returns the rows of the project's audit log that q selects, the
// newest first: who rated, noted, nominated, approved, rejected or
// reopened what, who started crawls and imports, changed settings or
// accounts, when and from where. A site is named as the project names it
// ("www.a.test" finds a.test's rows when the site rule drops www).
func (s *Service) AuditLog(ctx context.Context, q store.AuditQuery) ([]store.AuditEntry, error) {
	if q.Site != "" {
		q.Site = s.project.SiteName(q.Site)
	}
	return s.store.Audit(ctx, q)
}
