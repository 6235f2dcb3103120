package app

import (
	"errors"
	"net/http"

	"sitesift/sites/store"
)

// apiError is an error with the kind the API reports and its HTTP status.
type apiError struct {
	kind   string
	status int
	err    error
}

func (e *apiError) Error() string { return e.err.Error() }
func (e *apiError) Unwrap() error { return e.err }

func badRequest(err error) error {
	if err == nil {
		return nil
	}
	var ae *apiError
	if errors.As(err, &ae) {
		return err
	}
	return &apiError{"bad_request", http.StatusBadRequest, err}
}

func conflict(err error) error { return &apiError{"conflict", http.StatusConflict, err} }

func notFound(err error) error { return &apiError{"not_found", http.StatusNotFound, err} }

// classify maps an error to the API's error type and HTTP status.
func classify(err error) (string, int) {
	var ae *apiError
	switch {
	case errors.As(err, &ae):
		return ae.kind, ae.status
	case errors.Is(err, store.ErrNotFound):
		return "not_found", http.StatusNotFound
	case errors.Is(err, store.ErrInvalid):
		return "bad_request", http.StatusBadRequest
	case errors.Is(err, store.ErrTransition):
		return "conflict", http.StatusConflict
	}
	return "internal", http.StatusInternalServerError
}
