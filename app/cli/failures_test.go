package cli

import (
	"net"
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
