package ranking

import (
	"context"

	"sitesift/sites/store"
)

// Names of the site graph the importance comes from, as the Sites page, the
// exports and `sitesift rank` show them.
const (
	// GraphEditorial is the graph of the links inside the pages' main
	// content, which their authors wrote.
	GraphEditorial = "editorial links"
	// GraphAll is the graph of every link, the template's included.
	GraphAll = "all links"
	// GraphNoPages is the graph of an import with no page structure (an
	// edge list, CDX, a crawl log, the Common Crawl graph): no link can
	// be told editorial, so every one counts.
	GraphNoPages = "all links: the import has no page structure"
	// GraphBeforeKinds is the editorial graph of a project that held
	// links before sitesift told editorial links from template links.
	GraphBeforeKinds = "editorial links; the links of pages crawled before sitesift told template links apart all count until they are crawled again"
	// GraphWithImports is the editorial graph of a project with pages and
	// an import with no page structure.
	GraphWithImports = "editorial links, and every link of the imports that have no page structure"
)

// LinkGraph says which site graph the project's importance comes from.
type LinkGraph struct {
	// Links is the project's setting: editorial or all.
	Links string `json:"links"`
	// Label names the graph for readers: one of the Graph… names.
	Label string `json:"label"`
}

// LinkGraph returns the site graph the project's importance comes from
// (see [project.Settings.Links]).
func (s *Service) LinkGraph(ctx context.Context) (LinkGraph, error) {
	info, err := s.store.LinkGraph(ctx)
	if err != nil {
		return LinkGraph{}, err
	}
	return LinkGraph{Links: string(info.Links), Label: graphLabel(info)}, nil
}

// graphLabel names the graph info describes.
func graphLabel(info store.LinkGraphInfo) string {
	switch {
	case info.NoPageStructure && !info.Pages:
		return GraphNoPages
	case info.Links == store.AllLinks:
		return GraphAll
	case info.BeforeKinds:
		return GraphBeforeKinds
	case info.NoPageStructure:
		return GraphWithImports
	}
	return GraphEditorial
}

// repetitionRule applies the repetition rule (store.RepetitionRule: a link
// most pages of a site carry is the template's) before the importance of
// the editorial graph is computed; the all-links graph does not need it,
// and a project without pages has no links to apply it to.
func (s *Service) repetitionRule(ctx context.Context) error {
	info, err := s.store.LinkGraph(ctx)
	if err != nil || info.Links != store.EditorialLinks || !info.Pages {
		return err
	}
	_, err = s.store.RepetitionRule(ctx)
	return err
}
