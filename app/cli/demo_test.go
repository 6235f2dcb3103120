package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestDemoPrintsProgressAndFullPath: `sitesift demo` names its project by
// its full path, even given a relative one, and prints how its crawl goes
// and what it fetched while the window is open, rather than nothing. The
// window here reads the crawl's status through the app's HTTP API, as the
// page does, and closes once the crawl ended.
func TestDemoPrintsProgressAndFullPath(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	var out, errb lockedBuffer
	c := CLI{Stdout: &out, Stderr: &errb, Desktop: crawlWindow(t)}
	code := c.Run(context.Background(), []string{"demo", "--project", "demo-proj", "--max-pages", "30", "--delay", "1ms"})
	got := out.String()
	if code != 0 {
		t.Fatalf("exit %d; stdout:\n%s\nstderr:\n%s", code, got, errb.String())
	}
	m := regexp.MustCompile(`(?m)^sitesift: demo project (.+)$`).FindStringSubmatch(got)
	if m == nil {
		t.Fatalf("no line names the project; stdout:\n%s", got)
	}
	if !filepath.IsAbs(m[1]) {
		t.Errorf("the project is named %q, not by its full path", m[1])
	}
	a, errA := os.Stat(m[1])
	b, errB := os.Stat(filepath.Join(dir, "demo-proj"))
	if errA != nil || errB != nil || !os.SameFile(a, b) {
		t.Errorf("the project named %q is not %s (%v, %v)", m[1], filepath.Join(dir, "demo-proj"), errA, errB)
	}
	if !regexp.MustCompile(`(?m)^\[[#.]{30}\] \d+ pages fetched, \d+ failed .* sites .*$`).MatchString(got) {
		t.Errorf("no progress line; stdout:\n%s", got)
	}
	end := regexp.MustCompile(`(?m)^sitesift: demo crawl done: (\d+) pages fetched, \d+ failed, from \d+ sites in [\d.]+s; the project is (.+)$`).FindStringSubmatch(got)
	if end == nil {
		t.Fatalf("no line says what the crawl fetched; stdout:\n%s", got)
	}
	if end[1] != "30" || end[2] != m[1] {
		t.Errorf("the last line says %s pages (want 30) in %q (want %q)", end[1], end[2], m[1])
	}
	if strings.Count(got, "sitesift: demo crawl done") != 1 {
		t.Errorf("the end is said more than once; stdout:\n%s", got)
	}
}

// crawlWindow is a desktop window that reads the crawl's status through the
// app's HTTP API, as the page does, and closes once the crawl ended.
func crawlWindow(t *testing.T) func(string, http.Handler) error {
	return func(_ string, h http.Handler) error {
		waitDemo(t, "the demo crawl's end, read in its window", func() bool {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://wails/api/crawl", nil))
			var env struct {
				Data struct{ State string } `json:"data"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
				t.Errorf("GET /api/crawl: %v: %s", err, rec.Body.String())
				return true
			}
			if env.Data.State == "" {
				t.Errorf("GET /api/crawl answered %d without a state: %s", rec.Code, rec.Body.String())
				return true
			}
			// Idle is the crawl started and not yet running.
			s := env.Data.State
			return s != "idle" && s != "running" && s != "paused" && s != "stopping"
		}, func() string { return "" })
		return nil
	}
}

// waitDemo polls cond until it holds. It sets no time of its own, which a
// busy machine could outrun: a crawl that never ends is reported, with
// what report says, a few seconds before the test binary's -timeout.
func waitDemo(t *testing.T, what string, cond func() bool, report func() string) {
	t.Helper()
	end, bounded := t.Deadline()
	for !cond() {
		if bounded && time.Until(end) < 10*time.Second {
			t.Fatalf("still waiting for %s as the test's time runs out%s", what, report())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestDemoKeepsItsLogOffTheTerminal: `sitesift demo` prints its project,
// where its log goes, that its window opened or the URL to open, and how
// its crawl goes; what the crawl and the server log (as main.go sets the
// logger up, warnings and worse on stderr) goes to that file, not to the
// terminal. The first run crawls the whole demo web; the second resumes
// its frontier, where only the links to https sites are left, which the
// demo web's proxy refuses, each fetch a warning.
func TestDemoKeepsItsLogOffTheTerminal(t *testing.T) {
	proj := filepath.Join(t.TempDir(), "demo")
	args := []string{"demo", "--project", proj, "--addr", "127.0.0.1:0", "--delay", "1ms"}
	logger := func(w io.Writer) *slog.Logger {
		return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	logLine := regexp.MustCompile(`(?m)^sitesift: the crawl's messages go to (.+)$`)

	var out1, err1 lockedBuffer
	c := CLI{Stdout: &out1, Stderr: &err1, Logger: logger(&err1), Desktop: crawlWindow(t)}
	if code := c.Run(context.Background(), args); code != 0 {
		t.Fatalf("first run: exit %d; stdout:\n%s\nstderr:\n%s", code, out1.String(), err1.String())
	}
	if !strings.Contains(out1.String(), "sitesift: the demo is open in its window; closing the window ends it\n") {
		t.Errorf("the first run does not say its window opened; stdout:\n%s", out1.String())
	}

	var out, errb lockedBuffer
	c = CLI{Stdout: &out, Stderr: &errb, Logger: logger(&errb),
		Desktop: func(string, http.Handler) error { return fmt.Errorf("%w: no display", ErrNoDesktop) }}
	open := startServe(t, c, &out, &errb, args...)
	u, err := url.Parse(open)
	if err != nil || u.Scheme != "http" || u.Fragment != "/crawl" {
		t.Fatalf("the URL to open is %q", open)
	}
	waitDemo(t, "the second run's crawl to end", func() bool { return strings.Contains(out.String(), "sitesift: demo crawl done: ") },
		func() string { return fmt.Sprintf("; stdout:\n%s\nstderr:\n%s", out.String(), errb.String()) })
	// The second run says it goes on from the first's crawl, which the first could not.
	earlier := regexp.MustCompile(`(?m)^sitesift: the project holds an earlier run's crawl \(\d+ pages fetched, \d+ failed\): `)
	if earlier.MatchString(out1.String()) || !earlier.MatchString(out.String()) {
		t.Errorf("the earlier run's crawl is named in run 1 %v, run 2 %v; want run 2 only; run 2's stdout:\n%s",
			earlier.MatchString(out1.String()), earlier.MatchString(out.String()), out.String())
	}
	resp, err := http.Get(u.Scheme + "://" + u.Host + "/api/crawl")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET /api/crawl of the printed URL: %s", resp.Status)
	}

	for i, o := range []*lockedBuffer{&out1, &err1, &out, &errb} {
		if strings.Contains(o.String(), "level=") {
			t.Errorf("log lines on the terminal (%s of run %d):\n%s", []string{"stdout", "stderr"}[i%2], i/2+1, o.String())
		}
	}
	var logs []string
	for _, o := range []string{out1.String(), out.String()} {
		m := logLine.FindStringSubmatch(o)
		if m == nil {
			t.Fatalf("no line says where the log goes; stdout:\n%s", o)
		}
		logs = append(logs, m[1])
	}
	if logs[0] != logs[1] || logs[0] != filepath.Join(proj, "demo.log") {
		t.Errorf("the log is %q, then %q; want %s both times", logs[0], logs[1], filepath.Join(proj, "demo.log"))
	}
	kept, err := os.ReadFile(logs[1])
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^time=\S+ level=WARN msg="fetch failed" component=crawl url=https://`).Match(kept) {
		t.Errorf("the log does not keep the refused https fetches:\n%s", kept)
	}
}
