package httpapi

import (
	"fmt"
	"io"
	"net/http"
	"strconv"

	"sitesift/app/communities"
	"sitesift/app/export"
	"sitesift/app/exports"
	"sitesift/app/fault"
)

// routeCollections registers the endpoints of saved collections: a
// communities run with a librarian's edits, kept as a named seed list, and
// its seed list as a file.
func (h *handler) routeCollections(mux *router) {
	a := h.app
	mux.HandleFunc("GET /api/collections", h.api(func(r *http.Request) (any, error) { return a.Communities.Collections(r.Context()) }))
	// A new collection is an extraction and its site graph.
	mux.HandleFunc("POST /api/collections", h.api(h.createCollection))
	mux.HandleFunc("GET /api/collections/{id}", h.api(func(r *http.Request) (any, error) {
		id, err := collectionID(r)
		if err != nil {
			return nil, err
		}
		return a.Communities.Collection(r.Context(), id)
	}))
	mux.HandleFunc("PATCH /api/collections/{id}", h.api(h.renameCollection))
	mux.HandleFunc("DELETE /api/collections/{id}", h.api(func(r *http.Request) (any, error) {
		id, err := collectionID(r)
		if err != nil {
			return nil, err
		}
		return nil, a.Communities.DeleteCollection(r.Context(), id)
	}))
	mux.HandleFunc("PATCH /api/collections/{id}/communities/{core}", h.api(h.editCommunity))
	mux.HandleFunc("POST /api/collections/{id}/seeds", h.api(h.addCollectionSeed))
	mux.HandleFunc("DELETE /api/collections/{id}/seeds", h.api(func(r *http.Request) (any, error) {
		id, err := collectionID(r)
		if err != nil {
			return nil, err
		}
		return a.Communities.RemoveCollectionSeed(r.Context(), id, r.URL.Query().Get("url"))
	}))
	mux.HandleFunc("GET /api/collections/{id}/{file}", h.collectionFile)
}

// collectionID reads the {id} of a collection's path.
func collectionID(r *http.Request) (int64, error) {
	s := r.PathValue("id")
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id <= 0 {
		return 0, fault.Invalid(fmt.Errorf("collection id %q is not a positive whole number", s))
	}
	return id, nil
}

func (h *handler) createCollection(r *http.Request) (any, error) {
	var body newCollectionBody
	if err := decodeBody(r, &body); err != nil {
		return nil, err
	}
	count := communities.DefaultCommunityCount
	if body.Count != nil {
		count = *body.Count
	}
	if count <= 0 || count > communities.MaxCommunityCount {
		return nil, fault.Invalid(fmt.Errorf("count %d must lie in 1..%d", count, communities.MaxCommunityCount))
	}
	s := communities.CoreSettings{Density: body.Density, CoreSize: body.CoreSize, NewMembers: body.NewMembers, HITSIterations: body.HITSIterations,
		MinHubs: body.MinHubs, MinAuthorities: body.MinAuthorities}
	opt, err := s.Options(func(name string) string { return name })
	if err != nil {
		return nil, err
	}
	return h.app.Communities.CreateCollection(r.Context(), communities.NewCollection{Name: body.Name, By: body.CreatedBy, Count: count, Options: opt})
}

func (h *handler) renameCollection(r *http.Request) (any, error) {
	id, err := collectionID(r)
	if err != nil {
		return nil, err
	}
	var body renameBody
	if err := decodeBody(r, &body); err != nil {
		return nil, err
	}
	return h.app.Communities.RenameCollection(r.Context(), id, body.Name)
}

func (h *handler) editCommunity(r *http.Request) (any, error) {
	id, err := collectionID(r)
	if err != nil {
		return nil, err
	}
	core, err := strconv.Atoi(r.PathValue("core"))
	if err != nil || core < 0 {
		return nil, fault.Invalid(fmt.Errorf("community %q is not a whole number ≥ 0", r.PathValue("core")))
	}
	var body communityEditBody
	if err := decodeBody(r, &body); err != nil {
		return nil, err
	}
	if body.Name == nil && body.Kept == nil {
		return nil, fault.Invalid(fmt.Errorf("nothing to change: give name or kept"))
	}
	return h.app.Communities.EditCommunity(r.Context(), id, core, communities.CommunityEdit{Name: body.Name, Kept: body.Kept})
}

func (h *handler) addCollectionSeed(r *http.Request) (any, error) {
	id, err := collectionID(r)
	if err != nil {
		return nil, err
	}
	var body seedBody
	if err := decodeBody(r, &body); err != nil {
		return nil, err
	}
	return h.app.Communities.AddCollectionSeed(r.Context(), id, body.URL)
}

// collectionFile sends a collection's seed list: seeds.txt, seeds.csv or
// seeds.json.
func (h *handler) collectionFile(w http.ResponseWriter, r *http.Request) {
	id, err := collectionID(r)
	if err != nil {
		writeError(w, err)
		return
	}
	var format string
	switch r.PathValue("file") {
	case "seeds.txt":
		format = export.Txt
	case "seeds.csv":
		format = export.CSV
	case "seeds.json":
		format = export.JSON
	default:
		writeError(w, &apiError{"not_found", http.StatusNotFound,
			fmt.Errorf("no file %q of a collection (want seeds.txt, seeds.csv or seeds.json)", r.PathValue("file"))})
		return
	}
	c, err := h.app.Communities.Collection(r.Context(), id)
	if err != nil {
		writeError(w, err)
		return
	}
	sendFile(w, h.app.Exports.CollectionName(c, format), func(w io.Writer) error { return exports.WriteCollection(w, c, format) })
}

// newCollectionBody is the body of POST /api/collections: a name, who creates it, and the extraction's settings (absent: the defaults).
type newCollectionBody struct {
	Name           string   `json:"name"`
	CreatedBy      string   `json:"created_by"`
	Count          *int     `json:"count"`
	Density        *float64 `json:"density"`
	CoreSize       *int     `json:"core_size"`
	NewMembers     *int     `json:"new_members"`
	HITSIterations *int     `json:"hits_iterations"`
	MinHubs        *int     `json:"min_hubs"`
	MinAuthorities *int     `json:"min_authorities"`
}

// renameBody is the body of PATCH /api/collections/{id}.
type renameBody struct {
	Name string `json:"name"`
}

// communityEditBody is the body of PATCH /api/collections/{id}/communities/{core}: absent fields stay.
type communityEditBody struct {
	Name *string `json:"name"`
	Kept *bool   `json:"kept"`
}

// seedBody is the body of POST /api/collections/{id}/seeds.
type seedBody struct {
	URL string `json:"url"`
}
