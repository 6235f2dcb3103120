// Package textlines reads the line-based files sitesift imports (CDX
// indexes, crawl logs, the Common Crawl graph's dumps), plain or gzip, and
// says in plain words why a read stopped. Each reader keeps its own format
// and its own error type naming the file and the line; the opening, the
// line limit and the wording of a truncated or corrupt file are here once.
package textlines

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
)

// Scan calls fn with each line of r and its number (from 1), the line's
// bytes valid during the call only. r is gunzipped when it starts with the
// gzip magic bytes. A line longer than maxLine bytes stops the scan. Scan
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
	sc := bufio.NewScanner(br)
	// The scanner's limit is the larger of maxLine and its first buffer's.
	sc.Buffer(make([]byte, 0, min(64<<10, maxLine)), maxLine)
	var n int64
	for sc.Scan() {
		n++
		if err := fn(n, sc.Bytes()); err != nil {
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
