package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"sitesift/sites"
	"sitesift/sites/index"
	"sitesift/sites/store"
)

// Project file names inside a project directory.
const (
	DBFile   = "project.db"
	IndexDir = "index.bleve"
)

// ErrNoProject is returned by OpenProject when the directory holds no
// project and creating one was not asked for.
var ErrNoProject = errors.New("no sitesift project")

// Project is an open project directory: its store and its index.
type Project struct {
	Dir   string
	Store *store.Store
	Index *index.Index
}

// OpenProject opens the project in dir. With create, a missing directory,
// database or index is created; without it, a directory with no project.db
// gives an error wrapping ErrNoProject.
func OpenProject(dir string, create bool) (*Project, error) {
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
	st, err := store.Open(dbPath)
	if err != nil {
		return nil, fmt.Errorf("project %s: %w", abs, err)
	}
	ix, err := openIndex(st, filepath.Join(abs, IndexDir))
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("project %s: %w", abs, err)
	}
	return &Project{Dir: abs, Store: st, Index: ix}, nil
}

// openIndex opens the search index, rebuilding it from the store when it is
// missing or was built with an older mapping: the store is the source of
// truth, the index can always be made again.
func openIndex(st *store.Store, dir string) (*index.Index, error) {
	ix, err := index.Open(dir)
	if errors.Is(err, index.ErrMappingChanged) {
		if err := os.RemoveAll(dir); err != nil {
			return nil, err
		}
		ix, err = index.Open(dir)
	}
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	n, err := ix.Count()
	if err == nil && n == 0 {
		err = rebuildIndex(ctx, st, ix)
	}
	if err != nil {
		ix.Close()
		return nil, err
	}
	return ix, nil
}

func rebuildIndex(ctx context.Context, st *store.Store, ix *index.Index) error {
	const batch = 200
	var pages []sites.Page
	err := st.ForEachPage(ctx, func(p sites.Page) error {
		pages = append(pages, p)
		if len(pages) == batch {
			err := ix.Add(pages)
			pages = pages[:0]
			return err
		}
		return nil
	})
	if err == nil && len(pages) > 0 {
		err = ix.Add(pages)
	}
	if err != nil {
		return fmt.Errorf("rebuild index: %w", err)
	}
	return nil
}

// Close closes the index and the store.
func (p *Project) Close() error {
	return errors.Join(p.Index.Close(), p.Store.Close())
}
