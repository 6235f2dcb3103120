package crawllog

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sitesift/sites/textlines"
	"strconv"
	"strings"
	"time"
)

// Entry is one line of a crawl.log.
type Entry struct {
	// Logged is when the line was written.
	Logged time.Time
	// Status is the HTTP status, or a negative Heritrix code when the
	// fetch got no answer (see the package comment).
	Status int
	// Size is the body's size in bytes; -1 when the line has "-".
	Size int64
	URL  string
	// Path is the discovery path ("-" for a seed; L a link, R a redirect,
	// E an embed…), Via the URL that led here ("" for a seed).
	Path, Via string
	// ContentType is the media type as logged, "" when "-".
	ContentType string
}

// ParseError is a line that is not a crawl.log line, or the line a read
// stopped at; its Format is "crawl log".
type ParseError = textlines.FileError

// format names the format in a [*ParseError].
const format = "crawl log"

// Read reads the crawl.log r (Heritrix's or sitesift's; plain or gzip),
// name naming it in errors, and calls fn with each line's entry in order.
// Blank lines are skipped; a line of fewer than 7 fields, or with a bad
// time, status or URL field, stops the read with a [*ParseError] naming
// its number. No error quotes the file: one that is no crawl.log at all
// says what it starts with in words ([textlines.Describe]).
func Read(r io.Reader, name string, fn func(Entry) error) error {
	seen := false // a line was read: the file is a crawl.log
	err := textlines.Scan(r, 1<<20, func(n int64, raw []byte) error {
		line := bytes.TrimSpace(raw)
		if len(line) == 0 {
			return nil
		}
		e, err := ParseLine(string(line))
		if err != nil {
			if !seen {
				err = fmt.Errorf("not a crawl log: it starts with %s, not a crawl.log line: %w", textlines.Describe(line), err)
			}
			return &ParseError{Format: format, File: name, Line: n, Err: err}
		}
		seen = true
		return fn(e)
	})
	return textlines.InFile(err, format, name)
}

// ParseLine parses one line of crawl.log. Its errors name the field that
// is wrong, never quoting it.
func ParseLine(line string) (Entry, error) {
	f := strings.Fields(line)
	if len(f) < 7 {
		n := fmt.Sprintf("%d fields", len(f))
		if len(f) == 1 {
			n = "1 field"
		}
		return Entry{}, fmt.Errorf("%s, want at least 7 (time status size URL path via type)", n)
	}
	var e Entry
	var err error
	if e.Logged, err = time.Parse(time.RFC3339Nano, f[0]); err != nil {
		return Entry{}, errors.New("the time (field 1) is no ISO 8601 time such as 2026-11-24T10:00:01.234Z")
	}
	if e.Status, err = strconv.Atoi(f[1]); err != nil {
		return Entry{}, errors.New("the status (field 2) is no whole number")
	}
	e.Size = -1
	if f[2] != "-" {
		if e.Size, err = strconv.ParseInt(f[2], 10, 64); err != nil {
			return Entry{}, errors.New("the size (field 3) is no whole number or -")
		}
	}
	e.URL = f[3]
	if !strings.Contains(e.URL, ":") {
		return Entry{}, errors.New("the URL (field 4) has no scheme")
	}
	e.Path = f[4]
	if f[5] != "-" {
		e.Via = f[5]
	}
	if f[6] != "-" {
		e.ContentType = f[6]
	}
	return e, nil
}
