package warcfile

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"io"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"sitesift/internal/refdata"
)

// records reads the file r and returns the kinds and URLs of its records,
// in order, what it handed over of its responses, and its layout.
func records(r io.Reader, name string) (kinds []string, resp []seen, l Layout, err error) {
	l, err = ReadFile(r, name, func(rec *Record) error {
		kinds = append(kinds, rec.Kind+" "+rec.URL)
		if rec.Kind == KindResponse {
			body, trunc, err := rec.Body(1 << 20)
			s := seen{URL: rec.URL, Date: rec.Date, Status: rec.Status, Body: sha256.Sum256(body), Truncated: trunc}
			if err != nil {
				s.BodyErr = err.Error()
			}
			resp = append(resp, s)
		}
		return nil
	})
	return kinds, resp, l, err
}

// onlyReader hides the Seek of a reader: a stream.
type onlyReader struct{ io.Reader }

// TestReadWholeGzip: the reference WARC file's records, decompressed
// member by member and gzipped again as one member (a plain WARC file run
// through gzip), are read whole, from a file or a stream: the same 343
// records, in order, with the same responses as the file gzipped per
// record; its layout says they share one member. Two such halves
// concatenated share two. Cut, the file is refused at the record the cut
// falls in, named by how far into the member it starts.
func TestReadWholeGzip(t *testing.T) {
	zb, err := os.ReadFile(refdata.Shared(t, "warc", "iana.warc.gz"))
	if err != nil {
		t.Fatal(err)
	}
	wantKinds, wantResp, l, err := records(bytes.NewReader(zb), "iana.warc.gz")
	if err != nil || len(wantKinds) != 343 || len(wantResp) != 48 {
		t.Fatalf("per record: %d records, %d responses, %v; want 343 and 48", len(wantKinds), len(wantResp), err)
	}
	if want := (Layout{Format: FormatWARC, Gzip: GzipPerRecord, Members: 343}); l != want {
		t.Errorf("per record: layout %+v, want %+v", l, want)
	}
	plain := plainRef(t, "iana.warc.gz")
	whole := gzipBytes(t, plain)
	var offs []int64 // where each record starts in the decompressed data
	if err := Read(bytes.NewReader(plain), "iana.warc", func(r *Record) error {
		offs = append(offs, r.Offset)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	half := offs[200]
	first := gzipBytes(t, plain[:half])
	halves := append(append([]byte(nil), first...), gzipBytes(t, plain[half:])...)
	for _, c := range []struct {
		name string
		r    io.Reader
		want Layout
	}{
		{"whole", bytes.NewReader(whole), Layout{Format: FormatWARC, Gzip: GzipShared, Members: 1, SharedMembers: 1, SharedRecords: 343}},
		{"whole, a stream", onlyReader{bytes.NewReader(whole)}, Layout{Format: FormatWARC, Gzip: GzipShared, Members: 1, SharedMembers: 1, SharedRecords: 343}},
		{"two halves", bytes.NewReader(halves), Layout{Format: FormatWARC, Gzip: GzipShared, Members: 2, SharedMembers: 2, SharedRecords: 343}},
	} {
		kinds, resp, l, err := records(c.r, "whole.warc.gz")
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
		if !slices.Equal(kinds, wantKinds) || !reflect.DeepEqual(resp, wantResp) {
			t.Errorf("%s: %d records, %d responses; want the %d records and %d responses of the file gzipped per record",
				c.name, len(kinds), len(resp), len(wantKinds), len(wantResp))
		}
		if l != c.want {
			t.Errorf("%s: layout %+v, want %+v", c.name, l, c.want)
		}
	}
	// A record is named by the member it starts in and how far into the
	// member's data; one that starts its member, by the member alone.
	var got []*Record
	Read(bytes.NewReader(halves), "halves.warc.gz", func(r *Record) error { got = append(got, r); return nil })
	if len(got) != 343 || got[0].Offset != 0 || got[0].InMember != 0 || got[1].Offset != 0 || got[1].InMember != offs[1] ||
		got[200].Offset != int64(len(first)) || got[200].InMember != 0 ||
		got[201].Offset != int64(len(first)) || got[201].InMember != offs[201]-half {
		t.Errorf("offsets of the two halves' records wrong")
	}

	n := 0
	err = Read(bytes.NewReader(whole[:len(whole)/2]), "cut.warc.gz", func(*Record) error { n++; return nil })
	var re *ReadError
	if !errors.As(err, &re) || re.Offset != 0 || re.InMember != offs[n] || !strings.Contains(err.Error(), "truncated") ||
		!strings.Contains(err.Error(), "of the gzip member at byte offset 0") {
		t.Errorf("cut after %d records: %v; want a ReadError at byte %d of the member at offset 0", n, err, offs[min(n, len(offs)-1)])
	}
}

// TestReadNotArchive: a file that is neither a WARC nor an ARC file is
// refused at offset 0 with words that say what it looks like.
func TestReadNotArchive(t *testing.T) {
	for _, c := range []struct {
		name string
		in   []byte
		want string
	}{
		{"empty", nil, "not a WARC or ARC file: it is an empty file"},
		{"HTML", []byte("<!doctype html><title>x</title>"), "not a WARC or ARC file: it looks like an HTML page"},
		{"gzip of HTML", gzipBytes(t, []byte("<html><body>x</body></html>")), "it looks like a gzip of something else (its gzip data holds an HTML page)"},
		{"gzip of nothing", gzipBytes(t, nil), "it looks like a gzip of nothing"},
		{"a ZIP", []byte("PK\x03\x04\x14\x00\x00\x00"), "it looks like a ZIP archive"},
	} {
		err := Read(bytes.NewReader(c.in), "f.warc.gz", func(*Record) error { return nil })
		var re *ReadError
		if !errors.As(err, &re) || re.Offset != 0 || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want a ReadError at offset 0 saying %q", c.name, err, c.want)
		}
	}
}
