package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestREADMEMapIsCurrent regenerates the map of the code from the packages
// and fails when README.md's differs: a package added, moved or with a new
// doc sentence must show in the README.
func TestREADMEMapIsCurrent(t *testing.T) {
	root := filepath.Join("..", "..")
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	have, err := Current(string(readme))
	if err != nil {
		t.Fatalf("README.md: %v", err)
	}
	want, err := Map(root)
	if err != nil {
		t.Fatal(err)
	}
	if have == want {
		return
	}
	haveLines := map[string]bool{}
	for l := range strings.Lines(have) {
		haveLines[l] = true
	}
	wantLines := map[string]bool{}
	for l := range strings.Lines(want) {
		wantLines[l] = true
		if !haveLines[l] {
			t.Errorf("README.md's map lacks: %s", strings.TrimSpace(l))
		}
	}
	for l := range strings.Lines(have) {
		if !wantLines[l] {
			t.Errorf("README.md's map has, and the packages do not say: %s", strings.TrimSpace(l))
		}
	}
	t.Errorf("README.md's map of the code is out of date: run go run ./tools/readmemap -w")
}

// TestReplaceKeepsTheRest: only what lies between the markers changes.
func TestReplaceKeepsTheRest(t *testing.T) {
	in := "# x\n\n" + beginMarker + "\n- old\n" + endMarker + "\n\ntail\n"
	out, err := Replace(in, "- `a` — A.\n")
	if err != nil {
		t.Fatal(err)
	}
	want := "# x\n\n" + beginMarker + "\n- `a` — A.\n" + endMarker + "\n\ntail\n"
	if out != want {
		t.Errorf("Replace gave\n%s\nwant\n%s", out, want)
	}
	if _, err := Replace("# no markers\n", "- `a`\n"); err == nil {
		t.Error("Replace accepted a README without the markers")
	}
}

// TestItemEscapesMarkup: a doc naming an HTML element shows it as text.
func TestItemEscapesMarkup(t *testing.T) {
	got := item("tools/hostileweb", "Command hostileweb serves pages whose <title> is megabytes long.")
	want := "- `tools/hostileweb` — Command hostileweb serves pages whose &lt;title&gt; is megabytes long.\n"
	if got != want {
		t.Errorf("item = %q, want %q", got, want)
	}
	if got := item("x", ""); got != "- `x` — (no package doc)\n" {
		t.Errorf("item without a doc = %q", got)
	}
}
