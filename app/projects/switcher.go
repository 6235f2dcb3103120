package projects

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"sitesift/app"
	"sitesift/app/fault"
	"sitesift/app/lab"
)

// Opened is a project open for this process: its App, its folder and how
// to close it (stop what runs, close the App and the project).
type Opened struct {
	App   *app.App
	Dir   string
	Close func()
}

// Opener opens the project in dir, creating it when create, for the
// process that will hold it (the adapter adds what it serves beside it).
type Opener func(dir string, create bool) (Opened, error)

// Options configures a Switcher.
type Options struct {
	// Open opens a project.
	Open Opener
	// Recent, when set, remembers every project opened.
	Recent *Recent
	// Folder, when set, is the one folder projects are opened from and
	// created in, by name; a project is then never opened by its path.
	Folder *Folder
	// OnSwitch, when set, is called with the folder of each project made
	// the open one (Adopt, and every switch that goes through), in order:
	// the desktop window retitles itself with it.
	OnSwitch func(dir string)
}

// Switcher holds the project open in the desktop window or in serve, and
// opens another in its place. One switch at a time.
type Switcher struct {
	opt Options
	mu  sync.Mutex
	cur Opened // App nil: no project open
	// recentErr is the last failure to remember a project, reported by
	// State until a write succeeds.
	recentErr error
}

// NewSwitcher returns a Switcher with no project open.
func NewSwitcher(opt Options) *Switcher { return &Switcher{opt: opt} }

// Current returns the open project's App and folder; a nil App when none
// is open.
func (s *Switcher) Current() (*app.App, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cur.App, s.cur.Dir
}

// State is what a projects page shows.
type State struct {
	// Current is the open project's folder, "" for none.
	Current string `json:"current"`
	// Recent are this user's recent projects, most recent first (the
	// desktop window); RecentError says why the list could not be read.
	Recent      []Entry `json:"recent"`
	RecentError string  `json:"recent_error,omitempty"`
	// Folder is the folder of `serve --projects`, and Projects the
	// projects in it; "" and none otherwise.
	Folder   string  `json:"folder"`
	Projects []Entry `json:"projects"`
	// ByPath tells whether a project may be opened or created by its path
	// (the desktop window) rather than by name in Folder.
	ByPath bool `json:"by_path"`
}

// State returns the open project and the projects that may be opened.
func (s *Switcher) State() (State, error) {
	_, dir := s.Current()
	st := State{Current: dir, Recent: []Entry{}, Projects: []Entry{}, ByPath: s.opt.Folder == nil}
	if s.opt.Recent != nil {
		list, err := s.opt.Recent.List()
		st.Recent = list
		s.mu.Lock()
		if err == nil {
			err = s.recentErr
		}
		s.mu.Unlock()
		if err != nil {
			st.RecentError = fault.OneLine(err)
		}
	}
	if f := s.opt.Folder; f != nil {
		st.Folder = f.Dir
		list, err := f.List()
		if err != nil {
			return st, err
		}
		st.Projects = list
	}
	return st, nil
}

// OpenDir opens the existing project in dir in place of the open one.
func (s *Switcher) OpenDir(dir string) (string, error) {
	abs, err := s.byPath("open", dir)
	if err != nil {
		return "", err
	}
	if !IsProject(abs) {
		return "", fault.NotFound(fmt.Errorf("open %s: no sitesift project in this folder", abs))
	}
	return s.switchTo(abs, false)
}

// CreateDir creates a project in dir (a folder that does not exist yet, or
// an empty one) and opens it in place of the open one.
func (s *Switcher) CreateDir(dir string) (string, error) {
	abs, err := s.byPath("create", dir)
	if err != nil {
		return "", err
	}
	if err := ValidName(filepath.Base(abs)); err != nil {
		return "", err
	}
	des, err := os.ReadDir(abs)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return "", fault.Invalid(fmt.Errorf("new project %s: %w", abs, err))
	case len(des) > 0:
		return "", fault.Conflict(fmt.Errorf("new project %s: the folder is not empty; choose a new name", abs))
	}
	return s.switchTo(abs, true)
}

// OpenNamed opens the project name of the Folder.
func (s *Switcher) OpenNamed(name string) (string, error) {
	if s.opt.Folder == nil {
		return "", fault.Invalid(errors.New("open: projects are opened by folder here, not by name"))
	}
	dir, err := s.opt.Folder.Project(name)
	if err != nil {
		return "", err
	}
	return s.switchTo(dir, false)
}

// CreateNamed creates the project name in the Folder and opens it.
func (s *Switcher) CreateNamed(name string) (string, error) {
	if s.opt.Folder == nil {
		return "", fault.Invalid(errors.New("new project: projects are created by folder here, not by name"))
	}
	dir, err := s.opt.Folder.NewProject(name)
	if err != nil {
		return "", err
	}
	return s.switchTo(dir, true)
}

// byPath checks that projects may be named by their path here.
func (s *Switcher) byPath(what, dir string) (string, error) {
	if s.opt.Folder != nil {
		return "", fault.Invalid(fmt.Errorf("%s %q: only the projects of %s are opened here, by name", what, dir, s.opt.Folder.Dir))
	}
	if dir == "" {
		return "", fault.Invalid(fmt.Errorf("%s: no folder given", what))
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fault.Invalid(fmt.Errorf("%s %s: %w", what, dir, err))
	}
	return abs, nil
}

// Busy says what runs in a that a switch would cut short (a crawl, an
// import, a lab experiment): "" when nothing does.
func Busy(a *app.App) string {
	switch {
	case a == nil:
		return ""
	case a.Crawling.Running():
		return "a crawl is running"
	case a.Imports.Running():
		return "an import is running"
	}
	for _, j := range a.Lab.Jobs() {
		if j.State == lab.JobRunning {
			return "a lab experiment is running"
		}
	}
	return ""
}

// switchTo opens dir, then closes the project that was open. A crawl, an
// import or a lab experiment running in the open project refuses the switch: it is stopped
// on its own page first, on purpose. The new project is opened before the
// old one is closed, so that a project that cannot open leaves the old one
// open.
func (s *Switcher) switchTo(dir string, create bool) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur.App != nil && filepath.Clean(s.cur.Dir) == filepath.Clean(dir) {
		return s.cur.Dir, nil
	}
	if busy := Busy(s.cur.App); busy != "" {
		return "", fault.Conflict(fmt.Errorf("cannot open %s: %s in %s; stop it (or let it end), then open the other project", dir, busy, s.cur.Dir))
	}
	next, err := s.opt.Open(dir, create)
	if err != nil {
		return "", err
	}
	old := s.cur
	s.cur = next
	s.remember(next.Dir)
	if old.Close != nil {
		old.Close()
	}
	s.announce(next.Dir)
	return next.Dir, nil
}

// Adopt makes an Opened the open project, as the first one opened by the
// adapter (before the window is up), and remembers it.
func (s *Switcher) Adopt(o Opened) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cur = o
	s.remember(o.Dir)
	s.announce(o.Dir)
}

// announce tells OnSwitch of the project now open. Called with mu held, so
// that what it hears keeps the order of the switches.
func (s *Switcher) announce(dir string) {
	if s.opt.OnSwitch != nil {
		s.opt.OnSwitch(dir)
	}
}

// remember adds dir to the recent list; a failure is kept for State to
// report, never an obstacle to the project. Called with mu held.
func (s *Switcher) remember(dir string) {
	if s.opt.Recent != nil {
		s.recentErr = s.opt.Recent.Add(dir)
	}
}

// Close closes the open project.
func (s *Switcher) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur.Close != nil {
		s.cur.Close()
	}
	s.cur = Opened{}
}
