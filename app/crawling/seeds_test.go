package crawling

import (
	"errors"
	"strings"
	"testing"
)

func TestReadSeeds(t *testing.T) {
	in := "# demo seeds\n\nhttp://A.test/  # the hub\nhttps://b.test/x\n"
	got, err := ReadSeeds(strings.NewReader(in), "seeds.txt")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, " ") != "http://a.test/ https://b.test/x" {
		t.Errorf("seeds = %q", got)
	}
	// A byte-order mark at the start is skipped; IDN hosts take their
	// ASCII form.
	got, err = ReadSeeds(strings.NewReader("\uFEFFhttp://Bücher.test/\r\nhttp://xn--bcher-kva.test:80/x\n"), "bom.txt")
	if err != nil || strings.Join(got, " ") != "http://xn--bcher-kva.test/ http://xn--bcher-kva.test/x" {
		t.Errorf("seeds = %q, %v", got, err)
	}
	for _, tc := range []struct{ in, want string }{
		{"http://a.test/\nftp://b.test/\n", "seeds.txt:2: not an http(s) URL"},
		{"# c\nhttp://a.test/ http://b.test/\n", "seeds.txt:2: more than one field: one URL a line"},
		{"\n\n/relative\n", "seeds.txt:3: not an http(s) URL"},
		{"http://a.test/\nhttp://b.test:99999/\n", "seeds.txt:2: its port is not a number from 1 to 65535"},
		{"http://a.test/\nhttp://b\xff.test/\n", "seeds.txt:2: its host is no valid host name or IP address"},
		{"http://a.test/\nhttp://a..test/\n", "seeds.txt:2: its host is no valid host name or IP address"},
		{"http://a.test/\nhttp://a.test/\uFEFF\n\uFEFFhttp://b.test/\n", "seeds.txt:3: not a URL"},
		{"# x\r\nhttp://a.test/\r\nhttp://" + strings.Repeat("a", 1<<20) + ".test/\nhttp://b.test/\n", "seeds.txt:3: a line longer than 1048576 bytes (it starts at byte offset 21)"},
	} {
		_, err := ReadSeeds(strings.NewReader(tc.in), "seeds.txt")
		if err == nil || !strings.Contains(err.Error(), "\n"+tc.want) {
			t.Errorf("ReadSeeds(%q) error = %v, want %q", tc.in, err, tc.want)
		}
	}
}

// TestReadSeedsEveryBadLine: a seed file is refused with every bad line
// named, as the README promises, not only the first; no line is quoted (a
// file given by mistake may be anything).
func TestReadSeedsEveryBadLine(t *testing.T) {
	in := "http://a.test/\nAWS_SECRET_ACCESS_KEY=SECRET1\n# ok\nhttp://b.test/\nftp://SECRET2/\nhttp://SECRET3:99999/\n\nhttp://c.test/ SECRET4\n"
	_, err := ReadSeeds(strings.NewReader(in), "seeds.txt")
	var se *SeedsFileError
	if !errors.As(err, &se) || se.Total != 4 {
		t.Fatalf("error %v, want a SeedsFileError of 4 bad lines", err)
	}
	want := "seeds.txt: 4 bad lines, no seed read:\n" +
		"seeds.txt:2: not an http(s) URL\n" +
		"seeds.txt:5: not an http(s) URL\n" +
		"seeds.txt:6: its port is not a number from 1 to 65535\n" +
		"seeds.txt:8: more than one field: one URL a line"
	if err.Error() != want {
		t.Errorf("error:\n%v\nwant:\n%v", err, want)
	}
	_, err = ReadSeeds(strings.NewReader(strings.Repeat("x\n", 30)), "many.txt")
	if !errors.As(err, &se) || se.Total != 30 || len(se.Lines) != MaxBadSeedLines || !strings.HasSuffix(err.Error(), "\nmany.txt:20: not an http(s) URL\n(10 more)") {
		t.Errorf("30 bad lines: %v", err)
	}
}

func FuzzReadSeeds(f *testing.F) {
	f.Add("http://a.test/\n# x\n")
	f.Add("https://b.test:8080/p?q#f\n\n")
	f.Add("\uFEFFhttp://Bücher.test:99999/\r\nhttp://\xff/\n")
	f.Fuzz(func(t *testing.T, in string) {
		seeds, err := ReadSeeds(strings.NewReader(in), "f")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f:") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		for _, s := range seeds {
			if again, err := ReadSeeds(strings.NewReader(s), "g"); err != nil || len(again) != 1 || again[0] != s {
				t.Fatalf("seed %q does not read back: %v %v", s, again, err)
			}
		}
	})
}
