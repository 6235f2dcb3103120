// Package crawllog writes a crawl's log in the layout of Heritrix's
// crawl.log, one line a fetch, so that the tools crawl operators already
// use on Heritrix logs (grep, awk, crawl-log reports) read sitesift's too:
//
//	2026-11-24T10:00:01.234Z   200      10432 http://a.test/page L http://a.test/ text/html #000 20261124100001100+134 - - -
//
// The fields are: the time of logging; the HTTP status, or a negative
// Heritrix code when there was none (-1 DNS lookup failed, -2 connection
// failed, -4 timeout, -5 another failure, -9998 refused by robots.txt);
// the body's size in bytes; the URL; the discovery path (one L a link
// from a seed, "-" for a seed, P a robots.txt fetched before a site's
// pages); the page whose link led here; the media type; the worker
// ("#000": sitesift does not number them); the fetch's start
// (yyyyMMddHHmmssSSS) and duration in milliseconds; the digest (the WARC
// record's payload digest, sha1:BASE32), source tag and annotations ("-"
// when none; a failure's class as "err=CLASS").
//
// [Read] reads such a log back, Heritrix's or sitesift's, one [Entry] a
// line.
package crawllog

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"time"

	"sitesift/sites"
)

// maxPath caps the discovery path, as Heritrix 3.1 and later do.
const maxPath = 50

// codes are Heritrix's fetch status codes of the failures that got no
// answer, by class.
var codes = map[string]int{
	sites.ErrDNS:     -1,
	sites.ErrConnect: -2,
	sites.ErrTLS:     -2,
	sites.ErrTimeout: -4,
	sites.ErrRobots:  -9998,
	// A redirect whose answer was not archived (a crawl without a WARC
	// file keeps no code of the hops net/http follows): 300 says "a 3xx"
	// to the tools that sort codes by hundreds.
	sites.ErrRedirect: 300,
}

// Fetch is what a line of crawl.log says of a fetch beyond its page: what
// the WARC file archived of it.
type Fetch struct {
	// Status is the HTTP status of the answer archived under the page's
	// URL (the 3xx of a redirect), 0 when none was.
	Status int
	// Size is the archived body's length in bytes, for a redirect.
	Size int64
	// ContentType is the archived answer's media type, for a redirect.
	ContentType string
	// Digest is the archived payload's digest, "sha1:BASE32" as Heritrix
	// writes it; "" when the fetch was not archived.
	Digest string
}

// Line returns p as a line of crawl.log, logged at, without its newline.
func Line(p sites.Page, at time.Time) string { return LineOf(p, Fetch{}, at) }

// LineOf returns p as a line of crawl.log, logged at, with what the WARC
// file archived of its fetch, without its newline.
func LineOf(p sites.Page, f Fetch, at time.Time) string {
	if p.Status == 0 && f.Status != 0 {
		// A redirect: the hop's own answer.
		p.Status, p.Size, p.ContentType = f.Status, int(f.Size), f.ContentType
	}
	status := p.Status
	if status == 0 {
		status = -5
		if c, ok := codes[p.ErrClass]; ok {
			status = c
		}
	}
	size := "-"
	if p.Status > 0 {
		size = fmt.Sprint(p.Size)
	}
	path := "-"
	if p.Depth > 0 {
		path = strings.Repeat("L", min(p.Depth, maxPath))
	}
	notes := "-"
	if p.ErrClass != "" {
		notes = "err=" + p.ErrClass
	}
	start := p.FetchedAt.Add(-p.Took).UTC()
	return fmt.Sprintf("%s %5d %10s %s %s %s %s #000 %s%03d+%d %s - %s",
		at.UTC().Format("2006-01-02T15:04:05.000Z"), status, size, field(p.URL), path, field(p.Via),
		field(p.ContentType), start.Format("20060102150405"), start.Nanosecond()/1e6, p.Took.Milliseconds(), field(f.Digest), notes)
}

// PrerequisiteLine returns the line of a robots.txt fetch, as Heritrix logs
// it: its discovery path P (a prerequisite of the site's pages), no page
// that led to it, its status, body size, media type, start and duration,
// and its archived payload's digest ("" for none).
func PrerequisiteLine(u string, status int, size int64, contentType string, start time.Time, took time.Duration, digest string, at time.Time) string {
	start = start.UTC()
	return fmt.Sprintf("%s %5d %10d %s P - %s #000 %s%03d+%d %s - -",
		at.UTC().Format("2006-01-02T15:04:05.000Z"), status, size, field(u), field(contentType),
		start.Format("20060102150405"), start.Nanosecond()/1e6, took.Milliseconds(), field(digest))
}

// field is s with the spaces a field cannot hold escaped, "-" when empty.
func field(s string) string {
	if s == "" {
		return "-"
	}
	return strings.NewReplacer(" ", "%20", "\n", "%0A", "\r", "%0D", "\t", "%09").Replace(s)
}

// Append adds a line for each page to the log at path, created when
// missing. Each batch is written whole or the error says it was not.
func Append(path string, pages []sites.Page, at time.Time) error {
	lines := make([]string, len(pages))
	for i, p := range pages {
		lines[i] = Line(p, at)
	}
	return AppendLines(path, lines)
}

// AppendLines adds lines (made by [Line], [LineOf] or
// [PrerequisiteLine]) to the log at path, created when missing.
func AppendLines(path string, lines []string) (err error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("crawl log: %w", err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("crawl log: %w", cerr)
		}
	}()
	w := bufio.NewWriter(f)
	for _, l := range lines {
		w.WriteString(l)
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("crawl log: %w", err)
	}
	return nil
}
