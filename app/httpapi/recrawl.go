package httpapi

import (
	"net/http"
	"sitesift/app/crawling"
)

// routeRecrawl registers the endpoints of recrawls: start one, a site's
// importance over the crawls, the sites the last recrawl found changed.
func (h *handler) routeRecrawl(mux *router) {
	mux.HandleFunc("POST /api/crawl/recrawl", h.startRecrawl)
	mux.HandleFunc("GET /api/sites/{site}/recrawls", h.api(func(r *http.Request) (any, error) {
		return h.app.Crawling.SiteRecrawls(r.Context(), r.PathValue("site"))
	}))
	mux.HandleFunc("GET /api/recrawl/changed", h.api(func(r *http.Request) (any, error) {
		return h.app.Crawling.ChangedSites(r.Context())
	}))
}

// startRecrawl starts a recrawl: the body is a crawl request ({} for the
// defaults) without seeds; recrawl is implied.
func (h *handler) startRecrawl(w http.ResponseWriter, r *http.Request) {
	var req crawling.CrawlRequest
	if err := decodeBody(r, &req); err != nil {
		writeError(w, err)
		return
	}
	req.Recrawl = true
	st, err := h.app.Crawling.StartAs(r.Context(), req)
	accepted(w, st, err)
}
