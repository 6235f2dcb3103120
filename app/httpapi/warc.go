package httpapi

import (
	"fmt"
	"net/http"
)

// routeWARC registers the endpoints of the project's WARC files.
func (h *handler) routeWARC(mux *router) {
	mux.HandleFunc("GET /api/warcs", h.api(func(r *http.Request) (any, error) { return h.app.WARCFiles() }))
	mux.HandleFunc("GET /api/warcs/{name}", h.warcFile)
}

// warcFile answers with a finished WARC file to download; ranges work, so
// a large file can be fetched in parts.
func (h *handler) warcFile(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	f, err := h.app.OpenWARC(name)
	if err != nil {
		writeError(w, err)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		writeError(w, err)
		return
	}
	// The gzip members are part of the format: no Content-Encoding, so
	// that clients save the bytes as they are.
	w.Header().Set("Content-Type", "application/warc")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s"`, name))
	http.ServeContent(w, r, name, fi.ModTime(), f)
}
