package cdx

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"sitesift/internal/refdata"
)

// TestReadReference: the 11-column reference index reads whole, every line
// a capture with its URL and time.
func TestReadReference(t *testing.T) {
	f, err := os.Open(refdata.Shared(t, "warc", "iana.cdx"))
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
	const good = "org,x)/ 20200102030405 http://x.org/ text/html 200 D - - 1 0 f.warc.gz\n"
	for _, tc := range []struct {
		name, in string
		want     int    // captures
		err      string // "" for none
	}{
		{"cdxj", `org,x)/ 20200102030405 {"url": "http://x.org/", "mime": "text/html", "status": "200"}` + "\n", 1, ""},
		{"9 columns with legend", " CDX N b a m s k r V g\norg,x)/ 2020 http://x.org/ text/html 200 D - 0 f.warc.gz\n", 1, ""},
		{"blank lines", "\n\n" + good + "\n", 1, ""},
		{"bad time", good + "org,x)/ 2020x http://x.org/ text/html 200 D - - 1 0 f.warc.gz\n", 1, "line 2: the timestamp (field 2) is not 4 to 14 digits"},
		{"bad date", good + "org,x)/ 20201301000000 http://x.org/ text/html 200 D - - 1 0 f.warc.gz\n", 1, "line 2: the timestamp (field 2) is no valid date"},
		{"bad url", " CDX N b a m s k r V g\norg,x)/ 2020 nothing text/html 200 D - 0 f.warc.gz\n", 0, "line 2: the original URL (field 3) is no URL"},
		{"bad json", good + "ok 20200101000000 {\"url\": \n", 1, "line 2: the CDXJ JSON block is not valid JSON"},
		{"too few fields", good + "org,x)/ 20200101000000\n", 1, "line 2: 2 fields, fewer than the 11"},
		{"legend without url", " CDX N b m s\n", 0, "line 1: the legend line names no original URL (a) or date (b) field"},
		// A row short of the legend's fields is refused, not read with
		// its fields taken for empty.
		{"3 of 11 fields", " CDX N b a m s k r M S V g\n" + good + "org,x)/b 20200101000000 http://x.org/b\n", 1,
			"line 3: 3 fields, fewer than the 11 the legend line names"},
		{"3 of 11 fields, no legend", good + "org,x)/b 20200101000000 http://x.org/b\n", 1,
			"line 2: 3 fields, fewer than the 11 of a CDX line (the file has no legend line"},
		// A byte-order mark before the legend line is no part of it.
		{"legend after a byte-order mark", "\uFEFF CDX N b a m s k r V g\norg,x)/ 2020 http://x.org/ text/html 200 D - 0 f.warc.gz\n", 1, ""},
		{"cdxj after a byte-order mark", "\uFEFF" + `org,x)/ 20200102030405 {"url": "http://x.org/"}` + "\n", 1, ""},
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

// TestReadNotCDX: a file of another kind is refused at its first line,
// saying what it holds in words; no error quotes the file's bytes, the
// first line's or a later one's.
func TestReadNotCDX(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"env file", "AWS_SECRET_ACCESS_KEY=SECRET123\n", "line 1: not a CDX or CDXJ index: it starts with text, not a legend line or a capture: 1 field"},
		{"shell file", "export AWS_SECRET_ACCESS_KEY=SECRET x y z w v u t s r q p\n", "line 1: not a CDX or CDXJ index: it starts with text"},
		{"HTML", "<!doctype html>\n<p>SECRET</p>\n", "line 1: not a CDX or CDXJ index: it starts with an HTML page"},
		{"binary", "\x00\x01 SECRET1 SECRET2 SECRET3 a b c d e f g h\n", "line 1: not a CDX or CDXJ index: it starts with binary data"},
		{"later line", " CDX N b a m s k r M S V g\norg,x)/ SECRET http://SECRET/ text/html 200 D - - 1 0 f.warc.gz\n", "line 2: the timestamp (field 2) is not 4 to 14 digits"},
		{"later url", " CDX N b a m s k r M S V g\norg,x)/ 2020 SECRET text/html 200 D - - 1 0 f.warc.gz\n", "line 2: the original URL (field 3) is no URL"},
		{"later json", `org,x)/ 2020 {"url": "http://x.org/"}` + "\n" + `org,x)/ 2020 {"url": SECRET}` + "\n", "line 2: the CDXJ JSON block is not valid JSON"},
	} {
		err := Read(strings.NewReader(tc.in), "f.cdx", func(Capture) error { return nil })
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "SECRET") {
			t.Errorf("%s: the error quotes the file: %v", tc.name, err)
		}
	}
}

// FuzzRead: no input makes the reader panic, and every error is a
// ParseError naming a line.
func FuzzRead(f *testing.F) {
	f.Add(" CDX N b a m s k r M S V g\norg,x)/ 20200101000000 http://x.org/ text/html 200 D - - 1 0 f.warc.gz\n")
	f.Add(`org,x)/ 2020 {"url": "http://x.org/"}` + "\n")
	f.Add("\uFEFF CDX N b a m s\norg,x)/ 2020 http://x.org/ text/html 200\norg,x)/ 2020 http://x.org/\n")
	f.Fuzz(func(t *testing.T, in string) {
		err := Read(strings.NewReader(in), "f", func(Capture) error { return nil })
		var pe *ParseError
		if err != nil && (!errors.As(err, &pe) || pe.Line < 1) {
			t.Fatalf("error %v is no ParseError with a line", err)
		}
	})
}
