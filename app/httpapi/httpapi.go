package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"strings"

	"sitesift/app"
	"sitesift/app/crawling"
	"sitesift/app/fault"
	"sitesift/app/project"
	"sitesift/app/projects"
	"sitesift/app/review"
)

// Option configures the handler of [New].
type Option func(*config)

type config struct {
	assets fs.FS
	log    *slog.Logger
	guard  guard
	// dialogs, given by the desktop window only, add its file routes.
	dialogs Dialogs
	// gates are the turns of the costly requests (costly.go); a test may
	// hold them.
	gates gates
	// feeds are the job streams (jobfeed.go); a test may shorten their
	// keep-alive.
	feeds *feeds
	// switcher, given by [Switching] alone, holds the open project and
	// adds the projects routes.
	switcher *projects.Switcher
	// team holds the accounts of a team server (team.go).
	team team
	// replay is the replay origin (replay.go), nil when the server has
	// none: the captures then name no frame to replay them in.
	replay *ReplayOrigin
}

// Assets serves the built frontend (frontend/dist) beside the API; without
// it only the API is served.
func Assets(assets fs.FS) Option { return func(c *config) { c.assets = assets } }

// Logger receives a line for every API call (info level) and every failed
// one (error level); without it nothing is logged.
func Logger(l *slog.Logger) Option { return func(c *config) { c.log = l } }

// handler holds what the endpoints need: the service and a logger.
type handler struct {
	app    *app.App
	log    *slog.Logger
	gates  gates         // the turns of the costly requests (costly.go)
	feeds  *feeds        // the job streams (jobfeed.go)
	replay *ReplayOrigin // the replay origin, or nil (replay.go)
}

// New returns the one http.Handler of sitesift over a: the JSON API under
// /api/ (API.md) and the frontend's files elsewhere. The desktop window
// (through Wails' AssetServer) and `sitesift serve` both use it. Every
// request goes through the guard of guard.go first: only the app's own
// pages can change the project.
func New(a *app.App, opts ...Option) http.Handler {
	h, _ := build(a, opts...)
	return h
}

// build makes the handler of [New] and its route table.
func build(a *app.App, opts ...Option) (http.Handler, *router) {
	return buildWith(a, newConfig(opts...))
}

// newConfig applies opts.
func newConfig(opts ...Option) *config {
	c := &config{guard: guard{token: NewSecret(), hosts: map[string]bool{}}, gates: newGates(), feeds: newFeeds()}
	for _, o := range opts {
		o(c)
	}
	if c.log == nil {
		c.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return c
}

// buildWith makes the handler over a with the configuration c. With a
// switcher and no project open (a nil), the API answers only its session
// and the projects routes, and 409 no_project to the rest.
func buildWith(a *app.App, c *config) (http.Handler, *router) {
	h := &handler{app: a, log: c.log.With("component", "api"), gates: c.gates, feeds: c.feeds, replay: c.replay}
	mux := &router{mux: http.NewServeMux(), policy: newPolicy(c.gates, &c.guard)}
	mux.HandleFunc("GET /api/session", h.api(func(r *http.Request) (any, error) {
		return map[string]string{"token": c.guard.token}, nil
	}))
	h.routeCrawl(mux)
	h.routePlatforms(mux)   // platform sites: platforms.go
	h.routeWARC(mux)        // warc.go
	h.routeCommunities(mux) // communities, graph and exports: communities.go
	h.routeReview(mux)      // librarians, review, selection, ratings files, agreement: review.go
	h.routeExport(mux)      // the Export page's deliverables: export.go
	h.routeLab(mux)         // lab experiments run as background jobs: lab.go
	h.routeCollections(mux) // saved collections of communities and their seed lists: collections.go
	h.routeRecrawl(mux)     // recrawls and a site's importance over the crawls: recrawl.go
	// The desktop window's native file dialogs: desktop.go.
	h.routeDesktop(mux, c.dialogs, mux.mux)
	// The system browser, for what the window cannot show (replay): browser.go.
	if o, ok := c.dialogs.(BrowserOpener); ok {
		h.routeBrowser(mux, o, func() http.Handler {
			return New(a, Assets(c.assets), Logger(c.log), ServedAt("127.0.0.1"), Replay(c.replay))
		})
	}
	h.routeImports(mux)       // archive imports (WARC, CDX, crawl logs, Common Crawl): imports.go
	h.routeJobs(mux)          // the job feed, every job's status in one stream: jobfeed.go
	h.routeTeam(mux, &c.team) // sign-in, accounts and the audit log: team.go
	// Projects: list, open and create them (the window, serve --projects): projects.go.
	h.routeProjects(mux, c.switcher, c.dialogs)
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, &apiError{"not_found", http.StatusNotFound, fmt.Errorf("no API endpoint %s %s", r.Method, r.URL.Path)})
	})
	if c.assets != nil {
		if _, err := fs.Stat(c.assets, "index.html"); err == nil {
			mux.Handle("/", appFiles(c.assets))
		} else {
			mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				fmt.Fprint(w, noFrontendPage)
			})
		}
	}
	var served http.Handler = mux.mux
	if a == nil && c.switcher != nil {
		served = noProject(served)
	}
	// On a team server the session comes first: without one every call
	// is 401, whatever else it lacks (team.go).
	return securityHeaders(c.replay, h.logRequests(c.team.wrap(c.guard.wrap(served)))), mux
}

// noFrontendPage answers in place of the app when the binary was built
// without the frontend; the API works all the same.
const noFrontendPage = `<!doctype html><title>sitesift</title>
<p>This sitesift binary was built without its frontend. Build it with
<code>(cd frontend && npm ci && npm run build)</code>, then build the binary again.
The API under <a href="/api/project">/api/</a> works.</p>
`

// logRequests logs every API call.
func (h *handler) logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/") {
			h.log.Info("api", "method", r.Method, "path", r.URL.Path, "host", r.Host, "origin", r.Header.Get("Origin"))
		}
		next.ServeHTTP(w, r)
	})
}

// envelope is the body of every JSON answer, as Prometheus' API has it.
type envelope struct {
	Status    string `json:"status"`
	Data      any    `json:"data,omitempty"`
	ErrorType string `json:"error_type,omitempty"`
	Error     string `json:"error,omitempty"`
}

// apiError is an error of the HTTP layer itself (the guard, an unknown
// endpoint, an oversized body), with the type the API reports and its
// status. The service's errors carry an [fault.Kind] instead.
type apiError struct {
	kind   string
	status int
	err    error
}

func (e *apiError) Error() string { return e.err.Error() }
func (e *apiError) Unwrap() error { return e.err }

// statuses of the service's error kinds.
var statuses = map[fault.Kind]int{
	fault.KindInvalid:  http.StatusBadRequest,
	fault.KindNotFound: http.StatusNotFound,
	fault.KindConflict: http.StatusConflict,
	fault.KindInternal: http.StatusInternalServerError,
	// A team server's refusals (team.go).
	fault.KindUnauthorized: http.StatusUnauthorized,
	fault.KindForbidden:    http.StatusForbidden,
	fault.KindTooMany:      http.StatusTooManyRequests,
}

// classify maps an error to the API's error type and HTTP status.
func classify(err error) (string, int) {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae.kind, ae.status
	}
	k := fault.KindOf(err)
	return string(k), statuses[k]
}

// api adapts a function returning data or an error to the JSON envelope.
func (h *handler) api(f func(*http.Request) (any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		data, err := f(r)
		if err != nil {
			// A request that went away (the page moved on) stopped its
			// work: no one reads the answer, and it is no failure.
			if _, status := classify(err); status == http.StatusInternalServerError && r.Context().Err() == nil {
				h.log.Error("api", "path", r.URL.Path, "err", err)
			}
			writeError(w, err)
			return
		}
		writeEnvelope(w, http.StatusOK, envelope{Status: "success", Data: data})
	}
}

// accepted answers 202 with data: a job started and still running.
func accepted(w http.ResponseWriter, data any, err error) {
	if err != nil {
		writeError(w, err)
		return
	}
	writeEnvelope(w, http.StatusAccepted, envelope{Status: "success", Data: data})
}

func writeEnvelope(w http.ResponseWriter, status int, e envelope) {
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(e); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		fmt.Fprintf(&buf, `{"status":"error","error_type":"internal","error":%q}`+"\n", err.Error())
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

func writeError(w http.ResponseWriter, err error) {
	kind, status := classify(err)
	var data any
	var d fault.Details
	if errors.As(err, &d) {
		data = d.Details()
	}
	writeEnvelope(w, status, envelope{Status: "error", ErrorType: kind, Error: err.Error(), Data: data})
}

func decodeBody(r *http.Request, v any) error {
	// The guard caps the body (maxJSONBody); the cap here keeps that true
	// should the handler be reached some other way.
	dec := json.NewDecoder(http.MaxBytesReader(nil, r.Body, maxJSONBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return bodyError("request body", err)
	}
	return nil
}

// readBody reads a whole request body of at most limit bytes.
func readBody(r *http.Request, what string, limit int64) ([]byte, error) {
	body, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, limit))
	if err != nil {
		return nil, bodyError(what, err)
	}
	return body, nil
}

// intParam reads an integer query parameter, def when absent.
func intParam(r *http.Request, name string, def int) (int, error) {
	s := r.FormValue(name)
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, fault.Invalid(fmt.Errorf("parameter %s=%q is not a non-negative integer", name, s))
	}
	return n, nil
}

// pageParams reads the offset (default 0) and limit (default def) of a
// listing.
func pageParams(r *http.Request, def int) (offset, limit int, err error) {
	if offset, err = intParam(r, "offset", 0); err != nil {
		return 0, 0, err
	}
	limit, err = intParam(r, "limit", def)
	return offset, limit, err
}

// floatParam reads a float query parameter, def when absent.
func floatParam(r *http.Request, name string, def float64) (float64, error) {
	s := r.FormValue(name)
	if s == "" {
		return def, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fault.Invalid(fmt.Errorf("parameter %s=%q is not a number", name, s))
	}
	return f, nil
}

// boolParam reads a boolean query parameter (1/true/0/false), false when
// absent.
func boolParam(r *http.Request, name string) (bool, error) {
	s := r.FormValue(name)
	if s == "" {
		return false, nil
	}
	v, err := strconv.ParseBool(s)
	if err != nil {
		return false, fault.Invalid(fmt.Errorf("parameter %s=%q is not true or false", name, s))
	}
	return v, nil
}

// biasParam reads the bias parameter, 0 (the default) when absent.
func biasParam(r *http.Request) (float64, error) {
	s := r.FormValue("bias")
	if s == "" {
		return 0, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !(v > 0) {
		return 0, fault.Invalid(fmt.Errorf("parameter bias=%q is not a positive number", s))
	}
	return v, nil
}

// routeCrawl registers the endpoints of the project, the crawl, the sites
// table, a page's text, ratings and search.
func (h *handler) routeCrawl(mux *router) {
	a := h.app
	mux.HandleFunc("GET /api/project", h.api(func(r *http.Request) (any, error) { return a.Info(r.Context()) }))
	mux.HandleFunc("GET /api/crawl", h.api(func(r *http.Request) (any, error) { return a.Crawling.Status(), nil }))
	mux.HandleFunc("POST /api/crawl", h.startCrawl)
	mux.HandleFunc("POST /api/crawl/pause", h.api(func(r *http.Request) (any, error) { return a.Crawling.PauseAs(r.Context()) }))
	mux.HandleFunc("POST /api/crawl/resume", h.api(func(r *http.Request) (any, error) { return a.Crawling.ResumeAs(r.Context()) }))
	mux.HandleFunc("POST /api/crawl/stop", h.api(func(r *http.Request) (any, error) { return a.Crawling.StopAs(r.Context()) }))
	mux.HandleFunc("GET /api/settings", h.api(func(r *http.Request) (any, error) { return a.Settings(r.Context()) }))
	mux.HandleFunc("PUT /api/settings", h.api(func(r *http.Request) (any, error) {
		var u project.SettingsUpdate
		if err := decodeBody(r, &u); err != nil {
			return nil, err
		}
		return a.Ranking.SetSettings(r.Context(), u)
	}))
	mux.HandleFunc("GET /api/crawl/events", h.crawlEvents)
	mux.HandleFunc("GET /api/crawl/errors", h.api(h.crawlErrors))
	mux.HandleFunc("GET /api/crawl/continuation", h.api(func(r *http.Request) (any, error) { return a.Crawling.Continuation(r.Context()) }))
	mux.HandleFunc("GET /api/sites", h.api(h.sites))
	mux.HandleFunc("GET /api/rank/basis", h.api(func(r *http.Request) (any, error) { return a.Ranking.Basis(r.Context()) }))
	mux.HandleFunc("GET /api/sites/{site}", h.api(func(r *http.Request) (any, error) {
		return a.Review.Site(r.Context(), r.PathValue("site"), r.FormValue("librarian"))
	}))
	// A page's text is a plain read of one row: another web site's page
	// can neither read it nor make it cost anything.
	mux.HandleFunc("GET /api/pages/text", h.api(func(r *http.Request) (any, error) {
		return a.Review.PageText(r.Context(), r.FormValue("url"))
	}))
	mux.HandleFunc("PUT /api/sites/{site}/rating", h.api(h.rate))
	mux.HandleFunc("DELETE /api/sites/{site}/rating", h.api(func(r *http.Request) (any, error) {
		return struct{}{}, a.Review.Unrate(r.Context(), r.FormValue("librarian"), r.PathValue("site"))
	}))
	mux.HandleFunc("GET /api/search", h.api(h.search))
}

func (h *handler) startCrawl(w http.ResponseWriter, r *http.Request) {
	// Fields absent from the body keep the project's settings (or their
	// defaults); an explicit 0 delay stays 0.
	var req crawling.CrawlRequest
	if err := decodeBody(r, &req); err != nil {
		writeError(w, err)
		return
	}
	st, err := h.app.Crawling.StartAs(r.Context(), req)
	accepted(w, st, err)
}

func (h *handler) crawlErrors(r *http.Request) (any, error) {
	id, err := intParam(r, "crawl", 0)
	if err != nil {
		return nil, err
	}
	offset, limit, err := pageParams(r, 50)
	if err != nil {
		return nil, err
	}
	return h.app.Crawling.CrawlErrors(r.Context(), crawling.CrawlErrorsRequest{Crawl: int64(id), Site: r.FormValue("site"),
		Class: r.FormValue("class"), Offset: offset, Limit: limit})
}

func (h *handler) sites(r *http.Request) (any, error) {
	offset, limit, err := pageParams(r, 50)
	if err != nil {
		return nil, err
	}
	if limit == 0 || limit > 500 {
		return nil, fault.Invalid(fmt.Errorf("parameter limit=%d must lie in 1..500", limit))
	}
	sort := r.FormValue("sort")
	if sort == "" {
		sort = "opic"
	}
	order := r.FormValue("order")
	if order != "" && order != "asc" && order != "desc" {
		return nil, fault.Invalid(fmt.Errorf("parameter order=%q must be asc or desc", order))
	}
	return h.app.Review.Sites(r.Context(), review.SiteQuery{
		Sort: sort, Desc: order != "asc", Filter: r.FormValue("q"),
		Offset: offset, Limit: limit, Librarian: r.FormValue("librarian"), Status: r.FormValue("status"),
		Archived: r.FormValue("archived"), Platforms: r.FormValue("platforms"),
	})
}

func (h *handler) rate(r *http.Request) (any, error) {
	var body rateBody
	if err := decodeBody(r, &body); err != nil {
		return nil, err
	}
	if body.Note == nil {
		return h.app.Review.Rerate(r.Context(), body.Librarian, r.PathValue("site"), body.Rating)
	}
	return h.app.Review.Rate(r.Context(), body.Librarian, r.PathValue("site"), body.Rating, *body.Note)
}

func (h *handler) search(r *http.Request) (any, error) {
	offset, limit, err := pageParams(r, 20)
	if err != nil {
		return nil, err
	}
	q := strings.TrimSpace(r.FormValue("q"))
	if q == "" {
		return nil, fault.Invalid(errors.New("search: empty query"))
	}
	anyWord, err := boolParam(r, "any")
	if err != nil {
		return nil, err
	}
	return h.app.Review.Search(r.Context(), review.Query{Text: q, Site: r.FormValue("site"), Offset: offset, Limit: limit, FacetSites: review.SearchFacetSites, Any: anyWord})
}

// rateBody is the body of PUT /api/sites/{site}/rating.
type rateBody struct {
	Librarian string  `json:"librarian"`
	Rating    int     `json:"rating"`
	Note      *string `json:"note"` // absent or null: keep the stored note
}
