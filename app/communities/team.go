package communities

import (
	"context"
	"fmt"
	"strings"

	"sitesift/app/project"
)

// mayChange refuses, on a team server, a change to a collection another
// librarian saved, unless the signed-in librarian is an admin: a curator
// keeps and edits their own collections.
func (s *Service) mayChange(ctx context.Context, id int64) error {
	me, ok := project.IdentityFrom(ctx)
	if !ok {
		return nil
	}
	c, err := s.Collection(ctx, id)
	if err != nil {
		return err
	}
	if strings.EqualFold(c.CreatedBy, me.Name) {
		return nil
	}
	return project.Require(ctx, project.RoleAdmin, fmt.Sprintf("change %s's collection %q", c.CreatedBy, c.Name))
}
