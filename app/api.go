package app

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
	"time"

	"sitesift/sites/index"
	"sitesift/sites/store"
)

// Handler returns the one http.Handler of sitesift: the JSON API under
// /api/ and the frontend's files elsewhere. The desktop window (through
// Wails' AssetServer) and `sitesift serve` both use it. Every request goes
// through the guard of guard.go first: only the app's own pages can change
// the project.
func (a *App) Handler(opts ...HandlerOption) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/session", a.api(func(r *http.Request) (any, error) {
		return map[string]string{"token": a.token}, nil
	}))
	mux.HandleFunc("GET /api/project", a.api(func(r *http.Request) (any, error) { return a.Info(r.Context()) }))
	mux.HandleFunc("GET /api/crawl", a.api(func(r *http.Request) (any, error) { return a.CrawlStatus(), nil }))
	mux.HandleFunc("POST /api/crawl", a.handleStartCrawl)
	mux.HandleFunc("POST /api/crawl/pause", a.api(func(r *http.Request) (any, error) { return a.PauseCrawl() }))
	mux.HandleFunc("POST /api/crawl/resume", a.api(func(r *http.Request) (any, error) { return a.ResumeCrawl() }))
	mux.HandleFunc("POST /api/crawl/stop", a.api(func(r *http.Request) (any, error) { return a.StopCrawl() }))
	mux.HandleFunc("GET /api/crawl/events", a.handleEvents)
	mux.HandleFunc("GET /api/sites", a.api(a.handleSites))
	mux.HandleFunc("GET /api/sites/{site}", a.api(func(r *http.Request) (any, error) {
		return a.Site(r.Context(), r.PathValue("site"), r.FormValue("librarian"))
	}))
	mux.HandleFunc("PUT /api/sites/{site}/rating", a.api(a.handleRate))
	mux.HandleFunc("DELETE /api/sites/{site}/rating", a.api(func(r *http.Request) (any, error) {
		return struct{}{}, a.Unrate(r.Context(), r.FormValue("librarian"), r.PathValue("site"))
	}))
	mux.HandleFunc("GET /api/search", a.api(a.handleSearch))
	a.routeCommunities(mux) // communities, graph and exports: communitiesapi.go
	a.routeReview(mux)      // librarians, review, selection, ratings files, agreement: reviewapi.go
	a.routeLab(mux)         // lab experiments run as background jobs: labapi.go
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, &apiError{"not_found", http.StatusNotFound, fmt.Errorf("no API endpoint %s %s", r.Method, r.URL.Path)})
	})
	if a.assets != nil {
		if _, err := fs.Stat(a.assets, "index.html"); err == nil {
			mux.Handle("/", http.FileServerFS(a.assets))
		} else {
			mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				fmt.Fprint(w, noFrontendPage)
			})
		}
	}
	return a.logRequests(newGuard(a.token, opts...).wrap(mux))
}

// noFrontendPage answers in place of the app when the binary was built
// without the frontend; the API works all the same.
const noFrontendPage = `<!doctype html><title>sitesift</title>
<p>This sitesift binary was built without its frontend. Build it with
<code>(cd frontend && npm ci && npm run build)</code>, then build the binary again.
The API under <a href="/api/project">/api/</a> works.</p>
`

// logRequests logs every API call at debug level and errors at warn level.
func (a *App) logRequests(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/") {
			a.log.Info("api", "method", r.Method, "path", r.URL.Path, "host", r.Host, "origin", r.Header.Get("Origin"))
		}
		h.ServeHTTP(w, r)
	})
}

type envelope struct {
	Status    string `json:"status"`
	Data      any    `json:"data,omitempty"`
	ErrorType string `json:"error_type,omitempty"`
	Error     string `json:"error,omitempty"`
}

// api adapts a function returning data or an error to the JSON envelope.
func (a *App) api(f func(*http.Request) (any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		data, err := f(r)
		if err != nil {
			if _, status := classify(err); status == http.StatusInternalServerError {
				a.log.Error("api", "path", r.URL.Path, "err", err)
			}
			writeError(w, err)
			return
		}
		writeEnvelope(w, http.StatusOK, envelope{Status: "success", Data: data})
	}
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
	writeEnvelope(w, status, envelope{Status: "error", ErrorType: kind, Error: err.Error(), Data: details(err)})
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

func (a *App) handleStartCrawl(w http.ResponseWriter, r *http.Request) {
	// Fields absent from the body keep their defaults; an explicit 0 delay stays 0.
	req := CrawlRequest{DelayMS: DefaultDelayMS}
	if err := decodeBody(r, &req); err != nil {
		writeError(w, err)
		return
	}
	st, err := a.StartCrawl(req)
	if err != nil {
		writeError(w, err)
		return
	}
	writeEnvelope(w, http.StatusAccepted, envelope{Status: "success", Data: st})
}

// intParam reads an integer query parameter, def when absent.
func intParam(r *http.Request, name string, def int) (int, error) {
	s := r.FormValue(name)
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, badRequest(fmt.Errorf("parameter %s=%q is not a non-negative integer", name, s))
	}
	return n, nil
}

func (a *App) handleSites(r *http.Request) (any, error) {
	offset, err := intParam(r, "offset", 0)
	if err != nil {
		return nil, err
	}
	limit, err := intParam(r, "limit", 50)
	if err != nil {
		return nil, err
	}
	if limit == 0 || limit > 500 {
		return nil, badRequest(fmt.Errorf("parameter limit=%d must lie in 1..500", limit))
	}
	sort := r.FormValue("sort")
	if sort == "" {
		sort = "opic"
	}
	order := r.FormValue("order")
	if order != "" && order != "asc" && order != "desc" {
		return nil, badRequest(fmt.Errorf("parameter order=%q must be asc or desc", order))
	}
	return a.Sites(r.Context(), store.SiteQuery{
		Sort: sort, Desc: order != "asc", Filter: r.FormValue("q"),
		Offset: offset, Limit: limit, Librarian: r.FormValue("librarian"),
	})
}

func (a *App) handleRate(r *http.Request) (any, error) {
	var body struct {
		Librarian string  `json:"librarian"`
		Rating    int     `json:"rating"`
		Note      *string `json:"note"` // absent or null: keep the stored note
	}
	if err := decodeBody(r, &body); err != nil {
		return nil, err
	}
	if body.Note == nil {
		return a.Rerate(r.Context(), body.Librarian, r.PathValue("site"), body.Rating)
	}
	return a.Rate(r.Context(), body.Librarian, r.PathValue("site"), body.Rating, *body.Note)
}

func (a *App) handleSearch(r *http.Request) (any, error) {
	offset, err := intParam(r, "offset", 0)
	if err != nil {
		return nil, err
	}
	limit, err := intParam(r, "limit", 20)
	if err != nil {
		return nil, err
	}
	q := strings.TrimSpace(r.FormValue("q"))
	if q == "" {
		return nil, badRequest(errors.New("search: empty query"))
	}
	return a.Search(r.Context(), index.Query{Text: q, Site: r.FormValue("site"), Offset: offset, Limit: limit, FacetSites: SearchFacetSites})
}

// handleEvents streams the crawl status as Server-Sent Events. In the Wails
// window the writer is not an http.Flusher and the request context is not
// cancelled when the page goes away, so the loop flushes when it can and
// stops on the first failed write.
func (a *App) handleEvents(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	t := time.NewTicker(500 * time.Millisecond)
	defer t.Stop()
	for {
		data, err := json.Marshal(a.CrawlStatus())
		if err != nil {
			return
		}
		if _, err := fmt.Fprintf(w, "event: status\ndata: %s\n\n", data); err != nil {
			return
		}
		if flusher != nil {
			flusher.Flush()
		}
		select {
		case <-r.Context().Done():
			return
		case <-t.C:
		}
	}
}
