package ccgraph

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

func gz(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestReverseHost: a reversed host name turns back, and back again; a name
// of one label is itself.
func TestReverseHost(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"com.example.news", "news.example.com"},
		{"fr.bnf", "bnf.fr"},
		{"localhost", "localhost"},
		{"", ""},
	} {
		if got := ReverseHost(c.in); got != c.want {
			t.Errorf("ReverseHost(%q) = %q, want %q", c.in, got, c.want)
		}
		if back := ReverseHost(ReverseHost(c.in)); back != c.in {
			t.Errorf("ReverseHost twice of %q = %q", c.in, back)
		}
	}
}

// TestFilter: a TLD keeps its hosts and itself, a suffix keeps the host and
// its subdomains but not a host that merely ends with the same letters;
// case and dots around a TLD or suffix do not matter; an empty filter keeps
// nothing.
func TestFilter(t *testing.T) {
	f := Filter{TLDs: []string{".FR"}, Suffixes: []string{"Example.COM."}}
	if f.Empty() {
		t.Error("a filter with a TLD and a suffix is empty")
	}
	for host, want := range map[string]bool{
		"fr":               true,
		"bnf.fr":           true,
		"www.bnf.fr":       true,
		"fr.example.org":   false,
		"example.com":      true,
		"news.example.com": true,
		"notexample.com":   false,
		"example.com.au":   false,
		"frr":              false,
	} {
		if got := f.Keep(host); got != want {
			t.Errorf("Keep(%q) = %v, want %v", host, got, want)
		}
	}
	var none Filter
	if !none.Empty() || none.Keep("bnf.fr") || none.Keep("") {
		t.Error("an empty filter keeps a host or says it is not empty")
	}
}

// TestIDs: the kept ids are found with their values whatever the order they
// were added in, an id added twice has its last value, and an id never
// added is not found; Find before Sort panics rather than answer wrong.
func TestIDs(t *testing.T) {
	var s IDs
	for _, id := range []int64{900, 5, 1 << 40, 77, 5} {
		s.Add(id, int32(id%1000)+int32(s.Len()))
	}
	if s.Len() != 5 {
		t.Errorf("Len %d before Sort, want 5 (every Add)", s.Len())
	}
	s.Sort()
	if s.Len() != 4 {
		t.Errorf("Len %d after Sort, want 4 (5 given twice)", s.Len())
	}
	for id, want := range map[int64]int32{900: 900, 5: 9, 1 << 40: int32((1<<40)%1000) + 2, 77: 80} {
		if v, ok := s.Find(id); !ok || v != want {
			t.Errorf("Find(%d) = %d, %v; want %d, true", id, v, ok, want)
		}
	}
	for _, id := range []int64{0, 6, 899, 1<<40 + 1, math.MaxInt64} {
		if v, ok := s.Find(id); ok {
			t.Errorf("Find(%d) = %d, true; never added", id, v)
		}
	}
	s.Add(6, 1)
	func() {
		defer func() {
			if recover() == nil {
				t.Error("Find after an Add without Sort did not panic")
			}
		}()
		s.Find(6)
	}()
}

// slice is what a reader of the package makes of a dump: the hosts of a
// filter, their links among themselves, and how many links leave the slice
// or name an id no vertices file gives.
type slice struct {
	hosts          []string
	links          []string // "from → to", by host
	outside, unkno int
}

// readSlice reads vertices and edges as the package doc shows, keeping the
// hosts of keep.
func readSlice(t *testing.T, keep Filter, vertices, edges []byte) (slice, error) {
	t.Helper()
	var s slice
	var ids IDs
	var known IDSet
	err := ReadVertices(bytes.NewReader(vertices), "vertices.txt.gz", func(id int64, host string) error {
		known.Add(id)
		if keep.Keep(host) {
			ids.Add(id, int32(len(s.hosts)))
			s.hosts = append(s.hosts, host)
		}
		return nil
	})
	if err != nil {
		return s, err
	}
	ids.Sort()
	err = ReadEdges(bytes.NewReader(edges), "edges.txt.gz", func(from, to int64) error {
		f, okf := ids.Find(from)
		g, okt := ids.Find(to)
		switch {
		case okf && okt:
			s.links = append(s.links, s.hosts[f]+" → "+s.hosts[g])
		case !known.Has(from) || !known.Has(to):
			s.unkno++
		default:
			s.outside++
		}
		return nil
	})
	return s, err
}

// TestReadSlice: a gzipped dump, written as the dumps are and with what
// other releases and editors add (a comment, a byte-order mark, CRLF line
// ends, a third column, a space instead of a tab, an upper-case host), read
// into a .fr slice: the slice's hosts, its links, and the links that leave
// it or name an unknown id.
func TestReadSlice(t *testing.T) {
	vertices := gz(t, "\uFEFF# a vertices file\r\n"+
		"0\tcom.example\r\n"+
		"1\tfr.bnf\t3\r\n"+
		"2\tfr.bnf.www\r\n"+
		"\r\n"+
		"3 fr.gouv.culture\r\n"+
		"4\tFR.LeMonde\r\n"+
		"5\torg.wikipedia.fr\r\n")
	edges := gz(t, "0\t1\n1\t2\n1\t3\n2\t3\n3\t4\n4\t1\n4\t5\n5\t4\n1 9\n")
	s, err := readSlice(t, Filter{TLDs: []string{"fr"}}, vertices, edges)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"bnf.fr", "www.bnf.fr", "culture.gouv.fr", "lemonde.fr"}; !slices.Equal(s.hosts, want) {
		t.Errorf("hosts %q, want %q", s.hosts, want)
	}
	want := []string{"bnf.fr → www.bnf.fr", "bnf.fr → culture.gouv.fr", "www.bnf.fr → culture.gouv.fr",
		"culture.gouv.fr → lemonde.fr", "lemonde.fr → bnf.fr"}
	if !slices.Equal(s.links, want) || s.outside != 3 || s.unkno != 1 {
		t.Errorf("links %q, %d leaving the slice, %d to unknown ids; want %q, 3 and 1", s.links, s.outside, s.unkno, want)
	}
}

// TestReadRanksGzip: a gzipped ranks file as Common Crawl publishes it, its
// header skipped, each host turned back and lower-cased with its two values.
func TestReadRanksGzip(t *testing.T) {
	in := gz(t, "#harmonicc_pos\t#harmonicc_val\t#pr_pos\t#pr_val\t#host_rev\n"+
		"1\t3.1E7\t2\t0.0125\tcom.Example\n"+
		"2\t2.5e7\t1\t1.5e-2\tfr.bnf.www\n")
	var got []Rank
	if err := ReadRanks(bytes.NewReader(in), "ranks.txt.gz", func(k Rank) error { got = append(got, k); return nil }); err != nil {
		t.Fatal(err)
	}
	want := []Rank{{Host: "example.com", Harmonic: 3.1e7, PageRank: 0.0125}, {Host: "www.bnf.fr", Harmonic: 2.5e7, PageRank: 0.015}}
	if !slices.Equal(got, want) {
		t.Errorf("ranks %+v, want %+v", got, want)
	}
}

// TestReadBadFiles: a file the readers cannot read through is refused at
// the line where it goes wrong, the file named: a gzipped dump cut short, a
// corrupt gzip stream, a line over the 1 MiB a line may hold, a ranks line
// short of fields. What fn returns stops the read and comes back as it is.
func TestReadBadFiles(t *testing.T) {
	var plain strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&plain, "%d\tcom.example.host%d\n", i, i)
	}
	whole := gz(t, plain.String())
	corrupt := bytes.Clone(whole)
	corrupt[len(corrupt)-6] ^= 0xff // the CRC-32 at the end
	long := "0\tcom.a\n1\tcom." + strings.Repeat("b", 1<<20) + "\n2\tcom.c\n"
	for _, c := range []struct {
		name    string
		in      []byte
		line    int64
		want    string
		atLeast int // vertices read before the error
	}{
		{"cut", whole[:len(whole)/2], 0, "the file ends early (truncated)", 100},
		{"corrupt", corrupt, 5001, "corrupt gzip data", 5000},
		{"long line", []byte(long), 2, "a line over 1048576 bytes", 1},
		{"not gzip past its magic", []byte("\x1f\x8bnot gzip"), 1, "gzip: ", 0},
	} {
		n := 0
		err := ReadVertices(bytes.NewReader(c.in), "v.txt.gz", func(int64, string) error { n++; return nil })
		var pe *ParseError
		if !errors.As(err, &pe) || pe.File != "v.txt.gz" || pe.Format != "ccgraph" || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want a ccgraph ParseError of v.txt.gz saying %q", c.name, err, c.want)
			continue
		}
		if c.line > 0 && pe.Line != c.line || c.line == 0 && pe.Line != int64(n)+1 {
			t.Errorf("%s: error at line %d after %d vertices, want line %d", c.name, pe.Line, n, max(c.line, int64(n)+1))
		}
		if n < c.atLeast {
			t.Errorf("%s: %d vertices read before the error, want at least %d", c.name, n, c.atLeast)
		}
	}

	err := ReadRanks(strings.NewReader("1\t2\t3\t4\tfr.a\n1\t2\t3\tfr.b\n"), "r.txt", func(Rank) error { return nil })
	if err == nil || err.Error() != "ccgraph: r.txt line 2: 4 fields, want 5: harmonicc_pos harmonicc_val pr_pos pr_val host_rev" {
		t.Errorf("short ranks line: %v", err)
	}

	stop := errors.New("enough")
	n := 0
	err = ReadEdges(strings.NewReader("0\t1\n1\t2\n2\t3\n"), "e.txt", func(int64, int64) error {
		if n++; n == 2 {
			return stop
		}
		return nil
	})
	if err != stop || n != 2 {
		t.Errorf("fn's error: %v after %d edges, want it as it is after 2", err, n)
	}
}
