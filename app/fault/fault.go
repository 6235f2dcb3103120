package fault

import (
	"errors"
	"strings"

	"sitesift/app/export"
	"sitesift/sites/store"
)

// Kind is what went wrong with a request to the service, as its adapters
// report it: the HTTP API maps it to a status code, the command line to a
// message and an exit status.
type Kind string

// Kinds of service errors.
const (
	KindInternal Kind = "internal"    // a failure of sitesift or of the machine
	KindInvalid  Kind = "bad_request" // the request is wrong: a parameter, a file, a name
	KindNotFound Kind = "not_found"   // what the request names does not exist
	KindConflict Kind = "conflict"    // the request does not fit the project's state now
	// Kinds of a team server's refusals (docs/team.md).
	KindUnauthorized Kind = "unauthorized" // no signed-in librarian, or a wrong name or password
	KindForbidden    Kind = "forbidden"    // the signed-in librarian's role or identity does not allow it
	KindTooMany      Kind = "too_many"     // too many failed sign-ins: wait, then try again
)

// Error is an error of a service with its [Kind].
type Error struct {
	Kind Kind
	Err  error
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// KindOf returns the kind of err: the kind of the first [*Error] in its
// chain, else the kind its store error or format error implies, else
// KindInternal.
func KindOf(err error) Kind {
	var e *Error
	var f *export.ErrFormat
	switch {
	case errors.As(err, &e):
		return e.Kind
	case errors.Is(err, store.ErrNotFound):
		return KindNotFound
	case errors.Is(err, store.ErrInvalid), errors.As(err, &f):
		return KindInvalid
	case errors.Is(err, store.ErrTransition):
		return KindConflict
	}
	return KindInternal
}

// Invalid marks err as a mistake of the request (KindInvalid), unless it
// already has a kind; nil stays nil.
func Invalid(err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	return &Error{KindInvalid, err}
}

// Conflict marks err as a request that does not fit the project's state
// now (KindConflict).
func Conflict(err error) error { return &Error{KindConflict, err} }

// Forbidden marks err as a request the signed-in librarian may not make
// (KindForbidden).
func Forbidden(err error) error { return &Error{KindForbidden, err} }

// Unauthorized marks err as a request that needs a signed-in librarian, or
// a sign-in that failed (KindUnauthorized).
func Unauthorized(err error) error { return &Error{KindUnauthorized, err} }

// TooMany marks err as a sign-in refused because of the failed ones before
// it (KindTooMany).
func TooMany(err error) error { return &Error{KindTooMany, err} }

// NotFound marks err as a request naming what does not exist
// (KindNotFound).
func NotFound(err error) error { return &Error{KindNotFound, err} }

// Details is implemented by errors that carry data beside their message
// (the bad lines of a refused ratings file), which the API sends with it.
type Details interface{ Details() any }

// OneLine returns the message of err on one line, its runs of white space
// (newlines included) made one space, as the command line and the lab's
// job status show it.
func OneLine(err error) string { return strings.Join(strings.Fields(err.Error()), " ") }
