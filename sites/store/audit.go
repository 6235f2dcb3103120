package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Actions of the audit log: what a row records.
const (
	AuditRating    = "rating"
	AuditUnrating  = "unrating"
	AuditNote      = "note"
	AuditNominate  = "nomination"
	AuditApprove   = "approval"
	AuditReject    = "rejection"
	AuditReopen    = "reopening"
	AuditSelection = "selection" // a selection's note or subject, its status unchanged
	AuditCrawl     = "crawl start"
	AuditImport    = "import"
	AuditSettings  = "settings change"
	AuditAccount   = "account change"
	AuditLibrarian = "librarian added"
	AuditPlatform  = "platform choice" // a site moved into or out of the platforms
)

// AuditEntry is one row of the audit log: who did what, when, from which
// address, to which site, and the state before and after (JSON, or
// nothing).
type AuditEntry struct {
	ID        int64
	At        time.Time
	Librarian string
	Address   string
	Action    string
	Site      string
	Before    json.RawMessage
	After     json.RawMessage
}

// SetStates sets Before and After to before and after in JSON; nil leaves
// one empty.
func (e *AuditEntry) SetStates(before, after any) error {
	for _, st := range []struct {
		v   any
		out *json.RawMessage
	}{{before, &e.Before}, {after, &e.After}} {
		if st.v == nil {
			continue
		}
		b, err := json.Marshal(st.v)
		if err != nil {
			return fmt.Errorf("store: audit %s: encode state: %w", e.Action, err)
		}
		*st.out = b
	}
	return nil
}

// AppendAudit adds e to the audit log, stamped with the store's clock (e.At
// is ignored), in a transaction of its own: for an action that changes
// nothing else in the store. A change the store makes logs itself in its
// own transaction (see [Auditor]). Rows are never changed nor removed: the
// schema refuses it.
func (s *Store) AppendAudit(ctx context.Context, e AuditEntry) error {
	return s.write(ctx, "append audit row "+e.Action, func(tx *sql.Tx) error {
		return s.appendAudit(ctx, tx, e)
	})
}

func (s *Store) appendAudit(ctx context.Context, tx *sql.Tx, e AuditEntry) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO audit (at, librarian, address, action, site, before, after)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, formatTime(s.now()), e.Librarian, e.Address, e.Action, e.Site, string(e.Before), string(e.After))
	if err != nil {
		return fmt.Errorf("store: append audit row %s: %w", e.Action, err)
	}
	return nil
}

// Auditor makes the audit row of a change from the stored state before it
// and after it (nil for none). A store method given one calls it inside the
// change's transaction, after the change, and appends the row in that same
// transaction: the change and its row land together or not at all (an
// error from the Auditor undoes the change and is returned), and no other
// change can come between the state read as before and the change.
// Turning the store's rows into what the log shows is the caller's.
type Auditor[T any] func(before, after *T) (AuditEntry, error)

// audited reports whether one of audits is to be called, so that a
// change with none does not read its before state.
func audited[T any](audits []Auditor[T]) bool {
	for _, a := range audits {
		if a != nil {
			return true
		}
	}
	return false
}

// logChange appends, inside tx, the rows audits make of a change from
// before to after; what names the change in errors.
func logChange[T any](ctx context.Context, s *Store, tx *sql.Tx, what string, audits []Auditor[T], before, after *T) error {
	for _, a := range audits {
		if a == nil {
			continue
		}
		e, err := a(before, after)
		if err != nil {
			return fmt.Errorf("store: %s: audit: %w", what, err)
		}
		if err := s.appendAudit(ctx, tx, e); err != nil {
			return fmt.Errorf("store: %s: %w", what, err)
		}
	}
	return nil
}

// AuditQuery selects rows of the audit log: those at or after Since (zero
// for all), by Librarian (any case; "" for all), on Site ("" for all), the
// newest first, Limit at most.
type AuditQuery struct {
	Since     time.Time
	Librarian string
	Site      string
	Limit     int
}

// MaxAuditLimit bounds AuditQuery.Limit; 0 asks for DefaultAuditLimit.
const (
	MaxAuditLimit     = 10000
	DefaultAuditLimit = 200
)

// Audit returns the rows of the audit log q selects, the newest first.
func (s *Store) Audit(ctx context.Context, q AuditQuery) ([]AuditEntry, error) {
	var where []string
	var args []any
	if !q.Since.IsZero() {
		where, args = append(where, "at >= ?"), append(args, formatTime(q.Since))
	}
	if q.Librarian != "" {
		where, args = append(where, "librarian = ? COLLATE NOCASE"), append(args, q.Librarian)
	}
	if q.Site != "" {
		where, args = append(where, "site = ?"), append(args, q.Site)
	}
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultAuditLimit
	}
	if limit > MaxAuditLimit {
		return nil, fmt.Errorf("%w: audit limit %d is over %d", ErrInvalid, limit, MaxAuditLimit)
	}
	w := ""
	if len(where) > 0 {
		w = "WHERE " + strings.Join(where, " AND ")
	}
	out, err := queryList(ctx, s.rdb, func(sc scanner) (AuditEntry, error) {
		var e AuditEntry
		var at, before, after string
		if err := sc.Scan(&e.ID, &at, &e.Librarian, &e.Address, &e.Action, &e.Site, &before, &after); err != nil {
			return e, err
		}
		if before != "" {
			e.Before = json.RawMessage(before)
		}
		if after != "" {
			e.After = json.RawMessage(after)
		}
		var err error
		e.At, err = parseTime(at)
		return e, err
	}, `SELECT id, at, librarian, address, action, site, before, after FROM audit `+w+` ORDER BY id DESC LIMIT ?`, append(args, limit)...)
	if err != nil {
		return nil, fmt.Errorf("store: audit log: %w", err)
	}
	return out, nil
}
