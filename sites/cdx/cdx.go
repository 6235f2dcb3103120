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
// calls fn with each capture, in file order. Blank lines are skipped, and a
// byte-order mark before the first line. A line that is neither CDXJ nor a
// CDX line of the legend's fields (the 11-column legend when the file has
// none), all of them, stops the read with a [*ParseError] naming its
// number; the captures before it have been handed over. No error quotes
// the file: one that is no index at all says what it starts with in words
// ([textlines.Describe]).
func Read(r io.Reader, name string, fn func(Capture) error) error {
	lg := newLegend(legend11, false)
	seen := false // a legend or a capture was read: the file is an index
	err := textlines.Scan(r, maxLine, func(n int64, raw []byte) error {
		line := bytes.TrimRight(raw, "\r")
		if len(bytes.TrimSpace(line)) == 0 {
			return nil
		}
		if line[0] == ' ' && bytes.HasPrefix(bytes.TrimSpace(line), []byte("CDX ")) {
			lg = newLegend(strings.TrimPrefix(strings.TrimSpace(string(line)), "CDX"), true)
			if lg.pos['a'] < 0 || lg.pos['b'] < 0 {
				return &ParseError{Format: format, File: name, Line: n, Err: errors.New("the legend line names no original URL (a) or date (b) field")}
			}
			seen = true
			return nil
		}
		c, err := parseLine(string(line), lg)
		if err != nil {
			if !seen {
				err = fmt.Errorf("not a CDX or CDXJ index: it starts with %s, not a legend line or a capture: %w", textlines.Describe(line), err)
			}
			return &ParseError{Format: format, File: name, Line: n, Err: err}
		}
		seen = true
		return fn(c)
	})
	return textlines.InFile(err, format, name)
}

// legend is a CDX legend: the position of each field letter (-1 for a
// letter it lacks), and its number of fields.
type legend struct {
	pos    map[byte]int
	fields int
	given  bool // a legend line gave it; else the 11-column one is assumed
}

func newLegend(s string, given bool) legend {
	lg := legend{pos: map[byte]int{}, given: given}
	for _, c := range []byte("Nabms") {
		lg.pos[c] = -1
	}
	for i, f := range strings.Fields(s) {
		if len(f) == 1 {
			lg.pos[f[0]] = i
		}
		lg.fields = i + 1
	}
	return lg
}

// field names the field of letter c for an error: "the timestamp (field 2)".
func (lg legend) field(what string, c byte) string {
	return fmt.Sprintf("the %s (field %d)", what, lg.pos[c]+1)
}

func parseLine(line string, lg legend) (Capture, error) {
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
			var se *json.SyntaxError
			if errors.As(err, &se) {
				return Capture{}, fmt.Errorf("the CDXJ JSON block is not valid JSON (at its byte %d)", se.Offset)
			}
			return Capture{}, errors.New(`the CDXJ JSON block's "url", "mime" or "status" is not a string`)
		}
		if j.URL == "" {
			return Capture{}, errors.New(`CDXJ line without "url"`)
		}
		t, err := parseTimestamp(f[1])
		if err != nil {
			return Capture{}, fmt.Errorf("the timestamp (field 2) %w", err)
		}
		return Capture{Key: f[0], URL: j.URL, Time: t, Mime: j.Mime, Status: j.Status}, nil
	}
	get := func(c byte) string {
		if i := lg.pos[c]; i >= 0 && i < len(f) {
			return f[i]
		}
		return ""
	}
	if len(f) < lg.fields {
		// A line short of fields would be read with its fields in the
		// wrong places, or the ones it lacks taken for empty.
		if !lg.given {
			return Capture{}, fmt.Errorf("%s, fewer than the %d of a CDX line (the file has no legend line: the 11-column legend %q is assumed) or SURT TIMESTAMP {json} (CDXJ)", fields(len(f)), lg.fields, legend11)
		}
		return Capture{}, fmt.Errorf("%s, fewer than the %d the legend line names", fields(len(f)), lg.fields)
	}
	t, err := parseTimestamp(get('b'))
	if err != nil {
		return Capture{}, fmt.Errorf("%s %w", lg.field("timestamp", 'b'), err)
	}
	u := get('a')
	if !strings.Contains(u, "://") && !strings.Contains(u, ".") {
		return Capture{}, fmt.Errorf("%s is no URL", lg.field("original URL", 'a'))
	}
	key := get('N')
	if key == "" {
		key = u
	}
	return Capture{Key: key, URL: u, Time: t, Mime: get('m'), Status: get('s')}, nil
}

// fields says "1 field" or "3 fields".
func fields(n int) string {
	if n == 1 {
		return "1 field"
	}
	return fmt.Sprintf("%d fields", n)
}

// parseTimestamp parses a 14-digit capture timestamp; a shorter one (year
// only…) stands for the start of its period, as Wayback reads it.
func parseTimestamp(s string) (time.Time, error) {
	if len(s) < 4 || len(s) > 17 || strings.Trim(s, "0123456789") != "" {
		return time.Time{}, errors.New("is not 4 to 14 digits")
	}
	if len(s) > 14 {
		s = s[:14]
	}
	full := s + "00000101000000"[len(s):]
	t, err := time.Parse("20060102150405", full)
	if err != nil {
		return time.Time{}, errors.New("is no valid date and time (YYYYMMDDhhmmss)")
	}
	return t.UTC(), nil
}
