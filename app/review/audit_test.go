package review_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"sitesift/app/apptest"
	"sitesift/app/review"
	"sitesift/sites/store"
)

// TestSimultaneousChangesAuditOneHistory: ratings, notes and selection
// edits made at once each log the state they replaced, so the rows of a
// site read oldest first chain, every before the after of the row before
// it; none records a state another change had already replaced.
func TestSimultaneousChangesAuditOneHistory(t *testing.T) {
	ctx := context.Background()
	a, _ := apptest.Open(t, apptest.ReviewProject(t))
	const workers, each = 8, 6
	var wg sync.WaitGroup
	errs := make(chan error, 2*workers*each)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				var err error
				if (w+i)%2 == 0 {
					_, err = a.Review.Rerate(ctx, "cleo", "s5.test", 1+(w+i)%4)
				} else {
					_, err = a.Review.Note(ctx, "cleo", "s5.test", fmt.Sprintf("note %d.%d", w, i))
				}
				errs <- err
				note := fmt.Sprintf("selection note %d.%d", w, i)
				_, err = a.Review.SetSelection(ctx, "s4.test", store.SelectionUpdate{Librarian: "cleo", Status: store.StatusCandidate, Note: &note})
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range []review.AuditQuery{{Librarian: "cleo", Site: "s5.test"}, {Librarian: "cleo", Site: "s4.test"}} {
		rows, err := a.Review.AuditLog(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != workers*each {
			t.Fatalf("%s: %d audit rows, want %d", q.Site, len(rows), workers*each)
		}
		slices.Reverse(rows)
		for i := 1; i < len(rows); i++ {
			if string(rows[i].Before) != string(rows[i-1].After) {
				t.Fatalf("%s: row %d (%s) records before\n%s\nbut the row before it left\n%s", q.Site, i, rows[i].Action, rows[i].Before, rows[i-1].After)
			}
		}
	}
}
