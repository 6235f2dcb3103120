package warcfile

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"sitesift/internal/refdata"
)

// plainRef returns the reference file name decompressed: its records one
// after another, as gzip -d gives them.
func plainRef(t *testing.T, name string) []byte {
	t.Helper()
	zb, err := os.ReadFile(refdata.Shared(t, "warc", name))
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(zb))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return plain
}

func gzipBytes(t *testing.T, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// arcRecord is one record of an ARC file: its line, without the newline,
// and its body.
type arcRecord struct {
	line string
	body []byte
}

// arcOf writes the captures of the plain WARC file plain as an ARC v1
// file's records would hold them, as an ARC writer of the same crawl
// would: each response record's HTTP response, head and body as they
// came, under a line naming its URL, IP address, date, media type and
// length, after a filedesc header. Other records (requests, revisits,
// metadata) have no ARC form.
func arcOf(t *testing.T, plain []byte) []arcRecord {
	t.Helper()
	desc := "1 1 InternetArchive\nURL IP-address Archive-date Content-type Archive-length\n\n"
	out := []arcRecord{{fmt.Sprintf("filedesc://iana.arc 0.0.0.0 20140126200624 text/plain %d", len(desc)), []byte(desc)}}
	br := bufio.NewReader(bytes.NewReader(plain))
	for {
		version, err := br.ReadString('\n')
		if err == io.EOF {
			return out
		}
		if err != nil || !strings.HasPrefix(version, "WARC/") {
			t.Fatalf("WARC record line %q: %v", version, err)
		}
		h := map[string]string{}
		for {
			l, err := br.ReadString('\n')
			if err != nil {
				t.Fatal(err)
			}
			if l = strings.TrimRight(l, "\r\n"); l == "" {
				break
			}
			k, v, _ := strings.Cut(l, ":")
			h[strings.ToLower(k)] = strings.TrimSpace(v)
		}
		n, err := strconv.Atoi(h["content-length"])
		if err != nil {
			t.Fatal(err)
		}
		block := make([]byte, n)
		if _, err := io.ReadFull(br, block); err != nil {
			t.Fatal(err)
		}
		if _, err := br.Discard(4); err != nil { // CRLF CRLF
			t.Fatal(err)
		}
		if h["warc-type"] != "response" {
			continue
		}
		date, err := time.Parse(time.RFC3339, h["warc-date"])
		if err != nil {
			t.Fatal(err)
		}
		ip := h["warc-ip-address"]
		if ip == "" {
			ip = "0.0.0.0"
		}
		mt := "no-type"
		head, _, _ := bytes.Cut(block, []byte("\r\n\r\n"))
		for _, l := range strings.Split(string(head), "\r\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.EqualFold(k, "Content-Type") {
				mt = mediaType(v)
			}
		}
		out = append(out, arcRecord{fmt.Sprintf("%s %s %s %s %d", h["warc-target-uri"], ip, date.UTC().Format("20060102150405"), mt, n), block})
	}
}

// Ways of writing an ARC file.
const (
	arcPlain     = "plain"
	arcPerRecord = "gzip per record"
	arcWhole     = "gzip whole"
)

// writeARC writes recs as an ARC file: each record's line, a newline, its
// body and a newline; plain, each record its own gzip member, or the
// whole file gzipped.
func writeARC(t *testing.T, recs []arcRecord, how string) []byte {
	t.Helper()
	var out bytes.Buffer
	for _, r := range recs {
		b := append(append([]byte(r.line+"\n"), r.body...), '\n')
		if how == arcPerRecord {
			b = gzipBytes(t, b)
		}
		out.Write(b)
	}
	if how == arcWhole {
		return gzipBytes(t, out.Bytes())
	}
	return out.Bytes()
}

// seen is what a reader handed over of a response: what an import keeps.
type seen struct {
	URL, ContentType, Location string
	Date                       time.Time
	Status                     int
	Body                       [32]byte
	Truncated                  bool
	BodyErr                    string
}

// responses reads the file b and returns what it handed over of its
// responses, its layout and its error.
func responses(b []byte, name string) ([]seen, Layout, error) {
	var out []seen
	l, err := ReadFile(bytes.NewReader(b), name, func(r *Record) error {
		if r.Kind != KindResponse {
			return nil
		}
		body, trunc, err := r.Body(1 << 20)
		s := seen{URL: r.URL, Date: r.Date.Truncate(time.Second), Status: r.Status, Body: sha256.Sum256(body), Truncated: trunc}
		if r.Header != nil {
			s.ContentType, s.Location = r.Header.Get("Content-Type"), r.Header.Get("Location")
		}
		if err != nil {
			s.BodyErr = err.Error()
		}
		out = append(out, s)
		return nil
	})
	return out, l, err
}

// TestReadARCAsWARC: the captures of the reference WARC file written as an
// ARC file, plain, gzip per record and gzip whole, read as the WARC file
// does: the same responses, URL, date, status, headers and body (48 of
// them), and the layout of each.
func TestReadARCAsWARC(t *testing.T) {
	zb, err := os.ReadFile(refdata.Shared(t, "warc", "iana.warc.gz"))
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := responses(zb, "iana.warc.gz")
	if err != nil || len(want) != 48 {
		t.Fatalf("WARC file: %d responses, %v; want 48", len(want), err)
	}
	recs := arcOf(t, plainRef(t, "iana.warc.gz"))
	for _, c := range []struct {
		how  string
		want Layout
	}{
		{arcPlain, Layout{Format: FormatARC}},
		{arcPerRecord, Layout{Format: FormatARC, Gzip: GzipPerRecord, Members: 49}},
		{arcWhole, Layout{Format: FormatARC, Gzip: GzipShared, Members: 1, SharedMembers: 1, SharedRecords: 49}},
	} {
		got, l, err := responses(writeARC(t, recs, c.how), "iana.arc")
		if err != nil {
			t.Errorf("ARC %s: %v", c.how, err)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("ARC %s: %d responses differ from the WARC file's %d", c.how, len(got), len(want))
			for k := range min(len(got), len(want)) {
				if got[k] != want[k] {
					t.Errorf("first difference, response %d: ARC %+v, WARC %+v", k, got[k], want[k])
					break
				}
			}
		}
		if l != c.want {
			t.Errorf("ARC %s: layout %+v, want %+v", c.how, l, c.want)
		}
	}
}

// TestReadARCBroken: an ARC file cut inside a record, or with bytes that
// start no record between two, is a ReadError at the record's offset (a
// record cut inside its body is handed over first, its body short); a
// version 2 file (ten fields a line) is read by the names its header
// gives.
func TestReadARCBroken(t *testing.T) {
	recs := arcOf(t, plainRef(t, "iana.warc.gz"))
	plain := writeARC(t, recs, arcPlain)
	var offs []int64
	for k, o := 0, 0; k < len(recs); k++ {
		offs = append(offs, int64(o))
		o += len(recs[k].line) + 1 + len(recs[k].body) + 1
	}
	count := func(b []byte) (n int, err error) {
		err = Read(bytes.NewReader(b), "x.arc", func(*Record) error { n++; return nil })
		return n, err
	}
	junk := append(append(append([]byte(nil), plain[:offs[5]]...), "<html><body>oops</body></html>\n"...), plain[offs[5]:]...)
	for _, c := range []struct {
		name string
		in   []byte
		at   int64
		kept int
		want string
	}{
		{"cut inside a body", plain[:offs[10]-100], offs[9], 10, "truncated"},
		{"cut inside a line", plain[:offs[10]+20], offs[10], 10, "truncated"},
		{"junk between records", junk, offs[5], 5, "no ARC record starts here: it looks like an HTML page"},
	} {
		n, err := count(c.in)
		var re *ReadError
		if !errors.As(err, &re) || re.Offset != c.at || n != c.kept || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %d records, %v; want %d, then a ReadError at offset %d saying %q", c.name, n, err, c.kept, c.at, c.want)
		}
	}
	// Gzip per record, cut inside the 10th record's member (its
	// checksum): the error names where the member starts in the file.
	var zb []byte
	var zoffs []int64
	for _, r := range recs {
		zoffs = append(zoffs, int64(len(zb)))
		zb = append(zb, writeARC(t, []arcRecord{r}, arcPerRecord)...)
	}
	n, err := count(zb[:zoffs[10]-5])
	var re *ReadError
	if !errors.As(err, &re) || re.Offset != zoffs[9] || re.InMember != 0 || n != 10 {
		t.Errorf("gzip per record, cut: %d records, %v; want 10, then a ReadError at offset %d", n, err, zoffs[9])
	}

	desc := "2 0 Alexa Internet\nURL IP-address Archive-date Content-type Result-code Checksum Location Offset Filename Archive-length\n\n"
	v2 := fmt.Sprintf("filedesc://v2.arc 0.0.0.0 20060101000000 text/plain %d\n%s\n", len(desc), desc)
	body := "HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n<p>hi</p>"
	v2 += fmt.Sprintf("http://example.com/a b.html 192.0.2.1 20060102030405 text/html 200 abc - 1234 v2.arc %d\n%s\n", len(body), body)
	var got []*Record
	err = Read(strings.NewReader(v2), "v2.arc", func(r *Record) error {
		b, _, _ := r.Body(100)
		if r.Kind == KindResponse && string(b) != "<p>hi</p>" {
			t.Errorf("version 2 body %q", b)
		}
		got = append(got, r)
		return nil
	})
	if err != nil || len(got) != 2 || got[1].URL != "http://example.com/a b.html" || got[1].Status != 200 ||
		!got[1].Date.Equal(time.Date(2006, 1, 2, 3, 4, 5, 0, time.UTC)) {
		t.Errorf("version 2 file: %v, records %+v", err, got)
	}
}

// FuzzReadARC: no input that starts as an ARC file does, plain or gzip,
// makes the reader panic or hang; a read that fails says so with a
// ReadError.
func FuzzReadARC(f *testing.F) {
	desc := "1 1 InternetArchive\nURL IP-address Archive-date Content-type Archive-length\n\n"
	body := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n<p>x<\r\n0\r\n\r\n"
	arc := fmt.Sprintf("filedesc://f.arc 0.0.0.0 20060102030405 text/plain %d\n%s\nhttp://example.com/ 192.0.2.1 20060102030405 text/html %d\n%s\n",
		len(desc), desc, len(body), body)
	f.Add([]byte(arc))
	f.Add([]byte(arc[:len(arc)/2]))
	var zb bytes.Buffer
	zw := gzip.NewWriter(&zb)
	zw.Write([]byte(arc))
	zw.Close()
	f.Add(zb.Bytes())
	f.Fuzz(func(t *testing.T, in []byte) {
		err := Read(bytes.NewReader(in), "f.arc", func(r *Record) error {
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
