package cli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"sitesift/app/project"
)

// TestCrawlSettingsFlags: the politeness flags of a crawl are kept in the
// project and used by the next crawl; settings shows and sets them; a crawl
// of the open web without a contact says how to give one.
func TestCrawlSettingsFlags(t *testing.T) {
	var (
		mu     sync.Mutex
		agents []string
	)
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		agents = append(agents, r.Header.Get("User-Agent"))
		mu.Unlock()
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<title>Home</title>")
	}))
	defer web.Close()
	lastAgent := func() string {
		mu.Lock()
		defer mu.Unlock()
		return agents[len(agents)-1]
	}
	dir := filepath.Join(t.TempDir(), "p")

	code, _, stderr := runCLI(t, "crawl", "--project", dir, "--proxy", web.URL, "http://example.org/")
	if code != 1 || !strings.Contains(stderr, "sitesift crawl --contact you@library.org") {
		t.Fatalf("a crawl of example.org without a contact: exit %d, %q", code, stderr)
	}

	code, _, stderr = runCLI(t, "crawl", "--project", dir, "--proxy", web.URL, "--contact", "ana@library.org",
		"--delay", "5ms", "--max-delay", "10s", "--parallel", "2", "http://example.org/")
	if code != 0 {
		t.Fatalf("crawl with a contact: exit %d, %s", code, stderr)
	}
	want := "sitesift/" + project.Version + " (+ana@library.org)"
	if got := lastAgent(); got != want {
		t.Errorf("user agent %q, want %q", got, want)
	}

	code, stdout, stderr := runCLI(t, "settings", "--project", dir, "--format", "json")
	var s project.Settings
	if code != 0 || json.Unmarshal([]byte(stdout), &s) != nil {
		t.Fatalf("settings: exit %d, %q, %q", code, stdout, stderr)
	}
	if s.Contact != "ana@library.org" || s.DelayMS != 5 || s.MaxDelayMS != 10_000 || s.Parallel != 2 || s.EffectiveUserAgent != want {
		t.Errorf("settings after the crawl: %+v", s)
	}

	// The next crawl uses them without flags.
	if code, _, stderr := runCLI(t, "crawl", "--project", dir, "--proxy", web.URL, "http://example.net/"); code != 0 {
		t.Fatalf("crawl with the stored contact: exit %d, %s", code, stderr)
	}
	if got := lastAgent(); got != want {
		t.Errorf("the next crawl's user agent %q, want %q", got, want)
	}

	code, stdout, _ = runCLI(t, "settings", "--project", dir, "--user-agent", "LibBot/1.0", "--delay", "2s")
	if code != 0 || !strings.Contains(stdout, "LibBot/1.0") || !strings.Contains(stdout, "2s") {
		t.Errorf("settings --user-agent --delay: exit %d, %q", code, stdout)
	}
	if code, _, stderr := runCLI(t, "settings", "--project", dir, "--contact", "not a contact"); code != 1 || !strings.Contains(stderr, "contact") {
		t.Errorf("a bad contact: exit %d, %q", code, stderr)
	}
}
