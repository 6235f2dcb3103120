package project

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"sitesift/sites"
	"sitesift/sites/index"
	"sitesift/sites/store"
)

// Project file names inside a project directory.
const (
	DBFile   = "project.db"
	IndexDir = "index.bleve"
	// CrawlLogFile is the log of the project's crawls, one line a fetch
	// in the layout of Heritrix's crawl.log (package sites/crawllog).
	CrawlLogFile = "crawl.log"
)

// ErrNoProject is returned by Open when the directory holds no
// project and creating one was not asked for.
var ErrNoProject = errors.New("no sitesift project")

// Project is an open project directory: its store and its index.
type Project struct {
	Dir   string
	Store *store.Store
	Index *index.Index
	// Repairs is what opening the project found left by a killed process
	// and mended.
	Repairs Repairs
	// ReadOnly is set when another process held the project and it was
	// opened beside it for reading ([ReadOnlyBeside]): the store is read
	// only, Index is nil and searches are asked of the holder, Holder.
	ReadOnly bool
	Holder   Holder

	lock *projectLock // nil when opened read-only
}

// Repairs counts what Open mended.
type Repairs struct {
	Indexed     int `json:"indexed"`     // pages the index lacked, now indexed
	Interrupted int `json:"interrupted"` // crawls left running, now marked interrupted
	WARCs       int `json:"warcs"`       // WARC files left open, cut after their last whole record and closed
	Journaled   int `json:"journaled"`   // records of a killed crawl's journal, saved
}

// Open opens the project in dir. With create, a missing directory,
// database or index is created; without it, a directory with no project.db
// gives an error wrapping ErrNoProject.
//
// Opening takes the project for this process: an flock on its lock file
// (LockFile), which the system drops when the process ends, so that one
// process at a time writes it. When another process has it, Open
// returns a [*HeldError] (kind conflict) naming that process, unless
// [ReadOnlyBeside] asks to read beside it.
//
// The process that takes the project mends what a kill left: crawls the
// store still records as running were cut short and are marked
// interrupted, and the pages the index lacks (a kill between a batch's
// commit to the store and to the index, or during a rebuild) are indexed,
// reporting to the [IndexProgress] option when given.
func Open(dir string, create bool, opts ...ProjectOption) (*Project, error) {
	var o projectOptions
	for _, f := range opts {
		f(&o)
	}
	if dir == "" {
		return nil, errors.New("project: no directory given (use --project DIR)")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("project %s: %w", dir, err)
	}
	dbPath := filepath.Join(abs, DBFile)
	if _, err := os.Stat(dbPath); errors.Is(err, os.ErrNotExist) {
		if !create {
			return nil, fmt.Errorf("project %s: %w (no %s; create one with sitesift crawl)", abs, ErrNoProject, DBFile)
		}
		if err := os.MkdirAll(abs, 0o755); err != nil {
			return nil, fmt.Errorf("project %s: %w", abs, err)
		}
	} else if err != nil {
		return nil, fmt.Errorf("project %s: %w", abs, err)
	}
	command := o.command
	if command == "" {
		command = "sitesift"
	}
	lock, err := lockProject(abs, command)
	var held *HeldError
	if errors.As(err, &held) && o.readOnly {
		if _, serr := os.Stat(dbPath); serr != nil {
			return nil, err // a project being created: nothing to read yet
		}
		return openBeside(abs, held.Holder)
	}
	if err != nil {
		return nil, err
	}
	p, err := openHeld(abs, o)
	if err != nil {
		lock.release()
		return nil, err
	}
	p.lock = lock
	return p, nil
}

// openBeside opens the project read-only beside the process that holds it.
func openBeside(dir string, h Holder) (*Project, error) {
	st, err := store.Open(filepath.Join(dir, DBFile), store.ReadOnly())
	if err != nil {
		return nil, fmt.Errorf("project %s (open in pid %d): %w", dir, h.PID, err)
	}
	return &Project{Dir: dir, Store: st, ReadOnly: true, Holder: h}, nil
}

// openHeld opens the store and the index of the project this process has
// taken, mending what a kill left.
func openHeld(abs string, o projectOptions) (*Project, error) {
	dbPath := filepath.Join(abs, DBFile)
	st, err := store.Open(dbPath)
	if err != nil {
		return nil, fmt.Errorf("project %s: %w", abs, err)
	}
	var rep Repairs
	// The records a kill kept from the store go in first, so that the index
	// catches up with them too.
	if rep.Journaled, err = replayJournal(context.Background(), st, abs); err != nil {
		st.Close()
		return nil, fmt.Errorf("project %s: %w", abs, err)
	}
	progress := func(done, total int) {
		rep.Indexed = done
		if o.progress != nil {
			o.progress(done, total)
		}
	}
	ix, err := openIndex(st, filepath.Join(abs, IndexDir), progress, o.index...)
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("project %s: %w", abs, err)
	}
	if rep.Interrupted, err = st.MarkInterrupted(context.Background()); err != nil {
		ix.Close()
		st.Close()
		return nil, fmt.Errorf("project %s: %w", abs, err)
	}
	if rep.WARCs, err = recoverWARCs(abs); err != nil {
		ix.Close()
		st.Close()
		return nil, fmt.Errorf("project %s: %w", abs, err)
	}
	return &Project{Dir: abs, Store: st, Index: ix, Repairs: rep}, nil
}

// ProjectOption configures [Open].
type ProjectOption func(*projectOptions)

type projectOptions struct {
	progress func(done, total int)
	command  string
	readOnly bool
	index    []index.Option
}

// NoSearchTimeout, given to [SearchTimeout], sets none.
const NoSearchTimeout = index.NoSearchTimeout

// SearchTimeout sets the time a search of the project's index may take
// when its query does not say (index.WithSearchTimeout; default
// index.SearchTimeout, none when negative): a test sets none, so that its
// searches do not depend on how busy the machine is.
func SearchTimeout(d time.Duration) ProjectOption {
	return func(o *projectOptions) { o.index = append(o.index, index.WithSearchTimeout(d)) }
}

// HeldBy names, for people, what holds the project while it is open
// ("the desktop window", "sitesift crawl"): another process that finds it
// held says so. The default is "sitesift".
func HeldBy(command string) ProjectOption {
	return func(o *projectOptions) { o.command = command }
}

// ReadOnlyBeside has Open, when another process holds the project,
// open it for reading beside that process instead of failing: the store
// read-only, without the mending an opening writer does, and searches
// asked of the holder over its socket (SocketFile).
func ReadOnlyBeside() ProjectOption {
	return func(o *projectOptions) { o.readOnly = true }
}

// IndexProgress has Open report its progress to f while it indexes
// pages the index lacks: f(done, total) after each batch; it is not called
// when nothing is missing (the usual case).
func IndexProgress(f func(done, total int)) ProjectOption {
	return func(o *projectOptions) { o.progress = f }
}

// openIndex opens the search index, rebuilding it from the store when it was
// built with an older mapping (the store is the source of truth, the index
// can always be made again), then indexes the pages it lacks.
func openIndex(st *store.Store, dir string, progress func(done, total int), opts ...index.Option) (*index.Index, error) {
	ctx := context.Background()
	// A new index holds no page. The store learns it before the index is
	// made, so that a kill in between still leaves every page to index.
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		if err := st.MarkAllUnindexed(ctx); err != nil {
			return nil, err
		}
	}
	ix, err := index.Open(dir, opts...)
	if errors.Is(err, index.ErrMappingChanged) {
		if err := st.MarkAllUnindexed(ctx); err != nil {
			return nil, err
		}
		if err := os.RemoveAll(dir); err != nil {
			return nil, err
		}
		ix, err = index.Open(dir, opts...)
	}
	if err != nil {
		return nil, err
	}
	if err := CatchUpIndex(ctx, st, ix, progress); err != nil {
		ix.Close()
		return nil, err
	}
	return ix, nil
}

// IndexBatch is how many pages go to the index in one batch when it
// catches up with the store.
const IndexBatch = 200

// catchUpIndex indexes every page the store records as not indexed.
func CatchUpIndex(ctx context.Context, st *store.Store, ix *index.Index, progress func(done, total int)) error {
	total, err := st.Unindexed(ctx)
	if err != nil || total == 0 {
		return err
	}
	done := 0
	err = st.ForEachUnindexed(ctx, IndexBatch, func(pages []sites.Page) error {
		if err := IndexPages(ctx, st, ix, pages); err != nil {
			return err
		}
		done += len(pages)
		if progress != nil {
			progress(done, total)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("index the %d pages the index lacks: %w", total, err)
	}
	return nil
}

// indexPages adds pages to the index, then records in the store that the
// index has them: in that order, a kill in between costs indexing them again.
func IndexPages(ctx context.Context, st *store.Store, ix *index.Index, pages []sites.Page) error {
	if err := ix.Add(pages); err != nil {
		return err
	}
	urls := make([]string, len(pages))
	for i := range pages {
		urls[i] = pages[i].URL
	}
	return st.MarkIndexed(ctx, urls)
}

// CrawlLog is the path of the project's crawl log.
func (p *Project) CrawlLog() string { return filepath.Join(p.Dir, CrawlLogFile) }

// Close closes the index and the store, and lets the project go.
func (p *Project) Close() error {
	var err error
	if p.Index != nil {
		err = p.Index.Close()
	}
	return errors.Join(err, p.Store.Close(), p.lock.release())
}

// Version is sitesift's version: its default user agent and the warcinfo
// records of its WARC files name it.
const Version = "0.1"

// Name is the project directory's name as a file name's first
// part: letters, digits, '.', '_' and '-' kept, anything else a '-'.
func (p *Project) Name() string {
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-' {
			return r
		}
		return '-'
	}, filepath.Base(filepath.Clean(p.Dir)))
	if name = strings.Trim(name, ".-"); name == "" {
		return "sitesift"
	}
	return name
}
