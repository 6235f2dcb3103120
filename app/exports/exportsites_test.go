package exports_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"sitesift/app"
	"sitesift/app/apptest"
	"sitesift/app/export"
	"sitesift/app/exports"
	"sitesift/app/project"
	"sitesift/app/ranking"
	"sitesift/importance"
	"sitesift/sites"
	"sitesift/sites/store"
)

// TestSeedIsAFetchedPage: a site whose pages the crawl fetched on
// www.example.test only (the site rule makes them the site example.test)
// has for seed its shallowest page that answered 2xx, https before http,
// in every export: never http://example.test/, which no fetch answered.
func TestSeedIsAFetchedPage(t *testing.T) {
	ctx := context.Background()
	a, p := apptest.EmptyProject(t)
	page := func(u string, status int, class string) sites.Page {
		p := apptest.Page(t, u)
		p.Site, p.Status, p.ErrClass = "example.test", status, class
		return p
	}
	pages := []sites.Page{
		page("http://example.test/", 301, sites.ErrRedirect), // a redirect is no seed
		page("https://www.example.test/news/today", 200, ""),
		page("http://www.example.test/", 200, ""),
		page("https://www.example.test/", 200, ""),
		page("https://www.example.test/?lang=en", 200, ""),
		page("https://www.example.test/gone", 404, sites.ErrHTTP4xx),
	}
	states := []sites.SiteState{{Site: "example.test", History: 2}, {Site: "other.test", History: 1}}
	if err := p.Store.SaveCrawlBatch(ctx, pages, states); err != nil {
		t.Fatal(err)
	}
	const want = "https://www.example.test/"
	seeds, err := a.Exports.Seeds(ctx, 5, false)
	if err != nil || len(seeds) != 2 || seeds[0].SeedURL != want || !seeds[0].Checked {
		t.Fatalf("seeds %+v, %v; want %s first, checked", seeds, err, want)
	}
	// other.test is only linked to: its home page stands for it, not checked.
	if seeds[1].SeedURL != "http://other.test/" || seeds[1].Checked {
		t.Errorf("seed of a site never fetched: %+v", seeds[1])
	}
	ps, _, err := a.Exports.HeritrixPrecedence(ctx, 10, false, false, false)
	if err != nil || len(ps) != 2 || ps[0].URI != want {
		t.Errorf("heritrix precedence %+v, %v", ps, err)
	}
	apptest.AddLibrarians(t, a, "ana")
	if _, err := a.Ranking.SetSettings(ctx, project.SettingsUpdate{SinglePersonApproval: app.Set(true)}); err != nil {
		t.Fatal(err)
	}
	for _, st := range []string{store.StatusNominated, store.StatusApproved} {
		if _, err := a.Review.SetSelection(ctx, "example.test", store.SelectionUpdate{Librarian: "ana", Status: st}); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := a.Exports.Export(ctx, &buf, exports.ExportRequest{What: exports.ExportApproved}); err != nil || buf.String() != want+"\n" {
		t.Errorf("approved seeds %q, %v", buf.String(), err)
	}
	e, err := a.Exports.CrawlerExport(ctx)
	if err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	if err := exports.WriteBrowsertrixConfig(&buf, e); err != nil || !strings.Contains(buf.String(), `url: "`+want+`"`) {
		t.Errorf("browsertrix config %q, %v", buf.String(), err)
	}
}

// TestFailedSitesLeftOutOfEveryExport: the sites whose crawl gave nothing
// worth archiving (dead, closed to robots, errors only) are left out of
// the top-K seeds, the Heritrix precedence file and the crawler configs
// of the approved selection, and each says how many it left out and why.
func TestFailedSitesLeftOutOfEveryExport(t *testing.T) {
	ctx := context.Background()
	a, _ := apptest.Open(t, apptest.FailuresProject(t))
	wantLeft := []exports.LeftOut{{Reason: exports.LeftOutDead, Sites: 1}, {Reason: exports.LeftOutErrorsOnly, Sites: 1},
		{Reason: exports.LeftOutRobotsClosed, Sites: 1}}
	var buf bytes.Buffer
	left, err := a.Exports.ExportCounted(ctx, &buf, exports.ExportRequest{What: exports.ExportTopK, Count: 10})
	if err != nil || buf.String() != "http://ok.test/\n" || !reflect.DeepEqual(left, wantLeft) {
		t.Errorf("top-K %q, left out %+v, %v", buf.String(), left, err)
	}
	buf.Reset()
	left, err = a.Exports.ExportCounted(ctx, &buf, exports.ExportRequest{What: exports.ExportHeritrix})
	if err != nil || buf.String() != "http://ok.test/ 1\n" || !reflect.DeepEqual(left, wantLeft) {
		t.Errorf("heritrix %q, left out %+v, %v", buf.String(), left, err)
	}
	if got := exports.LeftOutText(left); got != "left out 3 sites: 1 dead (every fetch failed), 1 errors only, 1 closed to robots" {
		t.Errorf("left out in words: %q", got)
	}
	buf.Reset()
	if _, err := a.Exports.ExportCounted(ctx, &buf, exports.ExportRequest{What: exports.ExportHeritrix, IncludeFailed: true}); err != nil ||
		strings.Count(buf.String(), "\n") != 4 {
		t.Errorf("heritrix with the failed sites %q, %v", buf.String(), err)
	}

	apptest.AddLibrarians(t, a, "ana")
	if _, err := a.Ranking.SetSettings(ctx, project.SettingsUpdate{SinglePersonApproval: app.Set(true)}); err != nil {
		t.Fatal(err)
	}
	for _, site := range []string{"ok.test", "dead.test", "broken.test", "closed.test"} {
		for _, st := range []string{store.StatusNominated, store.StatusApproved} {
			if _, err := a.Review.SetSelection(ctx, site, store.SelectionUpdate{Librarian: "ana", Status: st}); err != nil {
				t.Fatal(err)
			}
		}
	}
	buf.Reset()
	left, err = a.Exports.ExportCounted(ctx, &buf, exports.ExportRequest{What: exports.ExportApproved})
	if err != nil || buf.String() != "http://ok.test/\n" || !reflect.DeepEqual(left, wantLeft) {
		t.Errorf("approved %q, left out %+v, %v", buf.String(), left, err)
	}
	e, err := a.Exports.CrawlerExport(ctx)
	if err != nil || len(e.Seeds) != 1 || !reflect.DeepEqual(e.LeftOut, wantLeft) {
		t.Fatalf("crawler export %+v, %v", e, err)
	}
	buf.Reset()
	if err := exports.WriteBrowsertrixConfig(&buf, e); err != nil || strings.Contains(buf.String(), "dead.test") ||
		!strings.Contains(buf.String(), "# It left out 3 sites: ") {
		t.Errorf("browsertrix config %q, %v", buf.String(), err)
	}
}

// TestImportedSeedsNotChecked: the sites of an imported edge list, which
// no crawl fetched, keep http://SITE/ as their seed, marked not checked in
// CSV and JSON.
func TestImportedSeedsNotChecked(t *testing.T) {
	ctx := context.Background()
	a := apptest.Empty(t)
	path := filepath.Join(t.TempDir(), "graph.tsv")
	if err := os.WriteFile(path, []byte("a.test b.test\nc.test b.test\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Imports.Import(ctx, path); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := a.Exports.Export(ctx, &buf, exports.ExportRequest{What: exports.ExportTopK, Format: export.CSV, Count: 1}); err != nil {
		t.Fatal(err)
	}
	rows := apptest.ReadCSV(t, buf.String())
	if len(rows) != 2 || len(rows[0]) != 7 || rows[0][5] != "checked" || rows[1][0] != "http://b.test/" || rows[1][5] != "false" ||
		rows[0][6] != "graph" || rows[1][6] != ranking.GraphNoPages {
		t.Errorf("top-1 CSV %q", rows)
	}
	buf.Reset()
	if err := a.Exports.Export(ctx, &buf, exports.ExportRequest{What: exports.ExportTopK, Format: export.JSON, Count: 1}); err != nil ||
		!strings.Contains(buf.String(), `"seed_url": "http://b.test/"`) || !strings.Contains(buf.String(), `"checked": false`) {
		t.Errorf("top-1 JSON %s, %v", buf.String(), err)
	}
}

// TestCommunitySeedOnFetchedHost: the seed of a community is the home page
// of the host its hub page was fetched on (www.h1.test), not of the site's
// name (h1.test), which the crawl never fetched.
func TestCommunitySeedOnFetchedHost(t *testing.T) {
	ctx := context.Background()
	a, p := apptest.EmptyProject(t)
	auths := []string{"http://a1.test/", "http://a2.test/", "http://a3.test/"}
	var pages []sites.Page
	var states []sites.SiteState
	for _, h := range []string{"h1", "h2", "h3"} {
		pg := apptest.Page(t, "http://www."+h+".test/links", auths...)
		pg.Site = h + ".test"
		pages = append(pages, pg)
		states = append(states, sites.SiteState{Site: pg.Site, History: 1})
	}
	if err := p.Store.SaveCrawlBatch(ctx, pages, states); err != nil {
		t.Fatal(err)
	}
	cs, err := a.Communities.Extract(ctx, 1, importance.DefaultCoreOptions())
	if err != nil || len(cs) != 1 {
		t.Fatalf("communities %+v, %v", cs, err)
	}
	if want := "http://www." + cs[0].Site + "/"; cs[0].Seed != want {
		t.Errorf("seed %s of site %s, want %s", cs[0].Seed, cs[0].Site, want)
	}
}
