package projects_test

import (
	"path/filepath"
	"slices"
	"testing"

	"sitesift/app/projects"
)

// TestWindowTitleNamesTheProject: the window's title names the project's
// folder, so that two windows, or one after a switch, are told apart; with
// no project open it names the app alone.
func TestWindowTitleNamesTheProject(t *testing.T) {
	for _, tc := range []struct{ dir, want string }{
		{"/home/ann/sitesift/news", "sitesift — /home/ann/sitesift/news"},
		{"/home/ann/sitesift/news/", "sitesift — /home/ann/sitesift/news"},
		{"", "sitesift"},
	} {
		if got := projects.WindowTitle(tc.dir); got != tc.want {
			t.Errorf("WindowTitle(%q) = %q, want %q", tc.dir, got, tc.want)
		}
	}
}

// TestSwitchTellsTheOpenProject: OnSwitch hears of the project adopted and
// of each switch that went through, in order, and of no switch that failed
// or that kept the same project.
func TestSwitchTellsTheOpenProject(t *testing.T) {
	base := t.TempDir()
	first, second := filepath.Join(base, "first"), filepath.Join(base, "second")
	makeProject(t, second)
	var told []string
	open := opener(t)
	sw := projects.NewSwitcher(projects.Options{Open: open, OnSwitch: func(dir string) { told = append(told, dir) }})
	defer sw.Close()
	o, err := open(first, true)
	if err != nil {
		t.Fatal(err)
	}
	sw.Adopt(o)
	if _, err := sw.OpenDir(second); err != nil {
		t.Fatal(err)
	}
	if _, err := sw.OpenDir(second); err != nil {
		t.Fatal(err)
	}
	if _, err := sw.OpenDir(filepath.Join(base, "none")); err == nil {
		t.Fatal("opened a folder with no project")
	}
	if _, err := sw.OpenDir(first); err != nil {
		t.Fatal(err)
	}
	if want := []string{first, second, first}; !slices.Equal(told, want) {
		t.Errorf("OnSwitch heard %q, want %q", told, want)
	}
}

// TestDialogDirBesideTheOpenProject: a folder dialog starts in the folder
// that holds the open project, where its sibling projects are; with none
// open, in the home folder.
func TestDialogDirBesideTheOpenProject(t *testing.T) {
	base := t.TempDir()
	home := filepath.Join(base, "home")
	t.Setenv("HOME", home)
	sw := projects.NewSwitcher(projects.Options{Open: opener(t)})
	defer sw.Close()
	if got := sw.DialogDir(); got != home {
		t.Errorf("with no project open: DialogDir() = %q, want the home folder %q", got, home)
	}
	dir := filepath.Join(base, "work", "news")
	if _, err := sw.CreateDir(dir); err != nil {
		t.Fatal(err)
	}
	if got, want := sw.DialogDir(), filepath.Join(base, "work"); got != want {
		t.Errorf("with %s open: DialogDir() = %q, want %q", dir, got, want)
	}
}
