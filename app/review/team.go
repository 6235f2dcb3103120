package review

import (
	"context"

	"sitesift/app/project"
	"sitesift/sites/store"
)

// ratingBefore is name's rating of site before a change, as the audit log
// holds it: nil for none (and when it cannot be read: the change itself
// then reports the trouble).
func (s *Service) ratingBefore(ctx context.Context, name, site string) any {
	r, ok, err := s.store.RatingOf(ctx, name, site)
	if err != nil || !ok {
		return nil
	}
	return Rating(r)
}

// selectionRole refuses a selection change the signed-in librarian's role
// does not allow: nominating is a curator's; approving, rejecting and
// reopening (and editing an approved or rejected site) an approver's.
func selectionRole(ctx context.Context, from, to string) error {
	switch {
	case to == store.StatusApproved:
		return project.Require(ctx, project.RoleApprover, "approve a site")
	case to == store.StatusRejected:
		return project.Require(ctx, project.RoleApprover, "reject a site")
	case to == store.StatusCandidate && from != store.StatusCandidate:
		return project.Require(ctx, project.RoleApprover, "reopen a site")
	}
	return nil
}

// selectionAction names a selection change in the audit log.
func selectionAction(from, to string) string {
	switch {
	case from == to:
		return store.AuditSelection
	case to == store.StatusNominated:
		return store.AuditNominate
	case to == store.StatusApproved:
		return store.AuditApprove
	case to == store.StatusRejected:
		return store.AuditReject
	case to == store.StatusCandidate:
		return store.AuditReopen
	}
	return store.AuditSelection
}

// selectionBefore is site's selection before a change; from is its status
// (a candidate when it cannot be read: the change itself then reports the
// trouble, an unknown site included).
func (s *Service) selectionBefore(ctx context.Context, site string) (before any, from string) {
	sel, err := s.store.Selection(ctx, site)
	if err != nil {
		return nil, store.StatusCandidate
	}
	return Selection(sel), sel.Status
}
