package review_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sitesift/app"
	"sitesift/app/apptest"
	"sitesift/app/project"
	"sitesift/app/review"
	"sitesift/sites"
	"sitesift/sites/store"
)

var updateQueue = flag.Bool("update-queue", false, "rewrite testdata/review_queue.golden.json")

// queueProject builds a crawled and indexed project whose review queue has
// every case an order must keep apart: two communities (hubs h1–h3 of
// a1–a3, hubs g1–g2 of b1–b2), sites of equal OPIC importance ordered by
// name (t0–t9), sites whose crawl failed (dead, broken, closed), sites ana
// rated or only noted, sites bob rated, and selection decisions.
func queueProject(t *testing.T) *app.App {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "project")
	p, err := project.Open(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	a := app.New(app.Options{Project: p})
	t.Cleanup(func() { a.Close(); p.Close() })
	ctx := context.Background()

	page := func(u, title, text string, links ...string) sites.Page {
		pg := apptest.Page(t, u, links...)
		pg.Title, pg.Text = title, text
		return pg
	}
	fail := func(u string, status int, class string) sites.Page {
		pg := apptest.Page(t, u)
		pg.Status, pg.ErrClass, pg.Err, pg.Title = status, class, "failed: "+class, ""
		return pg
	}
	auths := []string{"http://a1.test/", "http://a2.test/", "http://a3.test/"}
	var pages []sites.Page
	for i := 1; i <= 3; i++ {
		pages = append(pages, page("http://h"+strconv.Itoa(i)+".test/links", "Map links "+strconv.Itoa(i),
			"Links to map archives"+strings.Repeat(" and libraries", i)+".", append(auths, "http://t"+strconv.Itoa(i)+".test/")...))
	}
	for i := 1; i <= 2; i++ {
		pages = append(pages, page("http://g"+strconv.Itoa(i)+".test/list", "Atlas list", "Atlas makers"+strings.Repeat(" and more", i)+".",
			"http://b1.test/", "http://b2.test/", "http://dead.test/"))
	}
	for i, u := range auths {
		// Texts of different lengths score apart: a search's order among
		// equal scores is the index's own.
		pages = append(pages, page(u, "Map archive", "Old maps and atlases"+strings.Repeat(" of old", i)+".", "http://broken.test/"))
	}
	pages = append(pages, page("http://b1.test/", "Atlas maker", "Atlases of the world."),
		page("http://b2.test/", "Globe maker", "Globes and maps of the world and the sky."),
		fail("http://dead.test/", 0, sites.ErrDNS),
		fail("http://broken.test/", 503, sites.ErrHTTP5xx),
		fail("http://closed.test/", 0, sites.ErrRobots))
	for i := range 10 {
		pages = append(pages, page("http://t"+strconv.Itoa(i)+".test/", "Town "+strconv.Itoa(i),
			"Maps of town "+strconv.Itoa(i)+strings.Repeat(" by the river", i)+".", "http://closed.test/"))
	}
	history := map[string]float64{"h1.test": 9, "a1.test": 8, "dead.test": 7.5, "b1.test": 7, "h2.test": 6,
		"broken.test": 5.5, "a2.test": 5, "g1.test": 4, "closed.test": 3.5, "a3.test": 3, "h3.test": 2,
		"g2.test": 1.5, "b2.test": 1}
	var states []sites.SiteState
	for s, h := range history {
		states = append(states, sites.SiteState{Site: s, History: h})
	}
	for i := range 10 {
		// Equal importance two by two: the name orders each pair.
		states = append(states, sites.SiteState{Site: "t" + strconv.Itoa(9-i) + ".test", History: float64(i/2) * 0.25})
	}
	if err := p.Store.SaveCrawlBatch(ctx, pages, states); err != nil {
		t.Fatal(err)
	}
	if err := p.Index.Add(pages); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Ranking.UpdateImportance(ctx); err != nil {
		t.Fatal(err)
	}
	apptest.OPICFromStates(t, p) // the importance whose orders and ties the queue is pinned on
	apptest.AddLibrarians(t, a, "ana", "bob")
	for _, r := range []struct {
		lib, site string
		v         int
		note      string
	}{
		{"ana", "h1.test", 4, ""}, {"ana", "a2.test", 3, "maps"}, {"ana", "t4.test", 1, ""},
		{"ana", "b2.test", 0, "look again"}, {"ana", "broken.test", 2, ""},
		{"bob", "a1.test", 4, ""}, {"bob", "t7.test", 3, ""}, {"bob", "g1.test", 2, ""},
	} {
		if r.v == 0 {
			if _, err := a.Review.Note(ctx, r.lib, r.site, r.note); err != nil {
				t.Fatal(err)
			}
		} else if _, err := a.Review.Rate(ctx, r.lib, r.site, r.v, r.note); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range []struct{ lib, site, status string }{
		{"ana", "a1.test", store.StatusNominated}, {"bob", "a1.test", store.StatusApproved},
		{"bob", "t2.test", store.StatusNominated}, {"ana", "g2.test", store.StatusRejected},
	} {
		if _, err := a.Review.SetSelection(ctx, s.site, store.SelectionUpdate{Librarian: s.lib, Status: s.status}); err != nil {
			t.Fatal(err)
		}
	}
	return a
}

// TestReviewQueueOrders pins what every request of the review page
// returns — each order, with and without a name filter, failed sites left
// out or kept, short and long limits — on a project with ratings, notes,
// decisions, communities and ties: the queue reads its sites by index and
// counts them apart, and must give what it gave when it read every site.
// Run with -update-queue to write the file again after a deliberate change.
func TestReviewQueueOrders(t *testing.T) {
	a := queueProject(t)
	ctx := context.Background()
	type call struct {
		Name string
		Got  review.ReviewQueue
	}
	var got []call
	for _, lib := range []string{"ana", "bob"} {
		for _, order := range []string{review.OrderImportance, review.OrderBiased, review.OrderCommunity, review.OrderSearch} {
			for _, q := range []string{"", "t", "a1", "zz", "map", "atlas"} {
				if order == review.OrderSearch && q == "" {
					continue
				}
				for _, include := range []bool{false, true} {
					for _, limit := range []int{1, 4, 50} {
						if order == review.OrderSearch && limit < 50 {
							continue // which of close scores comes first is the index's choice
						}
						req := review.QueueRequest{Librarian: lib, Order: order, Q: q, Limit: limit, IncludeFailed: include}
						res, err := a.Review.ReviewQueue(ctx, req)
						if err != nil {
							t.Fatalf("%+v: %v", req, err)
						}
						if order == review.OrderSearch {
							// Close scores order apart from one index to the
							// next: the queue keeps the index's order, and the
							// file pins which sites it keeps.
							slices.SortFunc(res.Rows, func(x, y review.QueueItem) int { return strings.Compare(x.Site, y.Site) })
						}
						got = append(got, call{fmt.Sprintf("%s %s q=%q failed=%v limit=%d", lib, order, q, include, limit), res})
					}
				}
			}
		}
	}
	js, err := json.MarshalIndent(got, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "review_queue.golden.json")
	if *updateQueue {
		if err := os.WriteFile(path, js, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(js, want) {
		var w []call
		if err := json.Unmarshal(want, &w); err != nil {
			t.Fatal(err)
		}
		for i := range min(len(w), len(got)) {
			a, _ := json.Marshal(got[i])
			b, _ := json.Marshal(w[i])
			if !bytes.Equal(a, b) {
				t.Fatalf("queue differs from %s:\n got %s\nwant %s", path, a, b)
			}
		}
		t.Fatalf("%d queues, %s has %d", len(got), path, len(w))
	}
}

// TestBiasedQueueFollowsRatings: the biased queue's ranking is kept
// between requests, and ranked again when a rating changes the sites it
// favours: its values are then those BiasedPageRank computes afresh.
func TestBiasedQueueFollowsRatings(t *testing.T) {
	a := queueProject(t)
	ctx := context.Background()
	check := func(when string) {
		t.Helper()
		q, err := a.Review.ReviewQueue(ctx, review.QueueRequest{Librarian: "bob", Order: review.OrderBiased, Limit: 50, IncludeFailed: true})
		if err != nil {
			t.Fatal(err)
		}
		br, err := a.Ranking.BiasedPageRank(ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range q.Rows {
			if r.Biased == nil || *r.Biased != br.Rank[r.Site] {
				t.Fatalf("%s: %s biased %v, BiasedPageRank %v", when, r.Site, r.Biased, br.Rank[r.Site])
			}
			if i > 0 && *q.Rows[i-1].Biased < *r.Biased {
				t.Fatalf("%s: %s after %s, of lower biased PageRank", when, r.Site, q.Rows[i-1].Site)
			}
		}
	}
	check("first")
	// t9.test, of no importance, favoured now: its neighbours' ranks move.
	if _, err := a.Review.Rate(ctx, "ana", "t9.test", 4, ""); err != nil {
		t.Fatal(err)
	}
	check("after a rating of 4")
	if _, err := a.Review.Rate(ctx, "ana", "t9.test", 1, ""); err != nil {
		t.Fatal(err)
	}
	check("after the rating became 1")
}
