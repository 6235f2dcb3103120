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
	Site string
	// Status is one of the Status constants; a site never decided upon is
	// a candidate.
	Status  string
	Note    string
	Subject string
	// DecidedBy and DecidedAt tell who last changed the status, and when;
	// empty and zero while the site has never left candidate.
	DecidedBy string
	DecidedAt time.Time
	// NominatedBy and NominatedAt tell who nominated the site, and when,
	// for a nominated or approved site (and a rejected one that had been
	// nominated). NominatorUnknown is true for a site approved before
	// nominators were kept: it was nominated, by someone not recorded.
	NominatedBy      string
	NominatedAt      time.Time
	NominatorUnknown bool
	// ApprovedBy and ApprovedAt tell who approved the site, and when.
	ApprovedBy string
	ApprovedAt time.Time
	// RejectedBy, RejectedAt and RejectedReason tell who rejected the
	// site, when and why (the reason may be empty).
	RejectedBy     string
	RejectedAt     time.Time
	RejectedReason string
	// PageOnly is true for an approved site whose seed is handed to
	// crawlers as that page alone, not as its whole site.
	PageOnly bool
}

// SelectionUpdate is what [Store.SetSelection] writes. A nil Note or
// Subject keeps the one stored, so that a status change (nominate with a
// key) does not wipe a note written earlier.
type SelectionUpdate struct {
	Librarian string
	Status    string
	Note      *string
	Subject   *string
	// Reason is why a site is rejected: kept with a change to rejected (or
	// on a rejected site); nil keeps the one stored.
	Reason *string
	// PageOnly marks the site's seed as that page alone (true) or as its
	// whole site (false); nil keeps the one stored. Only an approved site
	// is handed to crawlers, so true goes with the status approved alone.
	PageOnly *bool
	// AllowSelfApproval lets the librarian who nominated a site approve
	// it too. Without it an approval by the nominator is
	// [ErrSelfApproval]: two librarians look at every approved site.
	AllowSelfApproval bool
}

// ErrSelfApproval is returned (wrapped in a [*SelfApprovalError]) by
// [Store.SetSelection] for the approval of a site by the librarian who
// nominated it, while the project asks for two-person approval.
var ErrSelfApproval = errors.New("store: two-person approval: the nominator cannot approve")

// SelfApprovalError refuses the approval of a site by its nominator.
type SelfApprovalError struct {
	Site      string
	Nominator string
	Approver  string
}

func (e *SelfApprovalError) Error() string {
	return fmt.Sprintf("approval of %s refused: it was nominated by %s, and %s cannot also approve it; "+
		"two-person approval needs another librarian to approve (the project setting single_person_approval allows it for a lone librarian)",
		e.Site, e.Nominator, e.Approver)
}

func (e *SelfApprovalError) Unwrap() error { return ErrSelfApproval }

// selectionRow is the stored workflow of one site, ids and stored times.
type selectionRow struct {
	status                              string
	nominatedBy, approvedBy, rejectedBy sql.NullInt64
	nominatedAt, approvedAt, rejectedAt sql.NullString
	reason                              string
}

// SetSelection sets the selection state of site on behalf of a librarian
// (registered on first use). A note or subject given replaces the old one. A
// status change the workflow does not allow (see [CanMove]) is
// [ErrTransition]; an approval by the nominator, unless the update allows
// it, is [ErrSelfApproval]; a bad librarian, status or an over-long note is
// [ErrInvalid]; an unknown site is [ErrNotFound]. decided_by and decided_at
// change only when the status does; so do the nominator (set on
// nomination, cleared on reopening), the approver (set on approval) and the
// rejection (set on rejection). audit, if given, logs the change in its
// transaction (see [Auditor]).
func (s *Store) SetSelection(ctx context.Context, site string, u SelectionUpdate, audit ...Auditor[Selection]) (Selection, error) {
	if err := validLibrarian(u.Librarian); err != nil {
		return Selection{}, fmt.Errorf("store: select %q: %w", site, err)
	}
	if err := validStatus(u.Status); err != nil {
		return Selection{}, fmt.Errorf("store: select %q: %w", site, err)
	}
	for _, f := range []struct {
		what string
		v    *string
	}{{"selection note", u.Note}, {"subject", u.Subject}, {"rejection reason", u.Reason}} {
		if f.v == nil {
			continue
		}
		if err := validNote(f.what, *f.v); err != nil {
			return Selection{}, fmt.Errorf("store: select %q: %w", site, err)
		}
	}
	if u.PageOnly != nil && *u.PageOnly && u.Status != StatusApproved {
		return Selection{}, fmt.Errorf("store: select %q: %w: a seed of this page only goes with the status approved, not %s", site, ErrInvalid, u.Status)
	}
	now := formatTime(s.now())
	what := fmt.Sprintf("select %q", site)
	var after Selection
	err := s.write(ctx, what, func(tx *sql.Tx) error {
		siteID, err := siteIDByName(ctx, tx, site)
		if err != nil {
			return fmt.Errorf("store: select %q: %w", site, err)
		}
		var before *Selection
		if audited(audit) {
			sel, err := selectionIn(ctx, tx, site)
			if err != nil {
				return fmt.Errorf("store: select %q: selection before: %w", site, err)
			}
			before = &sel
		}
		old := selectionRow{status: StatusCandidate}
		switch err := tx.QueryRowContext(ctx, `SELECT status, nominated_by, nominated_at, approved_by, approved_at,
				rejected_by, rejected_at, rejected_reason FROM selections WHERE site_id = ?`, siteID).Scan(
			&old.status, &old.nominatedBy, &old.nominatedAt, &old.approvedBy, &old.approvedAt,
			&old.rejectedBy, &old.rejectedAt, &old.reason); {
		case err == nil, errors.Is(err, sql.ErrNoRows):
		default:
			return fmt.Errorf("store: select %q: %w", site, err)
		}
		from := old.status
		if !CanMove(from, u.Status) {
			return fmt.Errorf("store: select %q: %w: %s → %s (allowed: candidate → nominated → approved, any → rejected, rejected → candidate)",
				site, ErrTransition, from, u.Status)
		}
		librarianID, _, err := ensureLibrarian(ctx, tx, u.Librarian, now)
		if err != nil {
			return fmt.Errorf("store: select %q: %w", site, err)
		}
		row := old
		id := sql.NullInt64{Int64: librarianID, Valid: true}
		at := sql.NullString{String: now, Valid: true}
		if from != u.Status {
			switch u.Status {
			case StatusCandidate:
				row = selectionRow{}
			case StatusNominated:
				row = selectionRow{nominatedBy: id, nominatedAt: at}
			case StatusApproved:
				if !u.AllowSelfApproval && old.nominatedBy.Valid && old.nominatedBy.Int64 == librarianID {
					var nominator string
					if err := tx.QueryRowContext(ctx, `SELECT name FROM librarians WHERE id = ?`, librarianID).Scan(&nominator); err != nil {
						return fmt.Errorf("store: select %q: %w", site, err)
					}
					return fmt.Errorf("store: select %q: %w", site, &SelfApprovalError{Site: site, Nominator: nominator, Approver: u.Librarian})
				}
				row.approvedBy, row.approvedAt = id, at
			case StatusRejected:
				row.rejectedBy, row.rejectedAt, row.reason = id, at, ""
			}
		}
		if u.Reason != nil && u.Status == StatusRejected {
			row.reason = *u.Reason
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO selections (site_id, status, note, subject, decided_by, decided_at,
				nominated_by, nominated_at, approved_by, approved_at, rejected_by, rejected_at, rejected_reason, page_only)
			VALUES (?1, ?2, COALESCE(?3, ''), COALESCE(?4, ''),
				CASE WHEN ?2 <> 'candidate' THEN ?5 END, CASE WHEN ?2 <> 'candidate' THEN ?6 END,
				?7, ?8, ?9, ?10, ?11, ?12, ?13, COALESCE(?14, 0))
			ON CONFLICT (site_id) DO UPDATE SET
				note = COALESCE(?3, note), subject = COALESCE(?4, subject),
				decided_by = CASE WHEN status <> ?2 THEN ?5 ELSE decided_by END,
				decided_at = CASE WHEN status <> ?2 THEN ?6 ELSE decided_at END,
				nominated_by = ?7, nominated_at = ?8, approved_by = ?9, approved_at = ?10,
				rejected_by = ?11, rejected_at = ?12, rejected_reason = ?13,
				page_only = COALESCE(?14, page_only), status = ?2`,
			siteID, u.Status, u.Note, u.Subject, librarianID, now,
			row.nominatedBy, row.nominatedAt, row.approvedBy, row.approvedAt, row.rejectedBy, row.rejectedAt, row.reason,
			u.PageOnly); err != nil {
			return fmt.Errorf("store: select %q: %w", site, err)
		}
		if after, err = selectionIn(ctx, tx, site); err != nil {
			return fmt.Errorf("store: select %q: selection after: %w", site, err)
		}
		return logChange(ctx, s, tx, what, audit, before, &after)
	})
	if err != nil {
		return Selection{}, err
	}
	return after, nil
}

// selectionIn returns the selection state of site as tx sees it.
func selectionIn(ctx context.Context, tx *sql.Tx, site string) (Selection, error) {
	return scanSelection(tx.QueryRowContext(ctx, selectionSelect+` WHERE s.name = ?`, site))
}

// selectionSelect reads Selection columns for the sites s joined with their
// selections row sel, if any.
const selectionSelect = `SELECT s.name, COALESCE(sel.status, 'candidate'), COALESCE(sel.note, ''),
		COALESCE(sel.subject, ''), COALESCE(l.name, ''), sel.decided_at,
		COALESCE(ln.name, ''), sel.nominated_at, COALESCE(la.name, ''), sel.approved_at,
		COALESCE(lr.name, ''), sel.rejected_at, COALESCE(sel.rejected_reason, ''), COALESCE(sel.page_only, 0)
	FROM sites s
	LEFT JOIN selections sel ON sel.site_id = s.id
	LEFT JOIN librarians l ON l.id = sel.decided_by
	LEFT JOIN librarians ln ON ln.id = sel.nominated_by
	LEFT JOIN librarians la ON la.id = sel.approved_by
	LEFT JOIN librarians lr ON lr.id = sel.rejected_by`

// scanSelection reads the columns of selectionSelect, then those after them
// into extra.
func scanSelection(sc scanner, extra ...any) (Selection, error) {
	var sel Selection
	var at, nomAt, appAt, rejAt sql.NullString
	if err := sc.Scan(append([]any{&sel.Site, &sel.Status, &sel.Note, &sel.Subject, &sel.DecidedBy, &at,
		&sel.NominatedBy, &nomAt, &sel.ApprovedBy, &appAt, &sel.RejectedBy, &rejAt, &sel.RejectedReason, &sel.PageOnly}, extra...)...); err != nil {
		return Selection{}, err
	}
	for _, t := range []struct {
		s *sql.NullString
		t *time.Time
	}{{&at, &sel.DecidedAt}, {&nomAt, &sel.NominatedAt}, {&appAt, &sel.ApprovedAt}, {&rejAt, &sel.RejectedAt}} {
		var err error
		if *t.t, err = parseNullTime(*t.s); err != nil {
			return Selection{}, err
		}
	}
	sel.NominatorUnknown = sel.Status == StatusApproved && sel.NominatedBy == ""
	return sel, nil
}

// Selection returns the selection state of site: a candidate with no note
// when none was ever set. An unknown site is [ErrNotFound].
func (s *Store) Selection(ctx context.Context, site string) (Selection, error) {
	sel, err := scanSelection(s.rdb.QueryRowContext(ctx, selectionSelect+` WHERE s.name = ?`, site))
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
	OPIC float64
	// PageRank is the site's PageRank (see SiteRow.PageRank).
	PageRank float64
	// Platform tells a platform site (see SiteRow.Platform).
	Platform bool
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
	out, err := queryList(ctx, s.rdb, func(sc scanner) (x SelectedSite, err error) {
		x.Selection, err = scanSelection(sc, &x.OPIC, &x.PageRank, &x.Platform)
		return x, err
	}, `SELECT s.name, sel.status, sel.note, sel.subject, COALESCE(l.name, ''), sel.decided_at,
			COALESCE(ln.name, ''), sel.nominated_at, COALESCE(la.name, ''), sel.approved_at,
			COALESCE(lr.name, ''), sel.rejected_at, sel.rejected_reason, sel.page_only,
			CASE WHEN t.total > 0 THEN s.opic / t.total ELSE 0 END,
			s.pagerank, `+sitePlatform+`
		FROM selections sel
		JOIN sites s ON s.id = sel.site_id
		LEFT JOIN librarians l ON l.id = sel.decided_by
		LEFT JOIN librarians ln ON ln.id = sel.nominated_by
		LEFT JOIN librarians la ON la.id = sel.approved_by
		LEFT JOIN librarians lr ON lr.id = sel.rejected_by
		CROSS JOIN (SELECT SUM(opic) AS total FROM sites) t
		WHERE sel.status = ?
		ORDER BY s.opic DESC, s.name`, status)
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
	err := queryRows(ctx, s.rdb, func(sc scanner) error {
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
