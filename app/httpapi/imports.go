package httpapi

import (
	"net/http"
	"sitesift/app/imports"
)

// maxArchiveUpload bounds an archive file uploaded for import: larger
// archives are imported by their path on the server.
const maxArchiveUpload = 1 << 30

// routeImports registers the endpoints of imports: a file uploaded into
// the project, an archive import started by paths on the server, its
// progress and its cancelling, the record of imported files, and an edge
// list imported into the site graph.
func (h *handler) routeImports(mux *router) {
	a := h.app
	mux.HandleFunc("POST /api/imports/upload", h.api(func(r *http.Request) (any, error) {
		path, err := a.Imports.SaveUploadAs(r.Context(), r.FormValue("name"), r.Body)
		if err != nil {
			return nil, err
		}
		return map[string]string{"path": path}, nil
	}))
	mux.HandleFunc("POST /api/imports", func(w http.ResponseWriter, r *http.Request) {
		var req imports.ArchiveImportRequest
		if err := decodeBody(r, &req); err != nil {
			writeError(w, err)
			return
		}
		st, err := a.Imports.StartAs(r.Context(), req)
		accepted(w, st, err)
	})
	mux.HandleFunc("POST /api/imports/edges", h.api(func(r *http.Request) (any, error) {
		var req imports.EdgeImportRequest
		if err := decodeBody(r, &req); err != nil {
			return nil, err
		}
		return a.Imports.ImportEdgesAs(r.Context(), req)
	}))
	mux.HandleFunc("GET /api/imports/status", h.api(func(r *http.Request) (any, error) { return a.Imports.Status(), nil }))
	mux.HandleFunc("POST /api/imports/cancel", h.api(func(r *http.Request) (any, error) { return a.Imports.CancelAs(r.Context()) }))
	mux.HandleFunc("GET /api/imports", h.api(func(r *http.Request) (any, error) { return a.Imports.ArchiveImports(r.Context()) }))
}
