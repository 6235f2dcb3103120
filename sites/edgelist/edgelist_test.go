package edgelist

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sitesift/internal/refdata"
	"sitesift/sites"
)

func TestRead(t *testing.T) {
	in := `# a small web
http://WWW.A.test/page.html   b.test
b.test	c.test 2.5
B.test c.test          # repeated: callers add the weights up
http://a.test:80/x https://www.a.test/y   # same site twice? no: a.test vs www.a.test
c.test c.test 3
C.TEST http://c.test/       # self-edge, dropped

`
	g, err := Read(strings.NewReader(in), "web.txt")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(g.Names, " "); got != "www.a.test b.test c.test a.test" {
		t.Errorf("names = %q", got)
	}
	type edge struct {
		from, to string
		w        float64
	}
	var got []edge
	for i := range g.From {
		got = append(got, edge{g.Names[g.From[i]], g.Names[g.To[i]], g.Weight[i]})
	}
	want := []edge{{"www.a.test", "b.test", 1}, {"b.test", "c.test", 2.5}, {"b.test", "c.test", 1}, {"a.test", "www.a.test", 1}}
	if len(got) != len(want) {
		t.Fatalf("edges = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("edge %d = %v, want %v", i, got[i], want[i])
		}
	}
	if g.SelfEdges != 2 {
		t.Errorf("self edges = %d, want 2", g.SelfEdges)
	}
}

func TestReadBadLines(t *testing.T) {
	in := "a b#c # comment\nlonely\na b c d\na b -1\na b NaN\nmailto:x@y b\nhttp:///nohost b\nok.test fine.test 1e3\n"
	_, err := Read(strings.NewReader(in), "bad.txt")
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v, want a ParseError", err)
	}
	var lines []int
	for _, l := range pe.Lines {
		lines = append(lines, l.Line)
	}
	if pe.Total != 6 || len(lines) != 6 || lines[0] != 2 || lines[5] != 7 {
		t.Errorf("bad lines %v (total %d), want 2..7", lines, pe.Total)
	}
	for _, want := range []string{"bad.txt:2: want SRC DST", "bad.txt:4: the weight is not a positive number", "bad.txt:7: the source URL: its host is no valid host name or IP address"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	// mailto:x@y has no "://" and is no host name: no site either.
	if !strings.Contains(err.Error(), "bad.txt:6: the source name is no host name") {
		t.Errorf("line 6 is no site name: %v", err)
	}
}

// TestReadNotHostNames: names that are no host names (markup, a formula, a
// script) become no site, and so no seed: each of their lines is refused,
// named, without the name quoted; host names with a port or a path, as
// polblogs has them, are sites.
func TestReadNotHostNames(t *testing.T) {
	in := "<img/src=x> a.test\n" +
		"a.test =evilhub()\n" +
		"javascript:alert(document.cookie) b.test\n" +
		"b.test c.test\n" +
		"c.test:8180 townhall.com/clog\n" +
		"\"><script>x</script> a.test\n" +
		"home.earthlink.net/~fsrhine blog.aspx?a=1&#38;b=2 # a comment\n"
	_, err := Read(strings.NewReader(in), "hostile.txt")
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v, want a ParseError", err)
	}
	var lines []int
	for _, l := range pe.Lines {
		lines = append(lines, l.Line)
	}
	if !slices.Equal(lines, []int{1, 2, 3, 6}) {
		t.Errorf("bad lines %v, want 1, 2, 3 and 6:\n%v", lines, err)
	}
	for _, want := range []string{"hostile.txt:1: the source name is no host name", "hostile.txt:2: the target name is no host name",
		"hostile.txt:3: the source name is no host name", "hostile.txt:6: the source name is no host name"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	for _, quoted := range []string{"img", "evilhub", "script", "cookie"} {
		if strings.Contains(err.Error(), quoted) {
			t.Errorf("the error quotes the file (%s):\n%v", quoted, err)
		}
	}
	_, err = Read(strings.NewReader("a.test b.test:99999/x\n"), "port.txt")
	if err == nil || !strings.Contains(err.Error(), "port.txt:1: the target name: its port is not a number from 1 to 65535") {
		t.Errorf("a port out of range: %v", err)
	}
	g, err := Read(strings.NewReader("b.test c.test\nc.test:8180 townhall.com/clog\nhome.earthlink.net/~fsrhine blog.aspx?a=1&#38;b=2\n"), "ok.txt")
	if err != nil || len(g.Names) != 6 {
		t.Errorf("host names with ports and paths: %v, %v", g, err)
	}
}

func TestReadManyBadLines(t *testing.T) {
	_, err := Read(strings.NewReader(strings.Repeat("x\n", 50)), "f")
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Total != 50 || len(pe.Lines) != MaxReported || !strings.Contains(err.Error(), "(30 more)") {
		t.Fatalf("error = %v", err)
	}
}

func TestReadFileGzip(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte("a.test b.test\nb.test a.test 2\n"))
	zw.Close()
	path := filepath.Join(dir, "g.tsv.gz")
	os.WriteFile(path, buf.Bytes(), 0o644)
	g, err := ReadFile(path)
	if err != nil || len(g.From) != 2 || g.Weight[1] != 2 {
		t.Fatalf("ReadFile gz = %+v, %v", g, err)
	}
	os.WriteFile(filepath.Join(dir, "bad.gz"), []byte("not gzip"), 0o644)
	if _, err := ReadFile(filepath.Join(dir, "bad.gz")); err == nil {
		t.Error("a .gz file that is not gzip was accepted")
	}
}

func TestReadPolblogs(t *testing.T) {
	path := refdata.Shared(t, "polblogs", "edges.tsv")
	g, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// 1,224 nodes with edges once self-loops are dropped, as the reference says.
	if len(g.Names) != 1224 || g.SelfEdges != 3 {
		t.Errorf("%d sites, %d self-edges; want 1224 and 3", len(g.Names), g.SelfEdges)
	}
}

func FuzzRead(f *testing.F) {
	f.Add("a b\nhttp://x.test/ y 2\n# c\n")
	f.Add("a\tb\t0.5\r\nb a 1e308\n")
	f.Add("http://[::1]:80/ https://Q.test:443/p#f 3")
	f.Add("\uFEFFBücher.test xn--bcher-kva.test:80\nb a 1e308\na b 1e308\n")
	f.Add("a b 1e-320\n")
	f.Add("<img/src=x> a\n=evilhub() b.test/p\nb javascript:alert(1)\nc.test:8080/x?y d\n")
	f.Fuzz(func(t *testing.T, in string) {
		g, err := Read(strings.NewReader(in), "fuzz")
		if err != nil {
			var pe *ParseError
			if errors.As(err, &pe) && (pe.Total == 0) != (len(pe.Lines) == 0) || pe.Total == 0 && pe.Problem == "" ||
				len(pe.Lines) > 0 && pe.Lines[0].Line < 1 {
				t.Fatalf("parse error without lines or problem: %v", err)
			}
			return
		}
		if len(g.From) == 0 || len(g.From) != len(g.To) || len(g.From) != len(g.Weight) {
			t.Fatal("no edges, or edge slices differ in length")
		}
		// Repeated edges may stay unmerged below CompactEdges (see Graph):
		// what must hold is every edge valid and every pair's sum finite.
		pairs := map[[2]int32]float64{}
		total := 0.0
		for i := range g.From {
			if g.From[i] == g.To[i] || int(g.From[i]) >= len(g.Names) || int(g.To[i]) >= len(g.Names) ||
				!(g.Weight[i] >= minWeight) || math.IsInf(g.Weight[i], 0) {
				t.Fatalf("bad edge %d: %d→%d w %v of %d names", i, g.From[i], g.To[i], g.Weight[i], len(g.Names))
			}
			pairs[[2]int32{g.From[i], g.To[i]}] += g.Weight[i]
			total += g.Weight[i]
		}
		// No name that is no host name becomes a site (and then a seed); in
		// a graph of ids, every name is an id written without leading zeros.
		for _, n := range g.Names {
			if g.IDs {
				if id, err := strconv.ParseUint(n, 10, 64); err != nil || strconv.FormatUint(id, 10) != n {
					t.Fatalf("node %q of a graph of ids is no id", n)
				}
			} else if err := sites.CheckName(n); err != nil {
				t.Fatalf("site %q is no host name: %v", n, err)
			}
		}
		for p, w := range pairs {
			if math.IsInf(w, 0) {
				t.Fatalf("the weights of %d→%d add up to infinity", p[0], p[1])
			}
		}
		if math.IsInf(total, 0) {
			t.Fatal("the weights add up to infinity")
		}
		seen := map[string]bool{}
		for _, n := range g.Names {
			if seen[n] || n != sites.Name(n) || strings.HasPrefix(n, "\uFEFF") {
				t.Fatalf("name %q repeated or not lower-cased", n)
			}
			seen[n] = true
		}
	})
}

// Repeated lines are merged as they are read: the graph holds the distinct
// edges and at most compactAt (+1) more entries, however many lines repeat
// them.
func TestReadMergesRepeatsAsRead(t *testing.T) {
	const lines, compactAt = 300_000, 1000
	r := &repeatReader{line: []byte("a.test b.test\nb.test a.test 0.5\nc.test a.test\n"), n: lines / 3}
	g, err := readBuffer(r, "rep.txt", 0, readChunk, maxLine, compactAt, Options{Rule: sites.RuleHost, Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.From) > 2*3+compactAt+1 || cap(g.From) > 2*compactAt || cap(g.Weight) > 2*compactAt {
		t.Fatalf("%d edges in slices of capacity %d: the lines are kept, not merged", len(g.From), cap(g.From))
	}
	mergeRepeats(g)
	n := float64(lines / 3)
	if len(g.From) != 3 || g.Weight[0] != n || g.Weight[1] != 0.5*n || g.Weight[2] != n {
		t.Errorf("weights %v, want %v, %v, %v", g.Weight, n, 0.5*n, n)
	}
}

// repeatReader reads line n times.
type repeatReader struct {
	line []byte
	n    int
	off  int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	k := 0
	for k < len(p) && r.n > 0 {
		c := copy(p[k:], r.line[r.off:])
		k += c
		if r.off += c; r.off == len(r.line) {
			r.off = 0
			r.n--
		}
	}
	if k == 0 {
		return 0, io.EOF
	}
	return k, nil
}

func TestReadWeights(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     string // a part of the error, "" for none
		weight   float64
	}{
		{"smallest normal", "a b 2.2250738585072014e-308\n", "", 0x1p-1022},
		{"largest", "a b 1.7976931348623157e308\n", "", math.MaxFloat64},
		{"hexadecimal", "a b 0x1p-2\n", "", 0.25},
		{"denormal", "# x\na b 1e-320\n", `f:2: the weight is below the smallest normal number 2.2250738585072014e-308`, 0},
		{"underflows to 0", "a b 1e-400\n", `f:1: the weight is below the smallest normal number`, 0},
		{"zero", "a b 0\n", `f:1: the weight is not a positive number`, 0},
		{"zero in hexadecimal", "a b 0x0p+5\n", `f:1: the weight is not a positive number`, 0},
		{"negative", "a b -2\n", `f:1: the weight is not a positive number`, 0},
		{"not a number", "a b 1x\n", `f:1: the weight is not a number`, 0},
		{"NaN", "a b NaN\n", `f:1: the weight is not a finite number`, 0},
		{"infinite", "a b +Inf\n", `f:1: the weight is not a finite number`, 0},
		{"too large", "a b 1e400\n", `f:1: the weight is not a finite number`, 0},
		{"a repeated edge overflows", "a b 1e308\nb a\na b 1e308\n", "f:3: the weights add up to more than the largest number, 1.7976931348623157e+308", 0},
		{"the file overflows", "a b 1e308\nb a 1e308\nb c 1e308\nc b 1\n", "f: 1 bad line, nothing imported:\nf:2: the weights add up to more than the largest number", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := Read(strings.NewReader(tc.in), "f")
			if tc.want == "" {
				if err != nil || g.Weight[0] != tc.weight {
					t.Fatalf("Read = %+v, %v; want weight %v", g, err, tc.weight)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// A site has one name: its IDNA ASCII form, lower-cased, without the
// default port, whether it is written as a name or as a URL.
func TestReadIDN(t *testing.T) {
	in := "bücher.test x.test\nxn--bcher-kva.test y.test\nBÜCHER.test:80 z.test\nhttp://Bücher.test/a x.test 2\n" +
		"polblogs-style.example/path y.test\n"
	g, err := Read(strings.NewReader(in), "idn.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"xn--bcher-kva.test", "x.test", "y.test", "z.test", "polblogs-style.example/path"}
	if !slices.Equal(g.Names, want) {
		t.Errorf("names %q, want %q", g.Names, want)
	}
	mergeRepeats(g)
	if len(g.From) != 4 || g.Weight[0] != 3 {
		t.Errorf("edges %v→%v %v, want 4 with the first of weight 3", g.From, g.To, g.Weight)
	}
	_, err = Read(strings.NewReader("ok.test a.test\nhttp://a.test:99999/ b.test\n\xff.test a.test\n"), "bad.txt")
	for _, want := range []string{`bad.txt:2: the source URL: its port is not a number from 1 to 65535`, `bad.txt:3: the source name is not UTF-8 text`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want %q", err, want)
		}
	}
}

func TestReadBOM(t *testing.T) {
	// A label that is not a host name is taken as it is: the mark must not
	// become part of it.
	for _, in := range []string{"\uFEFFblog/x b.test\n", "\uFEFF# a comment\r\nblog/x b.test\n", "\uFEFFhttp://blog/x b.test"} {
		g, err := Read(strings.NewReader(in), "bom.txt")
		if err != nil || (g.Names[0] != "blog/x" && g.Names[0] != "blog") {
			t.Errorf("Read(%q) = %+v, %v; want the first site without the mark", in, g, err)
		}
	}
}

func TestReadNoEdges(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "f: no edges"},
		{"\uFEFF", "f: no edges"},
		{"# only a comment\n\n  \n", "f: no edges"},
		{"a.test A.TEST\nhttp://a.test/ a.test\n", "f: no edges but 2 from a site to itself, which are dropped"},
	} {
		_, err := Read(strings.NewReader(tc.in), "f")
		var pe *ParseError
		if !errors.As(err, &pe) || err.Error() != tc.want {
			t.Errorf("Read(%q) error %v, want the ParseError %q", tc.in, err, tc.want)
		}
	}
}

// A line over 1 MiB is reported with its number and where it starts, and
// ends the reading: the bad lines before it are reported too.
func TestReadLongLine(t *testing.T) {
	in := "a.test b.test\nbad\n\r\nc.test " + strings.Repeat("x", maxLine+1) + "\nd.test e.test\n"
	_, err := Read(strings.NewReader(in), "long.txt")
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Total != 2 {
		t.Fatalf("error %v, want a ParseError of 2 lines", err)
	}
	for _, want := range []string{"long.txt:2: want SRC DST", "long.txt:4: a line longer than 1048576 bytes (it starts at byte offset 20)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	// A last line without a newline, beyond the buffer.
	_, err = Read(strings.NewReader("a b\n"+strings.Repeat("y", readChunk+10)), "f")
	if err == nil || !strings.Contains(err.Error(), "f:2: a line longer than 1048576 bytes (it starts at byte offset 4)") {
		t.Errorf("error %v", err)
	}
}

// plainName is a shortcut of sites.Name: it may only say yes for names Name
// leaves as they are.
func TestPlainName(t *testing.T) {
	for _, tc := range []struct {
		name  string
		plain bool
	}{
		{"site0000001.example", true}, {"a-b_c.test", true}, {"x", true}, {"1a.test", true},
		{"A.test", false}, {"a.test.", false}, {".a.test", false}, {"a..test", false}, {"", false},
		{"xn--bcher-kva.test", false}, {"a.xn--p1ai", false}, {"1.2.3.4", false}, {"a.0x1f", false},
		{"a.test:80", false}, {"bücher.test", false}, {"blog/x", false},
	} {
		if got := plainName([]byte(tc.name)); got != tc.plain {
			t.Errorf("plainName(%q) = %v, want %v", tc.name, got, tc.plain)
		}
		if tc.plain && sites.Name(tc.name) != tc.name {
			t.Errorf("plainName(%q) but sites.Name gives %q", tc.name, sites.Name(tc.name))
		}
	}
}

func FuzzPlainName(f *testing.F) {
	f.Add("a.test")
	f.Add("xn--a.b")
	f.Fuzz(func(t *testing.T, s string) {
		if plainName([]byte(s)) && sites.Name(s) != s {
			t.Fatalf("plainName(%q) but sites.Name gives %q", s, sites.Name(s))
		}
	})
}

// TestReadFileRule: under the host-www rule, a URL and a name with www.
// stand for the site without it, so their edges meet.
func TestReadFileRule(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.txt")
	if err := os.WriteFile(path, []byte("www.a.test b.test\nhttp://www.a.test/x c.test\na.test b.test 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		rule  sites.Rule
		sites int
	}{{sites.RuleHostWWW, 3}, {sites.RuleHost, 4}} {
		g, err := ReadFileRule(path, tc.rule)
		if err != nil {
			t.Fatal(err)
		}
		if len(g.Names) != tc.sites {
			t.Errorf("%s: sites %v, want %d", tc.rule, g.Names, tc.sites)
		}
	}
}

// A file of distinct edges of known size is kept as read, in slices sized
// once from the prediction; the repeats it has are merged by the caller, to
// the same weights. Past the prediction (here: a tail of repeated lines
// the first lines did not predict) merging resumes, so the slices stay
// within the distinct edges plus the compaction's slack.
func TestReadDistinctThenRepeats(t *testing.T) {
	const distinct, compactAt = 20_000, 1000
	var b strings.Builder
	for i := range distinct {
		fmt.Fprintf(&b, "s%05d.test t%05d.test\n", i, (i*7)%distinct)
	}
	head := b.String()
	for range 2 {
		b.WriteString("s00001.test t00007.test 0.5\n")
	}
	in := b.String()
	g, err := readBuffer(strings.NewReader(in), "d.txt", int64(len(in)), readChunk, maxLine, compactAt, Options{Rule: sites.RuleHost, Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if cap(g.From) > distinct*11/10+blockLines+1024 {
		t.Errorf("slices of capacity %d for %d lines", cap(g.From), distinct+2)
	}
	if len(g.From) != distinct+2 {
		t.Errorf("%d edges read, want the %d lines as read", len(g.From), distinct+2)
	}
	mergeRepeats(g)
	if len(g.From) != distinct {
		t.Fatalf("%d edges, want %d", len(g.From), distinct)
	}
	for k := range g.From {
		want := 1.0
		if g.Names[g.From[k]] == "s00001.test" {
			want = 2
		}
		if g.Weight[k] != want {
			t.Errorf("%s → %s: weight %v, want %v", g.Names[g.From[k]], g.Names[g.To[k]], g.Weight[k], want)
		}
	}

	// The same head predicts the size; a tail of 200,000 repeated lines
	// exceeds the prediction and is merged as read.
	const tail = 200_000
	r := io.MultiReader(strings.NewReader(head), &repeatReader{line: []byte("s00001.test t00007.test\n"), n: tail})
	g, err = readBuffer(r, "dr.txt", int64(len(head)), readChunk, maxLine, compactAt, Options{Rule: sites.RuleHost, Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if cap(g.From) > 4*distinct {
		t.Errorf("slices of capacity %d for %d distinct edges: the repeated lines are kept", cap(g.From), distinct)
	}
	mergeRepeats(g)
	if len(g.From) != distinct || g.Weight[1] != tail+1 {
		t.Errorf("%d edges, the second of weight %v; want %d and %d", len(g.From), g.Weight[1], distinct, tail+1)
	}
}
