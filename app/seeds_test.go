package app

import (
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
		{"http://a.test/\nftp://b.test/\n", "seeds.txt:2:"},
		{"# c\nhttp://a.test/ http://b.test/\n", "seeds.txt:2:"},
		{"\n\n/relative\n", "seeds.txt:3:"},
		{"http://a.test/\nhttp://b.test:99999/\n", `seeds.txt:2: sites: invalid host: port "99999" out of range 1-65535`},
		{"http://a.test/\nhttp://b\xff.test/\n", "seeds.txt:2: sites: invalid host: host \"b\\xff.test\" is not valid UTF-8"},
		{"http://a.test/\nhttp://a..test/\n", "seeds.txt:2: sites: invalid host: \"a..test\""},
		{"http://a.test/\nhttp://a.test/\uFEFF\n\uFEFFhttp://b.test/\n", "seeds.txt:3: sites: parse"},
		{"# x\r\nhttp://a.test/\r\nhttp://" + strings.Repeat("a", 1<<20) + ".test/\nhttp://b.test/\n", "seeds.txt:3: a line longer than 1048576 bytes (it starts at byte offset 21)"},
	} {
		_, err := ReadSeeds(strings.NewReader(tc.in), "seeds.txt")
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("ReadSeeds(%q) error = %v, want prefix %q", tc.in, err, tc.want)
		}
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
