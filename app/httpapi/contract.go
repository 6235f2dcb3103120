package httpapi

import (
	"sitesift/app"
	"sitesift/app/accounts"
	"sitesift/app/communities"
	"sitesift/app/crawling"
	"sitesift/app/exports"
	"sitesift/app/imports"
	"sitesift/app/lab"
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
		{Pattern: "GET /api/session", Response: map[string]string{}},
		{Pattern: "GET /api/project", Response: app.ProjectInfo{}},

		{Pattern: "POST /api/crawl", Requests: []any{crawling.CrawlRequest{}}, Response: crawl},
		{Pattern: "POST /api/crawl/recrawl", Requests: []any{crawling.CrawlRequest{}}, Response: crawl},
		{Pattern: "GET /api/sites/{site}/recrawls", Response: crawling.SiteRecrawls{}},
		{Pattern: "GET /api/recrawl/changed", Response: map[string]crawling.RecrawlCounts{}},
		{Pattern: "POST /api/crawl/pause", Response: crawl},
		{Pattern: "POST /api/crawl/resume", Response: crawl},
		{Pattern: "POST /api/crawl/stop", Response: crawl},
		{Pattern: "GET /api/crawl", Response: crawl},
		{Pattern: "GET /api/settings", Response: crawling.Settings{}},
		{Pattern: "PUT /api/settings", Requests: []any{crawling.SettingsUpdate{}}, Response: crawling.Settings{}},
		{Pattern: "GET /api/crawl/continuation", Response: crawling.Continuation{}},
		{Pattern: "GET /api/crawl/errors", Response: crawling.CrawlErrors{}},
		{Pattern: "GET /api/crawl/events", Body: "text/event-stream of crawl statuses"},

		{Pattern: "GET /api/warcs", Response: []crawling.WARCFile{}},
		{Pattern: "GET /api/warcs/{name}", Body: file},
		{Pattern: "GET /api/wacz", Response: exports.WACZInfo{}},
		{Pattern: "GET /api/wacz/download", Body: file},
		{Pattern: "GET /api/sites/{site}/captures", Response: exports.SiteCaptures{}},
		{Pattern: "GET /api/sites/{site}/captures/{file}", Body: file},

		{Pattern: "POST /api/imports/upload", Response: map[string]string{}, Body: "the request body is the file"},
		{Pattern: "POST /api/imports", Requests: []any{imports.ArchiveImportRequest{}}, Response: importSt},
		{Pattern: "GET /api/imports/status", Response: importSt},
		{Pattern: "POST /api/imports/cancel", Response: importSt},
		{Pattern: "GET /api/imports", Response: []imports.ArchiveImport{}},

		{Pattern: "GET /api/jobs", Response: Jobs{}},
		{Pattern: "GET /api/jobs/events", Body: "text/event-stream: events crawl, import and lab, each with that field of GET /api/jobs"},

		{Pattern: "GET /api/sites", Response: review.SiteList{}},
		{Pattern: "GET /api/sites/{site}", Response: review.SiteDetail{}},
		{Pattern: "GET /api/pages/text", Response: review.PageText{}},
		{Pattern: "PUT /api/sites/{site}/platform", Requests: []any{platformBody{}}, Response: ranking.PlatformChoice{}},
		{Pattern: "GET /api/platforms", Response: ranking.PlatformSummary{}},
		{Pattern: "PUT /api/sites/{site}/rating", Requests: []any{rateBody{}}, Response: rating},
		{Pattern: "PUT /api/sites/{site}/note", Requests: []any{noteBody{}}, Response: rating},
		{Pattern: "DELETE /api/sites/{site}/rating", Response: struct{}{}},

		{Pattern: "GET /api/search", Response: review.SearchResult{}, Error: review.QueryErrorDetails()},

		{Pattern: "GET /api/communities", Response: []communities.Community{}},
		{Pattern: "GET /api/graph", Response: communities.GraphView{}},

		{Pattern: "GET /api/collections", Response: []communities.CollectionSummary{}},
		{Pattern: "POST /api/collections", Requests: []any{newCollectionBody{}}, Response: collection},
		{Pattern: "GET /api/collections/{id}", Response: collection},
		{Pattern: "PATCH /api/collections/{id}", Requests: []any{renameBody{}}, Response: collection},
		{Pattern: "PATCH /api/collections/{id}/communities/{core}", Requests: []any{communityEditBody{}}, Response: collection},
		{Pattern: "POST /api/collections/{id}/seeds", Requests: []any{seedBody{}}, Response: collection},
		{Pattern: "DELETE /api/collections/{id}/seeds", Response: collection},
		{Pattern: "DELETE /api/collections/{id}", Response: nil, Body: "data null"},
		{Pattern: "GET /api/collections/{id}/{file}", Body: file},

		{Pattern: "GET /api/exports", Response: []exportItem{}},
		{Pattern: "GET /api/export/{what}", Body: file},
		{Pattern: "GET /api/export/{what}/left-out", Response: leftOut{}},
		{Pattern: "GET /api/export/seeds", Body: file},
		{Pattern: "POST /api/export/seeds", Requests: []any{editedSeedsBody{}}, Body: file},
		{Pattern: "GET /api/export/heritrix", Body: file},
		{Pattern: "GET /api/export/ratings.csv", Body: file},

		{Pattern: "POST /api/lab/{experiment}", Requests: []any{lab.ConvergenceParams{}, lab.WindowsParams{}, lab.NormLeakParams{}, lab.LinksParams{}}, Response: labJob},
		{Pattern: "GET /api/lab/jobs/{id}", Response: labJob},
		{Pattern: "GET /api/lab/jobs", Response: []lab.JobStatus{}},
		{Pattern: "POST /api/lab/jobs/{id}/cancel", Response: labJob},
		{Pattern: "GET /api/lab/jobs/{id}/svg", Body: "image/svg+xml"},
		{Pattern: "GET /api/lab/jobs/{id}/csv", Body: "text/csv"},
		{Pattern: "GET /api/lab/jobs/{id}/files/{name}", Body: "a file of the job"},

		{Pattern: "GET /api/librarians", Response: []review.Librarian{}},
		{Pattern: "POST /api/librarians", Requests: []any{librarianBody{}}, Response: review.Librarian{}},
		{Pattern: "GET /api/review/queue", Response: review.ReviewQueue{}},
		{Pattern: "GET /api/sites/{site}/review", Response: review.ReviewPage{}},
		{Pattern: "PUT /api/sites/{site}/selection", Requests: []any{selectionBody{}}, Response: review.Selection{}},
		{Pattern: "GET /api/selection", Response: []review.SelectedSeed{}},
		{Pattern: "GET /api/export/selection", Body: file},
		{Pattern: "POST /api/ratings/import", Response: review.RatingsImport{}, Error: review.RatingsRefusal{}, Body: "the request body is the CSV file"},
		{Pattern: "GET /api/ratings/export", Body: file},

		{Pattern: "GET /api/agreement", Response: review.Agreement{}},
		{Pattern: "GET /api/rank/biased", Response: []ranking.BiasedRankRow{}},

		{Pattern: "POST /api/login", Requests: []any{loginBody{}}, Response: Me{}},
		{Pattern: "POST /api/logout", Response: struct{}{}},
		{Pattern: "GET /api/me", Response: Me{}},
		{Pattern: "PUT /api/me/password", Requests: []any{passwordBody{}}, Response: struct{}{}},
		{Pattern: "GET /api/accounts", Response: []accounts.Account{}},
		{Pattern: "POST /api/accounts", Requests: []any{accountBody{}}, Response: accounts.Granted{}},
		{Pattern: "PUT /api/accounts/{name}", Requests: []any{accountChangeBody{}}, Response: accounts.Granted{}},
		{Pattern: "GET /api/audit", Response: []review.AuditEntry{}},

		{Pattern: "POST /api/desktop/save", Requests: []any{saveRequest{}}, Response: Saved{}},
		{Pattern: "POST /api/desktop/open", Requests: []any{openRequest{}}, Response: Opened{}},
		{Pattern: "POST /api/desktop/choose", Requests: []any{openRequest{}}, Response: Chosen{}},
		{Pattern: "POST /api/desktop/browser", Requests: []any{browserRequest{}}, Response: BrowserOpened{}},

		{Pattern: "GET /api/projects", Response: projects.State{}},
		{Pattern: "POST /api/projects/open", Requests: []any{ProjectRequest{}}, Response: ProjectOpened{}},
		{Pattern: "POST /api/projects/create", Requests: []any{ProjectRequest{}}, Response: ProjectOpened{}},
		{Pattern: "POST /api/projects/open-dialog", Response: ProjectOpened{}},
		{Pattern: "POST /api/projects/new-dialog", Response: ProjectOpened{}},
	}
}
