package cdx

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestReadReference: the 11-column reference index reads whole, every line
// a capture with its URL and time.
func TestReadReference(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "..", "..", "shared", "data", "warc", "iana.cdx"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var n, revisits int
	var first Capture
	err = Read(f, "iana.cdx", func(c Capture) error {
		if n == 0 {
			first = c
		}
		n++
		if c.Mime == "warc/revisit" {
			revisits++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != 171 || revisits != 123 {
		t.Errorf("%d captures, %d revisits; want 171 and 123", n, revisits)
	}
	if first.URL != "http://www.iana.org/" || !first.Time.Equal(time.Date(2014, 1, 26, 20, 6, 24, 0, time.UTC)) || first.Key != "org,iana)/" {
		t.Errorf("first capture %+v", first)
	}
}

func TestReadLines(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     int    // captures
		err      string // "" for none
	}{
		{"cdxj", `org,x)/ 20200102030405 {"url": "http://x.org/", "mime": "text/html", "status": "200"}` + "\n", 1, ""},
		{"9 columns with legend", " CDX N b a m s k r V g\norg,x)/ 2020 http://x.org/ text/html 200 D - 0 f.warc.gz\n", 1, ""},
		{"blank lines", "\n\norg,x)/ 20200102030405 http://x.org/ text/html 200 D - - 1 0 f.warc.gz\n\n", 1, ""},
		{"bad time", "org,x)/ 2020x http://x.org/ text/html 200 D - - 1 0 f.warc.gz\n", 0, "line 1: timestamp"},
		{"bad json", "ok 20200101000000 {\"url\": \n", 0, "line 1: CDXJ"},
		{"too few fields", "org,x)/ 20200101000000\n", 0, "line 1"},
		{"legend without url", " CDX N b m s\n", 0, "line 1: legend"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := 0
			err := Read(strings.NewReader(tc.in), "f.cdx", func(Capture) error { n++; return nil })
			if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Fatalf("error %v, want %q", err, tc.err)
			}
			var pe *ParseError
			if err != nil && !errors.As(err, &pe) {
				t.Errorf("error %T is no ParseError", err)
			}
			if n != tc.want {
				t.Errorf("%d captures, want %d", n, tc.want)
			}
		})
	}
}

// FuzzRead: no input makes the reader panic, and every error is a
// ParseError naming a line.
func FuzzRead(f *testing.F) {
	f.Add(" CDX N b a m s k r M S V g\norg,x)/ 20200101000000 http://x.org/ text/html 200 D - - 1 0 f.warc.gz\n")
	f.Add(`org,x)/ 2020 {"url": "http://x.org/"}` + "\n")
	f.Fuzz(func(t *testing.T, in string) {
		err := Read(strings.NewReader(in), "f", func(Capture) error { return nil })
		var pe *ParseError
		if err != nil && (!errors.As(err, &pe) || pe.Line < 1) {
			t.Fatalf("error %v is no ParseError with a line", err)
		}
	})
}
