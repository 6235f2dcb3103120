//go:build unix

package crawl

import (
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"sitesift/sites"
)

// realPages returns the real web pages go-trafilatura's module ships for its
// own tests (113 news, blog and institutional pages in English, German,
// French and more, 14 MB), read from the module cache, or skips b when the
// module's source is not there.
func realPages(b *testing.B) [][]byte {
	b.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/markusmobius/go-trafilatura").Output()
	if err != nil {
		b.Skipf("go-trafilatura's source not found: %v", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "test-files", "mock")
	files, err := filepath.Glob(filepath.Join(dir, "*.html"))
	if err != nil || len(files) == 0 {
		b.Skipf("no pages in %s: %v", dir, err)
	}
	var pages [][]byte
	for _, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		pages = append(pages, toUTF8(body, ""))
	}
	return pages
}

// BenchmarkParseHTML measures what parsing a real page costs the crawler, one
// page an operation, the pages in turn: with main-content extraction (the
// crawler's), with go-trafilatura's fallback extractors as well, and the
// whole-page walk alone (the crawler before main-content extraction).
//
//	go test -run '^$' -bench ParseHTML -benchtime 339x ./crawl
func BenchmarkParseHTML(b *testing.B) {
	pages := realPages(b)
	base, _ := sites.Parse("https://www.example.com/2024/03/a-story.html")
	run := func(b *testing.B, parse func([]byte) error) {
		var bytes int64
		b.ReportAllocs()
		cpu0 := cpuTime(b)
		b.ResetTimer()
		for i := range b.N {
			p := pages[i%len(pages)]
			bytes += int64(len(p))
			if err := parse(p); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		// The process's CPU time (the garbage collector's included) tells
		// the cost apart from the waits of a loaded machine, which ns/op
		// counts.
		b.ReportMetric(float64(cpuTime(b)-cpu0)/float64(b.N)/1e6, "cpu-ms/page")
		b.ReportMetric(float64(bytes)/float64(b.N)/1024, "KB/page")
	}
	b.Run("extraction", func(b *testing.B) {
		run(b, func(p []byte) error { _, err := parseHTML(p, base, MaxTextChars); return err })
	})
	b.Run("extraction+fallback", func(b *testing.B) {
		saved := extractOptions
		extractOptions.EnableFallback = true
		defer func() { extractOptions = saved }()
		run(b, func(p []byte) error { _, err := parseHTML(p, base, MaxTextChars); return err })
	})
	b.Run("walk-only", func(b *testing.B) {
		run(b, func(p []byte) error { _, err := walkHTML(p, base, MaxTextChars); return err })
	})
}

// walkHTML is parseHTML without main-content extraction.
func walkHTML(body []byte, pageURL *url.URL, maxText int) (document, error) {
	_, _, doc, err := walkPage(bound(body), pageURL, maxText)
	return doc, err
}

// cpuTime returns the CPU time the process used so far, user and system.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
