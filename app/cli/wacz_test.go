package cli

import (
	"archive/zip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sitesift/app/apptest"
)

// TestExportWACZCLI: export --what wacz writes PROJECT-crawl.wacz into a
// directory and says what it holds; it wants --out and no --format; a
// project of an imported link graph is refused with exit status 1 and the
// reason, and leaves no file.
func TestExportWACZCLI(t *testing.T) {
	dir := apptest.CrawledProject(t)
	out := t.TempDir()
	code, _, stderr := runCLI(t, "export", "--project", dir, "--what", "wacz", "--out", out)
	path := filepath.Join(out, "project-crawl.wacz")
	if code != 0 || !strings.Contains(stderr, "wrote "+path) || !strings.Contains(stderr, "captures") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	names := map[string]bool{}
	for _, f := range zr.File {
		names[f.Name] = true
	}
	for _, n := range []string{"datapackage.json", "datapackage-digest.json", "indexes/index.cdxj", "pages/pages.jsonl"} {
		if !names[n] {
			t.Errorf("no %s in %v", n, names)
		}
	}
	if code, out, _ := runCLI(t, "help", "export"); code != 0 || !strings.Contains(out, "--what wacz") || !strings.Contains(out, "PROJECT-crawl.wacz") {
		t.Errorf("help export lacks --what wacz:\n%s", out)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--what", "wacz"}, "--out FILE or DIR is required"},
		{[]string{"--what", "wacz", "--out", out, "--format", "zip"}, "takes no --format"},
	} {
		if code, _, stderr := runCLI(t, append([]string{"export", "--project", dir}, tc.args...)...); code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d %s", tc.args, code, stderr)
		}
	}

	graph := filepath.Join(t.TempDir(), "graph")
	edges := filepath.Join(t.TempDir(), "edges.txt")
	os.WriteFile(edges, []byte("a.test b.test\nb.test a.test\n"), 0o644)
	if code, _, stderr := runCLI(t, "import", "--project", graph, "--edges", edges); code != 0 {
		t.Fatalf("import: %d %s", code, stderr)
	}
	empty := t.TempDir()
	code, _, stderr = runCLI(t, "export", "--project", graph, "--what", "wacz", "--out", empty)
	if ents, _ := os.ReadDir(empty); code != 1 || !strings.Contains(stderr, "no captures in this project") || len(ents) != 0 {
		t.Errorf("export of an imported graph: exit %d, %d files: %s", code, len(ents), stderr)
	}
}
