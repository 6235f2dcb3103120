package app

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"sitesift/app/export"
	"sitesift/sites/store"
)

// maxRatingsFile bounds the body of POST /api/ratings/import: some
// hundred thousand ratings, far more than librarians make by hand.
const maxRatingsFile = 16 << 20

// routeReview registers the endpoints of librarian review: profiles, the
// review queue and page, selection, ratings files and agreement.
func (a *App) routeReview(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/librarians", a.api(func(r *http.Request) (any, error) { return a.Librarians(r.Context()) }))
	mux.HandleFunc("POST /api/librarians", a.handleAddLibrarian)
	mux.HandleFunc("GET /api/review/queue", a.api(a.handleQueue))
	mux.HandleFunc("GET /api/sites/{site}/review", a.api(func(r *http.Request) (any, error) {
		return a.Review(r.Context(), r.PathValue("site"), r.FormValue("librarian"))
	}))
	mux.HandleFunc("PUT /api/sites/{site}/selection", a.api(a.handleSelect))
	mux.HandleFunc("GET /api/selection", a.api(func(r *http.Request) (any, error) {
		return a.Selection(r.Context(), r.FormValue("status"))
	}))
	mux.HandleFunc("GET /api/export/selection", a.handleExportSelection)
	mux.HandleFunc("POST /api/ratings/import", a.api(a.handleImportRatings))
	mux.HandleFunc("GET /api/ratings/export", a.handleExportRatingsFile)
	mux.HandleFunc("GET /api/agreement", a.api(a.handleAgreement))
	mux.HandleFunc("GET /api/rank/biased", a.api(a.handleRankBiased))
}

func (a *App) handleAddLibrarian(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Name string `json:"name"`
	}
	if err := decodeBody(r, &body); err != nil {
		writeError(w, err)
		return
	}
	l, created, err := a.AddLibrarian(r.Context(), body.Name)
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

// biasParam reads the bias parameter, 0 (the default) when absent.
func biasParam(r *http.Request) (float64, error) {
	s := r.FormValue("bias")
	if s == "" {
		return 0, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !(v > 0) {
		return 0, badRequest(fmt.Errorf("parameter bias=%q is not a positive number", s))
	}
	return v, nil
}

func (a *App) handleQueue(r *http.Request) (any, error) {
	limit, err := intParam(r, "limit", DefaultQueueLimit)
	if err != nil {
		return nil, err
	}
	bias, err := biasParam(r)
	if err != nil {
		return nil, err
	}
	if limit == 0 {
		return nil, badRequest(fmt.Errorf("parameter limit=0 must lie in 1..%d", MaxQueueLimit))
	}
	return a.ReviewQueue(r.Context(), QueueRequest{Librarian: r.FormValue("librarian"), Order: r.FormValue("order"),
		Q: strings.TrimSpace(r.FormValue("q")), Limit: limit, Bias: bias})
}

func (a *App) handleSelect(r *http.Request) (any, error) {
	var body struct {
		Librarian string  `json:"librarian"`
		Status    string  `json:"status"`
		Note      *string `json:"note"` // absent or null: keep the stored one
		Subject   *string `json:"subject"`
	}
	if err := decodeBody(r, &body); err != nil {
		return nil, err
	}
	return a.SetSelection(r.Context(), r.PathValue("site"), store.SelectionUpdate{
		Librarian: body.Librarian, Status: body.Status, Note: body.Note, Subject: body.Subject})
}

func (a *App) handleExportSelection(w http.ResponseWriter, r *http.Request) {
	format, err := exportFormat(r.FormValue("format"))
	if err != nil {
		writeError(w, err)
		return
	}
	status := r.FormValue("status")
	if status == "" {
		status = store.StatusApproved
	}
	seeds, err := a.Selection(r.Context(), status)
	if err != nil {
		writeError(w, err)
		return
	}
	var buf bytes.Buffer
	if err := WriteSelection(&buf, seeds, format); err != nil {
		writeError(w, err)
		return
	}
	sendFile(w, status+"."+format, contentTypes[format], buf.Bytes())
}

func (a *App) handleImportRatings(r *http.Request) (any, error) {
	body, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, maxRatingsFile))
	if err != nil {
		return nil, bodyError("ratings import: read body", err)
	}
	name := r.FormValue("name")
	if name == "" {
		name = "file"
	}
	return a.ImportRatingsCSV(r.Context(), bytes.NewReader(body), name)
}

func (a *App) handleExportRatingsFile(w http.ResponseWriter, r *http.Request) {
	var buf bytes.Buffer
	if err := a.ExportRatingsCSV(r.Context(), &buf); err != nil {
		writeError(w, err)
		return
	}
	sendFile(w, "ratings.csv", contentTypes[export.CSV], buf.Bytes())
}

func (a *App) handleAgreement(r *http.Request) (any, error) {
	bias, err := biasParam(r)
	if err != nil {
		return nil, err
	}
	biased, err := boolParam(r, "biased")
	if err != nil {
		return nil, err
	}
	return a.Agreement(r.Context(), AgreementOptions{Biased: biased, Bias: bias, Rater: r.FormValue("rater")})
}

func (a *App) handleRankBiased(r *http.Request) (any, error) {
	bias, err := biasParam(r)
	if err != nil {
		return nil, err
	}
	limit, err := intParam(r, "limit", 50)
	if err != nil {
		return nil, err
	}
	return a.RankBiased(r.Context(), limit, bias)
}

// boolParam reads a boolean query parameter (1/true/0/false), false when
// absent.
func boolParam(r *http.Request, name string) (bool, error) {
	s := r.FormValue(name)
	if s == "" {
		return false, nil
	}
	v, err := strconv.ParseBool(s)
	if err != nil {
		return false, badRequest(fmt.Errorf("parameter %s=%q is not true or false", name, s))
	}
	return v, nil
}

// errDetails is implemented by errors that carry data for the API's error
// envelope (the bad lines of a refused ratings file).
type errDetails interface{ Details() any }

// details returns the data an error carries for the envelope, or nil.
func details(err error) any {
	var d errDetails
	if errors.As(err, &d) {
		return d.Details()
	}
	return nil
}
