package cli

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sitesift/app/httpapi"
	"strings"
	"testing"

	"sitesift/app"
	"sitesift/app/apptest"
	"sitesift/app/project"
	"sitesift/app/projects"
)

// TestServeProjects: serve --projects DIR opens on the projects page with
// no project open, lists the projects of DIR, creates one by name (which
// opens empty, its API on its socket for the commands run beside it) and
// refuses a name that leads out of DIR.
func TestServeProjects(t *testing.T) {
	root := filepath.Join(t.TempDir(), "projects")
	p, err := project.Open(filepath.Join(root, "news"), true)
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
	var out, errb lockedBuffer
	c := CLI{Stdout: &out, Stderr: &errb}
	open := startServe(t, c, &out, &errb, []string{"serve", "--projects", root, "--addr", "127.0.0.1:0"}...)
	if !strings.HasSuffix(open, "/#/projects") || !strings.Contains(out.String(), "sitesift: projects in "+root) {
		t.Errorf("serve --projects printed %q; want the folder and the projects page", out.String())
	}
	base := strings.TrimSuffix(open, "#/projects")
	call := func(method, path, body string, want int, v any) {
		t.Helper()
		var token string
		if method != "GET" {
			var s struct{ Data struct{ Token string } }
			getJSON(t, base+"api/session", &s)
			token = s.Data.Token
		}
		req, _ := http.NewRequest(method, base+strings.TrimPrefix(path, "/"), strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Sitesift-Token", token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != want {
			t.Fatalf("%s %s %s: %d %s, want %d", method, path, body, res.StatusCode, b, want)
		}
		if v != nil {
			var env struct{ Data json.RawMessage }
			json.Unmarshal(b, &env)
			if err := json.Unmarshal(env.Data, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	call("GET", "/api/project", "", http.StatusConflict, nil)
	var st projects.State
	call("GET", "/api/projects", "", 200, &st)
	if len(st.Projects) != 1 || st.Projects[0].Name != "news" {
		t.Fatalf("projects: %+v", st.Projects)
	}
	call("POST", "/api/projects/create", `{"name": "../escape"}`, http.StatusBadRequest, nil)
	call("POST", "/api/projects/create", `{"dir": "/tmp/escape"}`, http.StatusBadRequest, nil)
	call("POST", "/api/projects/create", `{"name": "fresh"}`, 200, nil)
	var info app.ProjectInfo
	call("GET", "/api/project", "", 200, &info)
	if info.Dir != filepath.Join(root, "fresh") || info.Pages != 0 {
		t.Errorf("after creating fresh: %+v", info)
	}
	if _, err := os.Stat(filepath.Join(root, "fresh", project.SocketFile)); err != nil {
		t.Errorf("the new project serves no socket for the commands beside it: %v", err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(root), "escape")); !os.IsNotExist(err) {
		t.Errorf("a folder was made outside: %v", err)
	}
}

// TestServeProjectsOutside: --project must be one of the folder's projects.
func TestServeProjectsOutside(t *testing.T) {
	var out, errb lockedBuffer
	c := CLI{Stdout: &out, Stderr: &errb}
	base := t.TempDir()
	code := c.Run(context.Background(), []string{"serve", "--projects", filepath.Join(base, "projects"), "--project", filepath.Join(base, "other"), "--addr", "127.0.0.1:0"})
	if code != 2 || !strings.Contains(errb.String(), "is not a folder of --projects") {
		t.Errorf("exit %d, %q; want 2 and the reason", code, errb.String())
	}
}

// TestDesktopSwitchesProjects: the window's handler creates and opens
// projects, remembers them in this user's recent list, retitles the window
// with the project it shows, and closes the last one open when the window
// closes.
func TestDesktopSwitchesProjects(t *testing.T) {
	base := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(base, "config"))
	first, second := filepath.Join(base, "first"), filepath.Join(base, "second")
	var errb lockedBuffer
	var retitled []string
	c := CLI{Stdout: io.Discard, Stderr: &errb, Dialogs: noDialogs{}, Retitle: func(title string) { retitled = append(retitled, title) }}
	c.Desktop = func(title string, h http.Handler) error {
		if title != projects.WindowTitle(first) {
			t.Errorf("window title %q, want %q", title, projects.WindowTitle(first))
		}
		var opened struct{ Dir string }
		apptest.Call(t, h, "POST", "/api/projects/create", `{"dir": "`+second+`"}`, 200, &opened)
		// The window's title follows the project it shows.
		if n := len(retitled); n == 0 || retitled[n-1] != projects.WindowTitle(second) {
			t.Errorf("after New project the window is titled %q, want %q last", retitled, projects.WindowTitle(second))
		}
		var info app.ProjectInfo
		apptest.Call(t, h, "GET", "/api/project", "", 200, &info)
		if info.Dir != second {
			t.Errorf("after New project the window serves %s", info.Dir)
		}
		// The first project was closed: another process can hold it.
		p, err := project.Open(first, false)
		if err != nil {
			t.Errorf("the project switched away from is still held: %v", err)
		} else {
			p.Close()
		}
		return nil
	}
	if code := c.Run(context.Background(), []string{"--project", first}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	p, err := project.Open(second, false)
	if err != nil {
		t.Fatalf("the last project is still held after the window closed: %v", err)
	}
	p.Close()
	list, err := (&projects.Recent{Path: filepath.Join(base, "config", "sitesift", "recent.json")}).List()
	if err != nil || len(list) != 2 || list[0].Dir != second || list[1].Dir != first {
		t.Errorf("recent projects: %+v, %v; want second, first", list, err)
	}
}

// noDialogs is a window whose dialogs are all cancelled.
type noDialogs struct{}

func (noDialogs) SaveFile(string, string, string, []httpapi.FileFilter) (string, error) {
	return "", nil
}
func (noDialogs) OpenFile(string, []httpapi.FileFilter) (string, error)    { return "", nil }
func (noDialogs) OpenFiles(string, []httpapi.FileFilter) ([]string, error) { return nil, nil }
func (noDialogs) OpenDirectory(string, string) (string, error)             { return "", nil }

func getJSON(t *testing.T, u string, v any) {
	t.Helper()
	res, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}
