package store

import (
	"context"
	"fmt"
	"testing"

	"sitesift/sites"
)

// graphText returns the site graph as "from>to:weight" strings, sorted.
func graphText(t *testing.T, s *Store) string {
	t.Helper()
	_, edges, err := s.SiteGraph(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := ""
	for _, e := range edges {
		out += fmt.Sprintf("%s>%s:%g ", e.From, e.To, e.Weight)
	}
	return out
}

// TestSaveRecrawlBatch checks what each kind of record does to a page and
// to w(S→T), the number of distinct pages of S linking to T, which must
// stay exact: a changed page that still links to T through another URL
// keeps its unit, one that stops linking withdraws it, a gone page
// withdraws all of its, a failure withdraws nothing.
func TestSaveRecrawlBatch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	p1 := page(t, "http://s.test/1", "http://t.test/a", "http://t.test/b", "http://u.test/")
	p2 := page(t, "http://s.test/2", "http://t.test/a")
	p3 := page(t, "http://s.test/3", "http://u.test/", "http://v.test/")
	p4 := page(t, "http://s.test/4", "http://v.test/")
	p5 := page(t, "http://s.test/5", "http://w.test/")
	if err := s.SaveCrawlBatch(ctx, []sites.Page{p1, p2, p3, p4, p5}, nil); err != nil {
		t.Fatal(err)
	}
	if got, want := graphText(t, s), "s.test>t.test:2 s.test>u.test:2 s.test>v.test:2 s.test>w.test:1 "; got != want {
		t.Fatalf("graph %q, want %q", got, want)
	}
	if _, err := s.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	rv, err := s.RevisitList(ctx, 1)
	if err != nil || len(rv) != 5 {
		t.Fatalf("revisit list %q, %v", rv, err)
	}

	same := p1 // unchanged (links in another order)
	same.Links = []string{"http://u.test/", "http://t.test/b", "http://t.test/a"}
	moved := page(t, "http://s.test/2", "http://t.test/c", "http://x.test/") // still links t.test, now x.test too
	gone := p3
	gone.Status, gone.ErrClass, gone.Links, gone.Title, gone.Text = 410, sites.ErrHTTP4xx, nil, "", ""
	failed := p4
	failed.Status, failed.ErrClass, failed.Links, failed.Err = 503, sites.ErrHTTP5xx, nil, "503 Service Unavailable"
	dropped := page(t, "http://s.test/5") // no link any more
	fresh := page(t, "http://s.test/6", "http://v.test/")
	saved, err := s.SaveRecrawlBatch(ctx, 1, []sites.Page{same, moved, gone, failed, dropped, fresh}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := RecrawlCounts{Unchanged: 1, Changed: 2, New: 1, Gone: 1, Failed: 1}
	if saved.RecrawlCounts != want {
		t.Errorf("counts %+v, want %+v", saved.RecrawlCounts, want)
	}
	if len(saved.Reindex) != 4 { // changed ×2, gone, new
		t.Errorf("%d pages to re-index, want 4", len(saved.Reindex))
	}
	// t: pages 1 and 2 (through c now); u: 1 only (3 gone); v: 4 (failed,
	// kept) and 6 (new); w: none (5 dropped it); x: 2.
	if got, want := graphText(t, s), "s.test>t.test:2 s.test>u.test:1 s.test>v.test:2 s.test>x.test:1 "; got != want {
		t.Errorf("graph after the recrawl %q, want %q", got, want)
	}
	rounds, err := s.Rounds(ctx)
	if err != nil || len(rounds) != 2 || rounds[1].RecrawlCounts != want || !rounds[1].FinishedAt.IsZero() {
		t.Errorf("rounds %+v, %v", rounds, err)
	}
	// Saving the same batch again (a journal replayed after a kill that
	// came once the batch was committed) counts nothing and changes
	// nothing: the round has visited these pages.
	again, err := s.SaveRecrawlBatch(ctx, 1, []sites.Page{same, moved, gone, failed, dropped, fresh}, nil)
	if err != nil || again.RecrawlCounts != (RecrawlCounts{}) || len(again.Reindex) != 0 {
		t.Errorf("the same batch again: %+v, %d to re-index, %v; want nothing", again.RecrawlCounts, len(again.Reindex), err)
	}
	if rounds, err := s.Rounds(ctx); err != nil || rounds[1].RecrawlCounts != want {
		t.Errorf("round 1 after the same batch again: %+v, %v; want %+v", rounds[1].RecrawlCounts, err, want)
	}
	if got, want := graphText(t, s), "s.test>t.test:2 s.test>u.test:1 s.test>v.test:2 s.test>x.test:1 "; got != want {
		t.Errorf("graph after the same batch again %q, want %q", got, want)
	}
	if rv, err := s.RevisitList(ctx, 1); err != nil || len(rv) != 0 {
		t.Errorf("left to revisit in round 1: %q, %v", rv, err)
	}
	g, err := s.GonePages(ctx, "s.test")
	if err != nil || len(g) != 1 || g[0].URL != "http://s.test/3" || g[0].Status != 410 || g[0].Title != p3.Title {
		t.Errorf("gone pages %+v, %v", g, err)
	}
	if _, _, err := s.FinishRound(ctx, 1); err != nil {
		t.Fatal(err)
	}
	// The next round revisits every page fetched fine and not gone.
	r2, err := s.StartRound(ctx)
	if err != nil || r2.Round != 2 {
		t.Fatalf("round %+v, %v", r2, err)
	}
	rv, err = s.RevisitList(ctx, 2)
	if err != nil || len(rv) != 6 || rv[5] != "http://s.test/3" {
		t.Errorf("round 2 revisits %q, %v; want the 6 pages, the gone one last", rv, err)
	}
	// Still gone: nothing changes, nothing is counted.
	back, err := s.SaveRecrawlBatch(ctx, 2, []sites.Page{gone}, nil)
	if err != nil || back.RecrawlCounts != (RecrawlCounts{}) || len(back.Reindex) != 0 {
		t.Errorf("still gone: %+v, %v", back, err)
	}
	// Back in the next round: a new page again, with its links.
	if _, _, err := s.FinishRound(ctx, 2); err != nil {
		t.Fatal(err)
	}
	if r3, err := s.StartRound(ctx); err != nil || r3.Round != 3 {
		t.Fatalf("round %+v, %v", r3, err)
	}
	back, err = s.SaveRecrawlBatch(ctx, 3, []sites.Page{p3}, nil)
	if err != nil || back.RecrawlCounts != (RecrawlCounts{New: 1}) {
		t.Errorf("back: %+v, %v", back.RecrawlCounts, err)
	}
	if g, err := s.GonePages(ctx, "s.test"); err != nil || len(g) != 0 {
		t.Errorf("gone pages after it came back: %+v, %v", g, err)
	}
	if got, want := graphText(t, s), "s.test>t.test:2 s.test>u.test:2 s.test>v.test:3 s.test>x.test:1 "; got != want {
		t.Errorf("graph after the page came back %q, want %q", got, want)
	}
}

// A project without pages has nothing to recrawl.
func TestStartRoundEmpty(t *testing.T) {
	t.Parallel()
	if _, err := openTest(t).StartRound(context.Background()); err == nil {
		t.Error("a recrawl round began in an empty project")
	}
}
