package review

import (
	"context"
	"errors"

	"sitesift/app/fault"
	"sitesift/app/project"
	"sitesift/sites/store"
)

// SetSelection sets a site's selection state on behalf of a known
// librarian (see [Service.Librarian]). A status change the workflow does not
// allow is a conflict (see store.CanMove); so is the approval of a site by
// the librarian who nominated it, unless the project's settings allow
// single-person approval: two librarians look at every approved site.
func (s *Service) SetSelection(ctx context.Context, site string, u SelectionUpdate) (Selection, error) {
	name, err := s.Librarian(ctx, u.Librarian)
	if err != nil {
		return Selection{}, err
	}
	u.Librarian = name
	settings, err := s.project.Settings(ctx)
	if err != nil {
		return Selection{}, err
	}
	u.AllowSelfApproval = settings.SinglePersonApproval
	site = s.project.SiteName(site)
	// A refusal for the role comes before one for the workflow: the role a
	// reopening needs hangs on the status it moves from, read here and
	// again in the change's transaction (selectionAudit).
	from := store.StatusCandidate
	if u.Status == store.StatusCandidate {
		if sel, err := s.store.Selection(ctx, site); err == nil {
			from = sel.Status
		}
	}
	if err := selectionRole(ctx, from, u.Status); err != nil {
		return Selection{}, err
	}
	sel, err := s.store.SetSelection(ctx, site, u, selectionAudit(ctx, name, site, u.Status))
	var self *store.SelfApprovalError
	if errors.As(err, &self) {
		return Selection{}, fault.Conflict(self)
	}
	return Selection(sel), s.noSite(ctx, site, err)
}

// SelectedSeed is one site of an exported selection.
type SelectedSeed struct {
	// SeedURL is the site's seed, as in every seed list (see [Seed]).
	SeedURL string `json:"seed_url"`
	SelectedSite
	// Checked is true when a fetch of the crawl answered SeedURL (2xx, or a
	// redirect to a page of the site that answered 2xx).
	Checked bool `json:"checked"`
}

// Selection returns the sites whose selection status is status ("" is
// approved) as seeds, by OPIC importance, highest first.
func (s *Service) Selection(ctx context.Context, status string) ([]SelectedSeed, error) {
	if status == "" {
		status = store.StatusApproved
	}
	ss, err := s.store.Selections(ctx, status)
	if err != nil {
		return nil, err
	}
	st, err := s.ranking.Standings(ctx)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(ss))
	for i, s := range ss {
		names[i] = s.Site
	}
	fetched, err := s.project.SeedURLs(ctx, names)
	if err != nil {
		return nil, err
	}
	out := make([]SelectedSeed, len(ss))
	for i, s := range ss {
		s.Standing = store.Standing(st.OfSite(s.Platform, s.OPIC, s.PageRank))
		u, checked := project.SeedOf(fetched, s.Site)
		out[i] = SelectedSeed{SeedURL: u, SelectedSite: selectedSite(s), Checked: checked}
	}
	return out, nil
}
