package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// RatingsImport tells what [Store.ImportRatings] changed.
type RatingsImport struct {
	// Rows is the number of ratings given.
	Rows int
	// Added ratings were new; Changed ones replaced a different rating or
	// note; Unchanged ones were there already, rated_at included.
	Added     int
	Changed   int
	Unchanged int
	// NewLibrarians are the profiles the import created, sorted.
	NewLibrarians []string
}

// UnknownSitesError is the error of [Store.ImportRatings] when ratings name
// sites the project does not have. It wraps [ErrNotFound].
type UnknownSitesError struct {
	// Rows are the indexes, in the ratings given, of the ratings of unknown
	// sites, ascending.
	Rows []int
	// Sites are the unknown names, sorted, each once.
	Sites []string
}

func (e *UnknownSitesError) Error() string {
	return fmt.Sprintf("store: import ratings: %d ratings of %d unknown sites (%s...)", len(e.Rows), len(e.Sites), e.Sites[0])
}

// Unwrap makes errors.Is(err, ErrNotFound) hold.
func (e *UnknownSitesError) Unwrap() error { return ErrNotFound }

// UnknownSites returns the names among names that are not sites of the
// project, sorted, each once.
func (s *Store) UnknownSites(ctx context.Context, names []string) ([]string, error) {
	tx, err := s.readTx(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: unknown sites: begin: %w", err)
	}
	defer tx.Rollback()
	return unknownSites(ctx, tx, names)
}

// unknownSites asks in one query, passing the names as one JSON array, so
// that a file of thousands of ratings costs no thousands of round trips.
func unknownSites(ctx context.Context, tx *sql.Tx, names []string) ([]string, error) {
	if len(names) == 0 {
		return []string{}, nil
	}
	js, err := json.Marshal(names)
	if err != nil {
		return nil, fmt.Errorf("store: unknown sites: %w", err)
	}
	out, err := queryList(ctx, tx, scanValue[string], `SELECT DISTINCT j.value FROM json_each(?) j
		LEFT JOIN sites s ON s.name = j.value
		WHERE s.id IS NULL ORDER BY j.value`, string(js))
	if err != nil {
		return nil, fmt.Errorf("store: unknown sites: %w", err)
	}
	return out, nil
}

// ImportRatings upserts ratings (their RatedAt is ignored) in one
// transaction, registering new librarians: the way ratings made on another
// laptop are merged in. Either every rating is imported or none is. A
// rating equal to the stored one (same value, same note) is left as it is,
// rated_at included, so importing a file twice changes nothing the second
// time. A bad rating, librarian or note is an [ErrInvalid] error naming the
// row's index; ratings of sites the project does not know fail the import
// with an [*UnknownSitesError] listing all of them. Two ratings of one site
// by one librarian are [ErrInvalid] unless they are equal.
func (s *Store) ImportRatings(ctx context.Context, rs []Rating) (RatingsImport, error) {
	type key struct{ librarian, site string }
	seen := make(map[key]int, len(rs))
	var names []string
	for i, r := range rs {
		if err := validLibrarian(r.Librarian); err != nil {
			return RatingsImport{}, fmt.Errorf("store: import ratings: row %d: %w", i, err)
		}
		switch {
		case r.Rating == 0 && r.Note == "":
			return RatingsImport{}, fmt.Errorf("store: import ratings: row %d: %w: neither a rating nor a note", i, ErrInvalid)
		case r.Rating == 0: // a note alone
		case r.Rating < MinRating || r.Rating > MaxRating:
			return RatingsImport{}, fmt.Errorf("store: import ratings: row %d: %w: rating %d is not between %d and %d",
				i, ErrInvalid, r.Rating, MinRating, MaxRating)
		}
		if err := validNote("rating note", r.Note); err != nil {
			return RatingsImport{}, fmt.Errorf("store: import ratings: row %d: %w", i, err)
		}
		if r.Site == "" {
			return RatingsImport{}, fmt.Errorf("store: import ratings: row %d: %w: empty site", i, ErrInvalid)
		}
		k := key{foldName(r.Librarian), r.Site}
		if j, ok := seen[k]; ok {
			if rs[j].Rating != r.Rating || rs[j].Note != r.Note {
				return RatingsImport{}, fmt.Errorf("store: import ratings: row %d: %w: %s rates %s again, differently from row %d",
					i, ErrInvalid, r.Librarian, r.Site, j)
			}
			continue
		}
		seen[k] = i
		names = append(names, r.Site)
	}

	res := RatingsImport{Rows: len(rs), NewLibrarians: []string{}}
	now := formatTime(s.now())
	err := s.write(ctx, fmt.Sprintf("import %d ratings", len(rs)), func(tx *sql.Tx) error {
		unknown, err := unknownSites(ctx, tx, names)
		if err != nil {
			return err
		}
		if len(unknown) > 0 {
			e := &UnknownSitesError{Sites: unknown}
			for i, r := range rs {
				if _, ok := slices.BinarySearch(unknown, r.Site); ok {
					e.Rows = append(e.Rows, i)
				}
			}
			return e
		}
		siteIDs := map[string]int64{}
		librarianIDs := map[string]int64{}
		get, err := tx.PrepareContext(ctx, `SELECT rating, note FROM ratings WHERE librarian_id = ? AND site_id = ?`)
		if err != nil {
			return fmt.Errorf("store: import ratings: %w", err)
		}
		defer get.Close()
		put, err := tx.PrepareContext(ctx, `INSERT INTO ratings (librarian_id, site_id, rating, note, rated_at)
			VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (librarian_id, site_id) DO UPDATE SET
				rating = excluded.rating, note = excluded.note, rated_at = excluded.rated_at`)
		if err != nil {
			return fmt.Errorf("store: import ratings: %w", err)
		}
		defer put.Close()
		for i, r := range rs {
			if seen[key{foldName(r.Librarian), r.Site}] != i {
				res.Unchanged++ // an equal repeat of an earlier row
				continue
			}
			siteID, ok := siteIDs[r.Site]
			if !ok {
				if siteID, err = siteIDByName(ctx, tx, r.Site); err != nil {
					return fmt.Errorf("store: import ratings: site %q: %w", r.Site, err)
				}
				siteIDs[r.Site] = siteID
			}
			librarianID, ok := librarianIDs[r.Librarian]
			if !ok {
				var created bool
				if librarianID, created, err = ensureLibrarian(ctx, tx, r.Librarian, now); err != nil {
					return fmt.Errorf("store: import ratings: %w", err)
				}
				if created {
					res.NewLibrarians = append(res.NewLibrarians, r.Librarian)
				}
				librarianIDs[r.Librarian] = librarianID
			}
			var old sql.NullInt64
			var oldNote string
			switch err := get.QueryRowContext(ctx, librarianID, siteID).Scan(&old, &oldNote); {
			case errors.Is(err, sql.ErrNoRows):
				res.Added++
			case err != nil:
				return fmt.Errorf("store: import ratings: %s on %s: %w", r.Librarian, r.Site, err)
			case int(old.Int64) == r.Rating && oldNote == r.Note:
				res.Unchanged++
				continue
			default:
				res.Changed++
			}
			if _, err := put.ExecContext(ctx, librarianID, siteID, sql.NullInt64{Int64: int64(r.Rating), Valid: r.Rating != 0}, r.Note, now); err != nil {
				return fmt.Errorf("store: import ratings: %s on %s: %w", r.Librarian, r.Site, err)
			}
		}
		return nil
	})
	if err != nil {
		return RatingsImport{}, err
	}
	slices.Sort(res.NewLibrarians)
	return res, nil
}
