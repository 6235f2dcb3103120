package project

import (
	"errors"
	"os"
	"path/filepath"

	"sitesift/sites/warcfile"
)

// WARCDir is the directory of a project's WARC files, inside the project
// directory.
const WARCDir = "warcs"

// recoverWARCs mends the WARC files in the project directory dir that a
// killed crawl left open, and returns how many it kept.
func recoverWARCs(dir string) (int, error) {
	d := filepath.Join(dir, WARCDir)
	if _, err := os.Stat(d); errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	kept, err := warcfile.Recover(d)
	return len(kept), err
}
