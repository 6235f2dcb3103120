package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"sitesift/app"
	"sitesift/app/httpapi"
	"sitesift/app/project"
)

// DefaultProjectDir is where the desktop app and serve keep their project
// when none is given: $XDG_DATA_HOME/sitesift/NAME (~/.local/share/...).
func DefaultProjectDir(name string) string {
	base := os.Getenv("XDG_DATA_HOME")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return filepath.Join(os.TempDir(), "sitesift", name)
		}
		base = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(base, "sitesift", name)
}

// open opens the project of --project and builds the App over it. With
// readOnly, a project another process holds is opened beside it for
// reading (project.ReadOnlyBeside). Opened for writing, the project is mended
// (OpenProject) and the ranking an import left unfinished is computed
// (App.RepairImportance).
func (c CLI) open(dir string, create, readOnly bool) (*app.App, *project.Project, error) {
	return c.openProject(dir, create, readOnly, true)
}

// openProject is open; without finishRanking, a stale importance is left
// for check to report.
func (c CLI) openProject(dir string, create, readOnly, finishRanking bool) (*app.App, *project.Project, error) {
	line := newStatusLine(c.Stderr, 5*time.Second)
	opts := []project.ProjectOption{project.HeldBy(c.holderName()), project.IndexProgress(func(done, total int) {
		if final := done == total; line.due(final) {
			line.show(fmt.Sprintf("indexing the pages the search index lacks: %d/%d", done, total))
		}
	})}
	if readOnly {
		opts = append(opts, project.ReadOnlyBeside())
	}
	p, err := project.Open(dir, create, opts...)
	line.done()
	if err != nil {
		return nil, nil, err
	}
	opt := app.Options{Project: p, Logger: c.Logger}
	if p.ReadOnly && p.Holder.Socket != "" {
		opt.Search = httpapi.HolderSearch(p.Holder)
	}
	a := app.New(opt)
	if p.ReadOnly || !finishRanking {
		// The holder mends and computes what is missing; a reader beside it
		// reads what there is.
		return a, p, nil
	}
	if err := c.finishRanking(a); err != nil {
		a.Close()
		p.Close()
		return nil, nil, err
	}
	return a, p, nil
}

// finishRanking computes the importance an import left stale (killed after
// it committed its files, before it saved their ranking), saying so first:
// on a large graph it takes a while.
func (c CLI) finishRanking(a *app.App) error {
	ctx := context.Background()
	stale, err := a.Ranking.ImportanceStale(ctx)
	if err != nil || !stale {
		return err
	}
	start := time.Now()
	fmt.Fprintln(c.Stderr, "sitesift: the site graph changed (an import, or the links setting) and its ranking was stopped before it was saved: computing PageRank and OPIC of the site graph now")
	if _, err := a.Ranking.RepairImportance(ctx); err != nil {
		return err
	}
	fmt.Fprintf(c.Stderr, "sitesift: ranking saved (%.1fs)\n", time.Since(start).Seconds())
	return nil
}

// holderName is how a project this command holds is named to the others.
func (c CLI) holderName() string {
	switch c.cmd {
	case "":
		return "the desktop window"
	case "demo":
		return "the sitesift demo"
	}
	return "sitesift " + c.cmd
}

// withProject runs f on the existing project dir, closed afterwards.
func (c CLI) withProject(dir string, f func(*app.App) error) error {
	return c.inProject(dir, false, func(a *app.App, _ *project.Project) error { return f(a) })
}

// readProject runs f, which only reads, on the existing project dir: when
// another process (the desktop window, serve, a crawl) holds the project,
// f reads it beside that process.
func (c CLI) readProject(dir string, f func(*app.App) error) error {
	a, p, err := c.open(dir, false, true)
	if err != nil {
		return err
	}
	defer p.Close()
	defer a.Close()
	return f(a)
}

// inProject opens the project in dir (creating it when create) for this
// process, serves its API on the project's socket for the commands that
// read beside it, runs f, then stops what the App still runs and closes
// the project.
func (c CLI) inProject(dir string, create bool, f func(*app.App, *project.Project) error) error {
	return c.held(dir, create, true, f)
}

// held is inProject; without finishRanking, a stale importance is left as
// it is (see openProject).
func (c CLI) held(dir string, create, finishRanking bool, f func(*app.App, *project.Project) error) error {
	a, p, err := c.openProject(dir, create, false, finishRanking)
	if err != nil {
		return err
	}
	defer p.Close()
	defer a.Close()
	stop := c.serveSocket(a, p)
	defer stop()
	return f(a, p)
}
