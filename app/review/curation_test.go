package review_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"sitesift/app"
	"sitesift/app/apptest"
	"sitesift/app/exports"
	"sitesift/app/fault"
	"sitesift/app/project"
	"sitesift/app/review"
	"sitesift/sites/store"
)

// TestTwoPersonApproval: the librarian who nominated a site cannot approve
// it (whatever the case of their name), another can; the nominator, the
// approver and their times are kept; the project setting lets a lone
// librarian approve their own nomination.
func TestTwoPersonApproval(t *testing.T) {
	ctx := context.Background()
	a, _ := apptest.Open(t, apptest.ReviewProject(t))
	set := func(lib, site, status string) (review.Selection, error) {
		return a.Review.SetSelection(ctx, site, store.SelectionUpdate{Librarian: lib, Status: status})
	}
	if _, err := set("ana", "s1.test", store.StatusNominated); err != nil {
		t.Fatal(err)
	}
	for _, who := range []string{"ana", "ANA"} {
		_, err := set(who, "s1.test", store.StatusApproved)
		var self *store.SelfApprovalError
		if fault.KindOf(err) != fault.KindConflict || !errors.As(err, &self) ||
			!strings.Contains(err.Error(), "approval of s1.test refused: it was nominated by ana, and ana cannot also approve it") {
			t.Errorf("%s approves ana's nomination: %v (%s)", who, err, fault.KindOf(err))
		}
	}
	sel, err := a.Review.Review(ctx, "s1.test", "ben")
	if err != nil || sel.Selection.Status != store.StatusNominated || sel.Selection.ApprovedBy != "" {
		t.Fatalf("after the refused approval: %+v %v", sel.Selection, err)
	}
	got, err := set("ben", "s1.test", store.StatusApproved)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != store.StatusApproved || got.NominatedBy != "ana" || got.ApprovedBy != "ben" || got.NominatorUnknown ||
		got.NominatedAt.IsZero() || got.ApprovedAt.IsZero() || got.ApprovedAt.Before(got.NominatedAt) {
		t.Errorf("approved: %+v", got)
	}

	// Rejection keeps who, when and why, and what came before it.
	if _, err := a.Review.SetSelection(ctx, "s1.test", store.SelectionUpdate{Librarian: "cleo", Status: store.StatusRejected,
		Reason: app.Set("a shop, not a library")}); err != nil {
		t.Fatal(err)
	}
	rej, err := a.Review.Selection(ctx, store.StatusRejected)
	if err != nil || len(rej) != 1 || rej[0].RejectedBy != "cleo" || rej[0].RejectedReason != "a shop, not a library" ||
		rej[0].RejectedAt.IsZero() || rej[0].NominatedBy != "ana" || rej[0].ApprovedBy != "ben" {
		t.Errorf("rejected: %+v %v", rej, err)
	}
	// Reopening starts the workflow again.
	if got, err := set("cleo", "s1.test", store.StatusCandidate); err != nil || got.NominatedBy != "" || got.RejectedBy != "" {
		t.Errorf("reopened: %+v %v", got, err)
	}

	// A lone librarian: the setting allows it.
	if _, err := set("cleo", "s2.test", store.StatusNominated); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Ranking.SetSettings(ctx, project.SettingsUpdate{SinglePersonApproval: app.Set(true)}); err != nil {
		t.Fatal(err)
	}
	if s, err := a.Settings(ctx); err != nil || !s.SinglePersonApproval {
		t.Fatalf("settings: %+v %v", s, err)
	}
	if got, err := set("cleo", "s2.test", store.StatusApproved); err != nil || got.NominatedBy != "cleo" || got.ApprovedBy != "cleo" {
		t.Errorf("single-person approval: %+v %v", got, err)
	}
	if _, err := a.Ranking.SetSettings(ctx, project.SettingsUpdate{SinglePersonApproval: app.Set(false)}); err != nil {
		t.Fatal(err)
	}
	if _, err := set("cleo", "s3.test", store.StatusNominated); err != nil {
		t.Fatal(err)
	}
	if _, err := set("cleo", "s3.test", store.StatusApproved); fault.KindOf(err) != fault.KindConflict {
		t.Errorf("the setting turned off again: %v", err)
	}
}

// TestLibrarianNames: a name is one librarian whatever its case, spelt as
// first added; an unknown librarian is refused with the known ones listed,
// and nothing is created.
func TestLibrarianNames(t *testing.T) {
	ctx := context.Background()
	a, _ := apptest.Open(t, apptest.ReviewProject(t))
	l, created, err := a.Review.AddLibrarian(ctx, "Dora")
	if err != nil || !created || l.Name != "Dora" {
		t.Fatalf("add Dora: %+v %v %v", l, created, err)
	}
	for _, n := range []string{"dora", "DORA", " dora "} {
		l, created, err := a.Review.AddLibrarian(ctx, n)
		if err != nil || created || l.Name != "Dora" {
			t.Errorf("add %q: %+v created %v, %v; want Dora as she was", n, l, created, err)
		}
	}
	r, err := a.Review.Rate(ctx, "dORA", "s1.test", 3, "")
	if err != nil || r.Librarian != "Dora" {
		t.Errorf("rate as dORA: %+v %v", r, err)
	}
	ls, err := a.Review.Librarians(ctx)
	if err != nil || len(ls) != 4 {
		t.Errorf("librarians: %+v %v", ls, err)
	}
	q, err := a.Review.ReviewQueue(ctx, review.QueueRequest{Librarian: "dora"})
	if err != nil || q.Librarian != "Dora" || slices.ContainsFunc(q.Rows, func(r review.QueueItem) bool { return r.Site == "s1.test" }) {
		t.Errorf("dora's queue: %+v %v", q, err)
	}

	for name, call := range map[string]func() error{
		"rate":   func() error { _, err := a.Review.Rate(ctx, "bob", "s1.test", 2, ""); return err },
		"note":   func() error { _, err := a.Review.Note(ctx, "bob", "s1.test", "hm"); return err },
		"unrate": func() error { return a.Review.Unrate(ctx, "bob", "s1.test") },
		"select": func() error {
			_, err := a.Review.SetSelection(ctx, "s1.test", store.SelectionUpdate{Librarian: "bob", Status: "nominated"})
			return err
		},
		"queue":     func() error { _, err := a.Review.ReviewQueue(ctx, review.QueueRequest{Librarian: "bob"}); return err },
		"review":    func() error { _, err := a.Review.Review(ctx, "s1.test", "bob"); return err },
		"site page": func() error { _, err := a.Review.Site(ctx, "s1.test", "bob"); return err },
	} {
		err := call()
		if fault.KindOf(err) != fault.KindNotFound || !strings.Contains(err.Error(), `unknown librarian "bob": the project's librarians are ana, ben, cleo, Dora`) ||
			!strings.Contains(err.Error(), "sitesift librarians add NAME") {
			t.Errorf("%s as bob: %v (%s)", name, err, fault.KindOf(err))
		}
	}
	if ls, _ := a.Review.Librarians(ctx); len(ls) != 4 {
		t.Errorf("an unknown librarian was added: %+v", ls)
	}
}

// TestNotesWithoutRating: a note is kept without a rating; it is no
// rating for the queue, the blind review, agreement and the sites table,
// and the ratings file carries it with an empty rating.
func TestNotesWithoutRating(t *testing.T) {
	ctx := context.Background()
	a, _ := apptest.Open(t, apptest.ReviewProject(t))
	apptest.AddLibrarians(t, a, "dan")
	before, err := a.Review.Agreement(ctx, review.AgreementOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n, err := a.Review.Note(ctx, "dan", "s1.test", "ask the map curator")
	if err != nil || n.Rating != 0 || n.Note != "ask the map curator" || n.Librarian != "dan" {
		t.Fatalf("note: %+v %v", n, err)
	}
	q, err := a.Review.ReviewQueue(ctx, review.QueueRequest{Librarian: "dan", Limit: 50})
	if err != nil || !slices.ContainsFunc(q.Rows, func(r review.QueueItem) bool { return r.Site == "s1.test" }) {
		t.Errorf("a noted site left the queue: %+v %v", q, err)
	}
	p, err := a.Review.Review(ctx, "s1.test", "dan")
	if err != nil || p.Rating == nil || p.Rating.Rating != 0 || p.Rating.Note != "ask the map curator" || len(p.Ratings) != 0 || p.OthersRated != 3 {
		t.Errorf("review after a note: own %+v, others %v, withheld %d, %v", p.Rating, p.Ratings, p.OthersRated, err)
	}
	d, err := a.Review.Site(ctx, "s1.test", "dan")
	if err != nil || d.Rating != nil || len(d.Ratings) != 1 || d.Ratings[0].Librarian != "dan" {
		t.Errorf("site page after a note: %+v %+v %v", d.Rating, d.Ratings, err)
	}
	after, err := a.Review.Agreement(ctx, review.AgreementOptions{})
	if err != nil || after.Librarians != before.Librarians || after.ReferenceSites != before.ReferenceSites {
		t.Errorf("agreement counts a note: %d librarians, %d sites; before %d, %d", after.Librarians, after.ReferenceSites,
			before.Librarians, before.ReferenceSites)
	}
	// Rating keeps the note; emptying the note keeps the rating.
	if r, err := a.Review.Rerate(ctx, "dan", "s1.test", 2); err != nil || r.Note != "ask the map curator" {
		t.Errorf("rerate: %+v %v", r, err)
	}
	if r, err := a.Review.Note(ctx, "dan", "s1.test", ""); err != nil || r.Rating != 2 || r.Note != "" {
		t.Errorf("empty note on a rated site: %+v %v", r, err)
	}
	// Clearing the rating keeps the note, alone; clearing again is not found.
	if _, err := a.Review.Note(ctx, "dan", "s1.test", "kept"); err != nil {
		t.Fatal(err)
	}
	if err := a.Review.Unrate(ctx, "dan", "s1.test"); err != nil {
		t.Fatal(err)
	}
	if p, err := a.Review.Review(ctx, "s1.test", "dan"); err != nil || p.Rating == nil || p.Rating.Rating != 0 || p.Rating.Note != "kept" {
		t.Errorf("after clearing the rating: %+v %v", p.Rating, err)
	}
	if err := a.Review.Unrate(ctx, "dan", "s1.test"); fault.KindOf(err) != fault.KindNotFound {
		t.Errorf("clearing a note alone as a rating: %v", err)
	}
	// A note alone emptied is gone.
	if _, err := a.Review.Note(ctx, "dan", "s2.test", "x"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Review.Note(ctx, "dan", "s2.test", ""); err != nil {
		t.Fatal(err)
	}
	if d, err := a.Review.Site(ctx, "s2.test", "dan"); err != nil || len(d.Ratings) != 0 {
		t.Errorf("an emptied note stays: %+v %v", d.Ratings, err)
	}
	// The ratings file carries a note alone with an empty rating; the sites table does not count it.
	if _, err := a.Review.Note(ctx, "dan", "s3.test", "weather, but local"); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := a.Review.ExportRatingsCSV(ctx, &buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "\ndan,s3.test,,\"weather, but local\"\n") {
		t.Errorf("ratings file:\n%s", buf.String())
	}
	tab, err := a.Exports.Ratings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range tab.Rows {
		if r.Site == "s3.test" && r.Ratings[slices.Index(tab.Librarians, "dan")] != 0 {
			t.Errorf("sites table counts the note: %+v", r)
		}
	}
}

// TestRatingsRoundTrip: the ratings file of the Export page, imported into
// a fresh project of the same sites, gives identical ratings and notes.
func TestRatingsRoundTrip(t *testing.T) {
	ctx := context.Background()
	from, fromProject, _ := apptest.OpenProject(t, apptest.ReviewProject(t))
	if _, err := from.Review.Note(ctx, "ana", "s5.test", "soup, \"not\" maps,\nreally"); err != nil {
		t.Fatal(err)
	}
	if _, err := from.Review.Rate(ctx, "cleo", "s4.test", 1, "=1+1"); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := from.Exports.Export(ctx, &buf, exports.ExportRequest{What: exports.ExportRatings}); err != nil {
		t.Fatal(err)
	}
	// A fresh project of the same web, without ratings.
	toDir := apptest.ReviewProject(t)
	to, toProject, _ := apptest.OpenProject(t, toDir)
	all, err := toProject.Store.RatingsAndNotes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range all {
		if err := to.Review.Unrate(ctx, r.Librarian, r.Site); err != nil {
			t.Fatal(err)
		}
	}
	if rest, err := toProject.Store.RatingsAndNotes(ctx); err != nil || len(rest) != 0 {
		t.Fatalf("after clearing every rating: %+v %v", rest, err)
	}
	if _, err := to.Review.ImportRatingsCSV(ctx, bytes.NewReader(buf.Bytes()), "project-ratings.csv", true); err != nil {
		t.Fatal(err)
	}
	want, err := fromProject.Store.RatingsAndNotes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got, err := toProject.Store.RatingsAndNotes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	strip := func(rs []store.Rating) []store.Rating {
		out := slices.Clone(rs)
		for i := range out {
			out[i].RatedAt = time.Time{}
		}
		return out
	}
	if !slices.Equal(strip(got), strip(want)) || len(want) != 14 {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, want)
	}
}

// A rating is a whole number from 1 to 4, whichever way it comes in: the
// rule the command line checks before it opens the project is the
// service's.
func TestRatingRange(t *testing.T) {
	ctx := context.Background()
	a, _ := apptest.Open(t, apptest.ReviewProject(t))
	for _, v := range []int{0, 5, -1} {
		if err := review.CheckRating(v); fault.KindOf(err) != fault.KindInvalid || !strings.Contains(err.Error(), fmt.Sprintf("rating %d is not 1, 2, 3 or 4", v)) {
			t.Errorf("CheckRating(%d) = %v", v, err)
		}
		if _, err := a.Review.Rate(ctx, "ana", "s1.test", v, ""); fault.KindOf(err) != fault.KindInvalid {
			t.Errorf("Rate %d: %v", v, err)
		}
		if _, err := a.Review.Rerate(ctx, "ana", "s1.test", v); fault.KindOf(err) != fault.KindInvalid {
			t.Errorf("Rerate %d: %v", v, err)
		}
	}
	for v := 1; v <= 4; v++ {
		if err := review.CheckRating(v); err != nil {
			t.Errorf("CheckRating(%d) = %v", v, err)
		}
	}
}
