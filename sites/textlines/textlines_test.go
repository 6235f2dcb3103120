package textlines

import (
	"bytes"
	"compress/gzip"
	"errors"
	"strings"
	"testing"
)

func collect(t *testing.T, data []byte, maxLine int) ([]string, error) {
	t.Helper()
	var got []string
	err := Scan(bytes.NewReader(data), maxLine, func(n int64, line []byte) error {
		if int(n) != len(got)+1 {
			t.Fatalf("line number %d after %d lines", n, len(got))
		}
		got = append(got, string(line))
		return nil
	})
	return got, err
}

func gz(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestScanPlainAndGzip(t *testing.T) {
	for name, data := range map[string][]byte{"plain": []byte("a\nb b\n\nc"), "gzip": gz(t, "a\nb b\n\nc")} {
		got, err := collect(t, data, 1<<10)
		if err != nil || strings.Join(got, "|") != "a|b b||c" {
			t.Errorf("%s: %q, %v", name, got, err)
		}
	}
}

func TestScanStops(t *testing.T) {
	whole := gz(t, strings.Repeat("line of a file\n", 2000))
	var e *Error
	// Cut anywhere, the file's lines before the cut are given whole, never
	// the part of a line before it, and the error names the next line.
	for cut := len(whole) / 2; cut < len(whole)/2+40; cut++ {
		got, err := collect(t, whole[:cut], 1<<10)
		if !errors.As(err, &e) || e.Line != int64(len(got))+1 || len(got) < 2 || !strings.Contains(err.Error(), "truncated") {
			t.Errorf("a gzip file cut at byte %d: %d lines, %v; want a truncated error at the line after them", cut, len(got), err)
		}
		for i, l := range got {
			if l != "line of a file" {
				t.Fatalf("a gzip file cut at byte %d: line %d given as %q, part of a line", cut, i+1, l)
			}
		}
	}
	got, err := collect(t, []byte("short\n"+strings.Repeat("x", 100)+"\n"), 50)
	if !errors.As(err, &e) || e.Line != 2 || !strings.Contains(err.Error(), "a line over 50 bytes") || len(got) != 1 {
		t.Errorf("a long line: %q, %v; want line 2 named", got, err)
	}
	stop := errors.New("stop")
	if err := Scan(strings.NewReader("a\nb\n"), 10, func(int64, []byte) error { return stop }); err != stop {
		t.Errorf("fn's error: %v, want it as it is", err)
	}
}

// A byte-order mark before the first line is not part of it, plain or
// gzip; one elsewhere is the line's.
func TestScanByteOrderMark(t *testing.T) {
	for name, data := range map[string][]byte{
		"plain": []byte("\uFEFF CDX N b a\n\uFEFFx\n"),
		"gzip":  gz(t, "\uFEFF CDX N b a\n\uFEFFx\n"),
	} {
		got, err := collect(t, data, 1<<10)
		if err != nil || len(got) != 2 || got[0] != " CDX N b a" || got[1] != "\uFEFFx" {
			t.Errorf("%s: %q, %v", name, got, err)
		}
	}
}

// Describe names the kind of data in words and never quotes it.
func TestDescribe(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"AWS_SECRET_ACCESS_KEY=abcdef123\n", "text"},
		{"\uFEFFplain words", "text"},
		{"caf\xc3", "text"}, // a UTF-8 sequence cut by the end of the bytes read
		{"", "nothing (no bytes)"},
		{" \r\n", "blank space"},
		{"\x1f\x8b\x08\x00", "gzip data"},
		{"PK\x03\x04zip", "a ZIP archive"},
		{"%PDF-1.7", "a PDF document"},
		{"\x00\x01secret", "binary data"},
		{"ab\xff\xfecd", "binary data"},
		{"WARC/1.1\r\n", "a WARC record"},
		{"  <!DOCTYPE html><html>", "an HTML page"},
		{"<html lang=en>", "an HTML page"},
		{"<?xml version=\"1.0\"?>", "an XML document"},
		{"<img/src=x>", "markup (HTML or XML)"},
		{`{"key": "secret"}`, "JSON"},
	} {
		got := Describe([]byte(tc.in))
		if got != tc.want {
			t.Errorf("Describe(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if len(tc.in) > 3 && strings.Contains(got, strings.TrimSpace(tc.in)[:3]) && tc.want != "a WARC record" {
			t.Errorf("Describe(%q) = %q quotes its input", tc.in, got)
		}
	}
}
