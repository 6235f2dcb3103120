package warcfile

import (
	"runtime"
	"strings"
	"testing"
	"time"
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
