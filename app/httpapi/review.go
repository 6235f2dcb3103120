package httpapi

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"

	"sitesift/app/exports"
	"sitesift/app/fault"
	"sitesift/app/review"
)

// maxRatingsFile bounds the body of POST /api/ratings/import: some
// hundred thousand ratings, far more than librarians make by hand.
const maxRatingsFile = 16 << 20

// routeReview registers the endpoints of librarian review: profiles, the
// review queue and page, selection, ratings files and agreement.
func (h *handler) routeReview(mux *router) {
	a := h.app
	mux.HandleFunc("GET /api/librarians", h.api(func(r *http.Request) (any, error) { return a.Review.Librarians(r.Context()) }))
	mux.HandleFunc("POST /api/librarians", h.addLibrarian)
	// The queue by importance and a site's review page are what every
	// librarian reads all day: refused from other sites (contract.go) but
	// never queued behind a computation. The queue's biased and community
	// orders rank or extract, and take their turn; the review page's
	// communities come from the memo, whose lock already makes concurrent
	// pages share one extraction.
	queue := h.api(h.queue)
	computed := takeTurn(h.gates.compute, queue)
	mux.HandleFunc("GET /api/review/queue", func(w http.ResponseWriter, r *http.Request) {
		switch r.FormValue("order") {
		case review.OrderBiased, review.OrderCommunity:
			computed(w, r)
		default:
			queue(w, r)
		}
	})
	mux.HandleFunc("GET /api/sites/{site}/review", h.api(func(r *http.Request) (any, error) {
		return a.Review.Review(r.Context(), r.PathValue("site"), r.FormValue("librarian"))
	}))
	mux.HandleFunc("PUT /api/sites/{site}/selection", h.api(h.selectSite))
	mux.HandleFunc("PUT /api/sites/{site}/note", h.api(h.note))
	mux.HandleFunc("GET /api/selection", h.api(func(r *http.Request) (any, error) {
		return a.Review.Selection(r.Context(), r.FormValue("status"))
	}))
	mux.HandleFunc("GET /api/export/selection", h.exportSelection)
	mux.HandleFunc("POST /api/ratings/import", h.api(h.importRatings))
	mux.HandleFunc("GET /api/ratings/export", h.exportRatings)
	mux.HandleFunc("GET /api/agreement", h.api(h.agreement))
	mux.HandleFunc("GET /api/rank/biased", h.api(h.rankBiased))
}

func (h *handler) addLibrarian(w http.ResponseWriter, r *http.Request) {
	var body librarianBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, err)
		return
	}
	l, created, err := h.app.Review.AddLibrarian(r.Context(), body.Name)
	if err != nil {
		writeError(w, err)
		return
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	writeEnvelope(w, status, envelope{Status: "success", Data: l})
}

func (h *handler) queue(r *http.Request) (any, error) {
	limit, err := intParam(r, "limit", review.DefaultQueueLimit)
	if err != nil {
		return nil, err
	}
	bias, err := biasParam(r)
	if err != nil {
		return nil, err
	}
	if limit == 0 {
		return nil, fault.Invalid(fmt.Errorf("parameter limit=0 must lie in 1..%d", review.MaxQueueLimit))
	}
	includeFailed, err := boolParam(r, "include_failed")
	if err != nil {
		return nil, err
	}
	includePlatforms, err := boolParam(r, "include_platforms")
	if err != nil {
		return nil, err
	}
	return h.app.Review.ReviewQueue(r.Context(), review.QueueRequest{Librarian: r.FormValue("librarian"), Order: r.FormValue("order"),
		Q: strings.TrimSpace(r.FormValue("q")), Limit: limit, Bias: bias, IncludeFailed: includeFailed,
		IncludePlatforms: includePlatforms})
}

func (h *handler) selectSite(r *http.Request) (any, error) {
	var body selectionBody
	if err := decodeBody(r, &body); err != nil {
		return nil, err
	}
	return h.app.Review.SetSelection(r.Context(), r.PathValue("site"), review.SelectionUpdate{
		Librarian: body.Librarian, Status: body.Status, Note: body.Note, Subject: body.Subject, Reason: body.Reason,
		PageOnly: body.PageOnly})
}

// note keeps a librarian's note on a site without a rating (or beside
// the rating they gave, which it leaves as it is).
func (h *handler) note(r *http.Request) (any, error) {
	var body noteBody
	if err := decodeBody(r, &body); err != nil {
		return nil, err
	}
	return h.app.Review.Note(r.Context(), body.Librarian, r.PathValue("site"), body.Note)
}

func (h *handler) exportSelection(w http.ResponseWriter, r *http.Request) {
	format, err := exportFormat(r.FormValue("format"))
	if err != nil {
		writeError(w, err)
		return
	}
	status := r.FormValue("status")
	if status == "" {
		status = review.StatusApproved
	}
	if status == review.StatusApproved {
		// The Export page's approved selection, under its one name.
		h.sendExport(w, r, exports.ExportRequest{What: exports.ExportApproved, Format: format})
		return
	}
	seeds, err := h.app.Review.Selection(r.Context(), status)
	if err != nil {
		writeError(w, err)
		return
	}
	name, err := h.app.Exports.SelectionName(status, format)
	if err != nil {
		writeError(w, err)
		return
	}
	sendFile(w, name, func(w io.Writer) error { return exports.WriteSelection(w, seeds, format) })
}

func (h *handler) importRatings(r *http.Request) (any, error) {
	body, err := readBody(r, "ratings import: read body", maxRatingsFile)
	if err != nil {
		return nil, err
	}
	name := r.FormValue("name")
	if name == "" {
		name = "file"
	}
	return h.app.Review.ImportRatingsCSV(r.Context(), bytes.NewReader(body), name, r.FormValue("new_librarians") == "1")
}

// exportRatings is the Export page's ratings file, kept at its old
// address.
func (h *handler) exportRatings(w http.ResponseWriter, r *http.Request) {
	h.sendExport(w, r, exports.ExportRequest{What: exports.ExportRatings})
}

// sendExport sends one deliverable under its name (see app.ExportName).
func (h *handler) sendExport(w http.ResponseWriter, r *http.Request, req exports.ExportRequest) {
	name, err := h.app.Exports.ExportName(req)
	if err != nil {
		writeError(w, err)
		return
	}
	sendFile(w, name, func(buf io.Writer) error {
		wr, err := h.app.Exports.ExportWritten(r.Context(), buf, req)
		// Set before sendFile writes the body, which it does once the
		// file is whole.
		if t := exports.LeftOutText(wr.LeftOut); err == nil && t != "" {
			w.Header().Set(LeftOutHeader, t)
		}
		if err == nil && wr.Empty != "" {
			w.Header().Set(EmptyHeader, wr.Empty)
		}
		return err
	})
}

// LeftOutHeader is the response header of a downloaded export that left
// sites out: how many and why, in words (exports.LeftOutText).
const LeftOutHeader = "X-Sitesift-Left-Out"

// EmptyHeader is the response header of a downloaded export that holds
// nothing, its header alone: why, in words (exports.Written.Empty).
const EmptyHeader = "X-Sitesift-Empty"

func (h *handler) agreement(r *http.Request) (any, error) {
	bias, err := biasParam(r)
	if err != nil {
		return nil, err
	}
	biased, err := boolParam(r, "biased")
	if err != nil {
		return nil, err
	}
	return h.app.Review.Agreement(r.Context(), review.AgreementOptions{Biased: biased, Bias: bias, Rater: r.FormValue("rater")})
}

func (h *handler) rankBiased(r *http.Request) (any, error) {
	bias, err := biasParam(r)
	if err != nil {
		return nil, err
	}
	limit, err := intParam(r, "limit", 50)
	if err != nil {
		return nil, err
	}
	return h.app.Review.RankBiased(r.Context(), limit, bias)
}

// librarianBody is the body of POST /api/librarians.
type librarianBody struct {
	Name string `json:"name"`
}

// selectionBody is the body of PUT /api/sites/{site}/selection.
type selectionBody struct {
	Librarian string  `json:"librarian"`
	Status    string  `json:"status"`
	Note      *string `json:"note"` // absent or null: keep the stored one
	Subject   *string `json:"subject"`
	Reason    *string `json:"reason"` // rejected: why; absent or null keeps the stored one
	// PageOnly: an approved site's seed is that page alone (true) or its
	// whole site (false); absent or null keeps the stored one.
	PageOnly *bool `json:"page_only"`
}

// noteBody is the body of PUT /api/sites/{site}/note.
type noteBody struct {
	Librarian string `json:"librarian"`
	Note      string `json:"note"`
}
