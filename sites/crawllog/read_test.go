package crawllog

import (
	"strings"
	"testing"
	"time"

	"sitesift/sites"
)

// TestLineReadBack: what Line writes, ParseLine reads back.
func TestLineReadBack(t *testing.T) {
	at := time.Date(2026, 11, 24, 10, 0, 1, 234e6, time.UTC)
	p := sites.Page{URL: "http://a.test/x y", Via: "http://a.test/", Depth: 2, Status: 200, ContentType: "text/html", Size: 99, FetchedAt: at}
	e, err := ParseLine(Line(p, at))
	if err != nil {
		t.Fatal(err)
	}
	if e.URL != "http://a.test/x%20y" || e.Via != "http://a.test/" || e.Path != "LL" || e.Status != 200 || e.Size != 99 ||
		e.ContentType != "text/html" || !e.Logged.Equal(at) {
		t.Errorf("read back %+v", e)
	}
	seed, err := ParseLine(Line(sites.Page{URL: "http://a.test/", ErrClass: sites.ErrDNS}, at))
	if err != nil || seed.Via != "" || seed.Status != -1 || seed.Size != -1 {
		t.Errorf("seed %+v %v", seed, err)
	}
}

func TestReadBadLine(t *testing.T) {
	in := Line(sites.Page{URL: "http://a.test/", Status: 200}, time.Now()) + "\n\n2026-11-24T10:00:00Z x 1 http://a.test/ - - text/html\n"
	err := Read(strings.NewReader(in), "crawl.log", func(Entry) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "crawl.log line 3: the status (field 2) is no whole number") {
		t.Fatalf("error %v, want line 3's status", err)
	}
}

// TestReadNotCrawlLog: a file of another kind is refused at its first line,
// saying what it holds in words; no error quotes the file, at its first
// line or a later one.
func TestReadNotCrawlLog(t *testing.T) {
	good := Line(sites.Page{URL: "http://a.test/", Status: 200}, time.Now()) + "\n"
	for _, tc := range []struct{ name, in, want string }{
		{"env file", "AWS_SECRET_ACCESS_KEY=SECRET123\n", "line 1: not a crawl log: it starts with text, not a crawl.log line: 1 field, want at least 7"},
		{"HTML", "<!doctype html>\n<p>SECRET</p>\n", "line 1: not a crawl log: it starts with an HTML page"},
		{"seven words", "SECRET1 SECRET2 SECRET3 SECRET4 SECRET5 SECRET6 SECRET7\n", "line 1: not a crawl log: it starts with text, not a crawl.log line: the time (field 1) is no ISO 8601 time"},
		{"later time", good + "SECRET 200 1 http://a.test/ - - text/html\n", "line 2: the time (field 1) is no ISO 8601 time"},
		{"later size", good + "2026-11-24T10:00:00Z 200 SECRET http://a.test/ - - text/html\n", "line 2: the size (field 3) is no whole number"},
		{"later URL", good + "2026-11-24T10:00:00Z 200 1 SECRET - - text/html\n", "line 2: the URL (field 4) has no scheme"},
	} {
		err := Read(strings.NewReader(tc.in), "crawl.log", func(Entry) error { return nil })
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "SECRET") {
			t.Errorf("%s: the error quotes the file: %v", tc.name, err)
		}
	}
}

func FuzzParseLine(f *testing.F) {
	f.Add(Line(sites.Page{URL: "http://a.test/", Via: "http://b.test/", Depth: 1, Status: 200}, time.Now()))
	f.Add("2026-11-24T10:00:00Z -1 - dns:a.test P http://a.test/ text/dns #000 - - - -")
	f.Fuzz(func(t *testing.T, line string) {
		e, err := ParseLine(line)
		if err == nil && e.URL == "" {
			t.Fatalf("line %q read without a URL", line)
		}
	})
}
