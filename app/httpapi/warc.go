package httpapi

import (
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"sitesift/app/exports"
	"sitesift/app/fault"
)

// routeWARC registers the endpoints of the project's WARC files.
func (h *handler) routeWARC(mux *router) {
	mux.HandleFunc("GET /api/warcs", h.api(func(r *http.Request) (any, error) { return h.app.Crawling.WARCFiles() }))
	mux.HandleFunc("GET /api/warcs/{name}", h.warcFile)
	mux.HandleFunc("GET /api/wacz", h.api(func(r *http.Request) (any, error) { return h.app.Exports.WACZ(r.Context()) }))
	// One package at a time: it reads every WARC file of the project.
	mux.HandleFunc("GET /api/wacz/download", h.waczFile)
	// The first request of a site cuts its captures out of every WARC file
	// (the service makes one site's file at a time); later ones read the
	// file made then. Neither waits behind a ranking at the compute gate:
	// the replay reads the file by many small ranges.
	mux.HandleFunc("GET /api/sites/{site}/captures", h.api(h.siteCaptures))
	mux.HandleFunc("GET /api/sites/{site}/captures/{file}", h.siteWACZ)
}

// SiteReplay is the answer of GET /api/sites/{site}/captures: what the
// project captured of the site, and where it is replayed.
type SiteReplay struct {
	exports.SiteCaptures
	// Frame is the page of the replay origin that replays Source: an
	// address to frame, to which the page adds the URL to show as its
	// fragment ("#" and the URL, percent-encoded). "" when there is
	// nothing to replay, or when the server has no replay origin.
	Frame string `json:"frame"`
}

// siteCaptures answers what the project captured of a site, granting its
// WACZ file to the replay origin.
func (h *handler) siteCaptures(r *http.Request) (any, error) {
	c, err := h.app.Exports.SiteCaptures(r.Context(), r.PathValue("site"))
	if err != nil {
		return nil, err
	}
	out := SiteReplay{SiteCaptures: c}
	if key, ok := exports.SourceKey(c.Source); ok && h.replay != nil {
		out.Frame = h.replay.grant(r, h.app, c.Site, key)
	}
	return out, nil
}

// siteWACZ answers with the WACZ file of a site's captures that GET
// /api/sites/{site}/captures names, with byte ranges: ReplayWeb.page reads
// its index and records by ranges.
func (h *handler) siteWACZ(w http.ResponseWriter, r *http.Request) {
	site, file := r.PathValue("site"), r.PathValue("file")
	key, ok := strings.CutSuffix(file, ".wacz")
	if !ok {
		writeError(w, fault.NotFound(fmt.Errorf("captures of %s: no file %q: the captures are KEY.wacz, as GET /api/sites/%s/captures names them", site, file, site)))
		return
	}
	f, err := h.app.Exports.OpenSiteWACZ(r.Context(), site, key)
	serveOpened(w, r, f, err, "application/zip", fmt.Sprintf(`inline; filename="%s-captures.wacz"`, site))
}

// serveOpened answers with the file f opened (or err), its type and
// disposition given, with byte ranges, and closes it.
func serveOpened(w http.ResponseWriter, r *http.Request, f *os.File, err error, contentType, disposition string) {
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
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Disposition", disposition)
	http.ServeContent(w, r, fi.Name(), fi.ModTime(), f)
}

// warcFile answers with a finished WARC file to download; ranges work, so
// a large file can be fetched in parts.
func (h *handler) warcFile(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	f, err := h.app.Crawling.OpenWARC(name)
	// The gzip members are part of the format: no Content-Encoding, so
	// that clients save the bytes as they are.
	serveOpened(w, r, f, err, "application/warc", fmt.Sprintf(`attachment; filename="%s"`, name))
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
