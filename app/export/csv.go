package export

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"
)

// CSV output. Every CSV file sitesift writes goes through a CSVWriter, so
// that text from crawled pages, imported graphs and librarians (titles, site
// labels, notes, subjects, librarian names) cannot become a formula when the
// file is opened in a spreadsheet ("CSV injection").

// formulaStart holds the first characters that make a spreadsheet take a
// cell for a formula, as OWASP lists them: =, +, -, @, tab and carriage
// return.
const formulaStart = "=+-@\t\r"

// Cell returns s as it goes into a CSV cell. A cell a spreadsheet would
// take for a formula, one that starts with =, +, -, @, a tab or a carriage
// return, gets a leading single quote, as OWASP recommends, and is shown as
// text. A number written in decimal that strconv.ParseFloat reads ("-0.5",
// "-1e-09", "+3"; not "-Inf", "-0x1p-2" or "-1+2") is left as it is, so
// that numeric columns stay numeric. So that [Uncell] can undo it
// exactly, a cell of single quotes followed by one of those characters
// ("'=x") gets one more quote too.
func Cell(s string) string {
	if quoted(s) {
		return "'" + s
	}
	return s
}

// Uncell undoes [Cell]: it removes the single quote Cell adds, and
// nothing else. A file written by sitesift reads back as it was written.
func Uncell(s string) string {
	if strings.HasPrefix(s, "'") && quoted(s[1:]) {
		return s[1:]
	}
	return s
}

// quoted reports whether Cell quotes s.
func quoted(s string) bool {
	t := strings.TrimLeft(s, "'")
	if t == "" || strings.IndexByte(formulaStart, t[0]) < 0 {
		return false
	}
	return len(t) < len(s) || !decimalNumber(s)
}

// decimalNumber reports whether s is a number strconv.ParseFloat reads,
// written with digits, a point, signs and an exponent only.
func decimalNumber(s string) bool {
	if strings.Trim(s, "0123456789.eE+-") != "" {
		return false
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// CSVWriter is a csv.Writer that writes every cell through [Cell].
type CSVWriter struct {
	*csv.Writer
	cells []string
}

// NewCSVWriter returns a CSVWriter writing to w.
func NewCSVWriter(w io.Writer) *CSVWriter { return &CSVWriter{Writer: csv.NewWriter(w)} }

// Write writes one record, each cell made safe by Cell.
func (c *CSVWriter) Write(record []string) error {
	c.cells = c.cells[:0]
	for _, s := range record {
		c.cells = append(c.cells, Cell(s))
	}
	return c.Writer.Write(c.cells)
}

// WriteAll writes records as Write does, then flushes.
func (c *CSVWriter) WriteAll(records [][]string) error {
	for _, r := range records {
		if err := c.Write(r); err != nil {
			return err
		}
	}
	c.Flush()
	return c.Error()
}

// PlainField reports whether a CSVWriter writes s as it is: not empty, not
// `\.`, no comma, quote, CR or LF, and a first byte that is printable ASCII
// other than space (csv.Writer quotes a field that starts with a Unicode
// space; any non-ASCII start is left to it), nor one that [Cell] may quote
// (a formula's first character or a single quote). Writers of very long
// files format such fields themselves and leave the others to a CSVWriter.
func PlainField(s string) bool {
	if s == "" || s == `\.` || s[0] <= ' ' || s[0] >= 0x7f || s[0] == '\'' || strings.IndexByte(formulaStart, s[0]) >= 0 {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ',', '"', '\r', '\n':
			return false
		}
	}
	return true
}
