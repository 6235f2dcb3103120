// Package app is sitesift's service: an [App] over one open
// [project.Project] (the SQLite store and the Bleve index under one
// directory), composed of one service per feature.
//
// Each service has one method per thing a librarian or a crawl operator
// does:
//
//	App.Ranking      app/ranking      PageRank, offline OPIC, standings, platforms
//	App.Crawling     app/crawling     crawls and recrawls, WARC files
//	App.Imports      app/imports      edge lists, WARC/ARC, CDX, crawl logs, Common Crawl
//	App.Communities  app/communities  HITS cores, topics, collections
//	App.Lab          app/lab          the papers' experiments
//	App.Review       app/review       sites, search, ratings, queue, selection, agreement
//	App.Exports      app/exports      seed lists, tables, crawler configurations, WACZ
//
// The services stand on app/project (open, lock, journal, the project's
// settings, the site a name means, a librarian's name), app/fault (the
// kinds of errors) and the job runner and memo of app/internal; they
// depend on one another one way:
// project ← ranking ← crawling, imports, communities ← lab, review ←
// exports. Each rule lives once, in its service: which sites a seed list
// holds, who may see whose rating, who may approve a nomination, which
// librarians exist, what each exported file is called, when a request is
// refused. The App itself only builds them, checks the project as a whole
// ([App.Check]), shows its settings ([App.Settings];
// [ranking.Service.SetSettings] changes them, computing the importance
// again when the link graph changes) and closes what runs ([App.Close]).
//
// Adapters translate between people and these methods and decide nothing:
//
//	app/httpapi  the JSON API and the frontend's files, one http.Handler for
//	             the desktop window and `sitesift serve`
//	app/cli      the command line: flags, printing, exit statuses
//
// Their helpers do one job each: app/export writes txt, CSV (formulas
// neutralised) and JSON; app/plot draws the lab's charts; app/apptest
// builds projects for tests.
//
// One process at a time holds a project ([project.Open]): the others are
// told which process it is, and the commands that only read open it beside
// that process ([project.ReadOnlyBeside]).
//
// Errors carry a [fault.Kind] (invalid, not found, conflict, internal) that
// each adapter maps to its own terms: an HTTP status, an exit status.
//
// app must not import its adapters, and nothing here reads flags, writes to
// a terminal or knows HTTP (architecture_test.go holds these rules).
//
//	p, err := project.Open(dir, true)
//	...
//	a := app.New(app.Options{Project: p, Logger: log})
//	defer a.Close()
//	rows, err := a.Ranking.Rank(ctx, 20)
package app
