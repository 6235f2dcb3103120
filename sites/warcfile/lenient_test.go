package warcfile

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// exampleRecords returns the records of warcio's example.warc.gz (two
// warcinfo records of Webrecorder, a response, its request, a revisit, its
// request), each as its
// bytes in the plain file, separator included.
func exampleRecords(t *testing.T) [][]byte {
	t.Helper()
	plain := plainRef(t, "example.warc.gz")
	var offs []int64
	if err := Read(bytes.NewReader(plain), "example.warc", func(r *Record) error {
		offs = append(offs, r.Offset)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	offs = append(offs, int64(len(plain)))
	var recs [][]byte
	for k := range len(offs) - 1 {
		recs = append(recs, plain[offs[k]:offs[k+1]])
	}
	return recs
}

// headerEnd is the length of rec's WARC header, its empty line included.
func headerEnd(rec []byte) int {
	if i := bytes.Index(rec, []byte("\r\n\r\n")); i >= 0 {
		return i + 4
	}
	return bytes.Index(rec, []byte("\r\r\n\r\r\n")) + 6
}

// inHeader replaces old by new in rec's WARC header only.
func inHeader(rec []byte, old, new string) []byte {
	h := headerEnd(rec)
	out := bytes.Replace(rec[:h], []byte(old), []byte(new), 1)
	return append(out, rec[h:]...)
}

// withLength gives rec the Content-Length n, its block unchanged.
func withLength(t *testing.T, rec []byte, n int) []byte {
	t.Helper()
	h := headerEnd(rec)
	lines := strings.Split(string(rec[:h]), "\r\n")
	found := false
	for k, l := range lines {
		if strings.HasPrefix(l, "Content-Length: ") {
			lines[k], found = fmt.Sprintf("Content-Length: %d", n), true
		}
	}
	if !found {
		t.Fatal("no Content-Length")
	}
	return append([]byte(strings.Join(lines, "\r\n")), rec[h:]...)
}

func blockLen(rec []byte) int { return len(rec) - headerEnd(rec) - 4 }

// gzipEach writes each record as its own gzip member, as wget, Heritrix
// and warcio write .warc.gz files.
func gzipEach(t *testing.T, recs [][]byte) []byte {
	t.Helper()
	var b bytes.Buffer
	for _, r := range recs {
		zw := gzip.NewWriter(&b)
		if _, err := zw.Write(r); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

type readResult struct {
	urls  []string
	kinds []string
	title bool // the response's page was read whole: its title is there
	warns map[string]int
	offs  []int64
	ins   []int64 // InMember of each record
	err   error
}

func readLenient(in []byte) readResult {
	res := readResult{warns: map[string]int{}}
	res.err = Read(bytes.NewReader(in), "f.warc", func(r *Record) error {
		res.urls = append(res.urls, r.URL)
		res.kinds = append(res.kinds, r.Kind)
		res.offs = append(res.offs, r.Offset)
		res.ins = append(res.ins, r.InMember)
		if r.Kind == KindResponse {
			body, _, err := r.Body(1 << 20)
			if err != nil {
				return err
			}
			res.title = bytes.Contains(body, []byte("<title>Example Domain</title>")) && bytes.HasSuffix(bytes.TrimSpace(body), []byte("</html>"))
		}
		return nil
	}, OnWarning(func(w Warning) { res.warns[w.Kind]++ }))
	return res
}

// TestReadLenient: records as real writers break the standard, each in
// warcio's example file (Webrecorder's records, the response's body gzip,
// so a byte lost or gained breaks it): all six records are read, the
// page whole, in the plain file, in a .warc.gz of one gzip member a record
// and in one gzipped whole (each record named by its place in the one
// member), each mended record counted once under its breach.
func TestReadLenient(t *testing.T) {
	recs := exampleRecords(t)
	if len(recs) != 6 || !bytes.Contains(recs[2], []byte("WARC-Type: response")) {
		t.Fatalf("example.warc.gz: %d records; want 6, the third the response", len(recs))
	}
	resp := recs[2]
	n := blockLen(resp)
	crcr := func(rec []byte) []byte {
		h := headerEnd(rec)
		return append(bytes.ReplaceAll(rec[:h], []byte("\r\n"), []byte("\r\r\n")), rec[h:]...)
	}
	for _, c := range []struct {
		name  string
		alter func(recs [][]byte) // alters recs[2], the response, or others
		warns map[string]int
	}{
		{"wget 1.19+ brackets", func(r [][]byte) {
			r[2] = inHeader(r[2], "WARC-Target-URI: http://example.com/", "WARC-Target-URI: <http://example.com/>")
			r[3] = inHeader(r[3], "WARC-Target-URI: http://example.com/", "WARC-Target-URI: <http://example.com/>")
		}, map[string]int{WarnBracketedURI: 2}},
		{"Content-Length 3 short", func(r [][]byte) { r[2] = withLength(t, r[2], n-3) }, map[string]int{WarnContentLength: 1}},
		{"Content-Length 3 long", func(r [][]byte) { r[2] = withLength(t, r[2], n+3) }, map[string]int{WarnContentLength: 1}},
		{"Content-Length 200 long", func(r [][]byte) { r[2] = withLength(t, r[2], n+200) }, map[string]int{WarnContentLength: 1}},
		{"Content-Length 40 short, of a warcinfo", func(r [][]byte) { r[1] = withLength(t, r[1], blockLen(r[1])-40) },
			map[string]int{WarnContentLength: 1}},
		{"CR CR LF", func(r [][]byte) { r[2] = crcr(r[2]) }, map[string]int{WarnCRCRLF: 1}},
		{"lower-case version", func(r [][]byte) { r[2] = bytes.Replace(r[2], []byte("WARC/1.0"), []byte("warc/1.0"), 1) },
			map[string]int{WarnLowerCaseVersion: 1}},
		{"WARC 0.17 folded lines", func(r [][]byte) {
			for k := range r {
				r[k] = inHeader(r[k], "WARC/1.0", "WARC/0.17")
			}
			r[2] = inHeader(r[2], "Content-Type: application/http; msgtype=response", "Content-Type: application/http;\r\n\tmsgtype=response")
			r[3] = inHeader(r[3], "WARC-Concurrent-To: <urn:uuid:a9c51e3e-0221-11e7-bf66-0242ac120005>",
				"WARC-Concurrent-To:\r\n <urn:uuid:a9c51e3e-0221-11e7-bf66-0242ac120005>")
		}, map[string]int{WarnFoldedHeader: 2}},
	} {
		for _, gz := range []string{"plain", "gzip", "gzip whole"} {
			name := c.name + " (" + gz + ")"
			r := make([][]byte, len(recs))
			for k := range recs {
				r[k] = slices.Clone(recs[k])
			}
			c.alter(r)
			in := bytes.Join(r, nil)
			var wantOffs, wantIns []int64
			at := 0
			for k := range r {
				switch gz {
				case "gzip":
					wantOffs, wantIns = append(wantOffs, int64(at)), append(wantIns, 0)
					at += len(gzipEach(t, r[k:k+1]))
				case "gzip whole":
					wantOffs, wantIns = append(wantOffs, 0), append(wantIns, int64(at))
					at += len(r[k])
				default:
					wantOffs, wantIns = append(wantOffs, int64(at)), append(wantIns, 0)
					at += len(r[k])
				}
			}
			switch gz {
			case "gzip":
				in = gzipEach(t, r)
			case "gzip whole":
				in = gzipBytes(t, in)
			}
			got := readLenient(in)
			if got.err != nil || !slices.Equal(got.kinds, []string{KindOther, KindOther, KindResponse, KindRequest, KindRevisit, KindRequest}) ||
				got.urls[2] != "http://example.com/" || got.urls[3] != "http://example.com/" || !got.title {
				t.Errorf("%s: records %v %q, page whole %v, error %v; want warcinfo, warcinfo, response, request, revisit, request, of http://example.com/, no error",
					name, got.kinds, got.urls, got.title, got.err)
				continue
			}
			if !slices.Equal(got.offs, wantOffs) || !slices.Equal(got.ins, wantIns) {
				t.Errorf("%s: offsets %v in members %v, want %v in %v", name, got.offs, got.ins, wantOffs, wantIns)
			}
			if fmt.Sprint(got.warns) != fmt.Sprint(c.warns) {
				t.Errorf("%s: warnings %v, want %v", name, got.warns, c.warns)
			}
		}
	}
}

// TestReadContentLengthTooFar: a Content-Length further off than the
// resynchronisation looks is refused, naming the record's offset and where
// its Content-Length ends it; the records before it are handed over.
func TestReadContentLengthTooFar(t *testing.T) {
	recs := exampleRecords(t)
	// Two warcinfo records with long blocks: the first's Content-Length
	// ends it inside the second's block, over 4 KiB from any record.
	pad := func(rec []byte) []byte {
		h := headerEnd(rec)
		long := append(append(slices.Clone(rec[:h]), bytes.Repeat([]byte("x: padding of a long warcinfo\r\n"), 400)...), rec[h:]...)
		return withLength(t, long, blockLen(long))
	}
	off := ResyncWindow + 100
	long := withLength(t, pad(recs[1]), blockLen(pad(recs[1]))+off)
	recs5 := [][]byte{recs[0], long, pad(recs[1]), recs[2], recs[3]}
	got := readLenient(bytes.Join(recs5, nil))
	var re *ReadError
	at := int64(len(recs[0]))
	end := at + int64(headerEnd(long)) + int64(blockLen(long)+off)
	want := fmt.Sprintf("its Content-Length (%d) ends it at byte offset %d, where no record starts, nor within %d bytes either way",
		blockLen(long)+off, end, ResyncWindow)
	if !errors.As(got.err, &re) || re.Offset != at || !strings.Contains(got.err.Error(), want) || len(got.kinds) != 1 {
		t.Errorf("%d records, error %v; want 1 record, then a ReadError at offset %d saying %s", len(got.kinds), got.err, at, want)
	}
	// The same record in a gzip member: the member ends the record, so it
	// is read with a warning.
	got = readLenient(gzipEach(t, recs5))
	if got.err != nil || len(got.kinds) != 5 || got.warns[WarnContentLength] != 1 || !got.title {
		t.Errorf("gzip: %d records, warnings %v, page whole %v, error %v; want 5 records, 1 Content-Length warning, the page whole",
			len(got.kinds), got.warns, got.title, got.err)
	}
}

// BenchmarkRead reads the WARC file named by SITESIFT_BENCH_WARC (one that
// bench/gen writes, say) from memory, bodies included: the reader alone,
// without an import's extraction and storage.
func BenchmarkRead(b *testing.B) {
	path := os.Getenv("SITESIFT_BENCH_WARC")
	if path == "" {
		b.Skip("SITESIFT_BENCH_WARC names no WARC file")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for range b.N {
		err := Read(bytes.NewReader(data), path, func(r *Record) error {
			if r.Kind == KindResponse {
				_, _, err := r.Body(1 << 20)
				return err
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// TestReadWarnsSpaceInURI: a WARC-Target-URI holding a raw space is read as
// written, and warned of, naming the URI, as warcio warns of it.
func TestReadWarnsSpaceInURI(t *testing.T) {
	recs := exampleRecords(t)
	recs[2] = inHeader(recs[2], "WARC-Target-URI: http://example.com/", "WARC-Target-URI: http://example.com/a b")
	var warns []Warning
	var urls []string
	err := Read(bytes.NewReader(bytes.Join(recs, nil)), "space.warc", func(r *Record) error {
		urls = append(urls, r.URL)
		return nil
	}, OnWarning(func(w Warning) { warns = append(warns, w) }))
	if err != nil || len(urls) != len(recs) || urls[2] != "http://example.com/a b" {
		t.Fatalf("records %q, error %v; want %d, the response's URL as written", urls, err, len(recs))
	}
	off := int64(len(recs[0]) + len(recs[1]))
	if len(warns) != 1 || warns[0].Kind != WarnSpaceInURI || warns[0].Offset != off ||
		!strings.Contains(warns[0].Detail, `"http://example.com/a b"`) {
		t.Errorf("warnings %+v; want one %s at offset %d naming the URI", warns, "space_in_uri", off)
	}
}
