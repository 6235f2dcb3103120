package ccgraph

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// TestReadVerticesTwice: a vertices file that gives an id twice is refused
// naming both lines, in order and out of order, in a run of consecutive
// ids or alone.
func TestReadVerticesTwice(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"repeated line", "0\tcom.a\n1\tcom.b\n1\tcom.b\n2\tcom.c\n", "line 3: vertex id 1 is given twice, on lines 2 and 3"},
		{"two hosts", "# ids\n0\tcom.a\n1\tcom.b\n2\tcom.c\n\n7\tcom.d\n1\tcom.e\n", "line 7: vertex id 1 is given twice, on lines 3 and 7"},
		{"inside a run", "5\tcom.a\n6\tcom.b\n7\tcom.c\n8\tcom.d\n0\tcom.e\n1\tcom.f\n7\tcom.g\n", "line 7: vertex id 7 is given twice, on lines 3 and 7"},
	} {
		n := 0
		err := ReadVertices(strings.NewReader(tc.in), "v.txt", func(int64, string) error { n++; return nil })
		var pe *ParseError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want a ParseError saying %q", tc.name, err, tc.want)
		}
	}
	// Ids out of order, each once, are one host each.
	hosts := map[int64]string{}
	err := ReadVertices(strings.NewReader("3\tcom.c\n0\tcom.a\n\n1\tcom.b\n2\tcom.x\n"), "v.txt", func(id int64, h string) error {
		hosts[id] = h
		return nil
	})
	if err != nil || len(hosts) != 4 || hosts[3] != "c.com" {
		t.Errorf("hosts %v, %v", hosts, err)
	}
}

// TestIDSet: the ids of the vertices files, held as runs, answer for every
// id, and consecutive ids take one run.
func TestIDSet(t *testing.T) {
	var s IDSet
	for id := int64(0); id < 1000; id++ {
		s.Add(id)
	}
	for id := int64(2000); id < 3000; id++ {
		s.Add(id)
	}
	s.Add(1500)
	s.Add(math.MaxInt64)
	s.Add(999) // again
	if s.Runs() > 5 {
		t.Errorf("%d runs for 2002 ids in 4 runs", s.Runs())
	}
	for _, tc := range []struct {
		id   int64
		want bool
	}{{0, true}, {999, true}, {1000, false}, {1499, false}, {1500, true}, {1999, false}, {2000, true}, {2999, true}, {3000, false}, {math.MaxInt64, true}, {math.MaxInt64 - 1, false}} {
		if got := s.Has(tc.id); got != tc.want {
			t.Errorf("Has(%d) = %v, want %v", tc.id, got, tc.want)
		}
	}
	s.Add(1000) // after a lookup
	if !s.Has(1000) || !s.Has(999) || s.Has(1001) {
		t.Error("an id added after a lookup")
	}
}

// TestReadRanksMissing: "---", what cc-webgraph's join writes for a host
// one ranking lacks, is a missing value (NaN); another word is refused.
func TestReadRanksMissing(t *testing.T) {
	in := "#harmonicc_pos\t#harmonicc_val\t#pr_pos\t#pr_val\t#host_rev\n" +
		"1\t9.5e6\t---\t---\tfr.bnf\n" +
		"---\t---\t1\t0.004\tcom.example\n" +
		"2\t8e6\t2\t0.002\tfr.lemonde\n"
	var got []Rank
	err := ReadRanks(strings.NewReader(in), "ranks.txt", func(k Rank) error { got = append(got, k); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].Harmonic != 9.5e6 || !math.IsNaN(got[0].PageRank) ||
		!math.IsNaN(got[1].Harmonic) || got[1].PageRank != 0.004 || got[2].Host != "lemonde.fr" || got[2].PageRank != 0.002 {
		t.Errorf("ranks %+v", got)
	}
	for _, bad := range []string{"1\tNaN\t1\t0.1\tfr.a\n", "1\t--\t1\t0.1\tfr.a\n", "1\t1\t1\tInf\tfr.a\n"} {
		err := ReadRanks(strings.NewReader("1\t9\t1\t0.1\tfr.b\n"+bad), "ranks.txt", func(Rank) error { return nil })
		if err == nil || !strings.Contains(err.Error(), "ranks.txt line 2: the ") || !strings.Contains(err.Error(), "is not a finite number or ---") {
			t.Errorf("%q: %v, want line 2 refused", bad, err)
		}
	}
}

// TestReadNotDump: a file of another kind is refused at its first line,
// saying what it holds in words; no error quotes the file.
func TestReadNotDump(t *testing.T) {
	read := map[string]func(string) error{
		"vertices": func(in string) error {
			return ReadVertices(strings.NewReader(in), "f", func(int64, string) error { return nil })
		},
		"edges": func(in string) error {
			return ReadEdges(strings.NewReader(in), "f", func(int64, int64) error { return nil })
		},
		"ranks": func(in string) error {
			return ReadRanks(strings.NewReader(in), "f", func(Rank) error { return nil })
		},
	}
	for _, tc := range []struct{ kind, in, want string }{
		{"vertices", "AWS_SECRET_ACCESS_KEY=SECRET1\n", "f line 1: not a Common Crawl vertices file: it starts with text, not id<TAB>reversed host: want id<TAB>reversed host"},
		{"vertices", "<!doctype html>\n", "f line 1: not a Common Crawl vertices file: it starts with an HTML page"},
		{"vertices", "SECRET\tcom.a\n", "f line 1: not a Common Crawl vertices file: it starts with text, not id<TAB>reversed host: the vertex id (field 1) is not a non-negative integer"},
		{"vertices", "0\tcom.a\nSECRET\tcom.b\n", "f line 2: the vertex id (field 1) is not a non-negative integer"},
		{"edges", "\x00\x01SECRET\t1\n", "f line 1: not a Common Crawl edges file: it starts with binary data"},
		{"edges", "0\t1\n1\tSECRET\n", "f line 2: the to id (field 2) is not a non-negative integer"},
		{"edges", "0\t1\nSECRET\n", "f line 2: want from<TAB>to"},
		{"ranks", "export SECRET=1\n", "f line 1: not a Common Crawl ranks file: it starts with text"},
		{"ranks", "1\t2\t3\t4\tfr.a\n1\tSECRET\t3\t4\tfr.b\n", "f line 2: the harmonic centrality (field 2) is not a finite number or ---"},
	} {
		err := read[tc.kind](tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %q: %v, want %q", tc.kind, tc.in, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "SECRET") {
			t.Errorf("%s: the error quotes the file: %v", tc.kind, err)
		}
	}
}

// FuzzReadDumps: no input makes a reader panic; every error is a
// ParseError naming a line, and an id the vertices reader accepted is in
// an IDSet of them.
func FuzzReadDumps(f *testing.F) {
	f.Add("0\tcom.a\n1\tcom.b\n1\tcom.c\n")
	f.Add("# h\n5 com.a\n3\tcom.b\textra\n")
	f.Add("1\t---\t2\t0.5\tfr.a\n---\t---\t---\t---\tfr.b\n")
	f.Add("\uFEFF0\t1\n1\t9223372036854775807\n")
	f.Fuzz(func(t *testing.T, in string) {
		var set IDSet
		var ids []int64
		errs := []error{
			ReadVertices(strings.NewReader(in), "f", func(id int64, _ string) error {
				set.Add(id)
				ids = append(ids, id)
				return nil
			}),
			ReadEdges(strings.NewReader(in), "f", func(int64, int64) error { return nil }),
			ReadRanks(strings.NewReader(in), "f", func(Rank) error { return nil }),
		}
		for _, err := range errs {
			var pe *ParseError
			if err != nil && (!errors.As(err, &pe) || pe.Line < 1) {
				t.Fatalf("error %v is no ParseError with a line", err)
			}
		}
		for _, id := range ids {
			if !set.Has(id) {
				t.Fatalf("id %d added, not found", id)
			}
		}
	})
}
