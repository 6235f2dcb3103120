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
	if err == nil || !strings.Contains(err.Error(), "crawl.log line 3: status") {
		t.Fatalf("error %v, want line 3's status", err)
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
