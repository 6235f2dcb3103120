package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"sitesift/sites"
)

// TestSiteCrawlStatus: a failed fetch is not a page, and each site's crawl
// status follows from what its fetches got.
func TestSiteCrawlStatus(t *testing.T) {
	s := openTest(t)
	ctx := context.Background()
	at := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	pg := func(u string, status int, class string, links ...string) sites.Page {
		site, err := sites.Of(u)
		if err != nil {
			t.Fatal(err)
		}
		p := sites.Page{URL: u, Site: site, Status: status, ErrClass: class, Links: links, FetchedAt: at}
		if class != "" {
			p.Err = "failed: " + class
		}
		return p
	}
	pages := []sites.Page{
		pg("http://ok.test/", 200, "", "http://linked.test/"),
		pg("http://ok.test/gone", 404, sites.ErrHTTP4xx),
		pg("http://dead.test/", 0, sites.ErrDNS),
		pg("http://dead.test/other", 0, sites.ErrTimeout),
		pg("http://closed.test/", 0, sites.ErrRobots),
		pg("http://broken.test/", 503, sites.ErrHTTP5xx),
		pg("http://broken.test/x", 0, sites.ErrConnect),
		pg("http://halfclosed.test/", 0, sites.ErrRobots),
		pg("http://halfclosed.test/x", 0, sites.ErrConnect),
		pg("http://slow.test/", 0, sites.ErrSlow),
	}
	if err := s.SaveCrawlBatch(ctx, pages, nil); err != nil {
		t.Fatal(err)
	}
	_, rows, err := s.ListSites(ctx, SiteQuery{Sort: "site"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range rows {
		got[r.Site] = fmt.Sprintf("%s %d/%d", r.CrawlStatus, r.Pages, r.Errors)
	}
	want := map[string]string{
		"ok.test":         "ok 1/1",
		"dead.test":       "dead 0/2",
		"closed.test":     "robots-closed 0/0",
		"broken.test":     "errors-only 0/2",
		"halfclosed.test": "dead 0/1",
		"linked.test":     "not-fetched 0/0",
		"slow.test":       "slow 0/0",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("status pages/errors by site:\n got %v\nwant %v", got, want)
	}
	if n, _, err := s.Stats(ctx); err != nil || n != 1 {
		t.Errorf("Stats counts %d pages (%v), want the 1 fetched fine", n, err)
	}

	names := func(q SiteQuery) string {
		t.Helper()
		total, rows, err := s.ListSites(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range rows {
			out = append(out, r.Site)
		}
		return fmt.Sprint(total, out)
	}
	if got := names(SiteQuery{Sort: "site", Status: sites.SiteDead}); got != "2 [dead.test halfclosed.test]" {
		t.Errorf("status=dead: %s", got)
	}
	if got := names(SiteQuery{Sort: "site", Status: sites.SiteSlow}); got != "1 [slow.test]" {
		t.Errorf("status=slow: %s", got)
	}
	// A slow site is not a failed one: it may be worth a crawl with a
	// higher cap.
	if got := names(SiteQuery{Sort: "site", NoFailed: true}); got != "3 [linked.test ok.test slow.test]" {
		t.Errorf("no failed sites: %s", got)
	}
	if got := names(SiteQuery{Sort: "site", NoFailed: true, Status: sites.SiteOK, Limit: 1}); got != "1 [ok.test]" {
		t.Errorf("ok and not failed: %s", got)
	}
	if _, _, err := s.ListSites(ctx, SiteQuery{Status: "sleepy"}); err == nil {
		t.Error("an unknown status was accepted")
	}

	d, err := s.Site(ctx, "broken.test", "")
	if err != nil {
		t.Fatal(err)
	}
	if d.CrawlStatus != sites.SiteErrorsOnly || d.Report.PagesOK != 0 || d.Report.RobotsBlocked != 0 ||
		fmt.Sprint(d.Report.ErrorsByClass) != "map[connect:1 http-5xx:1]" {
		t.Errorf("report of broken.test: %s %+v", d.CrawlStatus, d.Report)
	}
	if d.Pages[0].ErrorClass == "" {
		t.Errorf("page rows lack their class: %+v", d.Pages)
	}
	byClass, err := s.Fetches(ctx, at)
	if err != nil || fmt.Sprint(byClass) != "map[:1 connect:2 dns:1 http-4xx:1 http-5xx:1 robots:2 slow:1 timeout:1]" {
		t.Errorf("fetches by class: %v, %v", byClass, err)
	}
	if later, err := s.Fetches(ctx, at.Add(time.Second)); err != nil || len(later) != 0 {
		t.Errorf("fetches after the batch: %v, %v", later, err)
	}
}

// TestMigrationClassifiesOldPages: pages of a database from before error
// classes get the class their status and error imply, so an old project's
// dead and erroring sites are told apart at once.
func TestMigrationClassifiesOldPages(t *testing.T) {
	path := filepath.Join(t.TempDir(), "project.db")
	db, err := sql.Open("sqlite", path+"?"+dsnParams)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms[:4] {
		if _, err := db.Exec(m.sql); err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
	}
	for _, q := range []string{
		`PRAGMA user_version = 4`,
		`INSERT INTO sites (id, name, first_seen) VALUES (1, 'a.test', '2026-01-01T00:00:00.000000000Z'),
			(2, 'gone.test', '2026-01-01T00:00:00.000000000Z')`,
		`INSERT INTO pages (url, site_id, status, err) VALUES ('http://a.test/', 1, 200, ''),
			('http://a.test/404', 1, 404, ''), ('http://a.test/500', 1, 500, ''),
			('http://a.test/cut', 1, 200, 'unexpected EOF'), ('http://gone.test/', 2, 0, 'no such host')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got := map[string]string{}
	err = s.ForEachPage(context.Background(), func(p sites.Page) error { got[p.URL] = p.ErrClass; return nil })
	want := map[string]string{"http://a.test/": "", "http://a.test/404": sites.ErrHTTP4xx, "http://a.test/500": sites.ErrHTTP5xx,
		"http://a.test/cut": sites.ErrIncomplete, "http://gone.test/": sites.ErrOther}
	if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("classes after the migration: %v, %v; want %v", got, err, want)
	}
	if d, err := s.Site(context.Background(), "gone.test", ""); err != nil || d.CrawlStatus != sites.SiteDead {
		t.Errorf("gone.test: %q, %v; want dead", d.CrawlStatus, err)
	}
}

func TestSettings(t *testing.T) {
	ctx, s := context.Background(), openTest(t)
	t.Parallel()
	if got, err := s.Settings(ctx); err != nil || fmt.Sprint(got) != "map[site_rule:host-www]" {
		t.Fatalf("settings of a new project: %v, %v; want its site rule alone", got, err)
	}
	if err := s.SetSettings(ctx, map[string]string{"contact": "a@b.org", "delay_ms": "500"}); err != nil {
		t.Fatal(err)
	}
	// A second call changes its keys only; an empty value removes one.
	if err := s.SetSettings(ctx, map[string]string{"delay_ms": "", "parallel": "2", "contact": "c@d.org"}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Settings(ctx)
	if err != nil || fmt.Sprint(got) != "map[contact:c@d.org parallel:2 site_rule:host-www]" {
		t.Errorf("settings %v, %v; want contact c@d.org and parallel 2", got, err)
	}
}

// TestSiteRule: a new project takes the default rule and may choose
// another while it has no site; its pages and links must follow it; a
// project from before rules keeps the host rule.
func TestSiteRule(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "project.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if s.SiteRule() != sites.DefaultRule {
		t.Errorf("a new project's rule: %q", s.SiteRule())
	}
	if err := s.SetSiteRule(ctx, sites.RuleDomain); err != nil {
		t.Fatal(err)
	}
	p := sites.Page{URL: "http://news.bbc.co.uk/", Site: "bbc.co.uk", Status: 200, Links: []string{"http://www.bbc.co.uk/x"}}
	if err := s.SaveCrawlBatch(ctx, []sites.Page{p}, nil); err != nil {
		t.Fatal(err)
	}
	if _, rows, err := s.ListSites(ctx, SiteQuery{Sort: "site"}); err != nil || len(rows) != 1 || rows[0].Site != "bbc.co.uk" {
		t.Errorf("sites under the domain rule: %+v, %v", rows, err)
	}
	p.Site = "news.bbc.co.uk"
	if err := s.SaveCrawlBatch(ctx, []sites.Page{p}, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("a page whose site breaks the rule: %v", err)
	}
	if err := s.SetSiteRule(ctx, sites.RuleHost); !errors.Is(err, ErrInvalid) || s.SiteRule() != sites.RuleDomain {
		t.Errorf("changing the rule of a project with sites: %v, rule %q", err, s.SiteRule())
	}
	s.Close()
	if s, err = Open(path); err != nil || s.SiteRule() != sites.RuleDomain {
		t.Fatalf("reopened: %q, %v", s.SiteRule(), err)
	}
	s.Close()

	old := filepath.Join(t.TempDir(), "project.db")
	db, err := sql.Open("sqlite", old+"?"+dsnParams)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms[:6] {
		if _, err := db.Exec(m.sql); err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
	}
	for _, q := range []string{`PRAGMA user_version = 6`,
		`INSERT INTO sites (name, first_seen) VALUES ('www.a.test', '2026-01-01T00:00:00.000000000Z')`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	if s, err = Open(old); err != nil || s.SiteRule() != sites.RuleHost {
		t.Fatalf("a project from before rules: %q, %v; want host", s.SiteRule(), err)
	}
	s.Close()
}
