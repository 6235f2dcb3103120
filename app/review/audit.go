package review

import (
	"context"
	"encoding/json"
	"time"

	"sitesift/app/internal/wire"
	"sitesift/sites/store"
)

// AuditLog returns the rows of the project's audit log that q selects, the
// newest first: who rated, noted, nominated, approved, rejected or
// reopened what, who started crawls and imports, changed settings or
// accounts, when and from where. A site is named as the project names it
// ("www.a.test" finds a.test's rows when the site rule drops www).
//
// On a team server a row of another librarian's rating, unrating or note
// of a site the signed-in librarian has not rated keeps its who, when and
// what, but not the states before and after, which hold the rating and
// the note (see [sight]): Withheld says so.
func (s *Service) AuditLog(ctx context.Context, q AuditQuery) ([]AuditEntry, error) {
	if q.Site != "" {
		q.Site = s.project.SiteName(q.Site)
	}
	es, err := s.store.Audit(ctx, q)
	if err != nil {
		return nil, err
	}
	v, err := s.sight(ctx)
	if err != nil {
		return nil, err
	}
	return wire.Each(es, func(e store.AuditEntry) AuditEntry {
		out := AuditEntry{ID: e.ID, At: e.At, Librarian: e.Librarian, Address: e.Address, Action: e.Action, Site: e.Site,
			Before: e.Before, After: e.After}
		if ratingAction(e.Action) && !v.sees(e.Librarian, e.Site) {
			out.Before, out.After, out.Withheld = nil, nil, true
		}
		out.Summary = summarize(out.Action, out.Before, out.After)
		return out
	}), nil
}

// ratingAction tells whether an audit row's states hold a librarian's
// rating or note.
func ratingAction(action string) bool {
	return action == store.AuditRating || action == store.AuditUnrating || action == store.AuditNote
}

// AuditEntry is one row of the audit log: who did what, when, from which
// address, to which site, and the state before and after (JSON, or
// nothing).
type AuditEntry struct {
	ID        int64           `json:"id"`
	At        time.Time       `json:"at"`
	Librarian string          `json:"librarian"`
	Address   string          `json:"address"`
	Action    string          `json:"action"`
	Site      string          `json:"site"`
	Before    json.RawMessage `json:"before,omitempty"`
	After     json.RawMessage `json:"after,omitempty"`
	// Summary says in words what the row records: the account changed and
	// how ("ben made admin (was curator)"), the librarian added, where a
	// site moved, the fields a decision or a settings change made
	// different ("rating 2 → 3"), what a crawl or an import asked. ""
	// when the states are withheld or empty.
	Summary string `json:"summary"`
	// Withheld is true of a row of another librarian's rating or note of
	// a site the reader has not rated yet: its states are left out until
	// she has.
	Withheld bool `json:"withheld,omitempty"`
}

// AuditQuery selects rows of the audit log: since a time, of a librarian,
// of a site, at most Limit (0: DefaultAuditLimit, at most MaxAuditLimit).
type AuditQuery = store.AuditQuery

// The number of audit rows a query gives by default and at most.
const (
	DefaultAuditLimit = store.DefaultAuditLimit
	MaxAuditLimit     = store.MaxAuditLimit
)
