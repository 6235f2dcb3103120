package imports_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"sitesift/app"
	"sitesift/app/apptest"
	"sitesift/app/exports"
	"sitesift/app/fault"
	"sitesift/app/imports"
	"sitesift/app/project"
	"sitesift/app/ranking"
	"sitesift/internal/refdata"
	"sitesift/sites"
	"sitesift/sites/crawllog"
)

// importKillCases are an import of each kind, to be stopped in its ranking
// step; before is imported whole first, req is the import stopped.
func importKillCases(t *testing.T) []struct {
	name        string
	before, req imports.ArchiveImportRequest
} {
	d := t.TempDir()
	at := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	pg := func(u, via string) sites.Page {
		depth := 0
		if via != "" {
			depth = 1 // a link (hop L) from via
		}
		return sites.Page{URL: u, Via: via, Depth: depth, Status: 200, ContentType: "text/html", FetchedAt: at, Size: 100}
	}
	log := filepath.Join(d, "crawl.log")
	lines := []string{crawllog.Line(pg("http://a.test/", ""), at), crawllog.Line(pg("http://b.test/", "http://a.test/"), at),
		crawllog.Line(pg("http://c.test/", "http://b.test/"), at), crawllog.Line(pg("http://a.test/x", "http://c.test/"), at)}
	if err := os.WriteFile(log, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	v := apptest.WriteGz(t, filepath.Join(d, "v.txt.gz"), "0\tcom.example", "1\tfr.bnf", "2\tfr.gouv.culture", "3\tfr.lemonde")
	e := apptest.WriteGz(t, filepath.Join(d, "e.txt.gz"), "0\t1", "1\t2", "2\t3", "3\t1", "1\t3")
	warc := imports.ArchiveImportRequest{WARC: []string{refdata.Shared(t, "warc", "iana.warc.gz")}}
	cdx := imports.ArchiveImportRequest{CDX: []string{refdata.Shared(t, "warc", "iana.cdx")}}
	return []struct {
		name        string
		before, req imports.ArchiveImportRequest
	}{
		{"warc", imports.ArchiveImportRequest{}, warc},
		{"cdx", imports.ArchiveImportRequest{}, cdx},
		{"crawl-log", imports.ArchiveImportRequest{}, imports.ArchiveImportRequest{CrawlLog: []string{log}}},
		{"cc-slice", imports.ArchiveImportRequest{}, imports.ArchiveImportRequest{CCVertices: []string{v}, CCEdges: []string{e}, TLDs: []string{"fr"}}},
		// The project had its importance: OPIC is not 0, yet it is the
		// importance of the graph before the second file.
		{"crawl-log after cc-slice", imports.ArchiveImportRequest{CCVertices: []string{v}, CCEdges: []string{e}, TLDs: []string{"fr"}},
			imports.ArchiveImportRequest{CrawlLog: []string{log}}},
	}
}

// rankText is the project's ranking as `sitesift rank --format csv` writes it.
func rankText(t *testing.T, a *app.App) string {
	t.Helper()
	rows, err := a.Ranking.Rank(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := exports.WriteRank(&b, rows, "csv", false); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// An archive import commits each file, then ranks the whole graph. Killed
// while it ranked, it left the graph without its importance: OPIC 0 for
// every site, `check` saying ok, `rank`, `seeds` and the exports listing
// every site at 0 in name order. The project now knows its importance is
// stale: Check reports it; the rankings, seeds and exports refuse; and
// RepairImportance, which opening the project runs, computes it, giving the
// ranking of an import never stopped.
func TestImportStoppedWhileRanking(t *testing.T) {
	ctx := context.Background()
	for _, tc := range importKillCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			clean := apptest.EmptyStoreApp(t)
			if _, err := clean.Ranking.SetSettings(ctx, project.SettingsUpdate{SiteRule: app.Set("host")}); err != nil {
				t.Fatal(err)
			}
			for _, req := range []imports.ArchiveImportRequest{tc.before, tc.req} {
				if req.WARC == nil && req.CDX == nil && req.CrawlLog == nil && req.CCVertices == nil {
					continue
				}
				if _, err := clean.Imports.ImportArchives(ctx, req, nil); err != nil {
					t.Fatal(err)
				}
			}
			want := rankText(t, clean.App)

			dir := filepath.Join(t.TempDir(), "p")
			p, err := project.Open(dir, true)
			if err != nil {
				t.Fatal(err)
			}
			a := app.New(app.Options{Project: p})
			if _, err := a.Ranking.SetSettings(ctx, project.SettingsUpdate{SiteRule: app.Set("host")}); err != nil {
				t.Fatal(err)
			}
			if tc.before.CCVertices != nil {
				if _, err := a.Imports.ImportArchives(ctx, tc.before, nil); err != nil {
					t.Fatal(err)
				}
			}
			// The process stops where the import says it ranks, as a kill
			// would: nothing after that point runs.
			rankingSeen := false
			stopped := make(chan struct{})
			go func() {
				defer close(stopped)
				a.Imports.ImportArchives(ctx, tc.req, func(pr imports.ImportProgress) {
					if pr.Phase == "rank" {
						rankingSeen = true
						runtime.Goexit()
					}
				})
			}()
			<-stopped
			if !rankingSeen {
				t.Fatal("the import never said it was ranking")
			}
			a.Close()
			p.Close()

			p, err = project.Open(dir, false)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			a = app.New(app.Options{Project: p})
			defer a.Close()
			r, err := a.Check(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Problems) != 1 || !strings.Contains(r.Problems[0], "importance stale") {
				t.Errorf("check after the stop: problems %q; want the importance stale", r.Problems)
			}
			refused := map[string]error{}
			_, refused["rank"] = a.Ranking.Rank(ctx, 0)
			_, refused["rank binary"] = a.Ranking.RankWeighted(ctx, 0, ranking.WeightingBinary, false)
			_, refused["seeds"] = a.Exports.Seeds(ctx, 5, true)
			refused["export top-k"] = a.Exports.Export(ctx, io.Discard, exports.ExportRequest{What: exports.ExportTopK})
			for what, err := range refused {
				if fault.KindOf(err) != fault.KindConflict || !strings.Contains(fmt.Sprint(err), "sitesift rank --project") {
					t.Errorf("%s after the stop: %v; want a conflict saying what to run", what, err)
				}
			}

			repaired, err := a.Ranking.RepairImportance(ctx)
			if err != nil || !repaired {
				t.Fatalf("RepairImportance = %v, %v; want the ranking finished", repaired, err)
			}
			if got := rankText(t, a); got != want {
				t.Errorf("ranking once finished:\n%s\nwant, as an import never stopped:\n%s", got, want)
			}
			if r, err := a.Check(ctx); err != nil || len(r.Problems) != 0 {
				t.Errorf("check once the ranking is finished: %q, %v", r.Problems, err)
			}
			if again, err := a.Ranking.RepairImportance(ctx); err != nil || again {
				t.Errorf("a second RepairImportance = %v, %v; want nothing to do", again, err)
			}
		})
	}
}
