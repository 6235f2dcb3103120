package edgelist

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRead(t *testing.T) {
	in := `# a small web
http://WWW.A.test/page.html   b.test
b.test	c.test 2.5
B.test c.test          # repeated: weights add up later
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
	if pe.Total != 5 || len(lines) != 5 || lines[0] != 2 || lines[4] != 7 {
		t.Errorf("bad lines %v (total %d), want 2..7 but not 6", lines, pe.Total)
	}
	for _, want := range []string{"bad.txt:2: want SRC DST", "bad.txt:4: weight \"-1\"", "bad.txt:7: \"http:///nohost\""} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	// mailto:x@y has no "://": it is a site name, taken verbatim.
	if strings.Contains(err.Error(), "bad.txt:6:") {
		t.Errorf("line 6 should be accepted as a site name: %v", err)
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
	path := filepath.Join("..", "..", "..", "shared", "data", "polblogs", "edges.tsv")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("reference data: %v", err)
	}
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
	f.Fuzz(func(t *testing.T, in string) {
		g, err := Read(strings.NewReader(in), "fuzz")
		if err != nil {
			var pe *ParseError
			if errors.As(err, &pe) && (pe.Total == 0 || len(pe.Lines) == 0 || pe.Lines[0].Line < 1) {
				t.Fatalf("parse error without lines: %v", err)
			}
			return
		}
		if len(g.From) != len(g.To) || len(g.From) != len(g.Weight) {
			t.Fatal("edge slices differ in length")
		}
		for i := range g.From {
			if g.From[i] == g.To[i] || int(g.From[i]) >= len(g.Names) || int(g.To[i]) >= len(g.Names) || !(g.Weight[i] > 0) {
				t.Fatalf("bad edge %d: %d→%d w %v of %d names", i, g.From[i], g.To[i], g.Weight[i], len(g.Names))
			}
		}
		seen := map[string]bool{}
		for _, n := range g.Names {
			if seen[n] || n != strings.ToLower(n) && !strings.Contains(n, "%") {
				t.Fatalf("name %q repeated or not lower-cased", n)
			}
			seen[n] = true
		}
	})
}
