package warcfile

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"sitesift/internal/refdata"
)

// TestReadCounts: the reference sample's records by type, as its README
// counts them (48 responses, 123 revisits), and its 20 HTML responses.
func TestReadCounts(t *testing.T) {
	b, err := os.ReadFile(refdata.Shared(t, "warc", "iana.warc.gz"))
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

// TestReadPlainCut: a plain WARC file cut inside a record's header or its
// block, or not starting with a record, is a ReadError at that record's
// offset once the records before it are handed over; the whole plain file
// reads as the gzip one does.
func TestReadPlainCut(t *testing.T) {
	plain := plainRef(t, "iana.warc.gz")
	offsets := func(b []byte) (offs []int64, err error) {
		err = Read(bytes.NewReader(b), "plain.warc", func(r *Record) error {
			offs = append(offs, r.Offset)
			return nil
		})
		return offs, err
	}
	all, err := offsets(plain)
	if err != nil || len(all) != 343 {
		t.Fatalf("whole plain file: %d records, %v; want 343 records, no error", len(all), err)
	}
	last := all[len(all)-1]
	big := 0 // the longest record but the last, cut inside its block
	for k := range len(all) - 2 {
		if all[k+1]-all[k] > all[big+1]-all[big] {
			big = k
		}
	}
	for _, c := range []struct {
		name string
		in   []byte
		at   int64 // the offset the error names
		kept int   // records handed over before it
	}{
		{"cut inside the last header", plain[:last+30], last, len(all) - 1},
		{"cut inside the 30th header", plain[:all[29]+79], all[29], 29},
		{"cut inside a block", plain[:all[big+1]-10], all[big], big},
		{"junk before the first record", append([]byte("junk\r\n"), plain...), 0, 0},
		{"junk after a record", append(append([]byte(nil), plain[:all[3]]...), "<html>"...), all[3], 3},
	} {
		got, err := offsets(c.in)
		var re *ReadError
		if !errors.As(err, &re) || re.Offset != c.at || len(got) != c.kept {
			t.Errorf("%s: %d records, error %v; want %d records, then a ReadError at offset %d", c.name, len(got), err, c.kept, c.at)
		}
	}
}

// FuzzRead: no input, plain, gzip per record or gzip whole, makes the
// reader panic or hang; a read that fails says so with a ReadError.
func FuzzRead(f *testing.F) {
	b, err := os.ReadFile(refdata.Shared(f, "warc", "example.warc.gz"))
	if err != nil {
		f.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		f.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		f.Fatal(err)
	}
	var whole bytes.Buffer
	zw := gzip.NewWriter(&whole)
	zw.Write(plain)
	zw.Close()
	for _, in := range [][]byte{b, plain, whole.Bytes()} {
		f.Add(in)
		f.Add(in[:len(in)/2])
	}
	f.Fuzz(func(t *testing.T, in []byte) {
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

// failingReader reads b and fails with err from byte at on, wherever it seeks.
type failingReader struct {
	*bytes.Reader
	at  int64
	err error
}

func (f *failingReader) Read(p []byte) (int, error) {
	pos, _ := f.Seek(0, io.SeekCurrent)
	if pos >= f.at {
		return 0, f.err
	}
	return f.Reader.Read(p[:min(int64(len(p)), f.at-pos)])
}

// TestReadPlainFailing: a plain file that cannot be read past a byte (a
// disk error, not its end) is a ReadError at the record it fails in, not a
// file that ends there.
func TestReadPlainFailing(t *testing.T) {
	plain := plainRef(t, "example.warc.gz")
	disk := errors.New("input/output error")
	for _, at := range []int64{10, int64(len(plain)) / 2, int64(len(plain)) - 3} {
		err := Read(&failingReader{bytes.NewReader(plain), at, disk}, "failing.warc", func(*Record) error { return nil })
		var re *ReadError
		if !errors.As(err, &re) || !errors.Is(err, disk) || re.Offset > at {
			t.Errorf("failing at byte %d: %v; want a ReadError wrapping the read's error at or before that byte", at, err)
		}
	}
}

// TestReadNotWARC: a file of another kind given as a WARC file, plain or
// gzip, is refused at byte offset 0 saying what it looks like, never
// quoting its bytes (it may be a file of secrets chosen by mistake); bytes
// that start no record after a whole one are named by their offset too.
func TestReadNotWARC(t *testing.T) {
	secret := "AWS_SECRET_ACCESS_KEY=abcdSECRET\nAWS_ACCESS_KEY_ID=AKIAEXAMPLE\n"
	var zb bytes.Buffer
	zw := gzip.NewWriter(&zb)
	zw.Write([]byte(secret))
	zw.Close()
	plain, err := os.ReadFile(refdata.Shared(t, "warc", "example.warc.gz"))
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(plain))
	if err != nil {
		t.Fatal(err)
	}
	if plain, err = io.ReadAll(zr); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		in   []byte
		at   int64
		want string
	}{
		{"text", []byte(secret), 0, `not a WARC or ARC file: it looks like text;`},
		{"gzip text", zb.Bytes(), 0, `not a WARC or ARC file: it looks like a gzip of something else (its gzip data holds text)`},
		{"HTML", []byte("<!doctype html>\n<p>AWS_SECRET</p>\n"), 0, `not a WARC or ARC file: it looks like an HTML page;`},
		{"binary", []byte("\x00\x01AWS_SECRET\x02\r\nmore\r\n"), 0, `not a WARC or ARC file: it looks like binary data;`},
		{"binary without a line end", []byte("\x89PNG\x00\x01AWS_SECRET\x02"), 0, `not a WARC or ARC file: it looks like binary data;`},
		{"text without a line end", []byte("AWS_SECRET_ACCESS_KEY=x"), 0, `not a WARC or ARC file: it looks like text;`},
		{"a long first line", []byte("AWS_SECRET_ACCESS_KEY=" + strings.Repeat("x", 1<<17)), 0, `not a WARC or ARC file: it looks like text;`},
		{"text after a record", append(append([]byte(nil), plain...), "\r\n"+secret...), int64(len(plain)) + 2,
			`no WARC record starts here: it starts with text, not "WARC/"`},
	} {
		err := Read(bytes.NewReader(c.in), "f.warc", func(*Record) error { return nil })
		var re *ReadError
		if !errors.As(err, &re) || re.Offset != c.at || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want a ReadError at byte offset %d saying %s", c.name, err, c.at, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "SECRET") {
			t.Errorf("%s: the error quotes the file: %v", c.name, err)
		}
	}
}
