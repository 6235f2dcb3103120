package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sitesift/app/cli"
)

// TestCLIDocIsCurrent regenerates the command reference from the command
// table and fails when docs/cli.md's differs: a command, flag, default or
// help text changed in the code must show in the docs.
func TestCLIDocIsCurrent(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", docPath))
	if err != nil {
		t.Fatal(err)
	}
	have, err := Current(string(doc))
	if err != nil {
		t.Fatalf("%s: %v", docPath, err)
	}
	want, err := cli.Reference()
	if err != nil {
		t.Fatal(err)
	}
	if have == want {
		return
	}
	haveLines := strings.Split(have, "\n")
	for i, l := range strings.Split(want, "\n") {
		if i >= len(haveLines) || haveLines[i] != l {
			t.Errorf("%s: the reference's line %d is\n\t%s\nthe command table makes\n\t%s", docPath, i+1, at(haveLines, i), l)
			break
		}
	}
	t.Errorf("%s's command reference is out of date: run go run ./tools/clidoc -w", docPath)
}

func at(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "(nothing: the reference ends)"
}

// TestReplaceKeepsTheRest: only what lies between the markers changes.
func TestReplaceKeepsTheRest(t *testing.T) {
	in := "# CLI\n\nprose\n\n" + beginMarker + "\n### old\n" + endMarker + "\n\nmore prose\n"
	out, err := Replace(in, "### sitesift crawl\n")
	if err != nil {
		t.Fatal(err)
	}
	want := "# CLI\n\nprose\n\n" + beginMarker + "\n### sitesift crawl\n" + endMarker + "\n\nmore prose\n"
	if out != want {
		t.Errorf("Replace gave\n%s\nwant\n%s", out, want)
	}
	if _, err := Replace("# no markers\n", "x\n"); err == nil {
		t.Error("Replace accepted a page without the markers")
	}
	if _, err := Replace("a\n"+beginMarker+"\nb\n", "x\n"); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("Replace without the end marker: %v", err)
	}
}
