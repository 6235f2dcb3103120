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
	for _, tc := range []struct{ in, want string }{
		{"http://a.test/\nftp://b.test/\n", "seeds.txt:2:"},
		{"# c\nhttp://a.test/ http://b.test/\n", "seeds.txt:2:"},
		{"\n\n/relative\n", "seeds.txt:3:"},
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
