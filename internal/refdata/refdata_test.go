package refdata

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// tree makes a repository (go.mod, a package two folders down) beside a
// shared/data folder holding polblogs/edges.tsv, and returns the top folder.
func tree(t *testing.T) string {
	t.Helper()
	top := t.TempDir()
	for _, d := range []string{"repo/app/cli", "shared/data/polblogs"} {
		if err := os.MkdirAll(filepath.Join(top, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"repo/go.mod", "shared/data/polblogs/edges.tsv"} {
		if err := os.WriteFile(filepath.Join(top, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return top
}

// TestFind: the same file is found from the repository root and from a
// package two folders down (where a hand-made "../.." falls one short), and a
// missing one is reported as missing, naming the path looked for.
func TestFind(t *testing.T) {
	top := tree(t)
	want := filepath.Join(top, "shared", "data", "polblogs", "edges.tsv")
	for _, from := range []string{"repo", "repo/app", "repo/app/cli"} {
		got, err := Find(filepath.Join(top, from), "polblogs", "edges.tsv")
		if err != nil || got != want {
			t.Errorf("Find from %s = %q, %v; want %q", from, got, err, want)
		}
	}
	_, err := Find(filepath.Join(top, "repo", "app", "cli"), "warc", "iana.warc.gz")
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), filepath.Join(top, "shared", "data", "warc", "iana.warc.gz")) {
		t.Errorf("missing file: err %v; want os.ErrNotExist naming the path", err)
	}
	// Outside any repository: not "missing data", so Shared fails even
	// without RequireEnv.
	_, err = Find(filepath.Join(top, "shared"), "polblogs")
	if err == nil || errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "no go.mod") {
		t.Errorf("outside a repository: err %v; want one saying there is no go.mod", err)
	}
}

// TestSharedMissingFile is run by TestShared in a child process (with
// REFDATA_CHILD set): it asks for a file the shared data never holds.
func TestSharedMissingFile(t *testing.T) {
	if os.Getenv("REFDATA_CHILD") != "1" {
		return // only meaningful in TestShared's child process
	}
	Shared(t, "no-such-folder", "no-such-file")
	t.Log("after Shared")
}

// TestShared: a missing file skips the test, and fails it when
// SITESIFT_REQUIRE_REFDATA=1, in a real test binary run.
func TestShared(t *testing.T) {
	for _, c := range []struct {
		require  string
		wantFail bool
		want     string
	}{
		{"", false, "--- SKIP: TestSharedMissingFile"},
		{"0", false, "--- SKIP: TestSharedMissingFile"},
		{"1", true, "--- FAIL: TestSharedMissingFile"},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSharedMissingFile$", "-test.v")
		cmd.Env = append(os.Environ(), "REFDATA_CHILD=1", RequireEnv+"="+c.require)
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if failed := errors.As(err, &exit); failed != c.wantFail || (err != nil && exit == nil) {
			t.Errorf("%s=%q: exit %v; want failure %v\n%s", RequireEnv, c.require, err, c.wantFail, out)
		}
		if !strings.Contains(string(out), c.want) || !strings.Contains(string(out), filepath.Join("no-such-folder", "no-such-file")) {
			t.Errorf("%s=%q: output lacks %q or the path looked for:\n%s", RequireEnv, c.require, c.want, out)
		}
		if strings.Contains(string(out), "after Shared") {
			t.Errorf("%s=%q: the test went on past a missing file:\n%s", RequireEnv, c.require, out)
		}
	}
}
