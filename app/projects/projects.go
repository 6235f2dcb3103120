package projects

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	"sitesift/app/fault"
	"sitesift/app/project"
)

// Entry is a project as a list shows it: its folder, its name and whether
// the folder is still a project.
type Entry struct {
	Dir  string `json:"dir"`
	Name string `json:"name"`
	// Opened is when this user last opened it (RFC 3339), in the recent
	// list only.
	Opened string `json:"opened,omitempty"`
	// Missing is true when the folder is gone or holds no project any
	// more (moved, deleted, an unplugged disk).
	Missing bool `json:"missing"`
}

// IsProject reports whether dir is a sitesift project: a folder that holds
// the project's store (project.DBFile).
func IsProject(dir string) bool {
	fi, err := os.Stat(filepath.Join(dir, project.DBFile))
	return err == nil && fi.Mode().IsRegular()
}

// MaxNameBytes bounds a project's name.
const MaxNameBytes = 100

// ValidName checks the name of a new project, which becomes a folder's name
// and the first part of every file it exports: not empty, no path
// separator, no "..", not hidden (a leading '.'), no control character, no
// space around it, at most MaxNameBytes bytes.
func ValidName(name string) error {
	switch {
	case name == "":
		return fault.Invalid(errors.New("a project needs a name"))
	case strings.TrimSpace(name) != name:
		return fault.Invalid(fmt.Errorf("project name %q: no space before or after the name", name))
	case strings.ContainsAny(name, `/\`):
		return fault.Invalid(fmt.Errorf("project name %q: no / or \\ in a name (it names one folder)", name))
	case strings.Contains(name, ".."):
		return fault.Invalid(fmt.Errorf("project name %q: no \"..\" in a name", name))
	case strings.HasPrefix(name, "."):
		return fault.Invalid(fmt.Errorf("project name %q: a name cannot start with a dot (a hidden folder)", name))
	case len(name) > MaxNameBytes:
		return fault.Invalid(fmt.Errorf("project name %q: longer than %d bytes", name, MaxNameBytes))
	}
	for i, r := range name {
		if unicode.IsControl(r) || r == unicode.ReplacementChar {
			return fault.Invalid(fmt.Errorf("project name %q: a control or invalid character at byte %d", name, i))
		}
	}
	return nil
}

// Folder is the folder of projects of `sitesift serve --projects DIR`: its
// projects are named by their subfolder's name, and no name reaches
// outside it (a separator, "..", a symbolic link that leads out).
type Folder struct {
	// Dir is the folder, an absolute path.
	Dir string
}

// NewFolder returns the Folder dir, which must exist.
func NewFolder(dir string) (*Folder, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("projects folder %s: %w", dir, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("projects folder %s: %w", abs, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("projects folder %s: not a folder", abs)
	}
	return &Folder{Dir: abs}, nil
}

// List returns the projects of the folder, by name: each subfolder that is
// a project and lies inside the folder (a link that leads out is left out).
func (f *Folder) List() ([]Entry, error) {
	des, err := os.ReadDir(f.Dir)
	if err != nil {
		return nil, fmt.Errorf("projects folder %s: %w", f.Dir, err)
	}
	out := []Entry{}
	for _, de := range des {
		if ValidName(de.Name()) != nil {
			continue
		}
		dir, err := f.inside(de.Name())
		if err != nil || !IsProject(dir) {
			continue
		}
		out = append(out, Entry{Dir: dir, Name: de.Name()})
	}
	sort.Slice(out, func(i, j int) bool { return strings.ToLower(out[i].Name) < strings.ToLower(out[j].Name) })
	return out, nil
}

// Project returns the folder of the existing project name.
func (f *Folder) Project(name string) (string, error) {
	if err := ValidName(name); err != nil {
		return "", err
	}
	dir, err := f.inside(name)
	if err != nil {
		return "", err
	}
	if !IsProject(dir) {
		return "", fault.NotFound(fmt.Errorf("no project %q in %s", name, f.Dir))
	}
	return dir, nil
}

// NewProject returns the folder a new project name would take: a valid
// name that no file or folder of the folder has yet.
func (f *Folder) NewProject(name string) (string, error) {
	if err := ValidName(name); err != nil {
		return "", err
	}
	dir := filepath.Join(f.Dir, name)
	if _, err := os.Lstat(dir); err == nil {
		return "", fault.Conflict(fmt.Errorf("%s already exists in %s: choose another name", name, f.Dir))
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("new project %s: %w", dir, err)
	}
	return dir, nil
}

// inside returns the path of name in the folder after following its
// links, refused when it leads outside the folder.
func (f *Folder) inside(name string) (string, error) {
	root, err := filepath.EvalSymlinks(f.Dir)
	if err != nil {
		return "", fmt.Errorf("projects folder %s: %w", f.Dir, err)
	}
	dir := filepath.Join(f.Dir, name)
	real, err := filepath.EvalSymlinks(dir)
	if errors.Is(err, os.ErrNotExist) {
		return "", fault.NotFound(fmt.Errorf("no project %q in %s", name, f.Dir))
	} else if err != nil {
		return "", fmt.Errorf("project %s: %w", dir, err)
	}
	if rel, err := filepath.Rel(root, real); err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fault.Invalid(fmt.Errorf("project %q leads outside %s (to %s)", name, f.Dir, real))
	}
	return dir, nil
}
