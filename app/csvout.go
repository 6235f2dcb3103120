package app

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"
)

// CSV output. Every CSV file sitesift writes goes through a csvWriter, so
// that text from crawled pages, imported graphs and librarians (titles, site
// labels, notes, subjects, librarian names) cannot become a formula when the
// file is opened in a spreadsheet ("CSV injection").

// csvFormulaStart holds the first characters that make a spreadsheet take a
// cell for a formula, as OWASP lists them: =, +, -, @, tab and carriage
// return.
const csvFormulaStart = "=+-@\t\r"

// csvCell returns s as it goes into a CSV cell. A cell a spreadsheet would
// take for a formula, one that starts with =, +, -, @, a tab or a carriage
// return, gets a leading single quote, as OWASP recommends, and is shown as
// text. A number written in decimal that strconv.ParseFloat reads ("-0.5",
// "-1e-09", "+3"; not "-Inf", "-0x1p-2" or "-1+2") is left as it is, so
// that numeric columns stay numeric. So that [csvUncell] can undo it
// exactly, a cell of single quotes followed by one of those characters
// ("'=x") gets one more quote too.
func csvCell(s string) string {
	if csvQuoted(s) {
		return "'" + s
	}
	return s
}

// csvUncell undoes [csvCell]: it removes the single quote csvCell adds, and
// nothing else. A file written by sitesift reads back as it was written.
func csvUncell(s string) string {
	if strings.HasPrefix(s, "'") && csvQuoted(s[1:]) {
		return s[1:]
	}
	return s
}

// csvQuoted reports whether csvCell quotes s.
func csvQuoted(s string) bool {
	t := strings.TrimLeft(s, "'")
	if t == "" || strings.IndexByte(csvFormulaStart, t[0]) < 0 {
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

// csvWriter is a csv.Writer that writes every cell through [csvCell].
type csvWriter struct {
	*csv.Writer
	cells []string
}

// newCSVWriter returns a csvWriter writing to w.
func newCSVWriter(w io.Writer) *csvWriter { return &csvWriter{Writer: csv.NewWriter(w)} }

// Write writes one record, each cell made safe by csvCell.
func (c *csvWriter) Write(record []string) error {
	c.cells = c.cells[:0]
	for _, s := range record {
		c.cells = append(c.cells, csvCell(s))
	}
	return c.Writer.Write(c.cells)
}

// WriteAll writes records as Write does, then flushes.
func (c *csvWriter) WriteAll(records [][]string) error {
	for _, r := range records {
		if err := c.Write(r); err != nil {
			return err
		}
	}
	c.Flush()
	return c.Error()
}
