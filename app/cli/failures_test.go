package cli

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sitesift/app/apptest"
)

// TestCrawlOfDeadSeedsFails: a crawl where no seed could be fetched exits
// 1, says so, and prints the failures by class.
func TestCrawlOfDeadSeedsFails(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() + "/"
	ln.Close()
	code, out, stderr := runCLI(t, "crawl", "--project", t.TempDir(), "--delay", "0s", closed)
	if code != 1 || !strings.Contains(stderr, "no seed could be fetched (connect 1)") ||
		!strings.Contains(out, "failed fetches by class: connect 1") || !strings.Contains(out, "(no seed could be fetched)") {
		t.Errorf("crawl of a closed port: exit %d\nstdout %s\nstderr %s", code, out, stderr)
	}
}

// TestSitesCommand: the sites listing shows and filters crawl statuses, and
// reports on one site; seeds by importance leave failed sites out unless
// asked.
func TestSitesCommand(t *testing.T) {
	dir := apptest.FailuresProject(t)
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"sites", "--project", dir, "--format", "csv"}, []string{
			"site,crawl_status,pages,errors,opic,pagerank,in_sites,out_sites",
			"dead.test,dead,0,1,", "broken.test,errors-only,0,1,", "closed.test,robots-closed,0,0,", "ok.test,ok,1,0,"}},
		{[]string{"sites", "--project", dir, "--status", "dead"}, []string{"dead.test", "1 "}},
		{[]string{"sites", "--project", dir, "broken.test"}, []string{"broken.test: errors-only", "pages fetched fine: 0",
			"failed (http-5xx): 1", "refused by robots.txt: 0"}},
		{[]string{"seeds", "--project", dir, "--method", "importance", "--count", "5"}, []string{"http://ok.test/\n"}},
		{[]string{"seeds", "--project", dir, "--method", "importance", "--count", "5", "--include-failed"},
			[]string{"http://dead.test/\nhttp://broken.test/\nhttp://closed.test/\nhttp://ok.test/\n"}},
	} {
		code, out, stderr := runCLI(t, tc.args...)
		if code != 0 {
			t.Errorf("%v: exit %d: %s", tc.args, code, stderr)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: output lacks %q:\n%s", tc.args, w, out)
			}
		}
	}
	if _, out, _ := runCLI(t, "seeds", "--project", dir, "--method", "importance", "--count", "5"); out != "http://ok.test/\n" {
		t.Errorf("seeds by importance: %q, want ok.test alone", out)
	}
	if code, _, stderr := runCLI(t, "sites", "--project", dir, "--status", "asleep"); code != 1 || !strings.Contains(stderr, "unknown crawl status") {
		t.Errorf("an unknown status: exit %d, %s", code, stderr)
	}
}

// TestCrawlSaysItContinues: a second crawl of a project says what it
// continues before it starts.
func TestCrawlSaysItContinues(t *testing.T) {
	seeds, proxy := apptest.DemoWeb(t)
	dir := t.TempDir()
	crawl := func(extra ...string) string {
		t.Helper()
		args := append([]string{"crawl", "--project", dir, "--proxy", proxy, "--delay", "0s", "--max-pages", "10", seeds[0]}, extra...)
		code, out, stderr := runCLI(t, args...)
		if code != 0 {
			t.Fatalf("crawl: exit %d: %s", code, stderr)
		}
		return out
	}
	if out := crawl(); strings.Contains(out, "continues") {
		t.Errorf("a first crawl says it continues: %s", out)
	}
	if out := crawl(); !strings.Contains(out, "sitesift: this crawl continues the crawl of ") || !strings.Contains(out, " waiting") {
		t.Errorf("a second crawl does not say what it continues: %s", out)
	}
	if out := crawl("--fresh-frontier"); !strings.Contains(out, "(fresh frontier: from these seeds only)") {
		t.Errorf("a fresh-frontier crawl: %s", out)
	}
}

// TestSiteRuleCommands: a new project names sites by host-www, so the demo
// web's www. host and its bare alias are one site; any spelling of a site
// finds it; the rule of a project that has sites cannot change; an import
// chooses its project's rule.
func TestSiteRuleCommands(t *testing.T) {
	dir := apptest.CrawledProject(t)
	code, out, stderr := runCLI(t, "sites", "--project", dir, "--format", "csv")
	if code != 0 || strings.Contains(out, "\nwww.") || !strings.Contains(out, "\nlyon-gazette.test,") {
		t.Errorf("sites of a host-www project: exit %d %s\n%s", code, stderr, out)
	}
	if code, _, stderr := runCLI(t, "librarians", "add", "--project", dir, "rule-test"); code != 0 {
		t.Fatalf("librarians add: %d %s", code, stderr)
	}
	code, out, stderr = runCLI(t, "rate", "--project", dir, "--librarian", "rule-test", "http://WWW.Lyon-Gazette.test/about.html", "3")
	if code != 0 || !strings.Contains(out, "rule-test rated lyon-gazette.test 3") {
		t.Errorf("rating a URL: exit %d %s %s", code, out, stderr)
	}
	code, _, stderr = runCLI(t, "settings", "--project", dir, "--site-rule", "host")
	if code != 1 || !strings.Contains(stderr, "chosen when a project is created") {
		t.Errorf("changing the rule of a crawled project: exit %d %s", code, stderr)
	}
	edges := filepath.Join(t.TempDir(), "g.txt")
	os.WriteFile(edges, []byte("news.bbc.co.uk www.bbc.co.uk\nhttp://sport.bbc.co.uk/x www.gouv.fr\n"), 0o644)
	imp := filepath.Join(t.TempDir(), "imported")
	if code, _, stderr := runCLI(t, "import", "--project", imp, "--edges", edges, "--site-rule", "domain"); code != 0 {
		t.Fatalf("import: %s", stderr)
	}
	if _, out, _ := runCLI(t, "sites", "--project", imp, "--format", "csv"); strings.Count(out, "\n") != 3 ||
		!strings.Contains(out, "\nbbc.co.uk,") || !strings.Contains(out, "\nwww.gouv.fr,") {
		t.Errorf("sites of a domain-rule import: %s", out)
	}
	if _, out, _ := runCLI(t, "settings", "--project", imp); !strings.Contains(out, "site rule   domain") {
		t.Errorf("settings of the import: %s", out)
	}
}

// TestCrawlScope: --scope host keeps a crawl on its seed's host, and the
// links it leaves out are counted.
func TestCrawlScope(t *testing.T) {
	seeds, proxy := apptest.DemoWeb(t)
	dir := t.TempDir()
	code, out, stderr := runCLI(t, "crawl", "--project", dir, "--proxy", proxy, "--delay", "0s", "--max-pages", "60",
		"--scope", "host", "--exclude", "/about", seeds[0])
	if code != 0 || !strings.Contains(out, "URLs left out: out-of-scope ") {
		t.Fatalf("crawl: exit %d\n%s\n%s", code, out, stderr)
	}
	_, out, _ = runCLI(t, "sites", "--project", dir, "--status", "ok", "--format", "csv")
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != 2 {
		t.Errorf("sites with pages after a host-scoped crawl of %s:\n%s", seeds[0], out)
	}
	_, out, _ = runCLI(t, "sites", "--project", dir, "--status", "not-fetched", "--format", "csv", "--limit", "1")
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) == 2 {
		site := strings.Split(lines[1], ",")[0]
		_, report, _ := runCLI(t, "sites", "--project", dir, site)
		if !strings.Contains(report, "left out of scope: ") || strings.Contains(report, "left out of scope: 0\n") {
			t.Errorf("report of %s, out of scope:\n%s", site, report)
		}
	} else {
		t.Errorf("no site left unfetched by a host-scoped crawl:\n%s", out)
	}
	for _, bad := range [][]string{{"--scope", "planet"}, {"--include", "("}, {"--max-hops", "-1"}} {
		args := append([]string{"crawl", "--project", t.TempDir(), "--proxy", proxy, seeds[0]}, bad...)
		if code, _, stderr := runCLI(t, args...); code == 0 || !strings.Contains(stderr, "crawl") {
			t.Errorf("%v: exit %d, %s", bad, code, stderr)
		}
	}
}

// TestCrawlWithoutContactLeavesNothing: a crawl of the open web refused for
// lacking a contact does not create its project.
func TestCrawlWithoutContactLeavesNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "p")
	code, _, stderr := runCLI(t, "crawl", "--project", dir, "https://www.example.org/")
	if code != 1 || !strings.Contains(stderr, "needs an operator contact") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the refused crawl left %s: %v", dir, err)
	}
}
