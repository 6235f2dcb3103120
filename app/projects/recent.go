package projects

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"sitesift/sites/wholefile"
)

// MaxRecent is how many projects the recent list remembers.
const MaxRecent = 12

// RecentFile is where this user's recent list is kept:
// os.UserConfigDir()/sitesift/recent.json (~/.config/sitesift on Linux).
func RecentFile() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("recent projects: %w", err)
	}
	return filepath.Join(dir, "sitesift", "recent.json"), nil
}

// Recent is the list of the projects this user opened, most recent first,
// kept in one JSON file. A file that cannot be read is reported and
// replaced by the next project opened (its content kept beside it as
// recent.json.bad); it never keeps a project from opening.
type Recent struct {
	// Path is the file.
	Path string
	// Now gives the time a project is opened; nil is time.Now.
	Now func() time.Time
}

// recentFile is the file's content.
type recentFile struct {
	Projects []recentEntry `json:"projects"`
}

type recentEntry struct {
	Dir    string `json:"dir"`
	Opened string `json:"opened"`
}

// List returns the recent projects, most recent first, each marked Missing
// when its folder is no project any more. A missing file is an empty list;
// a file that cannot be read is an error naming it (and the byte offset of
// a JSON mistake).
func (r *Recent) List() ([]Entry, error) {
	f, err := r.read()
	out := []Entry{}
	for _, e := range f.Projects {
		out = append(out, Entry{Dir: e.Dir, Name: filepath.Base(e.Dir), Opened: e.Opened, Missing: !IsProject(e.Dir)})
	}
	return out, err
}

func (r *Recent) read() (recentFile, error) {
	var f recentFile
	b, err := os.ReadFile(r.Path)
	if errors.Is(err, os.ErrNotExist) {
		return f, nil
	} else if err != nil {
		return f, fmt.Errorf("recent projects: %w", err)
	}
	if err := json.Unmarshal(b, &f); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			return recentFile{}, fmt.Errorf("recent projects: %s is not a list of projects (byte %d): %w", r.Path, syn.Offset, err)
		}
		return recentFile{}, fmt.Errorf("recent projects: %s is not a list of projects: %w", r.Path, err)
	}
	kept := f.Projects[:0]
	for _, e := range f.Projects {
		if filepath.IsAbs(e.Dir) {
			kept = append(kept, e)
		}
	}
	f.Projects = kept
	return f, nil
}

// Add puts dir (an absolute path) first in the list, once, and writes the
// list: into a temporary file renamed over the old one, so that a crash
// never leaves half a list. A list that could not be read is set aside as
// Path+".bad" and started afresh.
func (r *Recent) Add(dir string) error {
	if !filepath.IsAbs(dir) {
		return fmt.Errorf("recent projects: %q is not an absolute path", dir)
	}
	f, err := r.read()
	if err != nil {
		if rerr := os.Rename(r.Path, r.Path+".bad"); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
			return fmt.Errorf("%w; and it could not be set aside: %v", err, rerr)
		}
	}
	now := time.Now
	if r.Now != nil {
		now = r.Now
	}
	list := []recentEntry{{Dir: filepath.Clean(dir), Opened: now().UTC().Format(time.RFC3339)}}
	for _, e := range f.Projects {
		if filepath.Clean(e.Dir) != filepath.Clean(dir) && len(list) < MaxRecent {
			list = append(list, e)
		}
	}
	b, err := json.MarshalIndent(recentFile{Projects: list}, "", "  ")
	if err != nil {
		return fmt.Errorf("recent projects: %w", err)
	}
	// Whole or not at all: a crash never leaves half a list.
	if err := os.MkdirAll(filepath.Dir(r.Path), 0o755); err != nil {
		return fmt.Errorf("recent projects: %w", err)
	}
	if err := wholefile.WriteFile(r.Path, append(b, '\n')); err != nil {
		return fmt.Errorf("recent projects: %w", err)
	}
	return nil
}
