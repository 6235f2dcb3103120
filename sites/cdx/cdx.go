package cdx

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sitesift/sites/textlines"
	"strings"
	"time"
)

// Capture is one line of an index.
type Capture struct {
	// Key is the line's sort key (SURT form of the URL); lines of one URL
	// follow each other in a sorted index.
	Key string
	// URL is the original URL captured.
	URL string
	// Time is the capture's time, UTC.
	Time time.Time
	// Mime is the media type ("warc/revisit" for a revisit), Status the
	// HTTP status ("-" or "" when none).
	Mime, Status string
}

// ParseError is a line that is not a capture of the index's format, or
// the line a read stopped at; its Format is "cdx".
type ParseError = textlines.FileError

// format names the format in a [*ParseError].
const format = "cdx"

// legend11 is the field legend of the 11-column CDX, assumed when a file
// has no legend line.
const legend11 = "N b a m s k r M S V g"

// maxLine caps a line; a longer one is an error rather than a reason to
// hold a whole corrupt file in memory.
const maxLine = 1 << 20

// Read reads the index r (name is its name, for errors), plain or gzip, and
// calls fn with each capture, in file order. Blank lines are skipped. A
// line that is neither CDXJ nor a CDX line of the legend's fields (the
// 11-column legend when the file has none) stops the read with a
// [*ParseError] naming its number; the captures before it have been handed
// over.
func Read(r io.Reader, name string, fn func(Capture) error) error {
	fields := fieldPositions(legend11)
	err := textlines.Scan(r, maxLine, func(n int64, raw []byte) error {
		line := bytes.TrimRight(raw, "\r")
		if len(bytes.TrimSpace(line)) == 0 {
			return nil
		}
		if line[0] == ' ' && bytes.HasPrefix(bytes.TrimSpace(line), []byte("CDX ")) {
			legend := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(string(line)), "CDX"))
			fields = fieldPositions(legend)
			if fields['a'] < 0 || fields['b'] < 0 {
				return &ParseError{Format: format, File: name, Line: n, Err: fmt.Errorf("legend %q names no original URL (a) or date (b) field", legend)}
			}
			return nil
		}
		c, err := parseLine(string(line), fields)
		if err != nil {
			return &ParseError{Format: format, File: name, Line: n, Err: err}
		}
		return fn(c)
	})
	return textlines.InFile(err, format, name)
}

// fieldPositions maps the letters of a CDX legend to their field positions;
// a letter the legend lacks maps to -1.
func fieldPositions(legend string) map[byte]int {
	pos := map[byte]int{}
	for _, c := range []byte("Nabms") {
		pos[c] = -1
	}
	for i, f := range strings.Fields(legend) {
		if len(f) == 1 {
			pos[f[0]] = i
		}
	}
	return pos
}

func parseLine(line string, pos map[byte]int) (Capture, error) {
	f := strings.Fields(line)
	// CDXJ: SURT TIMESTAMP {json}.
	if len(f) >= 3 && strings.HasPrefix(f[2], "{") {
		_, js, _ := strings.Cut(line, "{")
		var j struct {
			URL    string `json:"url"`
			Mime   string `json:"mime"`
			Status string `json:"status"`
		}
		if err := json.Unmarshal([]byte("{"+js), &j); err != nil {
			return Capture{}, fmt.Errorf("CDXJ JSON block: %w", err)
		}
		if j.URL == "" {
			return Capture{}, errors.New(`CDXJ line without "url"`)
		}
		t, err := parseTimestamp(f[1])
		if err != nil {
			return Capture{}, err
		}
		return Capture{Key: f[0], URL: j.URL, Time: t, Mime: j.Mime, Status: j.Status}, nil
	}
	get := func(c byte) string {
		if i := pos[c]; i >= 0 && i < len(f) {
			return f[i]
		}
		return ""
	}
	need := max(pos['a'], pos['b']) + 1
	if len(f) < need {
		return Capture{}, fmt.Errorf("%d fields, want at least %d (CDX legend) or SURT TIMESTAMP {json} (CDXJ)", len(f), need)
	}
	t, err := parseTimestamp(get('b'))
	if err != nil {
		return Capture{}, err
	}
	u := get('a')
	if !strings.Contains(u, "://") && !strings.Contains(u, ".") {
		return Capture{}, fmt.Errorf("original URL field %q is no URL", u)
	}
	key := get('N')
	if key == "" {
		key = u
	}
	return Capture{Key: key, URL: u, Time: t, Mime: get('m'), Status: get('s')}, nil
}

// parseTimestamp parses a 14-digit capture timestamp; a shorter one (year
// only…) stands for the start of its period, as Wayback reads it.
func parseTimestamp(s string) (time.Time, error) {
	if len(s) < 4 || len(s) > 17 || strings.Trim(s, "0123456789") != "" {
		return time.Time{}, fmt.Errorf("timestamp %q is not 4 to 14 digits", s)
	}
	if len(s) > 14 {
		s = s[:14]
	}
	full := s + "00000101000000"[len(s):]
	t, err := time.Parse("20060102150405", full)
	if err != nil {
		return time.Time{}, fmt.Errorf("timestamp %q: %w", s, err)
	}
	return t.UTC(), nil
}
