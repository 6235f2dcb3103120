package cli

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
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
	window := func(_ string, h http.Handler) error {
		for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://wails/api/crawl", nil))
			var env struct {
				Data struct{ State string } `json:"data"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
				t.Errorf("GET /api/crawl: %v: %s", err, rec.Body.String())
				return nil
			}
			if env.Data.State == "" {
				t.Errorf("GET /api/crawl answered %d without a state: %s", rec.Code, rec.Body.String())
				return nil
			}
			// Idle is the crawl started and not yet running.
			if s := env.Data.State; s != "idle" && s != "running" && s != "paused" && s != "stopping" {
				return nil
			}
		}
		t.Error("the demo crawl did not end within 60 s")
		return nil
	}
	c := CLI{Stdout: &out, Stderr: &errb, Desktop: window}
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
