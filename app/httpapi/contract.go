package httpapi

import (
	"sitesift/app"
	"sitesift/app/accounts"
	"sitesift/app/communities"
	"sitesift/app/crawling"
	"sitesift/app/exports"
	"sitesift/app/imports"
	"sitesift/app/lab"
	"sitesift/app/project"
	"sitesift/app/projects"
	"sitesift/app/ranking"
	"sitesift/app/review"
)

// Route is one route of the API with the Go types its JSON travels in: the
// wire contract the frontend's TypeScript types are generated from
// (tools/tsapi), so that a renamed field breaks the frontend's type check
// rather than its pages.
type Route struct {
	// Pattern is the route as registered on the mux: "GET /api/sites/{site}".
	Pattern string
	// Requests are the types of the JSON body, a value of each; none for a
	// route without one, several when a path value chooses (the lab's
	// experiments).
	Requests []any
	// Response is the type of the envelope's data, nil for a route that
	// answers with a file or a stream (Body says which).
	Response any
	// Error is the type of the data an error envelope carries, nil for none.
	Error any
	// Body names what a route without a JSON answer sends.
	Body string
	// cost says whether a GET of the route may come from a page of another
	// web site (costly.go); a route that does not say is refused as costly,
	// and routes_test.go fails on a GET that does not say.
	cost cost
	// turn is the gate (costly.go) the route waits at before it runs, none
	// when zero: every export takes the project's one turn.
	turn turn
}

// Contract lists every route of the API, in the order API.md has them;
// routes_test.go holds it to the mux and to API.md.
func Contract() []Route {
	var (
		crawl      = crawling.CrawlStatus{}
		importSt   = imports.ImportStatus{}
		labJob     = lab.JobStatus{}
		collection = communities.Collection{}
		rating     = review.Rating{}
		file       = "a file (Content-Disposition: attachment)"
	)
	return []Route{
		{Pattern: "GET /api/session", Response: map[string]string{}, cost: cheap},
		{Pattern: "GET /api/project", Response: app.ProjectInfo{}, cost: cheap},

		{Pattern: "POST /api/crawl", Requests: []any{crawling.CrawlRequest{}}, Response: crawl},
		{Pattern: "POST /api/crawl/recrawl", Requests: []any{crawling.CrawlRequest{}}, Response: crawl},
		{Pattern: "GET /api/sites/{site}/recrawls", Response: crawling.SiteRecrawls{}, cost: cheap},
		{Pattern: "GET /api/recrawl/changed", Response: map[string]crawling.RecrawlCounts{}, cost: cheap},
		{Pattern: "POST /api/crawl/pause", Response: crawl},
		{Pattern: "POST /api/crawl/resume", Response: crawl},
		{Pattern: "POST /api/crawl/stop", Response: crawl},
		{Pattern: "GET /api/crawl", Response: crawl, cost: cheap},
		{Pattern: "GET /api/settings", Response: project.Settings{}, cost: cheap},
		{Pattern: "PUT /api/settings", Requests: []any{project.SettingsUpdate{}}, Response: project.Settings{}},
		{Pattern: "GET /api/crawl/continuation", Response: crawling.Continuation{}, cost: cheap},
		{Pattern: "GET /api/crawl/errors", Response: crawling.CrawlErrors{}, cost: cheap},
		{Pattern: "GET /api/crawl/events", Body: "text/event-stream of crawl statuses", cost: costly},

		{Pattern: "GET /api/warcs", Response: []crawling.WARCFile{}, cost: cheap},
		{Pattern: "GET /api/warcs/{name}", Body: file, cost: costly},
		{Pattern: "GET /api/wacz", Response: exports.WACZInfo{}, cost: cheap},
		{Pattern: "GET /api/wacz/download", Body: file, cost: costly, turn: computeTurn},
		{Pattern: "GET /api/sites/{site}/captures", Response: SiteReplay{}, cost: costly},
		{Pattern: "GET /api/sites/{site}/captures/{file}", Body: file, cost: cheap},

		{Pattern: "POST /api/imports/upload", Response: map[string]string{}, Body: "the request body is the file"},
		{Pattern: "POST /api/imports", Requests: []any{imports.ArchiveImportRequest{}}, Response: importSt},
		{Pattern: "POST /api/imports/edges", Requests: []any{imports.EdgeImportRequest{}}, Response: imports.ImportResult{},
			Error: imports.EdgeListRefusal{}, turn: computeTurn},
		{Pattern: "GET /api/imports/status", Response: importSt, cost: cheap},
		{Pattern: "POST /api/imports/cancel", Response: importSt},
		{Pattern: "GET /api/imports", Response: []imports.ArchiveImport{}, cost: cheap},

		{Pattern: "GET /api/jobs", Response: Jobs{}, cost: cheap},
		{Pattern: "GET /api/jobs/events", Body: "text/event-stream: events crawl, import and lab, each with that field of GET /api/jobs", cost: costly},

		{Pattern: "GET /api/sites", Response: review.SiteList{}, cost: cheap},
		{Pattern: "GET /api/rank/basis", Response: ranking.Basis{}, cost: costly},
		{Pattern: "GET /api/sites/{site}", Response: review.SiteDetail{}, cost: cheap},
		{Pattern: "GET /api/pages/text", Response: review.PageText{}, cost: cheap},
		{Pattern: "PUT /api/sites/{site}/platform", Requests: []any{platformBody{}}, Response: ranking.PlatformChoice{}},
		{Pattern: "GET /api/platforms", Response: ranking.PlatformSummary{}, cost: cheap},
		{Pattern: "PUT /api/sites/{site}/rating", Requests: []any{rateBody{}}, Response: rating},
		{Pattern: "PUT /api/sites/{site}/note", Requests: []any{noteBody{}}, Response: rating},
		{Pattern: "DELETE /api/sites/{site}/rating", Response: struct{}{}},

		{Pattern: "GET /api/search", Response: review.SearchResult{}, Error: review.QueryErrorDetails(), cost: costly, turn: searchTurn},

		{Pattern: "GET /api/communities", Response: []communities.Community{}, cost: costly, turn: computeTurn},
		{Pattern: "GET /api/graph", Response: communities.GraphView{}, cost: costly, turn: computeTurn},

		{Pattern: "GET /api/collections", Response: []communities.CollectionSummary{}, cost: cheap},
		{Pattern: "POST /api/collections", Requests: []any{newCollectionBody{}}, Response: collection, turn: computeTurn},
		{Pattern: "GET /api/collections/{id}", Response: collection, cost: cheap},
		{Pattern: "PATCH /api/collections/{id}", Requests: []any{renameBody{}}, Response: collection},
		{Pattern: "PATCH /api/collections/{id}/communities/{core}", Requests: []any{communityEditBody{}}, Response: collection},
		{Pattern: "POST /api/collections/{id}/seeds", Requests: []any{seedBody{}}, Response: collection},
		{Pattern: "DELETE /api/collections/{id}/seeds", Response: collection},
		{Pattern: "DELETE /api/collections/{id}", Response: nil, Body: "data null"},
		{Pattern: "GET /api/collections/{id}/{file}", Body: file, cost: costly, turn: computeTurn},

		{Pattern: "GET /api/exports", Response: []exportItem{}, cost: cheap},
		{Pattern: "GET /api/export/{what}", Body: file, cost: costly, turn: computeTurn},
		{Pattern: "GET /api/export/{what}/left-out", Response: leftOut{}, cost: costly, turn: computeTurn},
		{Pattern: "GET /api/export/seeds", Body: file, cost: costly, turn: computeTurn},
		{Pattern: "POST /api/export/seeds", Requests: []any{editedSeedsBody{}}, Body: file, turn: computeTurn},
		{Pattern: "GET /api/export/heritrix", Body: file, cost: costly, turn: computeTurn},
		{Pattern: "GET /api/export/ratings.csv", Body: file, cost: costly, turn: computeTurn},

		{Pattern: "POST /api/lab/{experiment}", Requests: []any{lab.ConvergenceParams{}, lab.WindowsParams{}, lab.NormLeakParams{}, lab.LinksParams{}}, Response: labJob},
		{Pattern: "GET /api/lab/jobs/{id}", Response: labJob, cost: cheap},
		{Pattern: "GET /api/lab/jobs", Response: []lab.JobStatus{}, cost: cheap},
		{Pattern: "POST /api/lab/jobs/{id}/cancel", Response: labJob},
		{Pattern: "GET /api/lab/jobs/{id}/svg", Body: "image/svg+xml", cost: costly},
		{Pattern: "GET /api/lab/jobs/{id}/csv", Body: "text/csv", cost: costly},
		{Pattern: "GET /api/lab/jobs/{id}/files/{name}", Body: "a file of the job", cost: costly},

		{Pattern: "GET /api/librarians", Response: []review.Librarian{}, cost: cheap},
		{Pattern: "POST /api/librarians", Requests: []any{librarianBody{}}, Response: review.Librarian{}},
		{Pattern: "GET /api/review/queue", Response: review.ReviewQueue{}, cost: costly},
		{Pattern: "GET /api/sites/{site}/review", Response: review.ReviewPage{}, cost: costly},
		{Pattern: "PUT /api/sites/{site}/selection", Requests: []any{selectionBody{}}, Response: review.Selection{}},
		{Pattern: "GET /api/selection", Response: []review.SelectedSeed{}, cost: costly},
		{Pattern: "GET /api/export/selection", Body: file, cost: costly, turn: computeTurn},
		{Pattern: "POST /api/ratings/import", Response: review.RatingsImport{}, Error: review.RatingsRefusal{}, Body: "the request body is the CSV file"},
		{Pattern: "GET /api/ratings/export", Body: file, cost: costly, turn: computeTurn},

		{Pattern: "GET /api/agreement", Response: review.Agreement{}, cost: costly, turn: computeTurn},
		{Pattern: "GET /api/rank/biased", Response: []ranking.BiasedRankRow{}, cost: costly, turn: computeTurn},

		{Pattern: "POST /api/login", Requests: []any{loginBody{}}, Response: Me{}},
		{Pattern: "POST /api/logout", Response: struct{}{}},
		{Pattern: "GET /api/me", Response: Me{}, cost: cheap},
		{Pattern: "PUT /api/me/password", Requests: []any{passwordBody{}}, Response: struct{}{}},
		{Pattern: "GET /api/accounts", Response: []accounts.Account{}, cost: cheap},
		{Pattern: "POST /api/accounts", Requests: []any{accountBody{}}, Response: accounts.Granted{}},
		{Pattern: "PUT /api/accounts/{name}", Requests: []any{accountChangeBody{}}, Response: accounts.Granted{}},
		{Pattern: "GET /api/audit", Response: []review.AuditEntry{}, cost: cheap},

		{Pattern: "POST /api/desktop/save", Requests: []any{saveRequest{}}, Response: Saved{}},
		{Pattern: "POST /api/desktop/open", Requests: []any{openRequest{}}, Response: Opened{}},
		{Pattern: "POST /api/desktop/choose", Requests: []any{openRequest{}}, Response: Chosen{}},
		{Pattern: "POST /api/desktop/browser", Requests: []any{browserRequest{}}, Response: BrowserOpened{}},

		{Pattern: "GET /api/projects", Response: projects.State{}, cost: cheap},
		{Pattern: "POST /api/projects/open", Requests: []any{ProjectRequest{}}, Response: ProjectOpened{}},
		{Pattern: "POST /api/projects/create", Requests: []any{ProjectRequest{}}, Response: ProjectOpened{}},
		{Pattern: "POST /api/projects/open-dialog", Response: ProjectOpened{}},
		{Pattern: "POST /api/projects/new-dialog", Response: ProjectOpened{}},
	}
}
