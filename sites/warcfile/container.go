package warcfile

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
)

// ReadFile reads the WARC or ARC file r, as [Read] does, and says how it
// was stored. Records sharing a gzip member (a plain file run through
// gzip) are read whole, as well as records gzipped each alone; the
// [Layout] counts those sharing one. A file that starts neither a WARC
// nor an ARC file is a [*ReadError] at offset 0 saying what it looks like.
func ReadFile(r io.Reader, name string, fn func(*Record) error, opts ...ReadOption) (l Layout, err error) {
	rs, seekable := r.(io.ReadSeeker)
	src := bufio.NewReaderSize(r, 1<<16)
	first, gz, err := firstBytes(src)
	format := sniff(first)
	if format == "" {
		if err != nil && len(first) == 0 {
			return l, &ReadError{File: name, Err: readErr(err)}
		}
		return l, &ReadError{File: name, Err: notArchive(first, gz)}
	}
	l.Format = format
	sh := &sharing{l: &l}
	defer func() {
		sh.done()
		if gz {
			l.Gzip = GzipPerRecord
			if l.SharedMembers > 0 {
				l.Gzip = GzipShared
			}
		}
	}()
	// What was peeked is read again: from the start of a file, or from
	// src, which still holds it, of a stream.
	in := io.Reader(src)
	if seekable {
		if _, err := rs.Seek(0, io.SeekStart); err != nil {
			return l, &ReadError{File: name, Err: err}
		}
		in = rs
	}
	if format == FormatARC {
		pb, t, m := stream(in, -1)
		return l, readARC(pb, t, m, sh, name, fn)
	}
	return l, readWARC(in, name, fn, sh, opts)
}

// firstBytes peeks at the first bytes of the file src, decompressed when
// it is gzip (gz), to tell its format; err is why there are none.
func firstBytes(src *bufio.Reader) (first []byte, gz bool, err error) {
	head, err := src.Peek(512)
	if len(head) < 2 || head[0] != 0x1f || head[1] != 0x8b {
		if errors.Is(err, io.EOF) {
			err = nil
		}
		return head, false, err
	}
	raw, _ := src.Peek(src.Size())
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, true, err
	}
	zr.Multistream(false)
	first = make([]byte, 512)
	n, err := io.ReadFull(zr, first)
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		err = nil
	}
	return first[:n], true, err
}

// stream returns the data of the file r, decompressed when it is gzip
// (m then says where its members start), up to limit bytes of it unless
// limit is negative; t counts what was read of it.
func stream(r io.Reader, limit int64) (pb *bufio.Reader, t *tail, m *members) {
	src := bufio.NewReaderSize(r, 1<<16)
	var data io.Reader = src
	if head, _ := src.Peek(2); len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		m = newMembers(src, false)
		data = m
	}
	if limit >= 0 {
		data = io.LimitReader(data, limit)
	}
	t = &tail{r: data}
	return bufio.NewReaderSize(t, 1<<16), t, m
}
