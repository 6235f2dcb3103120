package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sitesift/app/apptest"
	"sitesift/app/project"
)

func TestBackupBesideTheHolder(t *testing.T) {
	dir := apptest.ReviewProject(t)
	// Held as serve holds it: the backup reads beside it.
	held, err := project.Open(dir, false, project.HeldBy("sitesift serve"))
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	file := filepath.Join(t.TempDir(), "maps.db")
	code, out, stderr := runCLI(t, "backup", "--project", dir, file)
	if code != 0 || !strings.HasPrefix(out, "backup of "+dir+" written to "+file+" (") {
		t.Fatalf("backup: exit %d: %s%s", code, out, stderr)
	}
	if code, _, stderr := runCLI(t, "backup", "--project", dir, file); code != 1 || !strings.Contains(stderr, "exists: it is replaced only when asked (--force)") {
		t.Fatalf("a second backup to the same file: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runCLI(t, "backup", "--project", dir, "--force", file); code != 0 {
		t.Fatalf("backup --force: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runCLI(t, "backup", "--project", dir); code != 2 || !strings.Contains(stderr, "give one FILE") {
		t.Fatalf("backup without a file: exit %d: %s", code, stderr)
	}
	// Restored as a project's database, it opens as the project.
	restored := filepath.Join(t.TempDir(), "restored")
	os.Mkdir(restored, 0o755)
	b, _ := os.ReadFile(file)
	os.WriteFile(filepath.Join(restored, project.DBFile), b, 0o644)
	code, out, stderr = runCLI(t, "librarians", "list", "--project", restored)
	if code != 0 || !strings.Contains(out, "cleo") {
		t.Fatalf("librarians of the restored project: exit %d: %s%s", code, out, stderr)
	}
}
