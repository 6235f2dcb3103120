package warcfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nlnwa/gowarc"

	"sitesift/internal/refdata"
	"sitesift/sites"
)

func capture(u, body string, at time.Time) sites.Capture {
	return sites.Capture{
		Method: "GET", URL: u,
		RequestHeader: http.Header{"Host": {"a.test"}, "User-Agent": {"sitesift-test"}},
		Proto:         "HTTP/1.1", StatusCode: 200, Status: "200 OK",
		ResponseHeader: http.Header{"Content-Type": {"text/html; charset=utf-8"},
			"Content-Length": {fmt.Sprint(len(body))}},
		Body: []byte(body), RemoteIP: "192.0.2.7", At: at,
	}
}

func openT(t *testing.T, dir string, opts Options) *Writer {
	t.Helper()
	if opts.Software == "" {
		opts.Software = "sitesift/test"
	}
	w, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// readAll reads every record of the WARC file at path with gowarc, failing
// on any invalid record (digests included), and returns them in order.
func readAll(t *testing.T, path string) []gowarc.WarcRecord {
	t.Helper()
	r, err := gowarc.NewWarcFileReader(path, 0, gowarc.WithStrictValidation())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out []gowarc.WarcRecord
	for {
		rec, off, val, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("%s at %d: %v", path, off, err)
		}
		if !val.Valid() {
			t.Fatalf("%s at %d: %v", path, off, val)
		}
		if err := rec.Block().Cache(); err != nil {
			t.Fatal(err)
		}
		out = append(out, rec)
	}
}

func finished(t *testing.T, dir string) []string {
	t.Helper()
	fs, err := warcFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

func TestWriteReadBack(t *testing.T) {
	dir := t.TempDir()
	w := openT(t, dir, Options{Operator: "archive@example.org", UserAgent: "sitesift-test"})
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for i, c := range []sites.Capture{
		capture("http://a.test/", "<p>one</p>", at),
		capture("http://a.test/two", "<p>two</p>", at.Add(time.Second)),
		capture("http://a.test/?utm=x", "<p>one</p>", at.Add(2*time.Second)), // same payload: a revisit
	} {
		if i == 1 {
			c.Truncated = sites.TruncatedLength
		}
		if err := w.Write(c); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	files := finished(t, dir)
	if len(files) != 1 || !strings.HasPrefix(files[0], "sitesift-") {
		t.Fatalf("files %v", files)
	}
	recs := readAll(t, filepath.Join(dir, files[0]))
	var types []string
	for _, r := range recs {
		types = append(types, r.Type().String())
	}
	if got := strings.Join(types, " "); got != "warcinfo response request response request revisit request" {
		t.Fatalf("records: %s", got)
	}
	info, _ := io.ReadAll(must(recs[0].Block().RawBytes()))
	for _, want := range []string{"software: sitesift/test", "robots: obey", "operator: archive@example.org", "format: WARC File Format 1.1"} {
		if !bytes.Contains(info, []byte(want)) {
			t.Errorf("warcinfo lacks %q:\n%s", want, info)
		}
	}
	resp := recs[1].WarcHeader()
	for _, f := range []string{gowarc.WarcBlockDigest, gowarc.WarcPayloadDigest} {
		if !strings.HasPrefix(resp.Get(f), "sha1:") || len(resp.Get(f)) != 5+32 {
			t.Errorf("%s = %q, want sha1 in base32", f, resp.Get(f))
		}
	}
	if resp.Get(gowarc.WarcIPAddress) != "192.0.2.7" || resp.Get(gowarc.WarcDate) != "2026-03-01T12:00:00Z" {
		t.Errorf("response header %v", resp)
	}
	if recs[3].WarcHeader().Get(gowarc.WarcTruncated) != "length" {
		t.Error("truncated capture lacks WARC-Truncated: length")
	}
	if recs[2].WarcHeader().GetId(gowarc.WarcConcurrentTo) != recs[1].RecordId() {
		t.Error("request does not point to its response")
	}
	rv := recs[5].WarcHeader()
	if rv.Get(gowarc.WarcProfile) != gowarc.ProfileIdenticalPayloadDigestV1_1 ||
		rv.Get(gowarc.WarcRefersToTargetURI) != "http://a.test/" ||
		rv.Get(gowarc.WarcRefersToDate) != "2026-03-01T12:00:00Z" ||
		rv.GetId(gowarc.WarcRefersTo) != recs[1].RecordId() ||
		rv.Get(gowarc.WarcPayloadDigest) != resp.Get(gowarc.WarcPayloadDigest) {
		t.Errorf("revisit header %v", rv)
	}
	checkIndex(t, dir, files[0], 3)
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// checkIndex checks that the index of warc has n sorted lines and that each
// points at a record of its URL, date and digest.
func checkIndex(t *testing.T, dir, warc string, n int) {
	t.Helper()
	lines, err := readLines(filepath.Join(dir, indexName(warc)))
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != n {
		t.Fatalf("%s: %d index lines, want %d", warc, len(lines), n)
	}
	data, err := os.ReadFile(filepath.Join(dir, warc))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.IsSorted(lines) {
		t.Errorf("%s: index not sorted", warc)
	}
	for _, l := range lines {
		e, err := ParseLine(l)
		if err != nil {
			t.Fatal(err)
		}
		// The record alone, from its offset and length, reads whole.
		r, err := gowarc.NewWarcFileReaderFromStream(bytes.NewReader(data[e.Offset:e.Offset+e.Length]), 0, gowarc.WithStrictValidation())
		if err != nil {
			t.Fatal(err)
		}
		rec, _, _, err := r.Next()
		if err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		got, _ := entryOf(rec)
		got.Offset, got.Length, got.Filename = e.Offset, e.Length, warc
		if got != e {
			t.Errorf("line %q\nrecord %q", l, got)
		}
		if _, _, _, err := r.Next(); !errors.Is(err, io.EOF) {
			t.Errorf("line %q: length covers more than one record (%v)", l, err)
		}
		r.Close()
	}
}

func TestRevisitAcrossWriters(t *testing.T) {
	dir := t.TempDir()
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for i := range 2 {
		w := openT(t, dir, Options{})
		if err := w.Write(capture("http://a.test/", "same", at.Add(time.Duration(i)*time.Hour))); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	files := finished(t, dir)
	if len(files) != 2 {
		t.Fatalf("files %v", files)
	}
	recs := readAll(t, filepath.Join(dir, files[1]))
	if recs[1].Type() != gowarc.Revisit || recs[1].WarcHeader().Get(gowarc.WarcRefersToDate) != "2026-03-01T12:00:00Z" {
		t.Fatalf("second crawl's capture: %v %v", recs[1].Type(), recs[1].WarcHeader())
	}
	checkIndex(t, dir, files[1], 1)
}

func TestRotation(t *testing.T) {
	dir := t.TempDir()
	w := openT(t, dir, Options{MaxFileSize: 4000})
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for i := range 20 {
		// Payloads that do not compress, so that files fill.
		body := fmt.Sprintf("%x", bytes.Repeat([]byte{byte(i), byte(i * 7)}, 300)) + fmt.Sprint(time.Now().UnixNano()*int64(i+1))
		if err := w.Write(capture(fmt.Sprintf("http://a.test/%d", i), body, at)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	files := finished(t, dir)
	if len(files) < 3 {
		t.Fatalf("%d files, want several", len(files))
	}
	total := 0
	for _, f := range files {
		recs := readAll(t, filepath.Join(dir, f))
		if recs[0].Type() != gowarc.Warcinfo {
			t.Errorf("%s begins with %v", f, recs[0].Type())
		}
		lines, _ := readLines(filepath.Join(dir, indexName(f)))
		checkIndex(t, dir, f, len(lines))
		total += len(lines)
	}
	if total != 20 {
		t.Errorf("%d captures indexed, want 20", total)
	}
	list, err := List(dir)
	if err != nil || len(list) != len(files) || list[0].Records == 0 {
		t.Errorf("List = %+v, %v", list, err)
	}
}

// TestRecoverOpenFile cuts the file being written in the middle of a record,
// as a kill would, and opens the directory again.
func TestRecoverOpenFile(t *testing.T) {
	dir := t.TempDir()
	w := openT(t, dir, Options{})
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for i := range 5 {
		if err := w.Write(capture(fmt.Sprintf("http://a.test/%d", i), fmt.Sprintf("page %d", i), at)); err != nil {
			t.Fatal(err)
		}
	}
	// The process dies here: no Close. Keep the file as it is now, then cut
	// it in the middle of the last record (the request of /4).
	var open string
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".warc.gz.open") {
			open = filepath.Join(dir, e.Name())
		}
	}
	if open == "" {
		t.Fatal("no .open file while writing")
	}
	data, err := os.ReadFile(open)
	if err != nil {
		t.Fatal(err)
	}
	idx, _ := readLines(filepath.Join(dir, indexName(strings.TrimSuffix(filepath.Base(open), openSuffix))+openSuffix))
	last, _ := ParseLine(idx[len(idx)-1])
	cut := last.Offset + last.Length + 10 // inside the request record after /4's response
	w.Close()                             // release gowarc's goroutines; the files are rewritten below
	os.WriteFile(open, data[:cut], 0o644)
	name := strings.TrimSuffix(filepath.Base(open), openSuffix)
	os.Remove(filepath.Join(dir, name))
	os.Remove(filepath.Join(dir, indexName(name)))
	os.WriteFile(filepath.Join(dir, indexName(name)+openSuffix), []byte(strings.Join(idx, "\n")+"\n"), 0o644)

	w2 := openT(t, dir, Options{})
	defer w2.Close()
	if len(w2.Recovered) != 1 || w2.Recovered[0] != name {
		t.Fatalf("recovered %v, want %s", w2.Recovered, name)
	}
	if _, err := os.Stat(open); !errors.Is(err, os.ErrNotExist) {
		t.Error(".open file left")
	}
	recs := readAll(t, filepath.Join(dir, name))
	if len(recs) != 1+2*4+1 || recs[len(recs)-1].Type() != gowarc.Response {
		t.Fatalf("%d records after recovery, want the warcinfo, 4 pairs and the last response", len(recs))
	}
	if fi, _ := os.Stat(filepath.Join(dir, name)); fi.Size() != last.Offset+last.Length {
		t.Errorf("cut at %d, want %d", fi.Size(), last.Offset+last.Length)
	}
	checkIndex(t, dir, name, 5)
}

func TestSURT(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"http://www.iana.org/", "org,iana)/"},
		{"http://www.iana.org/_css/2013.1/fonts/Inconsolata.otf", "org,iana)/_css/2013.1/fonts/inconsolata.otf"},
		{"https://Example.org:8443/A?b=1&a=2#x", "org,example:8443)/a?a=2&b=1"},
		{"https://example.org:443", "org,example)/"},
		{"http://www.iana.org/domains/root/db/", "org,iana)/domains/root/db"},
	} {
		if got := SURT(c.in); got != c.want {
			t.Errorf("SURT(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// refIndex indexes the reference WARC file named name, skipping the test
// when the reference files are absent.
func refIndex(t *testing.T, name string) []Entry {
	t.Helper()
	f, err := os.Open(refdata.Shared(t, "warc", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	entries, bad, err := ReadIndex(f, name)
	if err != nil {
		t.Fatal(err)
	}
	if bad != 0 {
		t.Errorf("%s: %d invalid records", name, bad)
	}
	return entries
}

// TestReadIndexIANA indexes pywb's sample crawl of www.iana.org and compares
// with the CDX index published with it.
func TestReadIndexIANA(t *testing.T) {
	entries := refIndex(t, "iana.warc.gz")
	want, err := readLines(refdata.Shared(t, "warc", "iana.cdx"))
	if err != nil {
		t.Fatal(err)
	}
	want = want[1:] // the header line
	got := map[string]bool{}
	for _, e := range entries {
		status := e.Status
		if e.Mime == "warc/revisit" {
			status = "-"
		}
		// CDX N b a m s k r M S V g
		got[strings.Join([]string{e.SURT, e.Timestamp, e.URL, e.Mime, status, e.Digest, "-", "-",
			fmt.Sprint(e.Length), fmt.Sprint(e.Offset), e.Filename}, " ")] = true
	}
	if len(entries) != len(want) {
		t.Errorf("%d entries, the CDX has %d", len(entries), len(want))
	}
	for _, l := range want {
		if !got[l] {
			t.Errorf("no entry matches CDX line %q", l)
		}
	}
}

func TestReadIndexExample(t *testing.T) {
	entries := refIndex(t, "example.warc.gz")
	if len(entries) != 2 || entries[1].Mime != "warc/revisit" || entries[0].SURT != "com,example)/" || entries[0].Digest != "G7HRM7BGOKSKMSXZAHMUQTTV53QOFSMK" || entries[0].Status != "200" {
		t.Errorf("entries %+v", entries)
	}
}
