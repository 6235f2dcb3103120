package store

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestAuditLogIsAppendOnly(t *testing.T) {
	ctx := context.Background()
	s, err := Open(filepath.Join(t.TempDir(), "p.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	s.now = func() time.Time { at = at.Add(time.Hour); return at }
	for _, e := range []AuditEntry{{Librarian: "ana", Action: AuditRating, Site: "a.test"}, {Librarian: "Ben", Action: AuditApprove, Site: "b.test", Address: "10.0.0.2"}} {
		if err := e.SetStates(nil, map[string]int{"rating": 3}); err != nil {
			t.Fatal(err)
		}
		if err := s.AppendAudit(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range []string{`UPDATE audit SET librarian = 'eve'`, `DELETE FROM audit`} {
		if _, err := s.db.ExecContext(ctx, q); err == nil || !strings.Contains(err.Error(), "the audit log is append-only") {
			t.Errorf("%s: %v, want the append-only refusal", q, err)
		}
	}
	rows, err := s.Audit(ctx, AuditQuery{Librarian: "ben"})
	if err != nil || len(rows) != 1 || rows[0].Site != "b.test" || rows[0].Address != "10.0.0.2" || string(rows[0].After) != `{"rating":3}` {
		t.Fatalf("ben's rows: %+v %v", rows, err)
	}
	if rows, _ := s.Audit(ctx, AuditQuery{Since: time.Date(2026, 3, 1, 10, 30, 0, 0, time.UTC)}); len(rows) != 1 || rows[0].Librarian != "Ben" {
		t.Fatalf("since 10:30: %+v", rows)
	}
	if rows, _ := s.Audit(ctx, AuditQuery{}); len(rows) != 2 || rows[0].Librarian != "Ben" {
		t.Fatalf("all rows, newest first: %+v", rows)
	}
	if _, err := s.Audit(ctx, AuditQuery{Limit: MaxAuditLimit + 1}); err == nil {
		t.Fatal("a limit over the bound passed")
	}
}
