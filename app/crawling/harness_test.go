package crawling

import (
	"testing"

	"sitesift/app/project"
	"sitesift/app/ranking"
	"sitesift/importance"
)

// openProject opens (or with create, creates) the project in dir.
func openProject(t *testing.T, dir string, create bool) *project.Project {
	t.Helper()
	p, err := project.Open(dir, create, project.SearchTimeout(project.NoSearchTimeout))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// newService returns the crawl service of p, ranking with the crawl's
// teleport, as the App composes it.
func newService(p *project.Project) *Service {
	r := ranking.New(p, importance.DefaultTeleport, nil, nil)
	return New(p, r, importance.DefaultTeleport, nil)
}
