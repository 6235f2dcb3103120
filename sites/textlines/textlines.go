// Package textlines reads the line-based files sitesift imports (CDX
// indexes, crawl logs, the Common Crawl graph's dumps), plain or gzip, and
// says in plain words why a read stopped. Each reader keeps its own format
// and its own error type naming the file and the line; the opening, the
// line limit, the wording of a truncated or corrupt file and that of a file
// of another kind ([Describe]) are here once.
package textlines

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// bom is the UTF-8 byte-order mark some editors write at a file's start.
var bom = []byte("\uFEFF")

// Scan calls fn with each line of r and its number (from 1), the line's
// bytes valid during the call only. r is gunzipped when it starts with the
// gzip magic bytes; a UTF-8 byte-order mark at the start of the first line
// is not part of the line. A line longer than maxLine bytes stops the scan. Scan
// returns fn's first error as it is; a read that stops early returns a
// [*Error] with the number of the line it could not read.
func Scan(r io.Reader, maxLine int, fn func(n int64, line []byte) error) error {
	br := bufio.NewReaderSize(r, 1<<16)
	if head, err := br.Peek(2); err == nil && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return &Error{Line: 1, Err: fmt.Errorf("gzip: %w", err)}
		}
		defer zr.Close()
		br = bufio.NewReaderSize(zr, 1<<16)
	}
	// A read that fails (a gzip stream cut short or corrupt) would otherwise
	// hand fn the bytes before it as a last line: part of a line, which fn
	// might take for a whole one, or refuse for its format when the file
	// is at fault.
	held := &heldError{r: br}
	sc := bufio.NewScanner(held)
	sc.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		if atEOF && held.err != nil && bytes.IndexByte(data, '\n') < 0 {
			return 0, nil, held.err
		}
		return bufio.ScanLines(data, atEOF)
	})
	// The scanner's limit is the larger of maxLine and its first buffer's.
	sc.Buffer(make([]byte, 0, min(64<<10, maxLine)), maxLine)
	var n int64
	for sc.Scan() {
		n++
		line := sc.Bytes()
		if n == 1 {
			line = bytes.TrimPrefix(line, bom)
		}
		if err := fn(n, line); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		switch {
		case errors.Is(err, bufio.ErrTooLong):
			err = fmt.Errorf("a line over %d bytes", maxLine)
		case errors.Is(err, io.ErrUnexpectedEOF):
			err = fmt.Errorf("the file ends early (truncated): %w", err)
		case errors.Is(err, gzip.ErrChecksum), errors.Is(err, gzip.ErrHeader):
			err = fmt.Errorf("corrupt gzip data: %w", err)
		}
		return &Error{Line: n + 1, Err: err}
	}
	return nil
}

// heldError is r that keeps the error that ended its reads, other than
// io.EOF, for Scan's split function to see.
type heldError struct {
	r   io.Reader
	err error
}

func (h *heldError) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	if err != nil && err != io.EOF {
		h.err = err
	}
	return n, err
}

// Error is a read that stopped at a line: the file could not be read past
// it.
type Error struct {
	Line int64
	Err  error
}

func (e *Error) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }

func (e *Error) Unwrap() error { return e.Err }

// FileError is a line of a file that is not of the file's format, or the
// line a read of the file stopped at: the one error type of the readers
// built on [Scan], which name their format in it.
type FileError struct {
	Format string // the format's name: "cdx", "crawl log", "ccgraph"
	File   string
	Line   int64
	Err    error
}

func (e *FileError) Error() string {
	return fmt.Sprintf("%s: %s line %d: %v", e.Format, e.File, e.Line, e.Err)
}

func (e *FileError) Unwrap() error { return e.Err }

// InFile returns err, when it is a read that stopped at a line ([*Error]),
// as the [*FileError] of that line of file in format; any other error as
// it is.
func InFile(err error, format, file string) error {
	var te *Error
	if errors.As(err, &te) {
		return &FileError{Format: format, File: file, Line: te.Line, Err: te.Err}
	}
	return err
}

// Describe says in words what kind of data b (the first bytes of a file, or
// of a line) is: "text", "binary data", "gzip data", "an HTML page"…, for
// the error of a file that is not of the kind expected. It never quotes b:
// a file given by mistake may be anything, a key or a password file
// included, and an error is shown, logged and copied into bug reports.
func Describe(b []byte) string {
	b = bytes.TrimPrefix(b, bom)
	t := bytes.TrimLeft(b, " \t\r\n")
	lower := bytes.ToLower(t[:min(len(t), 16)])
	has := func(prefix string) bool { return bytes.HasPrefix(lower, []byte(prefix)) }
	switch {
	case len(b) == 0:
		return "nothing (no bytes)"
	case len(t) == 0:
		return "blank space"
	case len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b:
		return "gzip data"
	case bytes.HasPrefix(b, []byte("PK\x03\x04")):
		return "a ZIP archive"
	case bytes.HasPrefix(b, []byte("%PDF-")):
		return "a PDF document"
	case !utf8.Valid(trimPartialRune(b[:min(len(b), 512)])) || bytes.ContainsAny(b[:min(len(b), 512)], "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x7f"):
		return "binary data"
	case has("warc/"):
		return "a WARC record"
	case has("<!doctype html"), has("<html"), has("<head"), has("<body"):
		return "an HTML page"
	case has("<?xml"):
		return "an XML document"
	case t[0] == '<':
		return "markup (HTML or XML)"
	case t[0] == '{' || t[0] == '[':
		return "JSON"
	}
	return "text"
}

// trimPartialRune drops the bytes of a UTF-8 sequence cut at b's end, so
// that a text file's first bytes are not taken for binary data.
func trimPartialRune(b []byte) []byte {
	for i := 1; i <= utf8.UTFMax-1 && i <= len(b); i++ {
		if c := b[len(b)-i]; c&0xC0 != 0x80 {
			if !utf8.FullRune(b[len(b)-i:]) {
				return b[:len(b)-i]
			}
			break
		}
	}
	return b
}

// BadLine is one bad line of a file refused whole, and what is wrong with
// it, in words.
type BadLine struct {
	Line int
	Msg  string
}

// Refusal is the message of a file refused for its bad lines: how many,
// what came of the file (outcome: "nothing imported"), then each bad line
// listed as FILE:LINE: reason, and how many more there were than listed.
func Refusal(name, outcome string, total int, lines []BadLine) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d bad line", name, total)
	if total != 1 {
		b.WriteByte('s')
	}
	fmt.Fprintf(&b, ", %s:", outcome)
	for _, l := range lines {
		fmt.Fprintf(&b, "\n%s:%d: %s", name, l.Line, l.Msg)
	}
	if total > len(lines) {
		fmt.Fprintf(&b, "\n(%d more)", total-len(lines))
	}
	return b.String()
}
