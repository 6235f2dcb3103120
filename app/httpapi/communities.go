package httpapi

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"path"
	"slices"
	"strings"

	"sitesift/app/communities"
	"sitesift/app/export"
	"sitesift/app/exports"
	"sitesift/app/fault"
	"sitesift/importance"
)

// routeCommunities registers the endpoints of the communities page and of
// the exports: seed lists (both methods, and a list the librarian edited),
// the Heritrix precedence file and the ratings table.
func (h *handler) routeCommunities(mux *router) {
	mux.HandleFunc("GET /api/communities", h.api(h.communities))
	mux.HandleFunc("GET /api/graph", h.api(h.graph))
	mux.HandleFunc("GET /api/export/seeds", h.exportSeeds)
	mux.HandleFunc("POST /api/export/seeds", h.exportEditedSeeds)
	mux.HandleFunc("GET /api/export/heritrix", h.exportHeritrix)
	mux.HandleFunc("GET /api/export/ratings.csv", h.exportRatingsTable)
}

// communityParams are the query parameters that set up an extraction.
var communityParams = []string{"count", "density", "core_size", "new_members", "hits_iterations", "min_hubs", "min_authorities"}

// communityRequest reads count (default def, at most
// communities.MaxCommunityCount) and the settings density, core_size, new_members,
// hits_iterations, min_hubs and min_authorities of an extraction.
func communityRequest(r *http.Request, def int) (int, importance.CoreOptions, error) {
	count, err := intParam(r, "count", def)
	if err != nil {
		return 0, importance.CoreOptions{}, err
	}
	if count == 0 || count > communities.MaxCommunityCount {
		return 0, importance.CoreOptions{}, fault.Invalid(fmt.Errorf("parameter count=%d must lie in 1..%d", count, communities.MaxCommunityCount))
	}
	var s communities.CoreSettings
	if s.Density, err = optional(r, "density", floatParam); err == nil {
		if s.CoreSize, err = optional(r, "core_size", intParam); err == nil {
			if s.NewMembers, err = optional(r, "new_members", intParam); err == nil {
				if s.HITSIterations, err = optional(r, "hits_iterations", intParam); err == nil {
					if s.MinHubs, err = optional(r, "min_hubs", intParam); err == nil {
						s.MinAuthorities, err = optional(r, "min_authorities", intParam)
					}
				}
			}
		}
	}
	if err != nil {
		return 0, importance.CoreOptions{}, err
	}
	opt, err := s.Options(func(name string) string { return "parameter " + name })
	return count, opt, err
}

// optional reads a query parameter with read, nil when absent.
func optional[T any](r *http.Request, name string, read func(*http.Request, string, T) (T, error)) (*T, error) {
	if r.FormValue(name) == "" {
		return nil, nil
	}
	var zero T
	v, err := read(r, name, zero)
	if err != nil {
		return nil, err
	}
	return &v, nil
}

func (h *handler) communities(r *http.Request) (any, error) {
	count, opt, err := communityRequest(r, communities.DefaultCommunityCount)
	if err != nil {
		return nil, err
	}
	return h.app.Communities.Extract(r.Context(), count, opt)
}

func (h *handler) graph(r *http.Request) (any, error) {
	limit, err := intParam(r, "limit", communities.DefaultGraphSites)
	if err != nil {
		return nil, err
	}
	// With extraction parameters, colour by that extraction; without, by
	// the current one.
	var ex *communities.Extraction
	if slices.ContainsFunc(communityParams, func(p string) bool { return r.FormValue(p) != "" }) {
		count, opt, err := communityRequest(r, communities.DefaultCommunityCount)
		if err != nil {
			return nil, err
		}
		ex = &communities.Extraction{Count: count, Options: opt}
	}
	return h.app.Communities.CommunityGraph(r.Context(), limit, ex)
}

// sendFile answers with what write writes as a file to download, named
// name (its extension says its format), or with the error of write.
func sendFile(w http.ResponseWriter, name string, write func(io.Writer) error) {
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		writeError(w, err)
		return
	}
	w.Header().Set("Content-Type", export.ContentType(strings.TrimPrefix(path.Ext(name), ".")))
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s"`, name))
	w.Write(buf.Bytes())
}

// exportFormat reads the format of a download (default txt) and checks it.
func exportFormat(format string) (string, error) {
	return export.Check(format, export.Txt, export.Txt, export.CSV, export.JSON)
}

func (h *handler) exportSeeds(w http.ResponseWriter, r *http.Request) {
	format, err := exportFormat(r.FormValue("format"))
	if err != nil {
		writeError(w, err)
		return
	}
	var write func(io.Writer) error
	switch method := r.FormValue("method"); method {
	case "", exports.MethodCommunities:
		count, opt, err := communityRequest(r, communities.DefaultCommunityCount)
		if err != nil {
			writeError(w, err)
			return
		}
		includePlatforms, err := boolParam(r, "include_platforms")
		if err != nil {
			writeError(w, err)
			return
		}
		write = func(out io.Writer) error {
			wr, err := h.app.Exports.ExportCommunitySeeds(r.Context(), out, exports.CommunitySeedsRequest{Count: count, Options: opt,
				IncludePlatforms: includePlatforms, Format: format})
			if t := exports.LeftOutText(wr.LeftOut); err == nil && t != "" {
				w.Header().Set(LeftOutHeader, t)
			}
			return err
		}
	case exports.MethodImportance:
		for _, p := range communityParams[1:] {
			if r.FormValue(p) != "" {
				writeError(w, fault.Invalid(fmt.Errorf("parameter %s goes with method=communities", p)))
				return
			}
		}
		count, err := positiveParam(r, "count", 50)
		if err != nil {
			writeError(w, err)
			return
		}
		includeFailed, err := boolParam(r, "include_failed")
		if err != nil {
			writeError(w, err)
			return
		}
		includeRejected, err := boolParam(r, "include_rejected")
		if err != nil {
			writeError(w, err)
			return
		}
		includePlatforms, err := boolParam(r, "include_platforms")
		if err != nil {
			writeError(w, err)
			return
		}
		// The Export page's top-K list, under its one name.
		h.sendExport(w, r, exports.ExportRequest{What: exports.ExportTopK, Format: format, Count: count, IncludeFailed: includeFailed,
			IncludeRejected: includeRejected, IncludePlatforms: includePlatforms})
		return
	default:
		writeError(w, fault.Invalid(fmt.Errorf("unknown method %q (want communities or importance)", method)))
		return
	}
	name, err := h.app.Exports.ExportName(exports.ExportRequest{What: exports.ExportCommunities, Format: format})
	if err != nil {
		writeError(w, err)
		return
	}
	sendFile(w, name, write)
}

// exportEditedSeeds exports a seed list the librarian edited on the
// communities page.
func (h *handler) exportEditedSeeds(w http.ResponseWriter, r *http.Request) {
	var body editedSeedsBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, err)
		return
	}
	format, err := exportFormat(body.Format)
	if err != nil {
		writeError(w, err)
		return
	}
	name, err := h.app.Exports.ExportName(exports.ExportRequest{What: exports.ExportCommunities, Format: format})
	if err != nil {
		writeError(w, err)
		return
	}
	// The list the librarian edited is the communities seed list they
	// mean to export: it keeps that deliverable's name.
	sendFile(w, name, func(w io.Writer) error {
		cs, err := h.app.Communities.EditedSeeds(r.Context(), body.Seeds)
		if err != nil {
			return err
		}
		return exports.WriteCommunities(w, cs, format)
	})
}

// exportHeritrix is the Export page's Heritrix precedence file, kept at
// its old address.
func (h *handler) exportHeritrix(w http.ResponseWriter, r *http.Request) {
	buckets, err := positiveParam(r, "buckets", exports.DefaultPrecedenceBuckets)
	if err != nil {
		writeError(w, err)
		return
	}
	h.sendExport(w, r, exports.ExportRequest{What: exports.ExportHeritrix, Buckets: buckets})
}

// exportRatingsTable is the Export page's sites table (which holds every
// librarian's rating), kept at its old address.
func (h *handler) exportRatingsTable(w http.ResponseWriter, r *http.Request) {
	h.sendExport(w, r, exports.ExportRequest{What: exports.ExportSites, Format: "csv"})
}

// editedSeedsBody is the body of POST /api/export/seeds: the seed list a librarian edited and its file format.
type editedSeedsBody struct {
	Seeds  []string `json:"seeds"`
	Format string   `json:"format"`
}
