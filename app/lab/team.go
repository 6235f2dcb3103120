package lab

import (
	"context"

	"sitesift/app/project"
)

// CancelAs is [Service.Cancel] for the librarian of ctx: on a team server
// the lab's experiments are admins' (see [Service.Start]).
func (s *Service) CancelAs(ctx context.Context, id string) (JobStatus, error) {
	if err := project.Require(ctx, project.RoleAdmin, "cancel a lab experiment"); err != nil {
		return JobStatus{}, err
	}
	return s.Cancel(id)
}
