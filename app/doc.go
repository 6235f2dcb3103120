// Package app is sitesift's service: an [App] over one open [project.Project] (the
// SQLite store and the Bleve index under one directory), with one method
// per thing a librarian or a crawl operator does — start a crawl, import a
// graph, rank, search, rate, review, select, extract communities and keep
// them as collections, export, run an experiment. It is the only package
// that combines crawl, importance and sites, and every rule lives here
// once: which sites a seed list holds, who may see whose rating, who may
// approve a nomination, which librarians exist, what each exported file is
// called, when a request is refused.
//
// Adapters translate between people and these methods and decide nothing:
//
//	app/httpapi  the JSON API and the frontend's files, one http.Handler for
//	             the desktop window and `sitesift serve`
//	app/cli      the command line: flags, printing, exit statuses
//
// Its helpers do one job each: app/export writes txt, CSV (formulas
// neutralised) and JSON; app/lab runs the papers' experiments and writes
// their files; app/plot draws their charts; app/apptest builds projects for
// tests.
//
// Communities are cores of sites: the seeds paper's method (HITS-ranking.Ranking,
// the best cover-density core taken out, again; package importance) runs
// on the site graph, each link between two sites once, and a core counts
// with at least 2 hub sites and 2 authority sites. The paper's page graph
// made one publisher's pages, all linking to its own footer, a community;
// it stays the graph of the paper's evaluation in the lab.
//
// One process at a time holds a project ([project.Open]): the
// others are told which process it is, and the commands that only read
// open it beside that process ([project.ReadOnlyBeside]).
//
// Errors carry a [fault.Kind] (invalid, not found, conflict, internal) that each
// adapter maps to its own terms: an HTTP status, an exit status.
//
// app must not import its adapters, and nothing here reads flags, writes to
// a terminal or knows HTTP.
//
//	p, err := project.Open(dir, true)
//	...
//	a := app.New(app.Options{Project: p, Logger: log})
//	defer a.Close()
//	rows, err := a.Ranking.Rank(ctx, 20)
package app
