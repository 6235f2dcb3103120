package warcfile

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"sitesift/sites/textlines"
)

// An ARC file (the Internet Archive's format before WARC, in which most
// holdings before 2008 are kept) is a sequence of records, each one
// line,
//
//	URL IP-address Archive-date Content-type Archive-length
//
// then Archive-length bytes (for an HTTP URL, the response as it came,
// head and body), then a newline. The first record, of URL
// filedesc://NAME, describes the file: its first line is the version
// ("1 0 InternetArchive"), its second names the fields of the record
// lines. Version 2 lines have ten fields (Result-code Checksum Location
// Offset Filename before Archive-length); any version is read by the
// names its header gives.

// maxARCLine bounds an ARC record line and an archived HTTP head.
const maxARCLine = 1 << 16

// readARC reads the records of an ARC file's data pb (decompressed: m
// says where its gzip members start, nil for a plain file), read through
// t, for [ReadFile].
func readARC(pb *bufio.Reader, t *tail, m *members, sh *sharing, name string, fn func(*Record) error) error {
	fields := 5 // those of a version 1 record line, until a header says
	// The last record's place: a gzip member that fails past its data
	// (its checksum) is that record's.
	var lastOff, lastIn int64
	for {
		// Records end with a newline; writers differ in how many.
		for {
			b, err := pb.ReadByte()
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return &ReadError{File: name, Offset: lastOff, InMember: lastIn, Err: readErr(err)}
			}
			if b != '\n' && b != '\r' {
				pb.UnreadByte()
				break
			}
		}
		plain := t.n - int64(pb.Buffered())
		off, in, member := place(m, plain)
		lastOff, lastIn = off, in
		fail := func(err error) error { return &ReadError{File: name, Offset: off, InMember: in, Err: err} }
		line, lerr := pb.ReadSlice('\n')
		if errors.Is(lerr, bufio.ErrBufferFull) || len(line) > maxARCLine {
			return fail(fmt.Errorf("corrupt ARC record: its line is longer than %d bytes", maxARCLine))
		}
		if lerr != nil && !errors.Is(lerr, io.EOF) {
			return fail(readErr(lerr))
		}
		if lerr != nil && arcLike(string(line)) {
			return fail(readErr(io.ErrUnexpectedEOF)) // cut inside the record's line
		}
		rec, mime, size, err := arcLine(string(line), fields)
		if err != nil {
			return fail(err)
		}
		if lerr != nil {
			return fail(readErr(io.ErrUnexpectedEOF))
		}
		rec.Offset, rec.InMember = off, in
		if m != nil {
			sh.add(member)
		}
		body := &io.LimitedReader{R: pb, N: size}
		if strings.HasPrefix(rec.URL, "filedesc:") {
			// cat of several ARC files makes one with a header each.
			rec.Kind = KindOther
			if n, err := arcFields(body); err != nil {
				return fail(err)
			} else if n > 0 {
				fields = n
			}
		} else {
			rec.Kind = KindResponse
			if err := arcResponse(rec, mime, body); err != nil {
				return fail(err)
			}
		}
		if err := fn(rec); err != nil {
			return err
		}
		if _, err := io.Copy(io.Discard, body); err != nil {
			return fail(readErr(err))
		}
		if body.N > 0 {
			return fail(readErr(io.ErrUnexpectedEOF))
		}
	}
}

// arcLine parses the record line l of an ARC file whose record lines have
// fields fields, and returns the record it starts, its Content-type and
// its length.
func arcLine(l string, fields int) (rec *Record, mime string, size int64, err error) {
	f := strings.Fields(l)
	if len(f) < fields || len(f) < 5 {
		if arcLike(l) {
			return nil, "", 0, fmt.Errorf("corrupt ARC record line: %d fields, not %d (URL IP-address Archive-date Content-type … Archive-length)", len(f), fields)
		}
		return nil, "", 0, fmt.Errorf("no ARC record starts here: it looks like %s, not an ARC record line (URL IP-address Archive-date Content-type Archive-length)", textlines.Describe([]byte(l)))
	}
	// A URL with spaces in it, as some crawlers wrote them, has more
	// fields than the header names.
	u := len(f) - fields + 1
	size, err = strconv.ParseInt(f[len(f)-1], 10, 64)
	if err != nil || size < 0 {
		return nil, "", 0, fmt.Errorf("corrupt ARC record line: its Archive-length %q is not a whole number of bytes", f[len(f)-1])
	}
	rec = &Record{URL: strings.Join(f[:u], " "), Date: arcDate(f[u+1])}
	if mime = f[u+2]; mime == "no-type" || mime == "-" {
		mime = ""
	}
	return rec, mime, size, nil
}

// arcLike says whether l starts as an ARC record line does, with a URL.
func arcLike(l string) bool {
	u, _, _ := strings.Cut(l, " ")
	scheme, rest, ok := strings.Cut(u, ":")
	return ok && scheme != "" && rest != "" && !strings.ContainsAny(scheme, "<>\"'{}[]/") && len(scheme) < 16
}

// arcDate parses an Archive-date, 14 digits in UTC (some writers give
// fewer, or more for milliseconds); the zero time when it is none.
func arcDate(s string) time.Time {
	const layout = "20060102150405"
	if len(s) > len(layout) {
		s = s[:len(layout)]
	}
	for _, n := range []int{14, 12, 10, 8, 6, 4} {
		if len(s) == n {
			if t, err := time.Parse(layout[:n], s); err == nil {
				return t.UTC()
			}
		}
	}
	return time.Time{}
}

// arcFields reads the version block of a filedesc record and returns how
// many fields its record lines have; 0 when it does not say.
func arcFields(body io.Reader) (int, error) {
	br := bufio.NewReaderSize(body, 4096)
	var lines []string
	for len(lines) < 2 {
		l, err := br.ReadSlice('\n')
		if len(l) > 0 {
			lines = append(lines, string(l))
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return 0, readErr(err)
		}
	}
	if len(lines) < 2 {
		return 0, nil
	}
	n := len(strings.Fields(lines[1]))
	if n < 5 || !strings.Contains(lines[1], "URL") {
		return 0, nil
	}
	return n, nil
}

// arcResponse reads the HTTP head that starts the body of rec, an ARC
// record of an http(s) URL whose line gives the Content-type mime, and
// leaves the rest as its payload; a record of another scheme (dns:) or
// without a head has neither, as a WARC response record without an HTTP
// block.
func arcResponse(rec *Record, mime string, body io.Reader) error {
	scheme, _, _ := strings.Cut(rec.URL, ":")
	if s := strings.ToLower(scheme); s != "http" && s != "https" {
		return nil
	}
	br := bufio.NewReaderSize(body, 4096)
	if first, _ := br.Peek(5); !bytes.Equal(first, []byte("HTTP/")) {
		return nil
	}
	var head []byte
	for {
		l, err := br.ReadSlice('\n')
		head = append(head, l...)
		if len(head) > maxARCLine {
			return fmt.Errorf("corrupt ARC record: its HTTP head is longer than %d bytes", maxARCLine)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return readErr(err)
		}
		if err != nil || len(bytes.TrimRight(l, "\r\n")) == 0 {
			break
		}
	}
	status, h := parseHead(head)
	// The record line's Content-type is the server's, taken when the
	// archived head lost it.
	if h.Get("Content-Type") == "" && mime != "" {
		h.Set("Content-Type", mime)
	}
	rec.Status, rec.Header, rec.payload = status, h, br
	return nil
}
