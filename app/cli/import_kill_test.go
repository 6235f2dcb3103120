package cli

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"sitesift/app"
	"sitesift/app/imports"
	"sitesift/app/project"
	"sitesift/sites"
	"sitesift/sites/crawllog"
)

// An archive import killed while it ranked left the graph without its
// importance, and `check` said ok while `rank` listed every site at 0. Now
// `check` names the stale importance and exits 1; `rank` beside the process
// that holds the project refuses, saying what to run; and `rank` on the
// free project computes the ranking first, as a clean import's.
func TestCLIImportStoppedWhileRanking(t *testing.T) {
	at := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	pg := func(u, via string) sites.Page {
		depth := 0
		if via != "" {
			depth = 1 // a link (hop L) from via
		}
		return sites.Page{URL: u, Via: via, Depth: depth, Status: 200, ContentType: "text/html", FetchedAt: at, Size: 100}
	}
	log := filepath.Join(t.TempDir(), "crawl.log")
	lines := []string{crawllog.Line(pg("http://a.test/", ""), at), crawllog.Line(pg("http://b.test/", "http://a.test/"), at),
		crawllog.Line(pg("http://c.test/", "http://b.test/"), at), crawllog.Line(pg("http://a.test/x", "http://c.test/"), at)}
	if err := os.WriteFile(log, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	clean := filepath.Join(t.TempDir(), "clean")
	if code, _, errs := runCLI(t, "import", "--project", clean, "--crawl-log", log); code != 0 {
		t.Fatalf("clean import: exit %d: %s", code, errs)
	}
	code, want, errs := runCLI(t, "rank", "--project", clean, "--format", "csv")
	if code != 0 {
		t.Fatalf("rank of the clean import: exit %d: %s", code, errs)
	}

	// stoppedImport imports log into a new project and stops where the
	// import says it ranks, as a kill would.
	stoppedImport := func() string {
		dir := filepath.Join(t.TempDir(), "p")
		p, err := project.Open(dir, true)
		if err != nil {
			t.Fatal(err)
		}
		a := app.New(app.Options{Project: p})
		stopped := make(chan struct{})
		go func() {
			defer close(stopped)
			a.Imports.ImportArchives(context.Background(), imports.ArchiveImportRequest{CrawlLog: []string{log}}, func(pr imports.ImportProgress) {
				if pr.Phase == "rank" {
					runtime.Goexit()
				}
			})
		}()
		<-stopped
		a.Close()
		p.Close()
		return dir
	}
	dir := stoppedImport()

	code, out, errs := runCLI(t, "check", "--project", dir)
	if code != 1 || !strings.Contains(errs, "importance stale") || !strings.Contains(errs, "sitesift rank --project "+dir) || strings.Contains(out, "ok") {
		t.Errorf("check: exit %d, stdout %q, stderr %q; want 1 naming the stale importance and what to run", code, out, errs)
	}
	// Beside a process that holds the project, nothing computes it.
	holder, err := project.Open(dir, false, project.HeldBy("sitesift import"))
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"rank"}, {"seeds", "--method", "importance", "--count", "2"}, {"export", "--what", "top-k"}} {
		code, out, errs := runCLI(t, append(args, "--project", dir)...)
		if code != 1 || out != "" || !strings.Contains(errs, "importance stale") || !strings.Contains(errs, "sitesift import (pid") ||
			!strings.Contains(errs, "sitesift rank --project "+dir) {
			t.Errorf("%s beside the holder: exit %d, stdout %q, stderr %q; want a refusal saying what to run", args[0], code, out, errs)
		}
	}
	holder.Close()

	code, got, errs := runCLI(t, "rank", "--project", dir, "--format", "csv")
	if code != 0 || !strings.Contains(errs, "computing PageRank and OPIC") {
		t.Errorf("rank: exit %d, stderr %q; want the ranking finished first, saying so", code, errs)
	}
	if got != want {
		t.Errorf("rank once finished:\n%s\nwant, as the clean import:\n%s", got, want)
	}
	if code, out, errs := runCLI(t, "check", "--project", dir); code != 0 || !strings.Contains(out, "ok") {
		t.Errorf("check once the ranking is finished: exit %d, %q %q", code, out, errs)
	}

	// The same import run again finds its file imported and ranks: once,
	// not first at the open.
	dir = stoppedImport()
	code, out, errs = runCLI(t, "import", "--project", dir, "--crawl-log", log)
	if code != 0 || !strings.Contains(out, "imported before") || strings.Contains(errs, "computing PageRank and OPIC") {
		t.Errorf("the import again: exit %d, stdout %q, stderr %q; want its file skipped and one ranking", code, out, errs)
	}
	if code, got, errs := runCLI(t, "rank", "--project", dir, "--format", "csv"); code != 0 || got != want {
		t.Errorf("rank after the import again: exit %d, %s\n%s\nwant\n%s", code, errs, got, want)
	}
}
