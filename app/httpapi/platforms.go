package httpapi

import (
	"errors"
	"net/http"
	"sitesift/app/fault"
)

// routePlatforms registers the endpoints of platform sites: how many the
// project holds, and a librarian's move of a site into or out of them.
func (h *handler) routePlatforms(mux *router) {
	mux.HandleFunc("GET /api/platforms", h.api(func(r *http.Request) (any, error) { return h.app.Ranking.Platforms(r.Context()) }))
	mux.HandleFunc("PUT /api/sites/{site}/platform", h.api(func(r *http.Request) (any, error) {
		var body platformBody
		if err := decodeBody(r, &body); err != nil {
			return nil, err
		}
		if body.Platform == nil {
			return nil, fault.Invalid(errors.New("request body: platform (true or false) is required"))
		}
		return h.app.Ranking.SetPlatform(r.Context(), r.PathValue("site"), *body.Platform, body.Librarian)
	}))
}

// platformBody is the body of PUT /api/sites/{site}/platform.
type platformBody struct {
	Platform  *bool  `json:"platform"`
	Librarian string `json:"librarian"`
}
