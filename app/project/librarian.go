package project

import (
	"context"
	"errors"
	"fmt"
	"sitesift/app/fault"
	"sitesift/sites/store"
	"strings"
)

// Librarian returns the name of the project's librarian called name,
// whatever its case, spelt as the profile was added ("ana" gives "Ana").
// Rating, noting, selecting and the review queue and page take a known
// librarian only: a mistyped name must not become a new librarian
// silently. An unknown name is an error (fault.KindNotFound) listing the
// librarians there are; profiles are added with the service's AddLibrarian.
//
// On a team server the signed-in librarian is the only one a call may
// name (see [WithIdentity]).
func (p *Project) Librarian(ctx context.Context, name string) (string, error) {
	if own, signedIn, err := actAs(ctx, name); signedIn {
		return own, err
	}
	if err := store.ValidLibrarian(name); err != nil {
		return "", fault.Invalid(err)
	}
	l, err := p.Store.LibrarianProfile(ctx, name)
	if err == nil {
		return l.Name, nil
	}
	if !errors.Is(err, store.ErrNotFound) {
		return "", err
	}
	names, err := p.Store.Librarians(ctx)
	if err != nil {
		return "", err
	}
	known := "the project has no librarian yet"
	if len(names) > 0 {
		known = "the project's librarians are " + strings.Join(names, ", ")
	}
	return "", fault.NotFound(fmt.Errorf("unknown librarian %q: %s; add a librarian with `sitesift librarians add NAME` or the app's \"Add librarian\"",
		name, known))
}
