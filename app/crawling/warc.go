package crawling

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"sitesift/app/fault"
	"sitesift/app/project"
	"sitesift/sites/warcfile"
)

// DefaultWARCMaxSize is the size at which a WARC file is closed and the
// next begun, when a crawl request does not say: 1 GB.
const DefaultWARCMaxSize = warcfile.DefaultMaxFileSize

// WARCFile describes one WARC file of the project: its name, size, the
// captures it holds and whether it is still being written.
type WARCFile = warcfile.File

// openWARCs opens the archive of the crawl req asks for, with the crawl's
// settings in its warcinfo records (operator contact, user agent), or
// returns nil when it asks for none. The crawl's captures go to it as they come, and
// it is closed when the crawl ends.
func (svc *Service) openWARCs(req CrawlRequest, settings project.Settings) (*warcfile.Writer, error) {
	if req.NoWARC {
		return nil, nil
	}
	if req.WARCMaxSize < 0 {
		return nil, fault.Invalid(fmt.Errorf("crawl: WARC file size %d must be positive, or 0 for the default", req.WARCMaxSize))
	}
	w, err := warcfile.Open(filepath.Join(svc.project.Dir, project.WARCDir), warcfile.Options{
		MaxFileSize: req.WARCMaxSize,
		Software:    "sitesift/" + project.Version,
		Operator:    settings.Contact,
		UserAgent:   settings.EffectiveUserAgent,
	})
	if err != nil {
		return nil, err
	}
	if len(w.Recovered) > 0 {
		svc.log.Warn("WARC files left open by a killed crawl were cut after their last whole record", "files", w.Recovered)
	}
	return w, nil
}

// closeWARCs closes the archive of a crawl, if it has one.
func closeWARCs(w *warcfile.Writer) error {
	if w == nil {
		return nil
	}
	return w.Close()
}

// WARCFiles lists the project's WARC files, oldest first, the one a
// running crawl writes last.
func (svc *Service) WARCFiles() ([]WARCFile, error) {
	return warcfile.List(filepath.Join(svc.project.Dir, project.WARCDir))
}

// OpenWARC opens the finished WARC file named name for reading; a file
// still being written is a conflict, any other name not found.
func (svc *Service) OpenWARC(name string) (*os.File, error) {
	dir := filepath.Join(svc.project.Dir, project.WARCDir)
	f, err := warcfile.OpenFile(dir, name)
	if errors.Is(err, warcfile.ErrNotFound) {
		if _, serr := os.Stat(filepath.Join(dir, filepath.Base(name)+".open")); serr == nil && filepath.Base(name) == name {
			return nil, fault.Conflict(fmt.Errorf("WARC file %s is being written; it can be downloaded when its crawl ends", name))
		}
		return nil, fault.NotFound(err)
	}
	return f, err
}

// WriteWARCList writes the WARC files fs as tab-separated lines under a
// header: name, size in bytes, captures, and "open" for the file being
// written.
func WriteWARCList(w io.Writer, fs []WARCFile) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "name\tsize\trecords\tstate")
	for _, f := range fs {
		state := "done"
		if f.Open {
			state = "open"
		}
		fmt.Fprintf(bw, "%s\t%d\t%d\t%s\n", f.Name, f.Size, f.Records, state)
	}
	return bw.Flush()
}
