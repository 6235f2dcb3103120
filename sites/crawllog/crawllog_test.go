package crawllog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sitesift/sites"
)

func TestLine(t *testing.T) {
	at := time.Date(2026, 11, 24, 10, 0, 1, 234e6, time.UTC)
	fetched := time.Date(2026, 11, 24, 10, 0, 1, 234e6, time.UTC)
	for _, tc := range []struct {
		name string
		p    sites.Page
		want string
	}{
		{"a page", sites.Page{URL: "http://a.test/page", Status: 200, Size: 10432, Depth: 1, Via: "http://a.test/",
			ContentType: "text/html", FetchedAt: fetched, Took: 134 * time.Millisecond},
			"2026-11-24T10:00:01.234Z   200      10432 http://a.test/page L http://a.test/ text/html #000 20261124100001100+134 - - -"},
		{"a seed whose host does not resolve", sites.Page{URL: "http://gone.test/", ErrClass: sites.ErrDNS, FetchedAt: fetched},
			"2026-11-24T10:00:01.234Z    -1          - http://gone.test/ - - - #000 20261124100001234+0 - - err=dns"},
		{"refused by robots.txt, deep", sites.Page{URL: "http://a.test/x y", ErrClass: sites.ErrRobots, Depth: 60, Via: "http://a.test/",
			FetchedAt: fetched}, "2026-11-24T10:00:01.234Z -9998          - http://a.test/x%20y " + strings.Repeat("L", 50) +
			" http://a.test/ - #000 20261124100001234+0 - - err=robots"},
		{"an error answer", sites.Page{URL: "http://a.test/gone", Status: 404, Size: 9, ErrClass: sites.ErrHTTP4xx, ContentType: "text/html",
			FetchedAt: fetched, Took: time.Second}, "2026-11-24T10:00:01.234Z   404          9 http://a.test/gone - - text/html #000 20261124100000234+1000 - - err=http-4xx"},
		{"another failure", sites.Page{URL: "http://a.test/", ErrClass: sites.ErrOther, FetchedAt: fetched},
			"2026-11-24T10:00:01.234Z    -5          - http://a.test/ - - - #000 20261124100001234+0 - - err=other"},
	} {
		if got := Line(tc.p, at); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
		if n := len(strings.Fields(Line(tc.p, at))); n != 12 {
			t.Errorf("%s: %d fields, want 12", tc.name, n)
		}
	}
}

func TestAppend(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crawl.log")
	at := time.Now()
	for i := range 2 {
		if err := Append(path, []sites.Page{{URL: "http://a.test/", Status: 200, FetchedAt: at}, {URL: "http://b.test/", Status: 200, FetchedAt: at}}, at); err != nil {
			t.Fatalf("batch %d: %v", i, err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n"); len(lines) != 4 {
		t.Errorf("%d lines after two batches of two, want 4:\n%s", len(lines), b)
	}
	if err := Append(filepath.Join(path, "nested"), nil, at); err == nil || !strings.Contains(err.Error(), "crawl log") {
		t.Errorf("a log that cannot be opened: %v", err)
	}
}

// TestLineOfArchived: a line gives the archived payload's digest, a
// redirect its hop's own status, size and type, and a robots.txt fetch is
// a prerequisite (P) with no page that led to it.
func TestLineOfArchived(t *testing.T) {
	at := time.Date(2026, 11, 24, 10, 0, 1, 234e6, time.UTC)
	page := sites.Page{URL: "http://a.test/page", Status: 200, Size: 10432, Depth: 1, Via: "http://a.test/",
		ContentType: "text/html", FetchedAt: at, Took: 134 * time.Millisecond}
	digest := "sha1:2WAXX5NUWNNCS2BDKCO5OVDQBJVNKIVV"
	for _, tc := range []struct{ got, want string }{
		{LineOf(page, Fetch{Digest: digest}, at),
			"2026-11-24T10:00:01.234Z   200      10432 http://a.test/page L http://a.test/ text/html #000 20261124100001100+134 " + digest + " - -"},
		{LineOf(sites.Page{URL: "http://a.test/old", Depth: 1, Via: "http://a.test/", ErrClass: sites.ErrRedirect, FetchedAt: at},
			Fetch{Status: 301, Size: 57, ContentType: "text/html", Digest: digest}, at),
			"2026-11-24T10:00:01.234Z   301         57 http://a.test/old L http://a.test/ text/html #000 20261124100001234+0 " + digest + " - err=redirect"},
		{PrerequisiteLine("http://a.test/robots.txt", 200, 31, "text/plain", at.Add(-time.Second), 12*time.Millisecond, digest, at),
			"2026-11-24T10:00:01.234Z   200         31 http://a.test/robots.txt P - text/plain #000 20261124100000234+12 " + digest + " - -"},
	} {
		if tc.got != tc.want {
			t.Errorf("\n got %q\nwant %q", tc.got, tc.want)
		}
		if n := len(strings.Fields(tc.got)); n != 12 {
			t.Errorf("%d fields, want 12: %q", n, tc.got)
		}
	}
}
