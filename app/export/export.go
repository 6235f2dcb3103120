package export

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
)

// Formats of the files and listings sitesift writes.
const (
	Txt   = "txt"   // one item a line
	CSV   = "csv"   // a header, then a record a line, cells through [Cell]
	JSON  = "json"  // indented JSON, an empty list as []
	Table = "table" // aligned columns for a terminal
	YAML  = "yaml"  // a crawler's configuration file
)

// BOM is the UTF-8 byte-order mark that a CSV file meant for a
// spreadsheet starts with: Excel on Windows reads a CSV file without one in
// the local code page. sitesift's readers of its own files skip it.
const BOM = "\uFEFF"

// contentTypes of the downloadable formats.
var contentTypes = map[string]string{
	Txt:  "text/plain; charset=utf-8",
	CSV:  "text/csv; charset=utf-8",
	JSON: "application/json",
	YAML: "application/yaml; charset=utf-8",
}

// ContentType returns the media type of a downloadable format, "" for
// another.
func ContentType(format string) string { return contentTypes[format] }

// ErrFormat is the error of a format a deliverable is not written in.
type ErrFormat struct {
	Format string
	Want   []string
}

func (e *ErrFormat) Error() string {
	want := ""
	for i, w := range e.Want {
		switch {
		case i == 0:
		case i == len(e.Want)-1:
			want += " or "
		default:
			want += ", "
		}
		want += w
	}
	return fmt.Sprintf("unknown format %q (want %s)", e.Format, want)
}

// Check returns format, or def when it is empty, if it is one of allowed;
// an *ErrFormat otherwise.
func Check(format, def string, allowed ...string) (string, error) {
	if format == "" {
		format = def
	}
	for _, a := range allowed {
		if format == a {
			return format, nil
		}
	}
	return "", &ErrFormat{Format: format, Want: allowed}
}

// WriteJSON writes v as indented JSON.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// List returns s, or an empty slice for nil, so that JSON writes [] for no
// items rather than null.
func List[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// Ftoa writes a float with the digits it needs to read back exactly.
func Ftoa(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
