package warcfile

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/nlnwa/gowarc"

	"sitesift/sites"
)

// TestResponseRecordHoldsNoCopyOfTheBody: building the response record of
// a 10 MiB capture allocates a small part of the body (the record's content
// goes to disk past a megabyte), not another copy of it beside the header.
func TestResponseRecordHoldsNoCopyOfTheBody(t *testing.T) {
	body := strings.Repeat("<p>a page of text</p>\n", (10<<20)/22)
	c := capture("http://a.test/", body, time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC))
	t.Setenv("TMPDIR", t.TempDir()) // where the record's content goes past its memory

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	rec, err := responseRecord(c, c.At)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	alloc := after.TotalAlloc - before.TotalAlloc
	if alloc > uint64(len(body))/2 {
		t.Errorf("the response record of a %d-byte body allocated %d bytes; want at most half the body", len(body), alloc)
	}
}

// TestWriteBodyFromFile: a capture whose body is in a file is archived as
// the same capture with its body in memory would be, its digests included.
func TestWriteBodyFromFile(t *testing.T) {
	body := strings.Repeat("<p>a page of text</p>\n", (3<<20)/22)
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	f, err := os.CreateTemp(t.TempDir(), "body")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(body + "and what follows the body in the file"); err != nil {
		t.Fatal(err)
	}
	var digests []string
	for i, c := range []sites.Capture{capture("http://a.test/", body, at), capture("http://a.test/", body, at)} {
		if i == 1 {
			c.Body, c.BodyFile, c.BodySize = nil, f, int64(len(body))
		}
		dir := t.TempDir()
		w := openT(t, dir, Options{})
		if err := w.Write(c); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		recs := readAll(t, filepath.Join(dir, finished(t, dir)[0]))
		h := recs[1].WarcHeader()
		digests = append(digests, h.Get(gowarc.WarcBlockDigest)+" "+h.Get(gowarc.WarcPayloadDigest)+" "+h.Get(gowarc.ContentLength))
	}
	if digests[0] != digests[1] {
		t.Errorf("the body from a file made a record of digests and length %s; want %s, those of the body in memory", digests[1], digests[0])
	}
}
