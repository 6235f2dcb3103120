package store

import (
	"context"
	"errors"
	"testing"
)

// TestSeedPageOnly: an approved site's seed can be marked as that page
// alone and back; the mark is kept through other changes of the site's
// selection, read with its selection and its selected site, and refused
// with any other status.
func TestSeedPageOnly(t *testing.T) {
	t.Parallel()
	s := openFixture(t, WithClock(ticking()))
	ctx := context.Background()
	yes, no := true, false
	for _, u := range []SelectionUpdate{
		{Librarian: "ana", Status: StatusNominated},
		{Librarian: "ben", Status: StatusApproved},
	} {
		if _, err := s.SetSelection(ctx, "a.test", u); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.SetSelection(ctx, "b.test", SelectionUpdate{Librarian: "ana", Status: StatusNominated, PageOnly: &yes}); !errors.Is(err, ErrInvalid) {
		t.Errorf("page only on a nominated site: %v, want ErrInvalid", err)
	}
	sel, err := s.SetSelection(ctx, "a.test", SelectionUpdate{Librarian: "ben", Status: StatusApproved, PageOnly: &yes})
	if err != nil || !sel.PageOnly || sel.ApprovedBy != "ben" {
		t.Fatalf("page only = %+v, %v", sel, err)
	}
	// A note leaves the mark as it is.
	if sel, err = s.SetSelection(ctx, "a.test", SelectionUpdate{Librarian: "ana", Status: StatusApproved, Note: ptr("the one report")}); err != nil || !sel.PageOnly {
		t.Errorf("after a note: %+v, %v", sel, err)
	}
	if sel, err = s.Selection(ctx, "a.test"); err != nil || !sel.PageOnly {
		t.Errorf("Selection = %+v, %v", sel, err)
	}
	approved, err := s.Selections(ctx, StatusApproved)
	if err != nil || len(approved) != 1 || !approved[0].PageOnly || approved[0].Site != "a.test" {
		t.Errorf("Selections = %+v, %v", approved, err)
	}
	if sel, err = s.SetSelection(ctx, "a.test", SelectionUpdate{Librarian: "ben", Status: StatusApproved, PageOnly: &no}); err != nil || sel.PageOnly {
		t.Errorf("whole site again = %+v, %v", sel, err)
	}
	if sel, err = s.Selection(ctx, "hub.test"); err != nil || sel.PageOnly {
		t.Errorf("a site never selected = %+v, %v", sel, err)
	}
}
