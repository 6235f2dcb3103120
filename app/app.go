package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"

	"sitesift/app/communities"
	"sitesift/app/crawling"
	"sitesift/app/export"
	"sitesift/app/fault"
	"sitesift/app/imports"
	"sitesift/app/lab"
	"sitesift/app/project"
	"sitesift/app/ranking"
	"sitesift/importance"
	"sitesift/sites/index"
	"sitesift/sites/store"
)

// Options configures an App.
type Options struct {
	Project *project.Project
	// Logger receives the app's logs; nil discards them.
	Logger *slog.Logger
	// Teleport is OPIC's teleport share and PageRank's teleport probability;
	// 0 means importance.DefaultTeleport.
	Teleport float64
	// Search runs the searches of a project opened without its index
	// (beside the process that holds it, [project.ReadOnlyBeside]); nil searches
	// the project's index.
	Search func(context.Context, index.Query) (index.Result, error)
}

// App is the service behind the command line and the HTTP API.
type App struct {
	// Ranking computes the sites' importance and places them (package
	// ranking).
	Ranking *ranking.Service
	// Communities finds the communities of the link graph and keeps the
	// collections made of them (package communities).
	Communities *communities.Service
	// Lab runs the papers' experiments for the Lab page (package lab).
	Lab *lab.Service
	// Crawling crawls and recrawls, and keeps the crawl settings (package
	// crawling).
	Crawling *crawling.Service
	// Imports reads into the project what other tools wrote (package
	// imports).
	Imports *imports.Service

	project  *project.Project
	store    *store.Store
	index    *index.Index
	search   func(context.Context, index.Query) (index.Result, error) // the index's, or Options.Search
	log      *slog.Logger
	baseLog  *slog.Logger // the logger given, which the packages the App drives tag with their own component
	teleport float64

	biased biasedMemo // the review queue's biased order (review.go)
}

// New returns an App over an open project.
func New(opt Options) *App {
	log := opt.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	t := opt.Teleport
	if t == 0 {
		t = importance.DefaultTeleport
	}
	a := &App{
		project:  opt.Project,
		store:    opt.Project.Store,
		index:    opt.Project.Index,
		log:      log.With("component", "app"),
		baseLog:  log,
		teleport: t,
	}
	a.Ranking = ranking.New(opt.Project, t, a.log, func() bool { return a.Imports.Running() })
	a.Crawling = crawling.New(opt.Project, a.Ranking, t, log)
	a.Communities = communities.New(opt.Project, a.Ranking, a.log)
	a.Lab = lab.NewService(opt.Project, a.Ranking, a.Communities, t, a.log)
	a.Imports = imports.New(opt.Project, a.Ranking, t, a.log, func() bool { return a.Crawling.Running() })
	switch p := opt.Project; {
	case opt.Search != nil:
		a.search = opt.Search
	case a.index != nil:
		a.search = a.index.Search
	default:
		a.search = func(context.Context, index.Query) (index.Result, error) {
			return index.Result{}, fault.Conflict(fmt.Errorf("search: the search index of %s is open in %s (pid %d) alone; close it and try again",
				p.Dir, p.Holder.Command, p.Holder.PID))
		}
	}
	return a
}

// Close stops a running crawl and waits for it to end. It does not close
// the project.
func (a *App) Close() {
	a.Crawling.Close()
	a.Lab.Close()
	a.Imports.Close()
}

// ProjectInfo describes the open project.
type ProjectInfo struct {
	// ID tells one project from another (the app keeps the librarian
	// chosen in a browser per project id); Name is the directory's name,
	// which every exported file's name starts with.
	ID         string   `json:"id"`
	Name       string   `json:"name"`
	Dir        string   `json:"dir"`
	Pages      int      `json:"pages"`
	Sites      int      `json:"sites"`
	Librarians []string `json:"librarians"`
	// Imports are the project's site-graph imports, oldest first: each
	// with its file, time and counts of sites and links (edges). Empty for
	// a crawled project.
	Imports []store.ImportStats `json:"imports"`
}

// Info returns the project directory and its size.
func (a *App) Info(ctx context.Context) (ProjectInfo, error) {
	pages, nsites, err := a.store.Stats(ctx)
	if err != nil {
		return ProjectInfo{}, err
	}
	libs, err := a.store.Librarians(ctx)
	if err != nil {
		return ProjectInfo{}, err
	}
	if libs == nil {
		libs = []string{}
	}
	imports, err := a.store.Imports(ctx)
	if err != nil {
		return ProjectInfo{}, err
	}
	id, err := a.store.ProjectID(ctx)
	if err != nil {
		return ProjectInfo{}, err
	}
	return ProjectInfo{ID: id, Name: a.projectName(), Dir: a.project.Dir, Pages: pages, Sites: nsites, Librarians: libs,
		Imports: export.List(imports)}, nil
}

// Sites lists sites, sorted, filtered and paginated by the store.
func (a *App) Sites(ctx context.Context, q store.SiteQuery) (SiteList, error) {
	if q.Librarian != "" {
		// The librarian's ratings fill the rows: "ana" reads Ana's.
		if l, err := a.store.LibrarianProfile(ctx, q.Librarian); err == nil {
			q.Librarian = l.Name
		}
	}
	total, rows, err := a.store.ListSites(ctx, q)
	if err != nil {
		return SiteList{}, err
	}
	if rows == nil {
		rows = []store.SiteRow{}
	}
	if err := a.Ranking.PlaceRows(ctx, rows); err != nil {
		return SiteList{}, err
	}
	archive, err := a.Imports.SitesArchive(ctx, rows) // import_archive.go
	if err != nil {
		return SiteList{}, err
	}
	graph, err := a.Ranking.LinkGraph(ctx)
	if err != nil {
		return SiteList{}, err
	}
	platforms, err := a.store.PlatformCount(ctx)
	if err != nil {
		return SiteList{}, err
	}
	return SiteList{Total: total, Offset: q.Offset, Limit: q.Limit, Rows: rows, Archive: archive, Graph: graph, Platforms: platforms}, nil
}

// SiteList is one page of the sites table.
type SiteList struct {
	Total  int             `json:"total"`
	Offset int             `json:"offset"`
	Limit  int             `json:"limit"`
	Rows   []store.SiteRow `json:"rows"`
	// Archive is what imported archives (CDX) and the Common Crawl graph
	// say of the listed sites, by name, for those they name.
	Archive map[string]store.SiteArchiveInfo `json:"archive,omitempty"`
	// Graph is the site graph the importance and the degrees come from.
	Graph ranking.LinkGraph `json:"graph"`
	// Platforms is the number of the project's platform sites, whatever
	// the query: what the Sites page says it hides or shows apart.
	Platforms int `json:"platforms"`
}

// Site returns one site's detail; librarian selects whose rating is shown as
// its Rating. With a librarian, the other librarians' ratings are withheld
// until that librarian has rated the site (as on the review page), so that
// they judge it unswayed; without one, every rating is shown.
func (a *App) Site(ctx context.Context, name, librarian string) (store.SiteDetail, error) {
	if librarian != "" {
		var err error
		if librarian, err = a.Librarian(ctx, librarian); err != nil {
			return store.SiteDetail{}, err
		}
	}
	d, err := a.store.Site(ctx, a.project.SiteName(name), librarian)
	if err != nil {
		return d, err
	}
	st, err := a.Ranking.Standings(ctx)
	if err != nil {
		return store.SiteDetail{}, err
	}
	d.Standing = st.OfSite(d.Platform, d.OPIC, d.PageRank)
	ranking.ScoreLinks(st, d.InLinks)
	ranking.ScoreLinks(st, d.OutLinks)
	if librarian == "" {
		return d, nil
	}
	// Until the librarian has rated the site the others' ratings are
	// withheld, their own note alone shown.
	if own, _, _ := blind(d.Ratings, librarian); own == nil {
		d.Ratings = []store.Rating{}
	} else if own.Rating == 0 {
		d.Ratings = []store.Rating{*own}
	}
	return d, nil
}

// CheckRating returns a bad-request error unless value is a rating, a
// whole number from 1 to 4.
func CheckRating(value int) error {
	if value < store.MinRating || value > store.MaxRating {
		return fault.Invalid(fmt.Errorf("rating %d is not 1, 2, 3 or 4 (a note alone is kept with a note, not a rating)", value))
	}
	return nil
}

// Rate records a librarian's rating (1–4) of a site. The librarian must
// be a profile of the project (see [App.Librarian]).
func (a *App) Rate(ctx context.Context, librarian, site string, value int, note string) (store.Rating, error) {
	if err := CheckRating(value); err != nil {
		return store.Rating{}, err
	}
	name, err := a.Librarian(ctx, librarian)
	if err != nil {
		return store.Rating{}, err
	}
	return a.store.SetRating(ctx, name, a.project.SiteName(site), value, note)
}

// Rerate records a librarian's rating (1–4) of a site, keeping the note
// already stored.
func (a *App) Rerate(ctx context.Context, librarian, site string, value int) (store.Rating, error) {
	if err := CheckRating(value); err != nil {
		return store.Rating{}, err
	}
	name, err := a.Librarian(ctx, librarian)
	if err != nil {
		return store.Rating{}, err
	}
	return a.store.Rerate(ctx, name, a.project.SiteName(site), value)
}

// Unrate removes a librarian's rating of a site.
func (a *App) Unrate(ctx context.Context, librarian, site string) error {
	name, err := a.Librarian(ctx, librarian)
	if err != nil {
		return err
	}
	return a.store.DeleteRating(ctx, name, a.project.SiteName(site))
}

// SearchResult is one page of search results.
type SearchResult struct {
	Total  uint64      `json:"total"`
	TookMS float64     `json:"took_ms"`
	Hits   []SearchHit `json:"hits"`
	// Facets are the sites with the most hits, most first, when the query
	// asked for them (index.Query.FacetSites); empty otherwise.
	Facets []index.SiteCount `json:"facets"`
	// Ignored are the query's words too common to search for, left out of
	// the search (index.Result.Ignored).
	Ignored []string `json:"ignored"`
}

// SearchFacetSites is the number of sites of the facet of GET /api/search.
const SearchFacetSites = 10

// SearchHit is one matching page.
type SearchHit struct {
	URL   string  `json:"url"`
	Site  string  `json:"site"`
	Title string  `json:"title"`
	Score float64 `json:"score"`
	// Relevance is Score as 0–100 of the best hit's over all hits
	// ([Score100]): the best match of the query is 100.
	Relevance int    `json:"relevance"`
	Snippet   string `json:"snippet"`
	// Language is the page's language (ISO 639-1), as its main text was
	// told and indexed; "" when unknown.
	Language string `json:"language"`
}

// Search runs a full-text query over the crawled pages: every plain word
// required unless q.Any. A query that cannot run is a bad request whose
// message says why in plain words (an [*index.QueryError], whose details
// name the problem and the character it is at).
func (a *App) Search(ctx context.Context, q index.Query) (SearchResult, error) {
	res, err := a.search(ctx, q)
	if errors.Is(err, index.ErrBadQuery) {
		return SearchResult{}, fault.Invalid(err)
	}
	if err != nil {
		return SearchResult{}, err
	}
	out := SearchResult{Total: res.Total, TookMS: float64(res.Took.Microseconds()) / 1000, Hits: make([]SearchHit, len(res.Hits)),
		Facets: export.List(res.Sites), Ignored: export.List(res.Ignored)}
	for i, h := range res.Hits {
		out.Hits[i] = SearchHit{URL: h.URL, Site: h.Site, Title: h.Title, Score: h.Score, Snippet: h.Snippet,
			Language: h.Language, Relevance: ranking.Score100(h.Score, res.MaxScore)}
	}
	return out, nil
}

// Warm ranks the sites and counts them in the background, so that the
// first page of the sites table a window or a browser asks for does not
// wait for it (over a second at a million sites). A listing asked for
// meanwhile waits for it rather than ranking the sites a second time.
func (a *App) Warm() {
	go func() {
		_, _ = a.Sites(context.Background(), store.SiteQuery{Sort: "opic", Desc: true, Limit: 1})
	}()
}

// Set returns a pointer to v, for the fields of a [crawling.SettingsUpdate].
func Set[T any](v T) *T { return &v }
