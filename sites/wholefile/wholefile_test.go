package wholefile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "seeds.txt")
	if err := Write(path, func(w io.Writer) error {
		_, err := io.WriteString(w, "https://example.org/\n")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || string(b) != "https://example.org/\n" {
		t.Fatalf("read back %q, %v", b, err)
	}
	st, _ := os.Stat(path)
	if st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", st.Mode().Perm())
	}
	onlyFiles(t, dir, "seeds.txt")
}

// A fill that fails halfway leaves the file that was there, and no
// temporary file.
func TestWriteFailureKeepsOld(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "seeds.txt")
	os.WriteFile(path, []byte("old\n"), 0o644)
	boom := errors.New("disk on fire")
	err := Write(path, func(w io.Writer) error {
		io.WriteString(w, "half of the new")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want the fill's", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old\n" {
		t.Errorf("the old file became %q", b)
	}
	onlyFiles(t, dir, "seeds.txt")
}

// Errors name the file asked for and say what is wrong with its place,
// never the temporary file's name.
func TestCreateErrors(t *testing.T) {
	dir := t.TempDir()
	notDir := filepath.Join(dir, "plain")
	os.WriteFile(notDir, nil, 0o644)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	for _, tc := range []struct {
		path string
		want string
	}{
		{filepath.Join(dir, "missing", "seeds.txt"), "the folder " + filepath.Join(dir, "missing") + " does not exist"},
		{filepath.Join(notDir, "seeds.txt"), notDir + " is not a folder"},
		{filepath.Join(dir, "sub"), filepath.Join(dir, "sub") + " is a folder"},
	} {
		_, err := Create(tc.path)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), ".part-") {
			t.Errorf("Create(%s): %v, want an error saying %q", tc.path, err, tc.want)
		}
	}
}

func TestCommitRenameFailureNamesPath(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.csv")
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	// A folder appears where the file goes: the rename fails.
	if err := os.Mkdir(path, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(path, "x"), nil, 0o644)
	err = f.Commit()
	if err == nil || !strings.HasPrefix(err.Error(), path+":") || strings.Contains(err.Error(), ".part-") {
		t.Fatalf("Commit: %v, want an error naming %s alone", err, path)
	}
	f.Abort() // after Commit: nothing to do
	onlyFiles(t, dir, "out.csv")
}

func onlyFiles(t *testing.T, dir string, want ...string) {
	t.Helper()
	es, _ := os.ReadDir(dir)
	var got []string
	for _, e := range es {
		got = append(got, e.Name())
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("%s holds %v, want %v", dir, got, want)
	}
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "recent.json")
	if err := WriteFile(path, []byte("[]\n")); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "[]\n" {
		t.Fatalf("read back %q, %v", b, err)
	}
	if err := WriteFile(filepath.Join(dir, "missing", "x"), nil); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("into a missing folder: %v", err)
	}
	onlyFiles(t, dir, "recent.json")
}
