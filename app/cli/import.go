package cli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"time"

	"sitesift/app"
	"sitesift/app/exports"
	"sitesift/app/imports"
	"sitesift/app/project"
	"sitesift/app/ranking"
	"sitesift/sites"
	"sitesift/sites/edgelist"
)

func (c CLI) importEdges(ctx context.Context, args []string) error {
	f := c.newFlags("import")
	dir := f.project
	edges := f.String("edges", "", "edge list: SRC DST [WEIGHT] a line, # comments, .gz read directly; or a domain graph of the Archives Unleashed Toolkit or ARCH (CSV, GraphML, GEXF), told by its first bytes")
	strict := f.Bool("strict", false, "with --edges: refuse the file if a line is bad (by default bad lines are skipped, counted and the first 20 named)")
	rule := f.String("site-rule", string(sites.DefaultRule), "how the list's URLs and names map to sites: host, host-www "+
		"(www. dropped) or domain (the registered domain); chosen when the project is created")
	archives := archiveFlags(f)
	if err := archives.parse(f, args); err != nil {
		return err
	}
	if !archives.empty() {
		if *edges != "" {
			return usageError{"import: --edges goes alone; import archives with a second command"}
		}
		if *strict {
			return usageError{"import: --strict goes with --edges FILE"}
		}
		if *dir == "" {
			return usageError{"import: --project DIR is required"}
		}
		return c.importArchives(ctx, *dir, rule, f, archives.req)
	}
	if *dir == "" || *edges == "" {
		return usageError{"import: --project DIR and --edges FILE are required (or, for archives, --warc, --cdx, --crawl-log, or --cc-vertices with --cc-edges)"}
	}
	r, err := sites.ParseRule(*rule)
	if err != nil {
		return usageError{"import: " + err.Error()}
	}
	var update project.SettingsUpdate
	f.Visit(func(fl *flag.Flag) {
		if fl.Name == "site-rule" {
			update.SiteRule = rule
		}
	})
	// An existing project names sites by its own rule (a --site-rule must
	// agree with it); a new one is created only once the file has been
	// read, so that a file with bad lines leaves nothing behind.
	// The import computes the importance of the whole graph, the ranking a
	// killed archive import left unfinished included: neither open computes
	// it first.
	if a, p, err := c.openProject(*dir, false, false, false); err == nil {
		settings, err := a.Ranking.SetSettings(ctx, update)
		a.Close()
		p.Close()
		if err != nil {
			return err
		}
		r = sites.Rule(settings.SiteRule)
	} else if !errors.Is(err, project.ErrNoProject) {
		return err
	}
	defer lowGC()()
	start := time.Now()
	g, err := ranking.ReadEdgeListOptions(*edges, edgelist.Options{Rule: r, Strict: *strict})
	if err != nil {
		return err
	}
	read := time.Since(start)
	fmt.Fprint(c.Stderr, g.Report(*edges))
	update.SiteRule = app.Set(string(r))
	return c.held(*dir, true, false, func(a *app.App, p *project.Project) error {
		if _, err := a.Ranking.SetSettings(ctx, update); err != nil {
			return err
		}
		// One step, one transaction, and on a large graph the longest.
		fmt.Fprintf(c.Stderr, "import %s: %d sites read in %.1fs; storing the graph and computing PageRank and OPIC\n",
			*edges, len(g.Names), read.Seconds())
		res, err := a.Imports.ImportEdgeList(ctx, *edges, g)
		if err != nil {
			return err
		}
		fmt.Fprintf(c.Stdout, "import %s: %d %s, %d edges (%d self-edges dropped%s) into %s; "+
			"PageRank and OPIC (%d greedy reads) computed; %.1fs (%.1fs reading)\n",
			res.File, res.Sites, nodeWord(res.Read), res.Edges, res.SelfEdges, skippedNote(res.Read), p.Dir, res.OPICReads,
			time.Since(start).Seconds(), read.Seconds())
		return nil
	})
}

// nodeWord names the nodes of an edge list read: sites, or ids.
func nodeWord(s imports.EdgeListRead) string {
	if s.IDs {
		return "sites (node ids)"
	}
	return "sites"
}

// skippedNote is ", N bad lines skipped" for a reading that skipped lines.
func skippedNote(s imports.EdgeListRead) string {
	switch s.SkippedLines {
	case 0:
		return ""
	case 1:
		return ", 1 bad line skipped"
	}
	return fmt.Sprintf(", %d bad lines skipped", s.SkippedLines)
}

// largeGraphGCPercent is the garbage collector's GOGC while a command reads
// a whole site graph to rank it or draw seeds from it: at the default 100
// the heap may grow to twice what is live before a collection, and a graph
// of tens of millions of edges is most of what is live. Its arrays hold no
// pointers, so a collection costs little beside them, and 10 keeps the heap
// within a tenth of them.
const largeGraphGCPercent = 10

// lowGC sets largeGraphGCPercent and returns what restores the setting.
func lowGC() func() {
	old := debug.SetGCPercent(largeGraphGCPercent)
	return func() { debug.SetGCPercent(old) }
}

// writeRankBuffered writes the ranking through a buffer: the table format
// writes a line at a time, which unbuffered is a system call per site.
func writeRankBuffered(w io.Writer, rows []ranking.RankRow, format string, raw bool) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	if err := exports.WriteRank(bw, rows, format, raw); err != nil {
		return err
	}
	return bw.Flush()
}
