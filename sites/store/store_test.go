package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"sitesift/sites"
)

func openTest(t *testing.T, opts ...Option) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "project.db"), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	return s
}

// page builds a fetched HTML page of rawURL linking to links.
func page(t testing.TB, rawURL string, links ...string) sites.Page {
	t.Helper()
	site, err := sites.Of(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	return sites.Page{
		URL: rawURL, Site: site, Status: 200, ContentType: "text/html",
		Title: "Title of " + rawURL, Text: "text of " + rawURL, Links: links,
		FetchedAt: time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC),
	}
}

func edge(from, to string, w float64) sites.Edge {
	return sites.Edge{From: from, To: to, Weight: w}
}

func state(site string, cash, history float64) sites.SiteState {
	return sites.SiteState{Site: site, Cash: cash, History: history}
}

// save saves a crawl batch, then gives each site the importance its
// running OPIC state estimates, (history + cash) / total, where the app
// computes OPIC's fixpoint over the site graph: the tests of the store set
// the importance they list and sort by through the states they save.
func save(t *testing.T, s *Store, pages []sites.Page, states []sites.SiteState) {
	t.Helper()
	ctx := context.Background()
	if err := s.SaveCrawlBatch(ctx, pages, states); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE sites SET opic = COALESCE((opic_history + opic_cash) /
		(SELECT NULLIF(SUM(opic_history + opic_cash), 0) FROM sites), 0)`); err != nil {
		t.Fatal(err)
	}
}

func graph(t *testing.T, s *Store) ([]string, []sites.Edge) {
	t.Helper()
	names, edges, err := s.SiteGraph(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return names, edges
}

func TestOpenMigratesOnceAndKeepsData(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "project.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	if v, err := s.SchemaVersion(ctx); err != nil || v != len(ms) {
		t.Fatalf("SchemaVersion = %d, %v; want %d", v, err, len(ms))
	}
	save(t, s, []sites.Page{page(t, "http://a.test/", "http://b.test/")}, nil)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}

	// Reopening must not re-run 0001 (it would fail on CREATE TABLE).
	s, err = Open(path)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer s.Close()
	if p, n, err := s.Stats(ctx); err != nil || p != 1 || n != 2 {
		t.Fatalf("Stats after reopen = %d pages, %d sites, %v; want 1, 2", p, n, err)
	}
	var mode string
	if err := s.db.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q, %v; want wal", mode, err)
	}
	var fk int
	if err := s.db.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk); err != nil || fk != 1 {
		t.Errorf("foreign_keys = %d, %v; want 1", fk, err)
	}
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "project.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec("PRAGMA user_version = 999"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	_, err = Open(path)
	if !errors.Is(err, ErrSchemaTooNew) {
		t.Fatalf("Open of a version-999 database: err = %v, want ErrSchemaTooNew", err)
	}
	if !strings.Contains(err.Error(), "999") {
		t.Errorf("error %q does not name the version", err)
	}
}

func TestOpenErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, p := range []string{"", filepath.Join(dir, "missing", "project.db"), filepath.Join(dir, "a?b.db")} {
		if s, err := Open(p); err == nil {
			s.Close()
			t.Errorf("Open(%q) succeeded, want an error", p)
		}
	}
}

func TestMigrationFilesNumbered(t *testing.T) {
	t.Parallel()
	ms, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) == 0 || ms[0].name != "0001_init.sql" {
		t.Fatalf("migrations = %+v, want 0001_init.sql first", ms)
	}
}

func TestSiteGraphWeights(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	save(t, s, []sites.Page{
		// Two URLs of b.test count once; a self-site link counts not at all.
		page(t, "http://a.test/1", "http://b.test/x", "http://b.test/y", "http://a.test/2", "http://c.test/"),
		page(t, "http://a.test/2", "http://b.test/x"),
		page(t, "http://b.test/x", "http://a.test/1"),
	}, nil)
	names, edges := graph(t, s)
	if want := []string{"a.test", "b.test", "c.test"}; !slices.Equal(names, want) {
		t.Errorf("names = %v, want %v", names, want)
	}
	want := []sites.Edge{edge("a.test", "b.test", 2), edge("a.test", "c.test", 1), edge("b.test", "a.test", 1)}
	if !slices.Equal(edges, want) {
		t.Errorf("edges = %v, want %v", edges, want)
	}

	// Re-saving the same pages must not double count.
	save(t, s, []sites.Page{
		page(t, "http://a.test/1", "http://b.test/x", "http://b.test/y", "http://a.test/2", "http://c.test/"),
		page(t, "http://a.test/2", "http://b.test/x"),
	}, nil)
	if _, edges := graph(t, s); !slices.Equal(edges, want) {
		t.Errorf("after re-save: edges = %v, want %v", edges, want)
	}

	// A new version replaces the old one's links and contribution.
	save(t, s, []sites.Page{page(t, "http://a.test/1", "http://c.test/z")}, nil)
	want = []sites.Edge{edge("a.test", "b.test", 1), edge("a.test", "c.test", 1), edge("b.test", "a.test", 1)}
	if _, edges := graph(t, s); !slices.Equal(edges, want) {
		t.Errorf("after new version: edges = %v, want %v", edges, want)
	}
	// Losing the last link to b.test drops the edge (no weight-0 rows).
	save(t, s, []sites.Page{page(t, "http://a.test/2")}, nil)
	want = []sites.Edge{edge("a.test", "c.test", 1), edge("b.test", "a.test", 1)}
	if _, edges := graph(t, s); !slices.Equal(edges, want) {
		t.Errorf("after dropping links: edges = %v, want %v", edges, want)
	}
	var links int
	if err := s.db.QueryRow(`SELECT COUNT(*) FROM links`).Scan(&links); err != nil || links != 2 {
		t.Errorf("links rows = %d, %v; want 2 (a.test/1 -> c.test/z, b.test/x -> a.test/1)", links, err)
	}
}

// TestSiteGraphMatchesRecomputation saves random versions of random pages
// and checks the maintained site_links against the weights computed from
// scratch from the last version of every page.
func TestSiteGraphMatchesRecomputation(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	rng := rand.New(rand.NewPCG(1, 2))
	siteNames := []string{"a.test", "b.test", "c.test", "d.test", "e.test"}
	url := func() string {
		return fmt.Sprintf("http://%s/%d", siteNames[rng.IntN(len(siteNames))], rng.IntN(8))
	}
	latest := map[string]sites.Page{}
	for range 40 {
		var batch []sites.Page
		for range 1 + rng.IntN(6) {
			var links []string
			for range rng.IntN(6) {
				links = append(links, url())
			}
			p := page(t, url(), links...)
			batch = append(batch, p)
			latest[p.URL] = p
		}
		save(t, s, batch, nil)
	}

	weights := map[[2]string]float64{}
	for _, p := range latest {
		targets := map[string]bool{}
		for _, l := range p.Links {
			ts, _ := sites.Of(l)
			if ts != p.Site {
				targets[ts] = true
			}
		}
		for ts := range targets {
			weights[[2]string{p.Site, ts}]++
		}
	}
	var want []sites.Edge
	for k, w := range weights {
		want = append(want, sites.Edge{From: k[0], To: k[1], Weight: w})
	}
	sort.Slice(want, func(i, j int) bool {
		if want[i].From != want[j].From {
			return want[i].From < want[j].From
		}
		return want[i].To < want[j].To
	})
	if _, got := graph(t, s); !slices.Equal(got, want) {
		t.Errorf("edges =\n%v\nwant\n%v", got, want)
	}
	if pages, _, err := s.Stats(context.Background()); err != nil || pages != len(latest) {
		t.Errorf("Stats pages = %d, %v; want %d", pages, err, len(latest))
	}
}

func TestSaveCrawlBatchRejectsInvalidPages(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	ctx := context.Background()
	good := page(t, "http://a.test/", "http://b.test/")
	noURL := page(t, "http://c.test/")
	noURL.URL = ""
	noSite := page(t, "http://d.test/x")
	noSite.Site = ""
	wrongSite := page(t, "http://e.test/y")
	wrongSite.Site = "f.test"
	badLink := page(t, "http://g.test/", "mailto:x@g.test")
	for _, tt := range []struct {
		bad  sites.Page
		name string // what the error must mention
	}{
		{noURL, "c.test"},
		{noSite, "http://d.test/x"},
		{wrongSite, "http://e.test/y"},
		{badLink, "mailto:x@g.test"},
	} {
		err := s.SaveCrawlBatch(ctx, []sites.Page{good, tt.bad}, []sites.SiteState{{Site: "a.test", Cash: 1}})
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("bad page %+v: err = %v, want ErrInvalid", tt.bad, err)
			continue
		}
		if !strings.Contains(err.Error(), tt.name) {
			t.Errorf("error %q does not name %q", err, tt.name)
		}
	}
	if p, n, err := s.Stats(ctx); err != nil || p != 0 || n != 0 {
		t.Errorf("Stats = %d pages, %d sites, %v; want nothing written", p, n, err)
	}
}

// TestSaveCrawlBatchRollsBack makes the database itself refuse the last
// statement of a batch (SQLite stores NaN as NULL, which the NOT NULL
// opic_cash column rejects) after the pages were written in the same
// transaction, and checks none of them stayed.
func TestSaveCrawlBatchRollsBack(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	ctx := context.Background()
	save(t, s, []sites.Page{page(t, "http://a.test/", "http://b.test/")}, []sites.SiteState{{Site: "a.test", Cash: 1}})
	_, edgesBefore := graph(t, s)

	err := s.SaveCrawlBatch(ctx,
		[]sites.Page{page(t, "http://a.test/", "http://c.test/"), page(t, "http://x.test/", "http://a.test/")},
		[]sites.SiteState{{Site: "a.test", Cash: 2}, {Site: "b.test", Cash: math.NaN()}})
	if err == nil {
		t.Fatal("SaveCrawlBatch with a NaN cash succeeded")
	}
	if !strings.Contains(err.Error(), "b.test") {
		t.Errorf("error %q does not name the site", err)
	}
	if p, n, err := s.Stats(ctx); err != nil || p != 1 || n != 2 {
		t.Errorf("Stats = %d pages, %d sites, %v; want 1, 2 as before", p, n, err)
	}
	if _, edges := graph(t, s); !slices.Equal(edges, edgesBefore) {
		t.Errorf("edges = %v, want %v as before", edges, edgesBefore)
	}
	states, err := s.OPICStates(ctx)
	if err != nil || len(states) != 2 || states[0] != (sites.SiteState{Site: "a.test", Cash: 1}) {
		t.Errorf("OPICStates = %v, %v; want a.test cash 1 as before", states, err)
	}
}

// openFixture is openTest with the fixture saved.
func openFixture(t *testing.T, opts ...Option) *Store {
	t.Helper()
	s := openTest(t, opts...)
	fixture(t, s)
	return s
}

// fixture saves a small web: hub.test links to everyone, a.test and b.test
// link to the hub, c.test is only linked to.
func fixture(t *testing.T, s *Store) {
	t.Helper()
	save(t, s, []sites.Page{
		page(t, "http://hub.test/", "http://a.test/", "http://b.test/", "http://c.test/"),
		page(t, "http://hub.test/more", "http://a.test/"),
		page(t, "http://a.test/", "http://hub.test/"),
		page(t, "http://a.test/deep", "http://hub.test/more"),
		page(t, "http://b.test/", "http://hub.test/", "http://a.test/"),
	}, []sites.SiteState{
		{Site: "hub.test", Cash: 1, History: 4},   // 5
		{Site: "a.test", Cash: 0.5, History: 1.5}, // 2
		{Site: "b.test", Cash: 1, History: 1},     // 2
		{Site: "c.test", Cash: 1, History: 0},     // 1
	})
	if err := s.SetPageRank(context.Background(), map[string]float64{
		"hub.test": 0.4, "a.test": 0.3, "b.test": 0.1, "c.test": 0.2,
	}); err != nil {
		t.Fatal(err)
	}
}

func siteNames(rows []SiteRow) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r.Site)
	}
	return out
}

func TestListSites(t *testing.T) {
	t.Parallel()
	s := openFixture(t)
	ctx := context.Background()
	if _, err := s.SetRating(ctx, "ana", "b.test", 4, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetRating(ctx, "ana", "c.test", 2, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetRating(ctx, "ben", "hub.test", 1, ""); err != nil {
		t.Fatal(err)
	}

	total, rows, err := s.ListSites(ctx, SiteQuery{Sort: "opic", Desc: true, Librarian: "ana"})
	if err != nil {
		t.Fatal(err)
	}
	if total != 4 {
		t.Errorf("total = %d, want 4", total)
	}
	four, two := 4, 2
	want := []SiteRow{
		{Site: "hub.test", OPIC: 0.5, PageRank: 0.4, Pages: 2, InSites: 2, OutSites: 3},
		{Site: "a.test", OPIC: 0.2, PageRank: 0.3, Pages: 2, InSites: 2, OutSites: 1},
		{Site: "b.test", OPIC: 0.2, PageRank: 0.1, Pages: 1, InSites: 1, OutSites: 2, Rating: &four},
		{Site: "c.test", OPIC: 0.1, PageRank: 0.2, Pages: 0, InSites: 1, OutSites: 0, Rating: &two},
	}
	if len(rows) != len(want) {
		t.Fatalf("rows = %+v, want %+v", rows, want)
	}
	var sum float64
	for i, r := range rows {
		w := want[i]
		if r.Site != w.Site || math.Abs(r.OPIC-w.OPIC) > 1e-12 || r.PageRank != w.PageRank ||
			r.Pages != w.Pages || r.InSites != w.InSites || r.OutSites != w.OutSites ||
			(r.Rating == nil) != (w.Rating == nil) || (r.Rating != nil && *r.Rating != *w.Rating) {
			t.Errorf("row %d = %+v, want %+v", i, r, w)
		}
		sum += r.OPIC
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Errorf("OPIC values sum to %v, want 1", sum)
	}

	for _, tt := range []struct {
		q    SiteQuery
		want []string
	}{
		// a.test and b.test tie on OPIC and are ordered by name either way.
		{SiteQuery{Sort: "opic"}, []string{"c.test", "a.test", "b.test", "hub.test"}},
		{SiteQuery{}, []string{"c.test", "a.test", "b.test", "hub.test"}},
		{SiteQuery{Sort: "pagerank", Desc: true}, []string{"hub.test", "a.test", "c.test", "b.test"}},
		{SiteQuery{Sort: "pages", Desc: true}, []string{"a.test", "hub.test", "b.test", "c.test"}},
		{SiteQuery{Sort: "pages"}, []string{"c.test", "b.test", "a.test", "hub.test"}},
		{SiteQuery{Sort: "in_sites", Desc: true}, []string{"a.test", "hub.test", "b.test", "c.test"}},
		{SiteQuery{Sort: "out_sites", Desc: true}, []string{"hub.test", "b.test", "a.test", "c.test"}},
		{SiteQuery{Sort: "site", Desc: true}, []string{"hub.test", "c.test", "b.test", "a.test"}},
		{SiteQuery{Sort: "site"}, []string{"a.test", "b.test", "c.test", "hub.test"}},
		// Unrated sites come last in both directions.
		{SiteQuery{Sort: "rating", Desc: true, Librarian: "ana"}, []string{"b.test", "c.test", "a.test", "hub.test"}},
		{SiteQuery{Sort: "rating", Librarian: "ana"}, []string{"c.test", "b.test", "a.test", "hub.test"}},
		{SiteQuery{Sort: "rating", Librarian: "ben"}, []string{"hub.test", "a.test", "b.test", "c.test"}},
		{SiteQuery{Sort: "site", Filter: "B.TEST"}, []string{"b.test", "hub.test"}},
		{SiteQuery{Sort: "site", Filter: "%"}, nil},
		{SiteQuery{Sort: "site", Offset: 1, Limit: 2}, []string{"b.test", "c.test"}},
		{SiteQuery{Sort: "site", Offset: 3, Limit: 2}, []string{"hub.test"}},
		{SiteQuery{Sort: "site", Offset: 9, Limit: 2}, nil},
	} {
		_, rows, err := s.ListSites(ctx, tt.q)
		if err != nil {
			t.Errorf("ListSites(%+v): %v", tt.q, err)
			continue
		}
		if got := siteNames(rows); !slices.Equal(got, tt.want) {
			t.Errorf("ListSites(%+v) = %v, want %v", tt.q, got, tt.want)
		}
	}

	if total, rows, err := s.ListSites(ctx, SiteQuery{Filter: "b.", Limit: 1}); err != nil || total != 2 || len(rows) != 1 {
		t.Errorf("filtered page: total %d, %d rows, %v; want total 2, 1 row", total, len(rows), err)
	}
	if _, _, err := s.ListSites(ctx, SiteQuery{Sort: "name; DROP TABLE sites"}); !errors.Is(err, ErrInvalid) {
		t.Errorf("unknown sort key: err = %v, want ErrInvalid", err)
	}
	if _, _, err := s.ListSites(ctx, SiteQuery{Offset: -1}); !errors.Is(err, ErrInvalid) {
		t.Errorf("negative offset: err = %v, want ErrInvalid", err)
	}
}

func TestListSitesOPICOrderIsRawOrder(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	rng := rand.New(rand.NewPCG(3, 4))
	var states []sites.SiteState
	for i := range 60 {
		states = append(states, sites.SiteState{
			Site: fmt.Sprintf("s%02d.test", i), Cash: rng.Float64(), History: float64(rng.IntN(4)),
		})
	}
	save(t, s, nil, states)
	_, rows, err := s.ListSites(context.Background(), SiteQuery{Sort: "opic", Desc: true})
	if err != nil {
		t.Fatal(err)
	}
	raw := map[string]float64{}
	for _, st := range states {
		raw[st.Site] = st.History + st.Cash
	}
	want := slices.Clone(states)
	sort.SliceStable(want, func(i, j int) bool {
		a, b := raw[want[i].Site], raw[want[j].Site]
		if a != b {
			return a > b
		}
		return want[i].Site < want[j].Site
	})
	var sum float64
	for i, r := range rows {
		if r.Site != want[i].Site {
			t.Fatalf("row %d = %s, want %s", i, r.Site, want[i].Site)
		}
		sum += r.OPIC
	}
	if math.Abs(sum-1) > 1e-9 {
		t.Errorf("OPIC sums to %v, want 1", sum)
	}
}

func TestListSitesZeroOPIC(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	save(t, s, []sites.Page{page(t, "http://a.test/", "http://b.test/")}, nil)
	_, rows, err := s.ListSites(context.Background(), SiteQuery{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.OPIC != 0 {
			t.Errorf("%s OPIC = %v with no cash anywhere, want 0", r.Site, r.OPIC)
		}
	}
}

func TestSiteDetail(t *testing.T) {
	t.Parallel()
	s := openFixture(t)
	ctx := context.Background()
	// Depth orders the page list before the URL does.
	shallow := page(t, "http://a.test/z-shallow")
	shallow.Depth = 1
	deep := page(t, "http://a.test/deep", "http://hub.test/more")
	deep.Depth = 2
	save(t, s, []sites.Page{shallow, deep}, nil)
	if _, err := s.SetRating(ctx, "ben", "a.test", 3, "good"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetRating(ctx, "ana", "a.test", 2, ""); err != nil {
		t.Fatal(err)
	}

	d, err := s.Site(ctx, "a.test", "ben")
	if err != nil {
		t.Fatal(err)
	}
	if d.Site != "a.test" || d.SiteRow.Pages != 3 || d.InSites != 2 || d.OutSites != 1 || d.Rating == nil || *d.Rating != 3 {
		t.Errorf("row = %+v", d.SiteRow)
	}
	var urls []string
	for _, p := range d.Pages {
		urls = append(urls, p.URL)
	}
	if want := []string{"http://a.test/", "http://a.test/z-shallow", "http://a.test/deep"}; !slices.Equal(urls, want) {
		t.Errorf("pages = %v, want %v", urls, want)
	}
	// hub.test links to a.test from 2 pages, b.test from 1.
	if len(d.InLinks) != 2 || d.InLinks[0].Site != "hub.test" || d.InLinks[0].Weight != 2 ||
		math.Abs(d.InLinks[0].OPIC-0.5) > 1e-12 || d.InLinks[1].Site != "b.test" || d.InLinks[1].Weight != 1 {
		t.Errorf("in-links = %+v", d.InLinks)
	}
	if len(d.OutLinks) != 1 || d.OutLinks[0].Site != "hub.test" || d.OutLinks[0].Weight != 2 {
		t.Errorf("out-links = %+v", d.OutLinks)
	}
	if len(d.Ratings) != 2 || d.Ratings[0].Librarian != "ana" || d.Ratings[1].Note != "good" {
		t.Errorf("ratings = %+v", d.Ratings)
	}

	if d.SiteRow.Pages != 3 || d.Rating == nil || *d.Rating != 3 {
		t.Errorf("row of the detail = %+v", d.SiteRow)
	}

	d, err = s.Site(ctx, "c.test", "")
	if err != nil {
		t.Fatal(err)
	}
	if d.Pages == nil || len(d.Pages) != 0 || d.Rating != nil || len(d.OutLinks) != 0 {
		t.Errorf("linked-only site = %+v, want no pages, no rating, empty lists", d)
	}
	if _, err := s.Site(ctx, "nowhere.test", ""); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown site: err = %v, want ErrNotFound", err)
	}
}

func TestRatings(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	s := openFixture(t, WithClock(func() time.Time { return now }))
	ctx := context.Background()

	for _, bad := range []int{0, 5, -1} {
		if _, err := s.SetRating(ctx, "ana", "a.test", bad, ""); !errors.Is(err, ErrInvalid) {
			t.Errorf("rating %d: err = %v, want ErrInvalid", bad, err)
		}
	}
	if _, err := s.SetRating(ctx, " ", "a.test", 3, ""); !errors.Is(err, ErrInvalid) {
		t.Errorf("empty librarian: err = %v, want ErrInvalid", err)
	}
	if _, err := s.SetRating(ctx, "ana", "nowhere.test", 3, ""); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown site: err = %v, want ErrNotFound", err)
	}
	if libs, err := s.Librarians(ctx); err != nil || len(libs) != 0 {
		t.Errorf("Librarians after failed ratings = %v, %v; want none", libs, err)
	}

	r, err := s.SetRating(ctx, "ana", "a.test", 3, "first")
	if err != nil {
		t.Fatal(err)
	}
	if want := (Rating{"ana", "a.test", 3, "first", now}); r != want {
		t.Errorf("SetRating = %+v, want %+v", r, want)
	}
	now = now.Add(time.Hour)
	if _, err := s.SetRating(ctx, "ana", "a.test", 1, "changed my mind"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetRating(ctx, "ben", "hub.test", 4, ""); err != nil {
		t.Fatal(err)
	}
	all, err := s.Ratings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []Rating{{"ana", "a.test", 1, "changed my mind", now}, {"ben", "hub.test", 4, "", now}}
	if !slices.Equal(all, want) {
		t.Errorf("Ratings = %+v, want %+v", all, want)
	}
	if libs, err := s.Librarians(ctx); err != nil || !slices.Equal(libs, []string{"ana", "ben"}) {
		t.Errorf("Librarians = %v, %v", libs, err)
	}

	// The schema enforces the range and uniqueness too, not only Go code.
	if _, err := s.db.Exec(`INSERT INTO ratings (librarian_id, site_id, rating, rated_at)
		VALUES ((SELECT id FROM librarians WHERE name = 'ben'), (SELECT id FROM sites WHERE name = 'c.test'), 7, '')`); err == nil {
		t.Error("rating 7 accepted by the schema")
	}
	if _, err := s.db.Exec(`INSERT INTO ratings (librarian_id, site_id, rating, rated_at)
		VALUES ((SELECT id FROM librarians WHERE name = 'ben'), (SELECT id FROM sites WHERE name = 'hub.test'), 2, '')`); err == nil {
		t.Error("second rating of one site by one librarian accepted by the schema")
	}

	if err := s.DeleteRating(ctx, "ana", "a.test"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteRating(ctx, "ana", "a.test"); !errors.Is(err, ErrNotFound) {
		t.Errorf("second delete: err = %v, want ErrNotFound", err)
	}
	if all, err := s.Ratings(ctx); err != nil || len(all) != 1 {
		t.Errorf("Ratings after delete = %v, %v", all, err)
	}
}

func TestSetPageRank(t *testing.T) {
	t.Parallel()
	s := openFixture(t)
	ctx := context.Background()
	if err := s.SetPageRank(ctx, map[string]float64{"c.test": 0.9}); err != nil {
		t.Fatal(err)
	}
	_, rows, err := s.ListSites(ctx, SiteQuery{Sort: "site"})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		want := 0.0
		if r.Site == "c.test" {
			want = 0.9
		}
		if r.PageRank != want {
			t.Errorf("%s pagerank = %v, want %v", r.Site, r.PageRank, want)
		}
	}
	if err := s.SetPageRank(ctx, map[string]float64{"a.test": 0.5, "ghost.test": 0.5}); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown site: err = %v, want ErrNotFound", err)
	}
	if d, err := s.Site(ctx, "c.test", ""); err != nil || d.PageRank != 0.9 {
		t.Errorf("after failed SetPageRank c.test = %v, %v; want 0.9 kept", d.PageRank, err)
	}
}

func TestOPICStates(t *testing.T) {
	t.Parallel()
	s := openFixture(t)
	ctx := context.Background()
	save(t, s, nil, []sites.SiteState{{Site: "a.test", Cash: 0, History: 3}, {Site: "new.test", Cash: 0.25}})
	got, err := s.OPICStates(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []sites.SiteState{
		state("a.test", 0, 3), state("b.test", 1, 1), state("c.test", 1, 0), state("hub.test", 1, 4), state("new.test", 0.25, 0),
	}
	if !slices.Equal(got, want) {
		t.Errorf("OPICStates = %v, want %v", got, want)
	}
}

func TestForEachPage(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	ctx := context.Background()
	const n = forEachChunk*2 + 7
	var batch []sites.Page
	for i := range n {
		p := page(t, fmt.Sprintf("http://s%d.test/p%d", i%5, i), "http://x.test/")
		p.Depth = i % 3
		if i == 3 {
			p.Status, p.Err, p.FetchedAt = 0, "connection refused", time.Time{}
		}
		batch = append(batch, p)
	}
	save(t, s, batch, nil)

	var seen []sites.Page
	if err := s.ForEachPage(ctx, func(p sites.Page) error {
		seen = append(seen, p)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(seen) != n {
		t.Fatalf("visited %d pages, want %d", len(seen), n)
	}
	for i, p := range seen {
		want := batch[i]
		want.Links = nil
		if p.URL != want.URL || p.Site != want.Site || p.Status != want.Status || p.Title != want.Title ||
			p.Text != want.Text || p.Depth != want.Depth || !p.FetchedAt.Equal(want.FetchedAt) ||
			p.Err != want.Err || p.ContentType != want.ContentType || p.Links != nil {
			t.Fatalf("page %d = %+v, want %+v", i, p, want)
		}
	}

	stop := errors.New("stop")
	calls := 0
	err := s.ForEachPage(ctx, func(sites.Page) error {
		calls++
		if calls == 10 {
			return stop
		}
		return nil
	})
	if err != stop || calls != 10 {
		t.Errorf("ForEachPage stopping: err = %v after %d calls, want stop after 10", err, calls)
	}
}

func TestCrawls(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	ctx := context.Background()
	id, err := s.StartCrawl(ctx, map[string]any{"seeds": []string{"http://a.test/"}, "max_pages": 10})
	if err != nil {
		t.Fatal(err)
	}
	cs, err := s.Crawls(ctx)
	if err != nil || len(cs) != 1 || cs[0].State != CrawlRunning || !cs[0].FinishedAt.IsZero() {
		t.Fatalf("Crawls after start = %+v, %v", cs, err)
	}
	if err := s.CrawlProgress(ctx, id, CrawlCounts{Pages: 3, Retries: 1, TemplateLinksLeftOut: 5, TemplateSitesLeftOut: 4}); err != nil {
		t.Fatal(err)
	}
	cs, err = s.Crawls(ctx)
	if err != nil || len(cs) != 1 || cs[0].Pages != 3 || cs[0].Retries != 1 || cs[0].TemplateLinksLeftOut != 5 || cs[0].TemplateSitesLeftOut != 4 {
		t.Fatalf("Crawls after progress = %+v, %v", cs, err)
	}
	if err := s.FinishCrawl(ctx, id, CrawlDone, "exhausted", CrawlCounts{Pages: 7, Retries: 2, TemplateLinksLeftOut: 9, TemplateSitesLeftOut: 6}); err != nil {
		t.Fatal(err)
	}
	cs, err = s.Crawls(ctx)
	if err != nil || len(cs) != 1 || cs[0].ID != id || cs[0].State != CrawlDone || cs[0].Pages != 7 || cs[0].Retries != 2 || cs[0].FinishedAt.IsZero() ||
		cs[0].TemplateLinksLeftOut != 9 || cs[0].TemplateSitesLeftOut != 6 {
		t.Fatalf("Crawls after finish = %+v, %v", cs, err)
	}
	var settings struct {
		MaxPages int `json:"max_pages"`
	}
	if err := json.Unmarshal(cs[0].Settings, &settings); err != nil || settings.MaxPages != 10 {
		t.Errorf("settings = %s, %v", cs[0].Settings, err)
	}
	if err := s.FinishCrawl(ctx, id+100, CrawlDone, "", CrawlCounts{Pages: 1}); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown crawl: err = %v, want ErrNotFound", err)
	}
	if _, err := s.StartCrawl(ctx, make(chan int)); err == nil {
		t.Error("StartCrawl with unencodable settings succeeded")
	}
}

// bigBatch is a crawl batch of the size the crawler sends: pages of one
// worker's site, each linking to one page of each of the sites t0..t<links-1>.
func bigBatch(t testing.TB, worker, round, pages, links int) []sites.Page {
	var out []sites.Page
	for i := range pages {
		var ls []string
		for j := range links {
			ls = append(ls, fmt.Sprintf("http://t%d.test/%d/%d", j, round, i))
		}
		out = append(out, page(t, fmt.Sprintf("http://w%d-%d.test/p%d", worker, round%7, i), ls...))
	}
	return out
}

// TestConcurrentWritersAndReaders runs three writers and a reader at once:
// with WAL, IMMEDIATE transactions and writers queued in order, none of them
// may see SQLITE_BUSY (under -race a batch takes a second, which starved a
// writer past busy_timeout before writers were queued).
func TestConcurrentWritersAndReaders(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	ctx := context.Background()
	const rounds = 15
	var batches [2][rounds][]sites.Page
	for w := range batches {
		for r := range rounds {
			batches[w][r] = bigBatch(t, w, r, 20, 50)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	done := make(chan struct{})
	for w := range 2 {
		wg.Go(func() {
			for r := range rounds {
				states := []sites.SiteState{{Site: fmt.Sprintf("w%d-%d.test", w, r%7), Cash: float64(r), History: 1}}
				if err := s.SaveCrawlBatch(ctx, batches[w][r], states); err != nil {
					errs <- fmt.Errorf("writer %d round %d: %w", w, r, err)
					return
				}
			}
		})
	}
	// A librarian rates while the crawl writes: a third writer that must not
	// be starved by the two batch writers.
	save(t, s, nil, []sites.SiteState{state("rated.test", 1, 0)})
	wg.Go(func() {
		for i := range 30 {
			if _, err := s.SetRating(ctx, "ana", "rated.test", 1+i%4, ""); err != nil {
				errs <- fmt.Errorf("rater: %w", err)
				return
			}
		}
	})
	var readers sync.WaitGroup
	readers.Go(func() {
		for {
			select {
			case <-done:
				return
			default:
			}
			if _, _, err := s.ListSites(ctx, SiteQuery{Sort: "in_sites", Desc: true, Limit: 20}); err != nil {
				errs <- fmt.Errorf("reader ListSites: %w", err)
				return
			}
			if _, _, err := s.SiteGraph(ctx); err != nil {
				errs <- fmt.Errorf("reader SiteGraph: %w", err)
				return
			}
		}
	})
	wg.Wait()
	close(done)
	readers.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// Each writer re-saves its 7 sites × 20 pages as rounds wrap around.
	if pages, _, err := s.Stats(ctx); err != nil || pages != 2*7*20 {
		t.Errorf("Stats pages = %d, %v; want %d", pages, err, 2*7*20)
	}
	_, edges := graph(t, s)
	for _, e := range edges {
		if e.Weight != 20 {
			t.Errorf("edge %v: weight %v, want 20 (every page of a worker site links to every target site)", e, e.Weight)
			break
		}
	}
}

func BenchmarkSaveCrawlBatch(b *testing.B) {
	s, err := Open(filepath.Join(b.TempDir(), "project.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	batches := make([][]sites.Page, 50)
	for i := range batches {
		batches[i] = bigBatch(b, 0, i, 20, 50)
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if err := s.SaveCrawlBatch(ctx, batches[i%len(batches)], nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSaveManyLinks: a page's links are stored whatever their number, once
// each, and a URL that is both an editorial and a template link of the
// page is editorial.
func TestSaveManyLinks(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	for _, n := range []int{1, 20, 64, 65, 150} {
		p := page(t, fmt.Sprintf("http://a.test/%d", n))
		for i := range n {
			p.Links = append(p.Links, fmt.Sprintf("http://s%d.test/p%d", i%7, i))
		}
		// Every third link again, as a template link: still editorial.
		// And template links of their own.
		for i := 0; i < n; i += 3 {
			p.TemplateLinks = append(p.TemplateLinks, p.Links[i])
		}
		p.TemplateLinks = append(p.TemplateLinks, "http://t.test/footer", "http://t.test/footer")
		save(t, s, []sites.Page{p}, nil)
		var rows, editorial int
		err := s.db.QueryRow(`SELECT COUNT(*), COALESCE(SUM(editorial), 0) FROM links JOIN pages ON pages.id = links.page_id
			WHERE pages.url = ?`, p.URL).Scan(&rows, &editorial)
		if err != nil || rows != n+1 || editorial != n {
			t.Errorf("%d links: %d rows, %d editorial, %v; want %d rows, %d editorial", n, rows, editorial, err, n+1, n)
		}
	}
}
