package ranking

import (
	"context"
	"fmt"

	"sitesift/app/project"
)

// SetSettings changes the project's settings ([project.Project.SetSettings]):
// the one way a librarian, a crawl or an import changes them. A change of
// the link graph the importance is computed on computes it again at once;
// killed before it is saved, the importance stays stale, and opening the
// project computes it.
func (s *Service) SetSettings(ctx context.Context, u project.SettingsUpdate) (project.Settings, error) {
	set, relink, err := s.project.SetSettings(ctx, u)
	if err != nil {
		return project.Settings{}, err
	}
	if relink {
		if _, err := s.RepairImportance(ctx); err != nil {
			return project.Settings{}, fmt.Errorf("settings: links %s: %w", set.Links, err)
		}
	}
	return set, nil
}
