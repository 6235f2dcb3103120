package refdata

import (
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// namesShared returns the lines of src (Go source) whose string literals
// name the shared reference data's folder: a literal holding
// "shared/data" or starting with "../shared", or the literals "shared" and
// "data" given one after the other (filepath.Join("..", "shared", "data")).
// Comments do not count: they may say where the data lives.
func namesShared(src []byte) []int {
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	s.Init(file, src, nil, 0)
	var lines []int
	var prev []string // the last literals, with the commas between them
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return lines
		}
		switch tok {
		case token.COMMA:
			prev = append(prev, ",")
			continue
		case token.STRING:
		default:
			prev = prev[:0]
			continue
		}
		v, err := strconv.Unquote(lit)
		if err != nil {
			continue
		}
		v = strings.ReplaceAll(v, `\`, "/")
		after := len(prev) >= 2 && prev[len(prev)-1] == "," && prev[len(prev)-2] == "shared"
		if strings.Contains(v, "shared/data") || strings.HasPrefix(v, "../shared") || v == "data" && after {
			lines = append(lines, file.Line(pos))
		}
		prev = append(prev, v)
	}
}

// TestNamesShared: the ways a test has named the shared data are caught,
// and what only resembles them is not.
func TestNamesShared(t *testing.T) {
	for _, c := range []struct {
		name string
		src  string
		want int
	}{
		{"joined", `p := filepath.Join("..", "..", "..", "shared", "data", "warc", "iana.warc.gz")`, 1},
		{"one literal", `os.ReadFile("../../shared/data/polblogs/edges.tsv")`, 1},
		{"folder then data", `d := filepath.Join("../shared", "polblogs")`, 1},
		{"raw string", "dir := `..\\shared\\data`", 1},
		{"comment", "// the data lives in ../shared/data\nx := 1", 0},
		{"gzip kind", `if sum.Gzip != "shared" || kind == "data" {}`, 0},
		{"shared alone", `GzipShared = "shared"`, 0},
		{"refdata", `edges := refdata.Shared(t, "polblogs", "edges.tsv")`, 0},
	} {
		if got := len(namesShared([]byte(c.src))); got != c.want {
			t.Errorf("%s: %d lines name the shared data in %s; want %d", c.name, got, c.src, c.want)
		}
	}
}

// TestOnlyRefdataNamesShared: no Go file of the repository but this
// package's names the shared reference data's folder. A test that reads it
// goes through [Shared], which skips the test in a clone without the data
// and fails it under SITESIFT_REQUIRE_REFDATA=1; a path of its own would
// fail in a clone without the data, or skip for good when it looks one
// folder short.
func TestOnlyRefdataNamesShared(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root, err := repoRoot(wd)
	if err != nil {
		t.Fatal(err)
	}
	own, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	files := 0
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || name == "node_modules" || p == own) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files++
		for _, line := range namesShared(src) {
			rel, _ := filepath.Rel(root, p)
			t.Errorf("%s:%d names the shared reference data: find it with refdata.Shared (internal/refdata)", rel, line)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("read %d Go files under %s; the walk missed the repository", files, root)
	}
}
