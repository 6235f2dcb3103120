package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCLIImportArchives: a WARC file and its CDX imported from the command
// line, each file's counts printed; the same command again skips both; a
// missing file is refused naming it, before any project is created; files
// listed after a flag belong to it.
func TestCLIImportArchives(t *testing.T) {
	ref := filepath.Join("..", "..", "..", "shared", "data", "warc")
	dir := filepath.Join(t.TempDir(), "p")
	args := []string{"import", "--project", dir, "--warc", filepath.Join(ref, "iana.warc.gz"), filepath.Join(ref, "example.warc.gz"),
		"--cdx", filepath.Join(ref, "iana.cdx")}
	code, stdout, stderr := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{`"html_pages":20`, `"revisits":123`, "example.warc.gz: {", `"captures":171`, "3 files"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	code, stdout, stderr = runCLI(t, args...)
	if code != 0 || strings.Count(stdout, "imported before") != 3 {
		t.Errorf("second run: exit %d, stdout %s, stderr %s; want the 3 files skipped", code, stdout, stderr)
	}

	missing := filepath.Join(t.TempDir(), "nope.warc.gz")
	fresh := filepath.Join(t.TempDir(), "fresh")
	code, _, stderr = runCLI(t, "import", "--project", fresh, "--warc", missing)
	if code != 1 || !strings.Contains(stderr, missing) {
		t.Errorf("missing file: exit %d, stderr %q; want 1 and the path", code, stderr)
	}
	if _, err := os.Stat(fresh); !os.IsNotExist(err) {
		t.Errorf("a refused import created the project %s (%v)", fresh, err)
	}
	if code, _, stderr = runCLI(t, "import", "--project", fresh, "--tld", "fr", "x"); code != 2 || !strings.Contains(stderr, `unexpected argument "x"`) {
		t.Errorf("argument after --tld: exit %d, stderr %q", code, stderr)
	}
}
