package wholefile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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

// TestKilledWriterLeftoverRemoved: a process killed while it writes a file
// leaves its temporary file behind; the next write of that file removes it,
// and a temporary file of an older run that held none as well, while the
// file another writer is making at that moment stays.
func TestKilledWriterLeftoverRemoved(t *testing.T) {
	if !renameOpen {
		t.Skip("no file locks on this system: leftovers are not told from files being written")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "project.wacz")
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperKilledWriter$")
	cmd.Env = append(os.Environ(), "WHOLEFILE_KILLED_WRITER="+path)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(stdout).ReadString('\n'); line != "writing\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the writer said %q, %v", line, err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	left, _ := filepath.Glob(filepath.Join(dir, ".project.wacz.part-*"))
	if len(left) != 1 {
		t.Fatalf("the killed writer left %v, want its one temporary file", left)
	}
	old := filepath.Join(dir, ".project.wacz.part-123456")
	if err := os.WriteFile(old, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	live, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer live.Abort()

	if err := WriteFile(path, []byte("whole\n")); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "whole\n" {
		t.Fatalf("read back %q, %v", b, err)
	}
	onlyFiles(t, dir, filepath.Base(live.Name()), "project.wacz")
	if err := live.Commit(); err != nil {
		t.Errorf("the other writer's file: %v", err)
	}
	onlyFiles(t, dir, "project.wacz")
}

// TestHelperKilledWriter is the process TestKilledWriterLeftoverRemoved
// kills while it writes.
func TestHelperKilledWriter(t *testing.T) {
	path := os.Getenv("WHOLEFILE_KILLED_WRITER")
	if path == "" {
		t.Skip("the writer TestKilledWriterLeftoverRemoved starts and kills")
	}
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("half of a file")
	fmt.Println("writing")
	io.ReadAll(os.Stdin) // until killed
}

// TestCreateTempSweepsItsPattern: CreateTemp removes the unheld files of
// its own pattern alone, never one held open.
func TestCreateTempSweepsItsPattern(t *testing.T) {
	if !renameOpen {
		t.Skip("no file locks on this system")
	}
	dir := t.TempDir()
	for _, name := range []string{".wacz-1", ".wacz-", "a.wacz-2", ".upload-3"} {
		os.WriteFile(filepath.Join(dir, name), nil, 0o600)
	}
	held, err := CreateTemp(dir, ".wacz-*")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	f, err := CreateTemp(dir, ".wacz-*")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := []string{".upload-3", ".wacz-", filepath.Base(held.Name()), filepath.Base(f.Name()), "a.wacz-2"}
	slices.Sort(want)
	onlyFiles(t, dir, want...)
}
