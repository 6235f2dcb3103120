package wholefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
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
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".part-*")
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
	err := errors.Join(f.File.Chmod(0o644), f.File.Sync())
	if cerr := f.File.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.File.Name(), f.Path)
	}
	f.done = true
	if err != nil {
		os.Remove(f.File.Name())
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
