package httpapi

import (
	"fmt"
	"io"
	"net/http"

	"sitesift/app/exports"
	"sitesift/app/fault"
)

// routeExport registers the Export page's endpoints: the list of
// deliverables with their file names, and each deliverable as a download
// (the same bytes and name as `sitesift export --what`).
func (h *handler) routeExport(mux *router) {
	mux.HandleFunc("GET /api/exports", h.api(h.exports))
	// A deliverable may be an extraction's seed list.
	mux.HandleFunc("GET /api/export/{what}", h.exportDeliverable)
	mux.HandleFunc("GET /api/export/{what}/left-out", h.api(h.exportLeftOut))
}

// exportItem is a deliverable as GET /api/exports lists it: with the file
// name of each format for this project.
type exportItem struct {
	exports.Deliverable
	Files map[string]string `json:"files"`
}

func (h *handler) exports(r *http.Request) (any, error) {
	req, err := exportRequest(r, "")
	if err != nil {
		return nil, err
	}
	out := make([]exportItem, len(exports.Deliverables))
	for i, d := range exports.Deliverables {
		it := exportItem{Deliverable: d, Files: map[string]string{}}
		for _, f := range d.Formats {
			req.What, req.Format = d.What, f
			if it.Files[f], err = h.app.Exports.ExportName(req); err != nil {
				return nil, err
			}
		}
		out[i] = it
	}
	return out, nil
}

// exportRequest reads the parameters of a deliverable: format, count
// (top-k), include_failed, include_rejected, include_platforms, buckets
// and bom (absent: the deliverable's default). The options given are
// checked against the deliverable's in the export table: one it does not
// take is refused.
func exportRequest(r *http.Request, what string) (exports.ExportRequest, error) {
	req := exports.ExportRequest{What: what, Format: r.FormValue("format")}
	if what != "" { // the list of deliverables takes count for top-k's file name
		var given []string
		for _, o := range exports.Options {
			if r.Form.Has(o) {
				given = append(given, o)
			}
		}
		if err := exports.CheckOptions(what, given); err != nil {
			return req, err
		}
	}
	var err error
	if req.Count, err = positiveParam(r, "count", exports.DefaultTopK); err != nil {
		return req, err
	}
	if req.Buckets, err = positiveParam(r, "buckets", exports.DefaultPrecedenceBuckets); err != nil {
		return req, err
	}
	if req.IncludeFailed, err = boolParam(r, "include_failed"); err != nil {
		return req, err
	}
	if req.IncludeRejected, err = boolParam(r, "include_rejected"); err != nil {
		return req, err
	}
	if req.IncludePlatforms, err = boolParam(r, "include_platforms"); err != nil {
		return req, err
	}
	if r.FormValue("bom") != "" {
		bom, err := boolParam(r, "bom")
		if err != nil {
			return req, err
		}
		req.BOM = &bom
	}
	return req, nil
}

// positiveParam reads a whole number parameter that must be positive when
// given (0 is not "the default" there).
func positiveParam(r *http.Request, name string, def int) (int, error) {
	n, err := intParam(r, name, def)
	if err == nil && n <= 0 {
		err = fault.Invalid(fmt.Errorf("parameter %s=%d must be positive", name, n))
	}
	return n, err
}

func (h *handler) exportDeliverable(w http.ResponseWriter, r *http.Request) {
	req, err := exportRequest(r, r.PathValue("what"))
	if err != nil {
		writeError(w, err)
		return
	}
	h.sendExport(w, r, req)
}

// leftOut is the answer of GET /api/export/{what}/left-out.
type leftOut struct {
	LeftOut []exports.LeftOut `json:"left_out"`
	// Text says it in words, "" when no site was left out.
	Text string `json:"text"`
	// Empty, when the deliverable holds nothing (its file is its header
	// alone), says so in its words ("nothing approved yet: …"); "" when it
	// holds something (exports.Written.Empty).
	Empty string `json:"empty"`
	// Differs, for the community seeds, says how the current extraction
	// differs from the saved collections, "" when it does not
	// (exports.Written.Differs).
	Differs string `json:"differs"`
}

// exportLeftOut tells how many sites a deliverable, with the same
// parameters as its download, leaves out and why, without sending it.
func (h *handler) exportLeftOut(r *http.Request) (any, error) {
	req, err := exportRequest(r, r.PathValue("what"))
	if err != nil {
		return nil, err
	}
	wr, err := h.app.Exports.ExportWritten(r.Context(), io.Discard, req)
	if err != nil {
		return nil, err
	}
	return leftOut{LeftOut: wr.LeftOut, Text: exports.LeftOutText(wr.LeftOut), Empty: wr.Empty, Differs: wr.Differs}, nil
}
