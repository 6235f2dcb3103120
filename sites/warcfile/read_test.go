package warcfile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestReadCounts: the reference sample's records by type, as its README
// counts them (48 responses, 123 revisits), and its 20 HTML responses.
func TestReadCounts(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(refDir, "iana.warc.gz"))
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	html := 0
	err = Read(bytes.NewReader(b), "iana.warc.gz", func(r *Record) error {
		kinds[r.Kind]++
		if r.Kind == KindResponse && mediaType(r.Header.Get("Content-Type")) == "text/html" {
			if _, _, err := r.Body(1 << 20); err != nil {
				return err
			}
			html++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if kinds[KindResponse] != 48 || kinds[KindRevisit] != 123 || html != 20 {
		t.Errorf("records %v, %d HTML; want 48 responses, 123 revisits, 20 HTML", kinds, html)
	}
	// Cut inside a record: the error names the record's offset.
	err = Read(bytes.NewReader(b[:400_000]), "cut.warc.gz", func(*Record) error { return nil })
	var re *ReadError
	if !errors.As(err, &re) || re.File != "cut.warc.gz" || re.Offset != 329393 {
		t.Errorf("error %v: want a ReadError at offset 329393 (the reference CDX's record there)", err)
	}
}

// FuzzRead: no gzip input makes the reader panic or hang; a read that
// fails says so with a ReadError.
//
// Plain inputs are left out: in a plain file, garbage between records makes
// gowarc look for the next record, and a cut gzip member found there sends
// its header parser into the endless loop Read guards gzip files against
// (see Read). Plain WARC files are read as they are.
func FuzzRead(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join(refDir, "example.warc.gz")); err == nil {
		f.Add(b)
		f.Add(b[:len(b)/2])
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) < 2 || in[0] != 0x1f || in[1] != 0x8b {
			t.Skip("plain input")
		}
		err := Read(bytes.NewReader(in), "f", func(r *Record) error {
			if r.Kind == KindResponse {
				r.Body(1 << 16)
			}
			return nil
		})
		var re *ReadError
		if err != nil && !errors.As(err, &re) {
			t.Fatalf("error %v is no ReadError", err)
		}
	})
}
