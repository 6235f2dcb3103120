package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Selection statuses, in the workflow of Web Curator Tool and PANDAS: every
// site starts as a candidate; a librarian nominates it, and a nominated site
// is approved (it goes into the seed list) or rejected.
const (
	StatusCandidate = "candidate"
	StatusNominated = "nominated"
	StatusApproved  = "approved"
	StatusRejected  = "rejected"
)

// Statuses returns the selection statuses in workflow order.
func Statuses() []string {
	return []string{StatusCandidate, StatusNominated, StatusApproved, StatusRejected}
}

// ErrTransition is returned (wrapped, naming both statuses) by
// [Store.SetSelection] for a status change the workflow does not allow.
// Callers map it to "conflict": the request is well formed, the site's
// current state forbids it.
var ErrTransition = errors.New("store: selection status change not allowed")

// CanMove reports whether a site's selection status may change from one
// status to another. The workflow is
//
//	candidate → nominated → approved
//	any status → rejected
//	rejected → candidate (reopen)
//
// and staying in a status is always allowed, so that a note or subject can
// be edited alone. An approval goes through a nomination, so that every
// approved site has been looked at twice (once to nominate, once to
// approve); an approved site that should not be is rejected, and may then be
// reopened.
func CanMove(from, to string) bool {
	if from == to || to == StatusRejected {
		return true
	}
	switch from {
	case StatusCandidate:
		return to == StatusNominated
	case StatusNominated:
		return to == StatusApproved
	case StatusRejected:
		return to == StatusCandidate
	}
	return false
}

func validStatus(s string) error {
	for _, v := range Statuses() {
		if s == v {
			return nil
		}
	}
	return fmt.Errorf("%w: unknown selection status %q (want %s)", ErrInvalid, s, strings.Join(Statuses(), ", "))
}

// MaxNote is the longest rating or selection note and selection subject
// accepted, in characters: a paragraph or two, not a document.
const MaxNote = 4000

func validNote(what, s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("%w: %s is not valid UTF-8", ErrInvalid, what)
	}
	if n := utf8.RuneCountInString(s); n > MaxNote {
		return fmt.Errorf("%w: %s of %d characters is longer than %d", ErrInvalid, what, n, MaxNote)
	}
	return nil
}

// Selection is the selection state of one site.
type Selection struct {
	Site string `json:"site"`
	// Status is one of the Status constants; a site never decided upon is
	// a candidate.
	Status  string `json:"status"`
	Note    string `json:"note"`
	Subject string `json:"subject"`
	// DecidedBy and DecidedAt tell who last changed the status, and when;
	// empty and zero while the site has never left candidate.
	DecidedBy string    `json:"decided_by"`
	DecidedAt time.Time `json:"decided_at,omitzero"`
}

// SelectionUpdate is what [Store.SetSelection] writes. A nil Note or
// Subject keeps the one stored, so that a status change (nominate with a
// key) does not wipe a note written earlier.
type SelectionUpdate struct {
	Librarian string
	Status    string
	Note      *string
	Subject   *string
}

// SetSelection sets the selection state of site on behalf of a librarian
// (registered on first use). A note or subject given replaces the old one. A
// status change the workflow does not allow (see [CanMove]) is
// [ErrTransition]; a bad librarian, status or an over-long note is
// [ErrInvalid]; an unknown site is [ErrNotFound]. decided_by and decided_at
// change only when the status does.
func (s *Store) SetSelection(ctx context.Context, site string, u SelectionUpdate) (Selection, error) {
	if err := validLibrarian(u.Librarian); err != nil {
		return Selection{}, fmt.Errorf("store: select %q: %w", site, err)
	}
	if err := validStatus(u.Status); err != nil {
		return Selection{}, fmt.Errorf("store: select %q: %w", site, err)
	}
	for _, f := range []struct {
		what string
		v    *string
	}{{"selection note", u.Note}, {"subject", u.Subject}} {
		if f.v == nil {
			continue
		}
		if err := validNote(f.what, *f.v); err != nil {
			return Selection{}, fmt.Errorf("store: select %q: %w", site, err)
		}
	}
	now := formatTime(s.now())
	err := s.write(ctx, fmt.Sprintf("select %q", site), func(tx *sql.Tx) error {
		siteID, err := siteIDByName(ctx, tx, site)
		if err != nil {
			return fmt.Errorf("store: select %q: %w", site, err)
		}
		from := StatusCandidate
		switch err := tx.QueryRowContext(ctx, `SELECT status FROM selections WHERE site_id = ?`, siteID).Scan(&from); {
		case err == nil, errors.Is(err, sql.ErrNoRows):
		default:
			return fmt.Errorf("store: select %q: %w", site, err)
		}
		if !CanMove(from, u.Status) {
			return fmt.Errorf("store: select %q: %w: %s → %s (allowed: candidate → nominated → approved, any → rejected, rejected → candidate)",
				site, ErrTransition, from, u.Status)
		}
		librarianID, _, err := ensureLibrarian(ctx, tx, u.Librarian, now)
		if err != nil {
			return fmt.Errorf("store: select %q: %w", site, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO selections (site_id, status, note, subject, decided_by, decided_at)
			VALUES (?1, ?2, COALESCE(?3, ''), COALESCE(?4, ''),
				CASE WHEN ?2 <> 'candidate' THEN ?5 END, CASE WHEN ?2 <> 'candidate' THEN ?6 END)
			ON CONFLICT (site_id) DO UPDATE SET
				note = COALESCE(?3, note), subject = COALESCE(?4, subject),
				decided_by = CASE WHEN status <> ?2 THEN ?5 ELSE decided_by END,
				decided_at = CASE WHEN status <> ?2 THEN ?6 ELSE decided_at END,
				status = ?2`,
			siteID, u.Status, u.Note, u.Subject, librarianID, now); err != nil {
			return fmt.Errorf("store: select %q: %w", site, err)
		}
		return nil
	})
	if err != nil {
		return Selection{}, err
	}
	return s.Selection(ctx, site)
}

// selectionSelect reads Selection columns for the sites s joined with their
// selections row sel, if any.
const selectionSelect = `SELECT s.name, COALESCE(sel.status, 'candidate'), COALESCE(sel.note, ''),
		COALESCE(sel.subject, ''), COALESCE(l.name, ''), sel.decided_at
	FROM sites s
	LEFT JOIN selections sel ON sel.site_id = s.id
	LEFT JOIN librarians l ON l.id = sel.decided_by`

// scanSelection reads the columns of selectionSelect, then those after them
// into extra.
func scanSelection(sc scanner, extra ...any) (Selection, error) {
	var sel Selection
	var at sql.NullString
	if err := sc.Scan(append([]any{&sel.Site, &sel.Status, &sel.Note, &sel.Subject, &sel.DecidedBy, &at}, extra...)...); err != nil {
		return Selection{}, err
	}
	var err error
	if sel.DecidedAt, err = parseNullTime(at); err != nil {
		return Selection{}, err
	}
	return sel, nil
}

// Selection returns the selection state of site: a candidate with no note
// when none was ever set. An unknown site is [ErrNotFound].
func (s *Store) Selection(ctx context.Context, site string) (Selection, error) {
	sel, err := scanSelection(s.db.QueryRowContext(ctx, selectionSelect+` WHERE s.name = ?`, site))
	if errors.Is(err, sql.ErrNoRows) {
		return Selection{}, fmt.Errorf("store: selection of %q: %w", site, ErrNotFound)
	}
	if err != nil {
		return Selection{}, fmt.Errorf("store: selection of %q: %w", site, err)
	}
	return sel, nil
}

// SelectedSite is a site of [Store.Selections]: its selection state and its
// importance, what a seed list of selected sites carries.
type SelectedSite struct {
	Selection
	// OPIC is the site's share of all OPIC importance (see SiteRow.OPIC).
	OPIC float64 `json:"opic"`
	// Standing places the site among all sites; the app fills it.
	Standing
}

// Selections returns the sites whose selection status is status, by OPIC
// importance, highest first, then by name. Only sites that have a
// selections row are listed, so asking for candidates lists the reopened
// ones and those with a note, not every site never looked at.
func (s *Store) Selections(ctx context.Context, status string) ([]SelectedSite, error) {
	if err := validStatus(status); err != nil {
		return nil, fmt.Errorf("store: selections: %w", err)
	}
	out, err := queryList(ctx, s.db, func(sc scanner) (x SelectedSite, err error) {
		x.Selection, err = scanSelection(sc, &x.OPIC)
		return x, err
	}, `SELECT s.name, sel.status, sel.note, sel.subject, COALESCE(l.name, ''), sel.decided_at,
			CASE WHEN t.total > 0 THEN (s.opic_history + s.opic_cash) / t.total ELSE 0 END
		FROM selections sel
		JOIN sites s ON s.id = sel.site_id
		LEFT JOIN librarians l ON l.id = sel.decided_by
		CROSS JOIN (SELECT SUM(opic_history + opic_cash) AS total FROM sites) t
		WHERE sel.status = ?
		ORDER BY (s.opic_history + s.opic_cash) DESC, s.name`, status)
	if err != nil {
		return nil, fmt.Errorf("store: selections: %w", err)
	}
	return out, nil
}

// SelectionStatuses returns the status of every site that has left (or
// been returned to) candidate, by site name; sites not in the map are
// candidates. The review queue marks its rows with it.
func (s *Store) SelectionStatuses(ctx context.Context) (map[string]string, error) {
	out := map[string]string{}
	err := queryRows(ctx, s.db, func(sc scanner) error {
		var name, status string
		if err := sc.Scan(&name, &status); err != nil {
			return err
		}
		out[name] = status
		return nil
	}, `SELECT s.name, sel.status FROM selections sel JOIN sites s ON s.id = sel.site_id`)
	if err != nil {
		return nil, fmt.Errorf("store: selection statuses: %w", err)
	}
	return out, nil
}
