package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Rating is one librarian's judgement of a site: 1 (not worth archiving) to
// 4 (must archive), with an optional note; or a note alone, kept before
// (or without) a rating, whose Rating is 0.
type Rating struct {
	Librarian string
	Site      string
	Rating    int
	Note      string
	RatedAt   time.Time
}

// MinRating and MaxRating bound a valid rating.
const (
	MinRating = 1
	MaxRating = 4
)

// SetRating records librarian's rating of site, replacing an earlier one and
// registering the librarian on first use. A rating outside 1–4, a bad
// librarian name (see [ValidLibrarian]) or a note longer than [MaxNote] is
// [ErrInvalid]; an unknown site is [ErrNotFound]. audit, if given, logs the
// change in its transaction (see [Auditor]).
func (s *Store) SetRating(ctx context.Context, librarian, site string, rating int, note string, audit ...Auditor[Rating]) (Rating, error) {
	return s.setRating(ctx, librarian, site, rating, &note, audit)
}

// Rerate sets librarian's rating of site as SetRating does but keeps the
// note already stored (none for a first rating): a quick rating from the
// sites table must not wipe a note written in the review queue.
func (s *Store) Rerate(ctx context.Context, librarian, site string, rating int, audit ...Auditor[Rating]) (Rating, error) {
	return s.setRating(ctx, librarian, site, rating, nil, audit)
}

// ratingIn returns librarian's rating or note alone of site as tx sees
// it, nil for neither: the state an audit row holds before a change.
func ratingIn(ctx context.Context, tx *sql.Tx, librarian, site string) (*Rating, error) {
	rs, err := ratings(ctx, tx, `WHERE l.name_key = ? AND s.name = ?`, foldName(librarian), site)
	if err != nil || len(rs) == 0 {
		return nil, err
	}
	return &rs[0], nil
}

// setRating upserts a rating; a nil note keeps the stored one.
func (s *Store) setRating(ctx context.Context, librarian, site string, rating int, note *string, audit []Auditor[Rating]) (Rating, error) {
	if err := validLibrarian(librarian); err != nil {
		return Rating{}, fmt.Errorf("store: rate %q: %w", site, err)
	}
	if rating < MinRating || rating > MaxRating {
		return Rating{}, fmt.Errorf("store: rate %q: %w: rating %d is not between %d and %d (a note alone is kept with a note, not a rating)",
			site, ErrInvalid, rating, MinRating, MaxRating)
	}
	if note != nil {
		if err := validNote("rating note", *note); err != nil {
			return Rating{}, fmt.Errorf("store: rate %q: %w", site, err)
		}
	}
	// Round(0) drops the monotonic reading, so the returned time equals the
	// one read back later.
	now := s.now().UTC().Round(0)

	out := Rating{Librarian: librarian, Site: site, Rating: rating, RatedAt: now}
	what := fmt.Sprintf("rate %q by %q", site, librarian)
	err := s.write(ctx, what, func(tx *sql.Tx) error {
		siteID, err := siteIDByName(ctx, tx, site)
		if err != nil {
			return fmt.Errorf("store: rate %q: %w", site, err)
		}
		var before *Rating
		if audited(audit) {
			if before, err = ratingIn(ctx, tx, librarian, site); err != nil {
				return fmt.Errorf("store: rate %q by %q: rating before: %w", site, librarian, err)
			}
		}
		librarianID, _, err := ensureLibrarian(ctx, tx, librarian, formatTime(now))
		if err != nil {
			return fmt.Errorf("store: rate %q: %w", site, err)
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO ratings (librarian_id, site_id, rating, note, rated_at)
			VALUES (?1, ?2, ?3, COALESCE(?4, ''), ?5)
			ON CONFLICT (librarian_id, site_id) DO UPDATE SET
				rating = excluded.rating, note = COALESCE(?4, ratings.note), rated_at = excluded.rated_at
			RETURNING note`,
			librarianID, siteID, rating, note, formatTime(now)).Scan(&out.Note); err != nil {
			return fmt.Errorf("store: rate %q by %q: %w", site, librarian, err)
		}
		return logChange(ctx, s, tx, what, audit, before, &out)
	})
	if err != nil {
		return Rating{}, err
	}
	return out, nil
}

// SetNote keeps librarian's note on site without touching their rating:
// a note on a site not rated yet is kept alone (Rating 0), and an empty
// note on a site not rated removes the note. A bad librarian or an
// over-long note is [ErrInvalid]; an unknown site is [ErrNotFound]. audit,
// if given, logs the change in its transaction (see [Auditor]).
func (s *Store) SetNote(ctx context.Context, librarian, site, note string, audit ...Auditor[Rating]) (Rating, error) {
	if err := validLibrarian(librarian); err != nil {
		return Rating{}, fmt.Errorf("store: note on %q: %w", site, err)
	}
	if err := validNote("rating note", note); err != nil {
		return Rating{}, fmt.Errorf("store: note on %q: %w", site, err)
	}
	now := s.now().UTC().Round(0)
	out := Rating{Librarian: librarian, Site: site, Note: note, RatedAt: now}
	what := fmt.Sprintf("note on %q by %q", site, librarian)
	err := s.write(ctx, what, func(tx *sql.Tx) error {
		siteID, err := siteIDByName(ctx, tx, site)
		if err != nil {
			return fmt.Errorf("store: note on %q: %w", site, err)
		}
		var before *Rating
		if audited(audit) {
			if before, err = ratingIn(ctx, tx, librarian, site); err != nil {
				return fmt.Errorf("store: note on %q by %q: rating before: %w", site, librarian, err)
			}
		}
		librarianID, _, err := ensureLibrarian(ctx, tx, librarian, formatTime(now))
		if err != nil {
			return fmt.Errorf("store: note on %q: %w", site, err)
		}
		// A note-only row emptied goes; a rated row keeps its rating and time.
		if _, err := tx.ExecContext(ctx, `DELETE FROM ratings WHERE librarian_id = ? AND site_id = ? AND rating IS NULL AND ? = ''`,
			librarianID, siteID, note); err != nil {
			return fmt.Errorf("store: note on %q by %q: %w", site, librarian, err)
		}
		if note == "" {
			var rating sql.NullInt64
			var at string
			switch err := tx.QueryRowContext(ctx, `UPDATE ratings SET note = '' WHERE librarian_id = ? AND site_id = ? RETURNING rating, rated_at`,
				librarianID, siteID).Scan(&rating, &at); {
			case errors.Is(err, sql.ErrNoRows):
				return logChange(ctx, s, tx, what, audit, before, &out)
			case err != nil:
				return fmt.Errorf("store: note on %q by %q: %w", site, librarian, err)
			}
			out.Rating = int(rating.Int64)
			if out.RatedAt, err = parseTime(at); err != nil {
				return err
			}
			return logChange(ctx, s, tx, what, audit, before, &out)
		}
		var rating sql.NullInt64
		var at string
		if err := tx.QueryRowContext(ctx, `INSERT INTO ratings (librarian_id, site_id, rating, note, rated_at)
			VALUES (?1, ?2, NULL, ?3, ?4)
			ON CONFLICT (librarian_id, site_id) DO UPDATE SET note = ?3
			RETURNING rating, rated_at`, librarianID, siteID, note, formatTime(now)).Scan(&rating, &at); err != nil {
			return fmt.Errorf("store: note on %q by %q: %w", site, librarian, err)
		}
		out.Rating = int(rating.Int64)
		if out.RatedAt, err = parseTime(at); err != nil {
			return err
		}
		return logChange(ctx, s, tx, what, audit, before, &out)
	})
	if err != nil {
		return Rating{}, err
	}
	return out, nil
}

// DeleteRating removes librarian's rating of site; a note written with it
// stays, as a note alone. It is [ErrNotFound] when there is no such rating
// (a note alone is none), so callers can tell a typo from a deletion.
// audit, if given, logs the change in its transaction (see [Auditor]), with
// no state after: the rating is gone.
func (s *Store) DeleteRating(ctx context.Context, librarian, site string, audit ...Auditor[Rating]) error {
	what := fmt.Sprintf("delete rating of %q by %q", site, librarian)
	return s.write(ctx, what, func(tx *sql.Tx) error {
		var before *Rating
		if audited(audit) {
			var err error
			if before, err = ratingIn(ctx, tx, librarian, site); err != nil {
				return fmt.Errorf("store: delete rating of %q by %q: rating before: %w", site, librarian, err)
			}
		}
		const who = `librarian_id = (SELECT id FROM librarians WHERE name = ?)
			AND site_id = (SELECT id FROM sites WHERE name = ?) AND rating IS NOT NULL`
		var n int64
		for _, q := range []string{
			`UPDATE ratings SET rating = NULL WHERE ` + who + ` AND note <> ''`,
			`DELETE FROM ratings WHERE ` + who + ` AND note = ''`,
		} {
			res, err := tx.ExecContext(ctx, q, librarian, site)
			if err != nil {
				return fmt.Errorf("store: delete rating of %q by %q: %w", site, librarian, err)
			}
			k, err := res.RowsAffected()
			if err != nil {
				return fmt.Errorf("store: delete rating of %q by %q: %w", site, librarian, err)
			}
			n += k
		}
		if n == 0 {
			return fmt.Errorf("store: delete rating of %q by %q: %w", site, librarian, ErrNotFound)
		}
		return logChange(ctx, s, tx, what, audit, before, nil)
	})
}

// SiteNames returns the name of every site of the project, sorted.
func (s *Store) SiteNames(ctx context.Context) ([]string, error) {
	out, err := queryList(ctx, s.rdb, scanValue[string], `SELECT name FROM sites ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("store: site names: %w", err)
	}
	return out, nil
}

// Librarians returns the names of everyone who has rated a site, sorted.
// A librarian stays listed after their ratings are deleted.
func (s *Store) Librarians(ctx context.Context) ([]string, error) {
	out, err := queryList(ctx, s.rdb, scanValue[string], `SELECT name FROM librarians ORDER BY name_key, name`)
	if err != nil {
		return nil, fmt.Errorf("store: librarians: %w", err)
	}
	return out, nil
}

// Ratings returns every rating, ordered by site then librarian; notes
// without a rating are left out (see [Store.RatingsAndNotes]).
func (s *Store) Ratings(ctx context.Context) ([]Rating, error) {
	return s.allRatings(ctx, "WHERE r.rating IS NOT NULL")
}

// RatingsAndNotes returns every rating and every note without a rating
// (Rating 0), ordered by site then librarian: what a ratings file holds.
func (s *Store) RatingsAndNotes(ctx context.Context) ([]Rating, error) {
	return s.allRatings(ctx, "")
}

func (s *Store) allRatings(ctx context.Context, where string) ([]Rating, error) {
	tx, err := s.readTx(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: ratings: begin: %w", err)
	}
	defer tx.Rollback()
	out, err := ratings(ctx, tx, where)
	if err != nil {
		return nil, fmt.Errorf("store: ratings: %w", err)
	}
	return out, nil
}

// ratings lists ratings selected by where (a WHERE clause over r, or "").
func ratings(ctx context.Context, tx *sql.Tx, where string, args ...any) ([]Rating, error) {
	return queryList(ctx, tx, scanRating, `SELECT l.name, s.name, r.rating, r.note, r.rated_at
		FROM ratings r
		JOIN librarians l ON l.id = r.librarian_id
		JOIN sites s ON s.id = r.site_id
		`+where+`
		ORDER BY s.name, l.name`, args...)
}

func scanRating(sc scanner) (r Rating, err error) {
	var at string
	var rating sql.NullInt64
	if err := sc.Scan(&r.Librarian, &r.Site, &rating, &r.Note, &at); err != nil {
		return r, err
	}
	r.Rating = int(rating.Int64) // 0: a note alone
	r.RatedAt, err = parseTime(at)
	return r, err
}
