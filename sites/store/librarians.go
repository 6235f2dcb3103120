package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Librarian is a librarian's profile: a name chosen in the app or given with
// --librarian. sitesift is a desktop tool, so a profile has no password; it
// only keeps one librarian's ratings and decisions apart from another's.
type Librarian struct {
	Name      string
	CreatedAt time.Time
	// Ratings is the number of sites the librarian has rated (notes
	// without a rating are not counted).
	Ratings int
}

// MaxLibrarianName is the longest librarian name accepted, in characters.
const MaxLibrarianName = 64

// validLibrarian checks a librarian name: not empty, no more than
// MaxLibrarianName characters, no control characters, and no space at
// either end — "ana" and "ana " would otherwise be two profiles that look
// the same in every list.
func validLibrarian(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return fmt.Errorf("%w: empty librarian name", ErrInvalid)
	case strings.TrimSpace(name) != name:
		return fmt.Errorf("%w: librarian name %q starts or ends with a space", ErrInvalid, name)
	case !utf8.ValidString(name):
		return fmt.Errorf("%w: librarian name %q is not valid UTF-8", ErrInvalid, name)
	case utf8.RuneCountInString(name) > MaxLibrarianName:
		return fmt.Errorf("%w: librarian name longer than %d characters", ErrInvalid, MaxLibrarianName)
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return fmt.Errorf("%w: librarian name %q has a control character", ErrInvalid, name)
	}
	return nil
}

// ValidLibrarian returns an [ErrInvalid] error saying what is wrong with a
// librarian name, or nil for a name the store accepts.
func ValidLibrarian(name string) error { return validLibrarian(name) }

// ensureLibrarian returns the id of the librarian called name, whatever
// the case of its letters, adding the profile first when there is none;
// created tells which. It runs in a writing transaction, so the look-up and
// the insert cannot be split by another writer.
func ensureLibrarian(ctx context.Context, tx *sql.Tx, name, now string) (id int64, created bool, err error) {
	switch err := tx.QueryRowContext(ctx, `SELECT id FROM librarians WHERE name_key = ?`, foldName(name)).Scan(&id); {
	case err == nil:
		return id, false, nil
	case !errors.Is(err, sql.ErrNoRows):
		return 0, false, fmt.Errorf("store: look up librarian %q: %w", name, err)
	}
	if err := tx.QueryRowContext(ctx, `INSERT INTO librarians (name, name_key, created_at) VALUES (?, ?, ?) RETURNING id`,
		name, foldName(name), now).Scan(&id); err != nil {
		return 0, false, fmt.Errorf("store: add librarian %q: %w", name, err)
	}
	return id, true, nil
}

// AddLibrarian adds a librarian profile; created is false when one of that
// name, in any case, existed already, which is then returned unchanged
// ("ana" after "Ana" returns Ana). A bad name is [ErrInvalid] (see
// [ValidLibrarian]). audit, if given, logs an addition in its transaction
// (see [Auditor]), with no state before; finding the profile there is no
// change and logs nothing.
func (s *Store) AddLibrarian(ctx context.Context, name string, audit ...Auditor[Librarian]) (l Librarian, created bool, err error) {
	if err := validLibrarian(name); err != nil {
		return Librarian{}, false, fmt.Errorf("store: add librarian: %w", err)
	}
	what := fmt.Sprintf("add librarian %q", name)
	err = s.write(ctx, what, func(tx *sql.Tx) error {
		if _, created, err = ensureLibrarian(ctx, tx, name, formatTime(s.now())); err != nil || !created || !audited(audit) {
			return err
		}
		ls, err := librarianProfilesIn(ctx, tx, `WHERE l.name_key = ?`, foldName(name))
		if err != nil {
			return fmt.Errorf("store: %s: the profile added: %w", what, err)
		}
		if len(ls) == 0 {
			return fmt.Errorf("store: %s: the profile added: %w", what, ErrNotFound)
		}
		return logChange(ctx, s, tx, what, audit, nil, &ls[0])
	})
	if err != nil {
		return Librarian{}, false, err
	}
	l, err = s.LibrarianProfile(ctx, name)
	return l, created, err
}

// LibrarianProfile returns the profile of the librarian called name, in
// any case: its Name is the spelling it was added with. An unknown name is
// [ErrNotFound].
func (s *Store) LibrarianProfile(ctx context.Context, name string) (Librarian, error) {
	ls, err := s.librarianProfiles(ctx, `WHERE l.name_key = ?`, foldName(name))
	if err != nil {
		return Librarian{}, err
	}
	if len(ls) == 0 {
		return Librarian{}, fmt.Errorf("store: librarian %q: %w", name, ErrNotFound)
	}
	return ls[0], nil
}

// LibrarianProfiles returns every librarian's profile, sorted by name whatever its case.
func (s *Store) LibrarianProfiles(ctx context.Context) ([]Librarian, error) {
	return s.librarianProfiles(ctx, "")
}

func (s *Store) librarianProfiles(ctx context.Context, where string, args ...any) ([]Librarian, error) {
	return librarianProfilesIn(ctx, s.rdb, where, args...)
}

// librarianProfilesIn is librarianProfiles as q (the read pool, or a
// transaction) sees them.
func librarianProfilesIn(ctx context.Context, q querier, where string, args ...any) ([]Librarian, error) {
	out, err := queryList(ctx, q, scanLibrarian, `SELECT l.name, l.created_at,
			(SELECT COUNT(*) FROM ratings r WHERE r.librarian_id = l.id AND r.rating IS NOT NULL)
		FROM librarians l `+where+` ORDER BY l.name_key, l.name`, args...)
	if err != nil {
		return nil, fmt.Errorf("store: librarians: %w", err)
	}
	return out, nil
}

func scanLibrarian(sc scanner) (l Librarian, err error) {
	var at string
	if err := sc.Scan(&l.Name, &at, &l.Ratings); err != nil {
		return l, err
	}
	if l.CreatedAt, err = parseTime(at); err != nil {
		return l, fmt.Errorf("librarian %q: %w", l.Name, err)
	}
	return l, nil
}

// UnknownLibrarians returns those of names that name no librarian profile,
// whatever their case ("ana" is Ana's), each once in the spelling it first
// has in names, sorted: the profiles a ratings import would create.
func (s *Store) UnknownLibrarians(ctx context.Context, names []string) ([]string, error) {
	known := map[string]bool{}
	err := queryRows(ctx, s.rdb, func(sc scanner) error {
		var key string
		if err := sc.Scan(&key); err != nil {
			return err
		}
		known[key] = true
		return nil
	}, `SELECT name_key FROM librarians`)
	if err != nil {
		return nil, fmt.Errorf("store: librarians: %w", err)
	}
	out := []string{}
	for _, n := range names {
		if k := foldName(n); !known[k] {
			known[k] = true
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out, nil
}
