package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sitesift/app/apptest"
)

func TestCLICollections(t *testing.T) {
	dir := apptest.TopicProject(t)
	code, out, stderr := runCLI(t, "collections", "save", "--project", dir, "--librarian", "ana", "--name", "Jazz", "--count", "5")
	if code != 0 || !strings.Contains(out, `"Jazz": 2 communities, 2 seeds`) {
		t.Fatalf("save: %d %q %s", code, out, stderr)
	}
	if code, _, stderr = runCLI(t, "collections", "save", "--project", dir, "--librarian", "bo", "--name", "Jazz"); code != 1 ||
		!strings.Contains(stderr, "name taken") {
		t.Errorf("save under a taken name: %d %s", code, stderr)
	}
	code, out, _ = runCLI(t, "collections", "list", "--project", dir)
	if code != 0 || !strings.Contains(out, "Jazz") || !strings.Contains(out, "ana") {
		t.Errorf("list: %d %q", code, out)
	}
	code, out, _ = runCLI(t, "collections", "show", "--project", dir, "Jazz")
	if code != 0 || !strings.Contains(out, "jazz · records · vinyl") || !strings.Contains(out, "http://q1.test/") {
		t.Errorf("show: %d %q", code, out)
	}
	code, out, _ = runCLI(t, "collections", "export", "--project", dir, "1")
	if code != 0 || out != "http://hub.test/\nhttp://q1.test/\n" {
		t.Errorf("export txt: %d %q", code, out)
	}
	file := filepath.Join(t.TempDir(), "seeds.csv")
	code, _, stderr = runCLI(t, "collections", "export", "--project", dir, "--format", "csv", "--out", file, "Jazz")
	b, _ := os.ReadFile(file)
	if code != 0 || !strings.HasPrefix(string(b), "community,topic,site,seed_url,hub_score,added_by_hand\njazz · records · vinyl,") {
		t.Errorf("export csv: %d %s %q", code, stderr, b)
	}
	// A collection that does not exist writes no file.
	missing := filepath.Join(t.TempDir(), "none.txt")
	if code, _, stderr = runCLI(t, "collections", "export", "--project", dir, "--out", missing, "Nope"); code != 1 ||
		!strings.Contains(stderr, `no collection named "Nope"`) {
		t.Errorf("export of a missing collection: %d %s", code, stderr)
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("a file was written for a missing collection: %v", err)
	}
	for _, args := range [][]string{
		{"collections", "export", "--project", dir},
		{"collections", "export", "--project", dir, "--format", "xml", "1"},
		{"collections", "save", "--project", dir},
		{"collections", "frob"},
	} {
		if code, _, _ := runCLI(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if code, out, _ = runCLI(t, "collections", "delete", "--project", dir, "Jazz"); code != 0 || !strings.Contains(out, "deleted") {
		t.Errorf("delete: %d %q", code, out)
	}
	if code, _, _ = runCLI(t, "collections", "delete", "--project", dir, "1"); code != 1 {
		t.Errorf("delete again: %d", code)
	}
}
