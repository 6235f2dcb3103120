package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
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

// logAs is an Auditor that logs a change as action on site, the store's
// rows as they are.
func logAs[T any](action, site string) Auditor[T] {
	return func(before, after *T) (AuditEntry, error) {
		e := AuditEntry{Librarian: "ana", Action: action, Site: site}
		var b, a any
		if before != nil {
			b = *before
		}
		if after != nil {
			a = *after
		}
		return e, e.SetStates(b, a)
	}
}

var errAuditFull = errors.New("audit log unavailable")

func failing[T any](before, after *T) (AuditEntry, error) { return AuditEntry{}, errAuditFull }

func TestFailingAuditUndoesTheChange(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openFixture(t)
	if _, err := s.SetRating(ctx, "ana", "a.test", 3, "maps", failing[Rating]); !errors.Is(err, errAuditFull) {
		t.Fatalf("SetRating with a failing audit: %v, want its error", err)
	}
	if r, ok := ratingOf(t, s, "ana", "a.test"); ok {
		t.Fatalf("rating stored although its audit failed: %+v", r)
	}
	if _, err := s.SetNote(ctx, "ana", "a.test", "maps", failing[Rating]); !errors.Is(err, errAuditFull) {
		t.Fatalf("SetNote with a failing audit: %v", err)
	}
	if r, ok := ratingOf(t, s, "ana", "a.test"); ok {
		t.Fatalf("note stored although its audit failed: %+v", r)
	}
	if _, err := s.SetRating(ctx, "ana", "a.test", 3, "maps"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Rerate(ctx, "ana", "a.test", 1, failing[Rating]); !errors.Is(err, errAuditFull) {
		t.Fatalf("Rerate with a failing audit: %v", err)
	}
	if err := s.DeleteRating(ctx, "ana", "a.test", failing[Rating]); !errors.Is(err, errAuditFull) {
		t.Fatalf("DeleteRating with a failing audit: %v", err)
	}
	if r, ok := ratingOf(t, s, "ana", "a.test"); !ok || r.Rating != 3 || r.Note != "maps" {
		t.Fatalf("rating after a failed rerate and a failed deletion: %+v %v, want 3 with its note", r, ok)
	}
	if _, err := s.SetSelection(ctx, "a.test", SelectionUpdate{Librarian: "ana", Status: StatusNominated}, failing[Selection]); !errors.Is(err, errAuditFull) {
		t.Fatalf("SetSelection with a failing audit: %v", err)
	}
	if sel, err := s.Selection(ctx, "a.test"); err != nil || sel.Status != StatusCandidate || sel.NominatedBy != "" {
		t.Fatalf("selection after a failed nomination: %+v %v, want a candidate", sel, err)
	}
	if rows, err := s.Audit(ctx, AuditQuery{}); err != nil || len(rows) != 0 {
		t.Fatalf("audit rows of failed changes: %+v %v", rows, err)
	}
}

// TestAuditRecordsTheStateTheChangeFound holds each row's before to the
// state the change replaced, the previous row's after, across a change
// undone by its failing audit.
func TestAuditRecordsTheStateTheChangeFound(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openFixture(t)
	steps := []func() error{
		func() error {
			_, err := s.SetRating(ctx, "ana", "a.test", 2, "", logAs[Rating](AuditRating, "a.test"))
			return err
		},
		func() error {
			_, err := s.Rerate(ctx, "ana", "a.test", 3, logAs[Rating](AuditRating, "a.test"))
			return err
		},
		func() error {
			if _, err := s.SetRating(ctx, "ana", "a.test", 4, "lost", failing[Rating]); !errors.Is(err, errAuditFull) {
				return fmt.Errorf("a rating whose audit fails: %v, want its error", err)
			}
			return nil
		},
		func() error {
			_, err := s.SetNote(ctx, "ana", "a.test", "maps", logAs[Rating](AuditNote, "a.test"))
			return err
		},
		func() error { return s.DeleteRating(ctx, "ana", "a.test", logAs[Rating](AuditUnrating, "a.test")) },
		func() error {
			_, err := s.SetNote(ctx, "ana", "a.test", "", logAs[Rating](AuditNote, "a.test"))
			return err
		},
	}
	for i, step := range steps {
		if err := step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	rows, err := s.Audit(ctx, AuditQuery{Site: "a.test"})
	if err != nil {
		t.Fatal(err)
	}
	slices.Reverse(rows)
	want := []string{AuditRating, AuditRating, AuditNote, AuditUnrating, AuditNote}
	if got := auditActions(rows); !slices.Equal(got, want) {
		t.Fatalf("actions %v, want %v", got, want)
	}
	if rows[0].Before != nil {
		t.Errorf("first rating's before: %s, want none", rows[0].Before)
	}
	for i := 1; i < len(rows); i++ {
		prev := rows[i-1].After
		if rows[i-1].Action == AuditUnrating {
			prev = noteAlone(t, rows[i-1].Before)
		}
		if string(rows[i].Before) != string(prev) {
			t.Errorf("row %d (%s): before %s, want the state the row before left, %s", i, rows[i].Action, rows[i].Before, prev)
		}
	}
	var r Rating
	if err := json.Unmarshal(rows[1].After, &r); err != nil || r.Rating != 3 {
		t.Errorf("rerate's after: %s %v", rows[1].After, err)
	}
	if err := json.Unmarshal(rows[2].Before, &r); err != nil || r.Rating != 3 || r.Note != "" {
		t.Errorf("note's before: %s, want rating 3 without the failed change's note", rows[2].Before)
	}

	for _, to := range []string{StatusNominated, StatusRejected, StatusCandidate} {
		if _, err := s.SetSelection(ctx, "b.test", SelectionUpdate{Librarian: "ana", Status: to}, logAs[Selection](to, "b.test")); err != nil {
			t.Fatal(err)
		}
		if _, err := s.SetSelection(ctx, "b.test", SelectionUpdate{Librarian: "ana", Status: StatusApproved}, failing[Selection]); err == nil {
			t.Fatal("an approval whose audit fails passed")
		}
	}
	rows, err = s.Audit(ctx, AuditQuery{Site: "b.test"})
	if err != nil {
		t.Fatal(err)
	}
	slices.Reverse(rows)
	if got := auditActions(rows); !slices.Equal(got, []string{StatusNominated, StatusRejected, StatusCandidate}) {
		t.Fatalf("selection actions %v", got)
	}
	for i, row := range rows {
		var before, after Selection
		if err := json.Unmarshal(row.Before, &before); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(row.After, &after); err != nil {
			t.Fatal(err)
		}
		if after.Status != row.Action {
			t.Errorf("row %d: after %s, want %s", i, after.Status, row.Action)
		}
		if i > 0 && string(row.Before) != string(rows[i-1].After) {
			t.Errorf("row %d: before %s, want the previous after %s", i, row.Before, rows[i-1].After)
		}
	}
}

func auditActions(rows []AuditEntry) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r.Action)
	}
	return out
}

// noteAlone is the note left by the deletion of the rating in before.
func noteAlone(t *testing.T, before json.RawMessage) json.RawMessage {
	t.Helper()
	var r Rating
	if err := json.Unmarshal(before, &r); err != nil {
		t.Fatal(err)
	}
	r.Rating = 0
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestAccountChangesLogInTheirTransaction: a role change or a disabling
// whose audit fails is undone; those logged record the account the change
// found, the previous row's after.
func TestAccountChangesLogInTheirTransaction(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	if _, _, err := s.PutAccount(ctx, "ana", "curator", "hash", "", time.Time{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetAccountRole(ctx, "ana", "admin", failing[Account]); !errors.Is(err, errAuditFull) {
		t.Fatalf("role change with a failing audit: %v", err)
	}
	if _, err := s.SetAccountDisabled(ctx, "ana", true, failing[Account]); !errors.Is(err, errAuditFull) {
		t.Fatalf("disabling with a failing audit: %v", err)
	}
	if a, err := s.Account(ctx, "ana"); err != nil || a.Role != "curator" || a.Disabled {
		t.Fatalf("account after failed changes: %+v %v, want an enabled curator", a, err)
	}
	if _, err := s.SetAccountRole(ctx, "ANA", "approver", logAs[Account](AuditAccount, "")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetAccountDisabled(ctx, "ana", true, logAs[Account](AuditAccount, "")); err != nil {
		t.Fatal(err)
	}
	rows, err := s.Audit(ctx, AuditQuery{})
	if err != nil || len(rows) != 2 {
		t.Fatalf("audit rows: %+v %v, want 2", rows, err)
	}
	var role, disabled [2]Account
	for i, st := range []json.RawMessage{rows[1].Before, rows[1].After, rows[0].Before, rows[0].After} {
		dst := &role[i%2]
		if i >= 2 {
			dst = &disabled[i%2]
		}
		if err := json.Unmarshal(st, dst); err != nil {
			t.Fatal(err)
		}
	}
	if role[0].Role != "curator" || role[1].Role != "approver" || disabled[0].Role != "approver" || disabled[0].Disabled || !disabled[1].Disabled {
		t.Fatalf("role change %+v, disabling %+v", role, disabled)
	}
	if string(rows[0].Before) != string(rows[1].After) {
		t.Errorf("disabling's before %s, want the role change's after %s", rows[0].Before, rows[1].After)
	}
}

// TestLibrarianAdditionLogsInItsTransaction: an addition whose audit fails
// is undone; one that finds the profile already there changes nothing and
// logs nothing.
func TestLibrarianAdditionLogsInItsTransaction(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	if _, _, err := s.AddLibrarian(ctx, "Ana", failing[Librarian]); !errors.Is(err, errAuditFull) {
		t.Fatalf("addition with a failing audit: %v", err)
	}
	if l, err := s.LibrarianProfile(ctx, "ana"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("profile added although its audit failed: %+v %v", l, err)
	}
	for _, name := range []string{"Ana", "ana"} {
		if _, _, err := s.AddLibrarian(ctx, name, logAs[Librarian](AuditLibrarian, "")); err != nil {
			t.Fatal(err)
		}
	}
	rows, err := s.Audit(ctx, AuditQuery{})
	if err != nil || len(rows) != 1 || rows[0].Before != nil || !strings.Contains(string(rows[0].After), `"Name":"Ana"`) {
		t.Fatalf("audit rows: %+v %v, want Ana's addition alone", rows, err)
	}
}

// TestAccountAdditionAndResetLogInTheirTransaction: an account added, a
// reset (new password, enabled again) or a password change whose audit
// fails is undone; a reset logged records the disabled account it found.
func TestAccountAdditionAndResetLogInTheirTransaction(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	if _, _, err := s.PutAccount(ctx, "ana", "curator", "hash", "", time.Time{}, failing[Account]); !errors.Is(err, errAuditFull) {
		t.Fatalf("addition with a failing audit: %v", err)
	}
	if a, err := s.Account(ctx, "ana"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("account added although its audit failed: %+v %v", a, err)
	}
	if _, _, err := s.PutAccount(ctx, "ana", "curator", "hash", "", time.Time{}, logAs[Account](AuditAccount, "")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetAccountDisabled(ctx, "ana", true); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ResetAccount(ctx, "ana", "new hash", "", time.Time{}, failing[Account]); !errors.Is(err, errAuditFull) {
		t.Fatalf("reset with a failing audit: %v", err)
	}
	if _, err := s.SetAccountPassword(ctx, "ana", "new hash", "", time.Time{}, failing[Account]); !errors.Is(err, errAuditFull) {
		t.Fatalf("password change with a failing audit: %v", err)
	}
	if a, err := s.AccountSecret(ctx, "ana"); err != nil || !a.Disabled || a.Password != "hash" {
		t.Fatalf("account after a failed reset: %+v %v, want disabled with its old hash", a, err)
	}
	a, err := s.ResetAccount(ctx, "ana", "new hash", "", time.Time{}, logAs[Account](AuditAccount, ""))
	if err != nil || a.Disabled {
		t.Fatalf("reset: %+v %v, want enabled", a, err)
	}
	rows, err := s.Audit(ctx, AuditQuery{})
	if err != nil || len(rows) != 2 || rows[1].Before != nil {
		t.Fatalf("audit rows: %+v %v, want the addition then the reset", rows, err)
	}
	var before, after Account
	if err := json.Unmarshal(rows[0].Before, &before); err != nil || !before.Disabled {
		t.Fatalf("reset's before: %s %v, want the disabled account", rows[0].Before, err)
	}
	if err := json.Unmarshal(rows[0].After, &after); err != nil || after.Disabled {
		t.Fatalf("reset's after: %s %v, want it enabled", rows[0].After, err)
	}
}

// ratingOf returns name's rating and note of site, and false when there is
// neither.
func ratingOf(t *testing.T, s *Store, name, site string) (Rating, bool) {
	t.Helper()
	rs, err := s.RatingsAndNotes(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if strings.EqualFold(r.Librarian, name) && r.Site == site {
			return r, true
		}
	}
	return Rating{}, false
}
