package review

import (
	"context"

	"sitesift/app/project"
	"sitesift/sites/store"
)

// ratingAudit logs, in the change's transaction, a change of name's
// rating of site as action, the states in the API's shape.
func ratingAudit(ctx context.Context, name, action, site string) store.Auditor[store.Rating] {
	return func(before, after *store.Rating) (store.AuditEntry, error) {
		var b, a any
		if before != nil {
			b = Rating(*before)
		}
		if after != nil {
			a = Rating(*after)
		}
		return project.AuditEntry(ctx, name, action, site, b, a)
	}
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

// selectionAudit logs, in the change's transaction, name's change of
// site's selection to status to, the action named by the status it moved
// from, the states in the API's shape. It also holds the change to the
// signed-in librarian's role for the status the transaction found, which
// another librarian may have changed since it was first checked.
func selectionAudit(ctx context.Context, name, site, to string) store.Auditor[store.Selection] {
	return func(before, after *store.Selection) (store.AuditEntry, error) {
		if err := selectionRole(ctx, before.Status, to); err != nil {
			return store.AuditEntry{}, err
		}
		return project.AuditEntry(ctx, name, selectionAction(before.Status, after.Status), site, Selection(*before), Selection(*after))
	}
}
