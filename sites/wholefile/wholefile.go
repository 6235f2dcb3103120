package wholefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// File is a file being written to its place: writes go to a temporary
// file in the same folder until Commit renames it over Path.
type File struct {
	*os.File
	// Path is where the file goes once committed.
	Path string
	done bool
}

// Create starts writing the file at path. A folder that does not exist,
// or is not a folder, is said in those words. Call Abort (deferred) in
// any case and Commit once the content is complete.
func Create(path string) (*File, error) {
	return CreateNamed(path, "."+filepath.Base(path)+".part-*")
}

// CreateNamed is Create with the temporary file named after pattern, as
// [CreateTemp] names it, rather than after path: for a name given from
// outside, which may be too long to take a prefix and a suffix more.
func CreateNamed(path, pattern string) (*File, error) {
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s: the folder %s does not exist", path, dir)
	case err != nil:
		return nil, fmt.Errorf("%s: %w", path, err)
	case !st.IsDir():
		return nil, fmt.Errorf("%s: %s is not a folder", path, dir)
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, fmt.Errorf("%s is a folder", path)
	}
	tmp, err := CreateTemp(dir, pattern)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	return &File{File: tmp, Path: path}, nil
}

// Commit syncs the content, makes it readable by all (0644, as a file
// written the usual way under a common umask) and renames it over Path.
func (f *File) Commit() error {
	if f.done {
		return fmt.Errorf("%s: committed or aborted already", f.Path)
	}
	f.done = true
	err := errors.Join(f.File.Chmod(0o644), f.File.Sync())
	// Renamed while still open where the system allows it: closed, the
	// temporary file is no longer held, and another CreateTemp of its
	// pattern would take it for a killed writer's.
	renamed := false
	if err == nil && renameOpen {
		err = os.Rename(f.File.Name(), f.Path)
		renamed = err == nil
	}
	if cerr := f.File.Close(); err == nil {
		err = cerr
	}
	if err == nil && !renameOpen {
		err = os.Rename(f.File.Name(), f.Path)
		renamed = err == nil
	}
	if err != nil {
		if !renamed {
			os.Remove(f.File.Name())
		}
		return fmt.Errorf("%s: %w", f.Path, unwrapPath(err))
	}
	return nil
}

// Abort drops what was written, leaving Path as it was; it does nothing
// after Commit, so that it can be deferred.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.File.Close()
	os.Remove(f.File.Name())
}

// Write writes the file at path with fill, whole or not at all.
func Write(path string, fill func(w io.Writer) error) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := fill(f); err != nil {
		return err
	}
	return f.Commit()
}

// WriteFile writes data to the file at path, whole or not at all.
func WriteFile(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// unwrapPath keeps the cause of a *fs.PathError or *os.LinkError, whose
// message names the temporary file, so that the error names Path alone.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// CreateTemp creates a new file in dir, named after pattern as
// [os.CreateTemp] names it (the last "*" stands for a random string), and
// holds it as this process's own for as long as it is open. It first
// removes the files of that pattern in dir that no open file holds: those
// a process killed while writing left behind, which nothing else would
// ever remove. A file another writer is making, in this process or
// another, is held and stays. Where the system has no file locks, no file
// is removed.
func CreateTemp(dir, pattern string) (*os.File, error) {
	sweep(dir, pattern)
	for {
		f, err := os.CreateTemp(dir, pattern)
		if err != nil {
			return nil, err
		}
		if err := hold(f); err != nil {
			f.Close()
			os.Remove(f.Name())
			return nil, fmt.Errorf("hold %s: %w", f.Name(), err)
		}
		// A sweep that opened the new file before it was held took it for
		// a leftover and removed it: make another.
		if linked(f) {
			return f, nil
		}
		f.Close()
	}
}

// sweep removes the files of pattern in dir that no open file holds.
func sweep(dir, pattern string) {
	prefix, suffix := pattern, ""
	if i := strings.LastIndexByte(pattern, '*'); i >= 0 {
		prefix, suffix = pattern[:i], pattern[i+1:]
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		if e.Type().IsRegular() && len(name) > len(prefix)+len(suffix) &&
			strings.HasPrefix(name, prefix) && strings.HasSuffix(name, suffix) {
			removeLeftover(filepath.Join(dir, name))
		}
	}
}

// removeLeftover removes the file at path when no open file holds it,
// holding it meanwhile so that no writer starts on it.
func removeLeftover(path string) {
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	if !unheld(f) {
		return
	}
	// The name may have been given to another file since it was opened.
	fi, err1 := f.Stat()
	now, err2 := os.Lstat(path)
	if err1 == nil && err2 == nil && os.SameFile(fi, now) {
		os.Remove(path)
	}
}
