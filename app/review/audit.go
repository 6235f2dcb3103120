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
func (s *Service) AuditLog(ctx context.Context, q AuditQuery) ([]AuditEntry, error) {
	if q.Site != "" {
		q.Site = s.project.SiteName(q.Site)
	}
	es, err := s.store.Audit(ctx, q)
	return wire.Each(es, func(e store.AuditEntry) AuditEntry { return AuditEntry(e) }), err
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
}

// AuditQuery selects rows of the audit log: since a time, of a librarian,
// of a site, at most Limit (0: DefaultAuditLimit, at most MaxAuditLimit).
type AuditQuery = store.AuditQuery

// The number of audit rows a query gives by default and at most.
const (
	DefaultAuditLimit = store.DefaultAuditLimit
	MaxAuditLimit     = store.MaxAuditLimit
)
