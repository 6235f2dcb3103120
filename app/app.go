package app

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"sitesift/app/communities"
	"sitesift/app/crawling"
	"sitesift/app/export"
	"sitesift/app/exports"
	"sitesift/app/fault"
	"sitesift/app/imports"
	"sitesift/app/lab"
	"sitesift/app/project"
	"sitesift/app/ranking"
	"sitesift/app/review"
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
	// Crawling crawls and recrawls (package crawling).
	Crawling *crawling.Service
	// Review is the librarians' side: sites, search, ratings, the review
	// queue, selection and agreement (package review).
	Review *review.Service
	// Exports writes what the project hands over (package exports).
	Exports *exports.Service
	// Imports reads into the project what other tools wrote (package
	// imports).
	Imports *imports.Service

	project *project.Project
	store   *store.Store
	index   *index.Index
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
	a := &App{project: opt.Project, store: opt.Project.Store, index: opt.Project.Index}
	// The crawler tags the logger given with its own component; the
	// services log as the app.
	appLog := log.With("component", "app")
	a.Ranking = ranking.New(opt.Project, t, appLog, func() bool { return a.Imports.Running() })
	a.Crawling = crawling.New(opt.Project, a.Ranking, t, log)
	a.Communities = communities.New(opt.Project, a.Ranking, appLog)
	a.Lab = lab.NewService(opt.Project, a.Ranking, a.Communities, t, appLog)
	a.Imports = imports.New(opt.Project, a.Ranking, t, appLog, func() bool { return a.Crawling.Running() })
	// The review searches the project's index, or asks the holder's.
	var search func(context.Context, index.Query) (index.Result, error)
	switch p := opt.Project; {
	case opt.Search != nil:
		search = opt.Search
	case a.index != nil:
		search = a.index.Search
	default:
		search = func(context.Context, index.Query) (index.Result, error) {
			return index.Result{}, fault.Conflict(fmt.Errorf("search: the search index of %s is open in %s (pid %d) alone; close it and try again",
				p.Dir, p.Holder.Command, p.Holder.PID))
		}
	}
	a.Review = review.New(opt.Project, search, review.Services{Ranking: a.Ranking, Communities: a.Communities}, appLog)
	a.Exports = exports.New(opt.Project, exports.Services{Ranking: a.Ranking, Communities: a.Communities,
		Crawling: a.Crawling, Review: a.Review})
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
	Imports []imports.ImportStats `json:"imports"`
	// ArchiveImports are the files imported from web archives (WARC, ARC,
	// CDX, crawl logs, Common Crawl graphs), oldest first, each with what
	// it added (its summary): the Crawl page of a project made by such an
	// import shows them, where a crawl's status would show nothing.
	ArchiveImports []imports.ArchiveImport `json:"archive_imports"`
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
	graphs, err := a.Imports.SiteGraphImports(ctx)
	if err != nil {
		return ProjectInfo{}, err
	}
	archives, err := a.Imports.ArchiveImports(ctx)
	if err != nil {
		return ProjectInfo{}, err
	}
	id, err := a.store.ProjectID(ctx)
	if err != nil {
		return ProjectInfo{}, err
	}
	return ProjectInfo{ID: id, Name: a.project.Name(), Dir: a.project.Dir, Pages: pages, Sites: nsites, Librarians: libs,
		Imports: export.List(graphs), ArchiveImports: export.List(archives)}, nil
}

// Settings returns the project's settings (crawl politeness, site rule,
// window policy, approval, link graph); [ranking.Service.SetSettings]
// changes them.
func (a *App) Settings(ctx context.Context) (project.Settings, error) {
	return a.project.Settings(ctx)
}

// Set returns a pointer to v, for the fields of a [project.SettingsUpdate].
func Set[T any](v T) *T { return &v }
