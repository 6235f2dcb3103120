package exports

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"sitesift/app/crawling"
	"sitesift/app/fault"
	"sitesift/app/imports"
	"sitesift/app/project"
	"sitesift/sites/wacz"
	"sitesift/sites/warcfile"
	"sitesift/sites/wholefile"
)

// ExportWACZ is `sitesift export --what wacz`: the project's crawl as a
// WACZ file (see [Service.ExportWACZ]).
const ExportWACZ = "wacz"

// WACZInfo says what a WACZ export of the project packages and what it
// cannot.
type WACZInfo struct {
	// Name is the file's name: PROJECT-crawl.wacz.
	Name string `json:"name"`
	// WARCs counts the finished WARC files of the project's crawls, Bytes
	// their size and Captures the captures their indexes list: all of them
	// go into the WACZ file.
	WARCs    int   `json:"warcs"`
	Bytes    int64 `json:"bytes"`
	Captures int   `json:"captures"`
	// Pages counts the lines of pages.jsonl: the HTML pages fetched with a
	// 2xx answer. Known once the file is written (0 before).
	Pages int `json:"pages"`
	// Writing counts the WARC files a running crawl is writing: left out
	// until it ends.
	Writing int `json:"writing"`
	// Imported lists the WARC and ARC files the project's pages were
	// imported from: the project keeps their pages and links but not the
	// files or their captures, so none of them is packaged.
	Imported []string `json:"imported"`
	// Note says in words what is not packaged; "" when nothing is left out.
	Note string `json:"note"`
}

// ErrNoCaptures is the error of a WACZ export of a project that holds no
// captures of its own: no crawl of it wrote a WARC file.
var ErrNoCaptures = errors.New("no captures in this project")

// waczFileName is the WACZ file's name after the project's.
func (s *Service) waczFileName() string { return s.project.Name() + "-crawl.wacz" }

// WACZ says what [Service.ExportWACZ] would package now.
func (s *Service) WACZ(ctx context.Context) (WACZInfo, error) {
	info, _, err := s.waczPlan(ctx)
	return info, err
}

// waczPlan lists the finished WARC files of the project's crawls and what
// is left out.
func (s *Service) waczPlan(ctx context.Context) (WACZInfo, []crawling.WARCFile, error) {
	info := WACZInfo{Name: s.waczFileName(), Imported: []string{}}
	files, err := s.crawling.WARCFiles()
	if err != nil {
		return info, nil, fmt.Errorf("wacz: %w", err)
	}
	var done []crawling.WARCFile
	for _, f := range files {
		if f.Open {
			info.Writing++
			continue
		}
		done = append(done, f)
		info.WARCs++
		info.Bytes += f.Size
		info.Captures += f.Records
	}
	archives, err := s.store.ArchiveImports(ctx)
	if err != nil {
		return info, nil, fmt.Errorf("wacz: %w", err)
	}
	for _, im := range archives {
		if im.Kind == imports.KindWARC {
			info.Imported = append(info.Imported, im.Path)
		}
	}
	var notes []string
	if info.Writing > 0 {
		notes = append(notes, fmt.Sprintf("%d WARC file(s) a running crawl is writing are left out until it ends", info.Writing))
	}
	if n := len(info.Imported); n > 0 {
		notes = append(notes, fmt.Sprintf("the %d imported WARC/ARC file(s) are not packaged: the project keeps the pages and links read from them, not the files or their captures (they stay where they were imported from: %s)",
			n, strings.Join(info.Imported, ", ")))
	}
	info.Note = strings.Join(notes, "; ")
	return info, done, nil
}

// noCaptures is the error of an export with nothing to package, saying
// why.
func noCaptures(info WACZInfo) error {
	why := "no crawl of it wrote a WARC file (a crawl with --no-warc writes none; an imported link graph or index holds no captures)"
	if info.Writing > 0 {
		why = "its only WARC file is being written by a running crawl: export once the crawl ends"
	}
	if len(info.Imported) > 0 {
		why += "; " + info.Note
	}
	return fault.Conflict(fmt.Errorf("wacz: %w: %s", ErrNoCaptures, why))
}

// ExportWACZ writes the project's crawl to w as a WACZ file (WACZ 1.1.1):
// every finished WARC file of its crawls under archive/, stored so that
// readers fetch a capture by a byte range; their captures' CDXJ index
// (indexes/index.cdxj); pages/pages.jsonl, the HTML pages fetched with a
// 2xx answer with their titles and capture times; datapackage.json and
// datapackage-digest.json. A project with no WARC file of its own is
// [ErrNoCaptures] (KindConflict). The WARC files are copied, never held
// in memory. What was written to w before an error is no WACZ file:
// [Service.WriteWACZ] writes a file whole or not at all.
func (s *Service) ExportWACZ(ctx context.Context, w io.Writer) (WACZInfo, error) {
	info, files, err := s.waczPlan(ctx)
	if err != nil {
		return info, err
	}
	if len(files) == 0 {
		return info, noCaptures(info)
	}
	dir := filepath.Join(s.project.Dir, project.WARCDir)
	p := wacz.Package{Title: s.project.Name(), Software: "sitesift " + project.Version}
	type capture struct {
		url, title string
		at         time.Time
	}
	var pages []capture
	for _, f := range files {
		entries, err := warcfile.Index(dir, f.Name)
		if err != nil {
			return info, fmt.Errorf("wacz: %w", err)
		}
		p.Archives = append(p.Archives, wacz.Archive{Name: f.Name, Path: filepath.Join(dir, f.Name)})
		var warc *os.File
		for _, e := range entries {
			p.Index = append(p.Index, e.String())
			if !e.IsPage() {
				continue
			}
			at, err := e.Time()
			if err != nil {
				return info, fmt.Errorf("wacz: index of %s: capture of %s: timestamp %q: %w", f.Name, e.URL, e.Timestamp, err)
			}
			if warc == nil {
				if warc, err = warcfile.OpenFile(dir, f.Name); err != nil {
					return info, fmt.Errorf("wacz: %w", err)
				}
				defer warc.Close()
			}
			title, err := archivedTitle(warc, e)
			if err != nil {
				return info, fmt.Errorf("wacz: title of %s: %w", e.URL, err)
			}
			pages = append(pages, capture{e.URL, title, at})
		}
		if err := ctx.Err(); err != nil {
			return info, err
		}
	}
	slices.SortStableFunc(pages, func(x, y capture) int {
		if c := x.at.Compare(y.at); c != 0 {
			return c
		}
		return strings.Compare(x.url, y.url)
	})
	for _, c := range pages {
		p.Pages = append(p.Pages, wacz.Page{URL: c.url, Time: c.at, Title: c.title})
	}
	info.Pages = len(p.Pages)
	if err := wacz.Write(ctx, w, p); err != nil {
		return info, err
	}
	return info, nil
}

// maxTitleRead bounds how much of a page's archived body is read for its
// <title>, which is in its head.
const maxTitleRead = 1 << 20

// archivedTitle returns the <title> of the page whose capture e indexes in
// the WARC file warc, as the record holds it: the title a browser shows,
// and ReplayWeb.page lists.
func archivedTitle(warc io.ReaderAt, e warcfile.Entry) (string, error) {
	title := ""
	err := warcfile.Read(io.NewSectionReader(warc, e.Offset, e.Length), e.Filename, func(r *warcfile.Record) error {
		// A body whose content coding cannot be undone (br) has no title
		// to give, and its page is listed all the same.
		if body, _, err := r.Body(maxTitleRead); err == nil {
			title = wacz.HTMLTitle(body, r.Header.Get("Content-Type"))
		}
		return errStop
	})
	if errors.Is(err, errStop) {
		err = nil
	}
	return title, err
}

// errStop ends a read of a WARC file after the record it wants.
var errStop = errors.New("stop")

// WriteWACZ writes the project's crawl as a WACZ file (see
// [Service.ExportWACZ]) at path, or into path under its own name when path is
// a directory, and returns the path written. The file is written next to
// its place and renamed once complete: on any error or cancel nothing is
// left, and a file that was there stays as it was.
func (s *Service) WriteWACZ(ctx context.Context, path string) (string, WACZInfo, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() || strings.HasSuffix(path, string(os.PathSeparator)) {
		path = filepath.Join(path, s.waczFileName())
	}
	info, files, err := s.waczPlan(ctx)
	if err != nil {
		return path, info, err
	}
	if len(files) == 0 {
		return path, info, noCaptures(info)
	}
	f, err := wholefile.Create(path)
	if err != nil {
		return path, info, fmt.Errorf("wacz: %w", err)
	}
	defer f.Abort()
	if info, err = s.ExportWACZ(ctx, f); err != nil {
		return path, info, err
	}
	if err = f.Commit(); err != nil {
		err = fmt.Errorf("wacz: %w", err)
	}
	return path, info, err
}

// OpenWACZ writes the project's crawl as a WACZ file (see
// [Service.ExportWACZ]) to a temporary file and returns it open at its start,
// for an answer that needs the whole file before it starts (its length,
// byte ranges); done closes and removes it. The file is made in the
// project directory, on the disk of the WARC files it copies and not in a
// temporary directory that may be memory, and unlinked at once where the
// system allows it, so that a killed process leaves nothing behind; one a
// process killed before it was unlinked left is removed by the next
// (wholefile.CreateTemp).
func (s *Service) OpenWACZ(ctx context.Context) (f *os.File, info WACZInfo, done func(), err error) {
	tmp, err := wholefile.CreateTemp(s.project.Dir, ".wacz-*")
	if err != nil {
		return nil, WACZInfo{}, nil, fmt.Errorf("wacz: %w", err)
	}
	unlinked := os.Remove(tmp.Name()) == nil
	done = func() {
		tmp.Close()
		if !unlinked {
			os.Remove(tmp.Name())
		}
	}
	info, err = s.ExportWACZ(ctx, tmp)
	if err == nil {
		_, err = tmp.Seek(0, io.SeekStart)
	}
	if err != nil {
		done()
		return nil, info, nil, err
	}
	return tmp, info, done, nil
}
