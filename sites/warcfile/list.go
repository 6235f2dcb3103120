package warcfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// ErrNotFound is returned by [OpenFile] for a name that is not a finished
// WARC file of the directory.
var ErrNotFound = errors.New("warcfile: no such WARC file")

// File describes a WARC file of a directory.
type File struct {
	Name string `json:"name"`
	Size int64  `json:"size"`
	// Records counts its response and revisit records, the captures its
	// index lists; each has its request record beside it, and the file
	// begins with a warcinfo record.
	Records  int       `json:"records"`
	Modified time.Time `json:"modified"`
	// Open is true for the file being written; it is not finished and
	// cannot be downloaded until its crawl ends.
	Open bool `json:"open"`
}

// List describes the WARC files in dir, oldest first, the one being
// written last; a missing dir holds none.
func List(dir string) ([]File, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return []File{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("warcfile: %w", err)
	}
	done, open := []File{}, []File{}
	for _, e := range ents {
		name, isOpen := strings.CutSuffix(e.Name(), openSuffix)
		if !strings.HasSuffix(name, warcSuffix) || !e.Type().IsRegular() {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue // removed meanwhile
		}
		f := File{Name: e.Name(), Size: fi.Size(), Modified: fi.ModTime().UTC(), Open: isOpen}
		index := filepath.Join(dir, indexName(name))
		if isOpen {
			index += openSuffix
		}
		if lines, err := readLines(index); err == nil {
			f.Records = len(lines)
		}
		if isOpen {
			open = append(open, f)
		} else {
			done = append(done, f)
		}
	}
	return append(done, open...), nil
}

// OpenFile opens the finished WARC file named name in dir for reading.
// Any other name, a path or an open file among them, is ErrNotFound.
func OpenFile(dir, name string) (*os.File, error) {
	if name != filepath.Base(name) || !strings.HasSuffix(name, warcSuffix) || strings.HasPrefix(name, ".") {
		return nil, fmt.Errorf("%w: %q", ErrNotFound, name)
	}
	f, err := os.Open(filepath.Join(dir, name))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w: %q", ErrNotFound, name)
	}
	if err != nil {
		return nil, fmt.Errorf("warcfile: %w", err)
	}
	return f, nil
}
