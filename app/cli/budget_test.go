package cli

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestCrawlEndLineCountsFailuresApart: the end line says how many pages
// were fetched fine and how many failed, and which cap ended the crawl.
func TestCrawlEndLineCountsFailuresApart(t *testing.T) {
	// A home page linking to /0 … /99, of which one in four is there.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		var i int
		switch _, err := fmt.Sscanf(r.URL.Path, "/%d", &i); {
		case r.URL.Path == "/":
			var b strings.Builder
			for i := range 100 {
				fmt.Fprintf(&b, `<a href="/%d">%d</a>`, i, i)
			}
			fmt.Fprintf(w, "<html><head><title>Home</title></head><body>%s</body></html>", b.String())
		case err == nil && i%4 == 3:
			fmt.Fprintf(w, "<html><head><title>Page %d</title></head><body>page</body></html>", i)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--max-pages", "4"}, "(the failure cap was reached): 2 pages fetched, 4 failed,"},
		{[]string{"--max-pages", "3", "--max-failures", "50"}, "(the page cap was reached): 3 pages fetched, 6 failed,"},
	} {
		args := append([]string{"crawl", "--project", t.TempDir(), "--delay", "0s", "--parallel", "1", "--max-pages-per-site", "1000",
			"--no-warc"}, tc.args...)
		code, out, stderr := runCLI(t, append(args, srv.URL+"/")...)
		if code != 0 || !strings.Contains(out, tc.want) {
			t.Errorf("%v: exit %d, want a line with %q\nstdout %s\nstderr %s", tc.args, code, tc.want, out, stderr)
		}
	}
}
