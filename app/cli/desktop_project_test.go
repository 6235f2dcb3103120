package cli

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"sitesift/app/apptest"
	"sitesift/app/project"
)

// smallProject crawls 60 pages of the demo web into a new project and
// rates two sites, as a librarian would before opening the app.
func smallProject(t *testing.T) (dir string, site string) {
	t.Helper()
	seeds, proxy := apptest.DemoWeb(t)
	dir = filepath.Join(t.TempDir(), "p")
	args := append([]string{"crawl", "--project", dir, "--proxy", proxy, "--max-pages", "60", "--delay", "1ms", "--parallel", "4"}, seeds...)
	if code, out, errs := runCLI(t, args...); code != 0 {
		t.Fatalf("crawl: %d %s %s", code, out, errs)
	}
	code, out, errs := runCLI(t, "sites", "--project", dir, "--format", "csv", "--limit", "2")
	if code != 0 {
		t.Fatalf("sites: %d %s", code, errs)
	}
	rows := apptest.ReadCSV(t, out)
	site = rows[1][0]
	for _, name := range []string{"ann", "bob"} {
		if code, _, errs := runCLI(t, "librarians", "add", "--project", dir, name); code != 0 {
			t.Fatalf("librarians add %s: %s", name, errs)
		}
	}
	for _, r := range [][]string{{"ann", rows[1][0], "4"}, {"bob", rows[1][0], "3"}, {"ann", rows[2][0], "2"}, {"bob", rows[2][0], "2"}} {
		if code, _, errs := runCLI(t, "rate", "--project", dir, "--librarian", r[0], r[1], r[2]); code != 0 {
			t.Fatalf("rate %v: %s", r, errs)
		}
	}
	// Two librarians: one nominates, the other approves.
	for _, step := range [][2]string{{"ann", "nominated"}, {"bob", "approved"}} {
		if code, _, errs := runCLI(t, "selection", "set", "--project", dir, "--librarian", step[0], rows[2][0], step[1]); code != 0 {
			t.Fatalf("selection set: %s", errs)
		}
	}
	return dir, site
}

// readCommands are the commands that read a project, each with a part of
// the output it must give.
func readCommands(dir, site string) [][]string {
	return [][]string{
		{"rank", "--project", dir, "--limit", "5"},
		{"rank", "--project", dir, "--biased", "--limit", "5"},
		{"search", "--project", dir, "archive"},
		{"search", "--project", dir, "--any", "archive", "zzyzx"},
		{"export", "--project", dir, "--what", "browsertrix"},
		{"seeds", "--project", dir, "--count", "3", "--method", "importance"},
		{"seeds", "--project", dir, "--count", "2", "--method", "communities"},
		{"export", "--project", dir, "--what", "heritrix-precedence"},
		{"export", "--project", dir, "--what", "sites"},
		{"export", "--project", dir, "--what", "warc-list"},
		{"agreement", "--project", dir},
		{"sites", "--project", dir, "--limit", "5"},
		{"sites", "--project", dir, site},
		{"librarians", "list", "--project", dir},
		{"collections", "list", "--project", dir},
		{"ratings", "export", "--project", dir},
		{"selection", "export", "--project", dir},
		{"review", "--project", dir, "--librarian", "ann", "--limit", "3"},
	}
}

// writeCommands change the project.
func writeCommands(dir, site string) [][]string {
	ratings := filepath.Join(filepath.Dir(dir), "ratings.csv")
	os.WriteFile(ratings, []byte("librarian,site,rating,note\ncid,"+site+",3,\n"), 0o644)
	return [][]string{
		{"rate", "--project", dir, "--librarian", "cid", site, "3"},
		{"librarians", "add", "--project", dir, "cid"},
		{"ratings", "import", "--project", dir, ratings},
		{"selection", "set", "--project", dir, "--librarian", "ann", site, "approved"},
		{"crawl", "--project", dir, "http://a.test/"},
		{"settings", "--project", dir, "--delay", "2s"},
		{"check", "--project", dir},
	}
}

// While `serve` holds a project, the read-only commands work beside it and
// a writing command, or a second serve, says which process holds it.
func TestOneProjectTwoPrograms(t *testing.T) {
	dir, site := smallProject(t)
	// The same outputs with the project free, to compare with.
	free := map[string]string{}
	for _, args := range readCommands(dir, site) {
		code, out, errs := runCLI(t, args...)
		if code != 0 || out == "" {
			t.Fatalf("%v on a free project: %d %q %s", args, code, out, errs)
		}
		free[strings.Join(args, " ")] = out
	}
	// heritrix writes a directory, read back to compare.
	heritrix := func(out string) string {
		code, _, errs := runCLI(t, "export", "--project", dir, "--what", "heritrix", "--out", out)
		if code != 0 {
			return fmt.Sprintf("exit %d: %s", code, errs)
		}
		seeds, err1 := os.ReadFile(filepath.Join(out, "seeds.txt"))
		prec, err2 := os.ReadFile(filepath.Join(out, "precedence.txt"))
		return fmt.Sprintf("%s%s%v%v", seeds, prec, err1, err2)
	}
	freeHeritrix := heritrix(filepath.Join(t.TempDir(), "free"))
	if !strings.Contains(freeHeritrix, "http") {
		t.Fatalf("heritrix on a free project: %s", freeHeritrix)
	}

	var out, errb lockedBuffer
	c := CLI{Stdout: &out, Stderr: &errb}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int)
	go func() { done <- c.Run(ctx, []string{"serve", "--project", dir, "--addr", "127.0.0.1:0"}) }()
	stopped := false
	stop := func() {
		if !stopped {
			cancel()
			<-done
			stopped = true
		}
	}
	defer stop()
	for deadline := time.Now().Add(20 * time.Second); !strings.Contains(out.String(), "sitesift: open "); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("serve printed no URL: %q %q", out.String(), errb.String())
		}
	}
	h, err := project.ReadHolder(dir)
	if err != nil || h.PID != os.Getpid() || h.Command != "sitesift serve" || h.Socket == "" || !strings.HasPrefix(h.URL, "http://127.0.0.1:") {
		t.Fatalf("holder %+v, %v", h, err)
	}
	if fi, err := os.Stat(h.Socket); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("socket %s: %v %v; want mode 0600", h.Socket, fi, err)
	}

	for _, args := range readCommands(dir, site) {
		code, got, errs := runCLI(t, args...)
		key := strings.Join(args, " ")
		if code != 0 {
			t.Errorf("%s beside serve: exit %d: %s", key, code, errs)
			continue
		}
		// The search too, relevance and all, though the holder runs it.
		if got != free[key] {
			t.Errorf("%s beside serve:\n%s\nwant, as on the free project:\n%s", key, got, free[key])
		}
	}
	if got := heritrix(filepath.Join(t.TempDir(), "beside")); got != freeHeritrix {
		t.Errorf("export --what heritrix beside serve: %s\nwant, as on the free project:\n%s", got, freeHeritrix)
	}
	// A bad query is refused as such, through the holder.
	if code, _, errs := runCLI(t, "search", "--project", dir, "/[/"); code == 0 || !strings.Contains(errs, "query") {
		t.Errorf("bad query beside serve: %d %s", code, errs)
	}

	want := fmt.Sprintf("is open in sitesift serve (pid %d, since ", os.Getpid())
	for _, args := range append(writeCommands(dir, site), []string{"serve", "--project", dir, "--addr", "127.0.0.1:0"}) {
		code, _, errs := runCLI(t, args...)
		if code != 1 || !strings.Contains(errs, want) || !strings.Contains(errs, "stop it") || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v beside serve: exit %d, %q; want one line with %q", args, code, errs, want)
		}
	}
	if code, out, _ := runCLI(t, "librarians", "list", "--project", dir); code != 0 || strings.Contains(out, "cid") {
		t.Errorf("a refused write changed the project: %s", out)
	}

	stop()
	if _, err := os.Stat(h.Socket); !os.IsNotExist(err) {
		t.Errorf("the socket outlived serve: %v", err)
	}
	if code, _, errs := runCLI(t, "librarians", "add", "--project", dir, "cid"); code != 0 {
		t.Errorf("librarians add after serve ended: %d %s", code, errs)
	}
}

// holdEnv makes the test binary a process that serves a project until
// killed (TestHoldProject).
const holdEnv = "SITESIFT_TEST_HOLD"

// TestHoldProject is the holder process of TestKilledHolder; it runs only
// when that test starts it.
func TestHoldProject(t *testing.T) {
	dir := os.Getenv(holdEnv)
	if dir == "" {
		t.Skip("run by TestKilledHolder")
	}
	c := CLI{Stdout: os.Stdout, Stderr: os.Stderr}
	os.Exit(c.Run(context.Background(), []string{"serve", "--project", dir, "--addr", "127.0.0.1:0"}))
}

// A holder in another process: commands beside it read and search, writes
// are refused naming it; once it is killed (-9, leaving its lock file and
// socket behind), the next command opens the project as if nothing held it.
func TestKilledHolder(t *testing.T) {
	dir, site := smallProject(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestHoldProject$")
	cmd.Env = append(os.Environ(), holdEnv+"="+dir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	for l := range lines {
		if strings.HasPrefix(l, "sitesift: open ") {
			break
		}
	}
	go func() {
		for range lines {
		}
	}()

	if code, out, errs := runCLI(t, "search", "--project", dir, "archive"); code != 0 || out == "" {
		t.Errorf("search beside another process: %d %q %s", code, out, errs)
	}
	if code, out, errs := runCLI(t, "rank", "--project", dir, "--limit", "3"); code != 0 || out == "" {
		t.Errorf("rank beside another process: %d %q %s", code, out, errs)
	}
	want := fmt.Sprintf("is open in sitesift serve (pid %d, since ", cmd.Process.Pid)
	if code, _, errs := runCLI(t, "rate", "--project", dir, "--librarian", "cid", site, "3"); code != 1 || !strings.Contains(errs, want) {
		t.Errorf("rate beside another process: %d %q; want %q", code, errs, want)
	}

	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if _, err := os.Stat(filepath.Join(dir, project.SocketFile)); err != nil {
		t.Fatalf("the killed holder's socket: %v; want it left behind", err)
	}
	if code, _, errs := runCLI(t, "rate", "--project", dir, "--librarian", "bob", site, "3"); code != 0 {
		t.Fatalf("rate after the holder was killed: %d %s", code, errs)
	}
	if code, out, errs := runCLI(t, "check", "--project", dir); code != 0 || !strings.Contains(out, "ok") {
		t.Errorf("check after the kill: %d %s %s", code, out, errs)
	}
}
