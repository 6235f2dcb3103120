package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"path"

	"sitesift/app/fault"
	"sitesift/app/lab"
)

// routeLab registers the lab endpoints (see API.md, "Lab").
func (h *handler) routeLab(mux *router) {
	a := h.app
	mux.HandleFunc("POST /api/lab/{experiment}", h.startLab)
	mux.HandleFunc("GET /api/lab/jobs", h.api(func(r *http.Request) (any, error) { return a.Lab.Jobs(), nil }))
	mux.HandleFunc("GET /api/lab/jobs/{id}", h.api(func(r *http.Request) (any, error) { return a.Lab.Job(r.PathValue("id")) }))
	mux.HandleFunc("POST /api/lab/jobs/{id}/cancel", h.api(func(r *http.Request) (any, error) { return a.Lab.CancelAs(r.Context(), r.PathValue("id")) }))
	// A lab's results are the work of a run: not for other web sites.
	mux.HandleFunc("GET /api/lab/jobs/{id}/svg", h.labFile)
	mux.HandleFunc("GET /api/lab/jobs/{id}/csv", h.labFile)
	mux.HandleFunc("GET /api/lab/jobs/{id}/files/{name}", h.labFile)
}

// startLab starts the experiment of the path with the parameters of the
// JSON body; an empty body takes every default.
func (h *handler) startLab(w http.ResponseWriter, r *http.Request) {
	exp := r.PathValue("experiment")
	params, ok := lab.NewParams(exp)
	if !ok {
		writeError(w, &fault.Error{Kind: fault.KindNotFound,
			Err: fmt.Errorf("lab: unknown experiment %q (want convergence, windows, normleak or links)", exp)})
		return
	}
	body, err := readBody(r, "lab: request body", maxJSONBody)
	if err != nil {
		writeError(w, err)
		return
	}
	if len(bytes.TrimSpace(body)) > 0 {
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.DisallowUnknownFields()
		if err := dec.Decode(params); err != nil {
			writeError(w, fault.Invalid(fmt.Errorf("lab %s: parameters: %w", exp, err)))
			return
		}
		if dec.More() {
			writeError(w, fault.Invalid(fmt.Errorf("lab %s: parameters: more than one JSON value", exp)))
			return
		}
	}
	st, err := h.app.Lab.Start(r.Context(), params)
	accepted(w, st, err)
}

// handleLabFile answers with an output file: /svg, /csv or /files/{name}.
func (h *handler) labFile(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	if name == "" {
		name = path.Base(r.URL.Path) // "svg" or "csv"
	}
	f, err := h.app.Lab.File(r.PathValue("id"), name)
	if err != nil {
		writeError(w, err)
		return
	}
	ctype := "application/octet-stream"
	switch path.Ext(f.Name) {
	case ".svg":
		ctype = "image/svg+xml"
	case ".csv":
		ctype = "text/csv; charset=utf-8"
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`inline; filename="%s"`, f.Name))
	w.Write(f.Data)
}
