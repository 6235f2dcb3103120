package httpapi

import (
	"fmt"
	"net/http"
	"time"
)

// routeWARC registers the endpoints of the project's WARC files.
func (h *handler) routeWARC(mux *router) {
	mux.HandleFunc("GET /api/warcs", h.api(func(r *http.Request) (any, error) { return h.app.Crawling.WARCFiles() }))
	mux.HandleFunc("GET /api/warcs/{name}", h.warcFile)
	mux.HandleFunc("GET /api/wacz", h.api(func(r *http.Request) (any, error) { return h.app.Exports.WACZ(r.Context()) }))
	// One package at a time: it reads every WARC file of the project.
	mux.HandleFunc("GET /api/wacz/download", h.work(h.gates.compute, h.waczFile))
}

// warcFile answers with a finished WARC file to download; ranges work, so
// a large file can be fetched in parts.
func (h *handler) warcFile(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	f, err := h.app.Crawling.OpenWARC(name)
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

// waczFile answers with the project's crawl as a WACZ file. It is written
// whole first (app.OpenWACZ), so that a failure is an error answer and not
// a cut download, and so that the answer has its length and byte ranges.
func (h *handler) waczFile(w http.ResponseWriter, r *http.Request) {
	f, info, done, err := h.app.Exports.OpenWACZ(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	defer done()
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s"`, info.Name))
	http.ServeContent(w, r, info.Name, time.Time{}, f)
}
