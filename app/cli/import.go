package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"time"

	"sitesift/app"
)

func (c CLI) importEdges(ctx context.Context, args []string) error {
	f := c.newFlags("import")
	dir := f.String("project", "", "project directory (created when missing)")
	edges := f.String("edges", "", "edge list: SRC DST [WEIGHT] a line, # comments, .gz read directly")
	if err := f.parseNoArgs(args); err != nil {
		return err
	}
	if *dir == "" || *edges == "" {
		return usageError{"import: --project DIR and --edges FILE are required"}
	}
	start := time.Now()
	// Read the file before a project directory is created for it: a file
	// with bad lines leaves nothing behind.
	g, err := app.ReadEdgeList(*edges)
	if err != nil {
		return err
	}
	read := time.Since(start)
	return c.inProject(*dir, true, func(a *app.App, p *app.Project) error {
		res, err := a.ImportEdgeList(ctx, *edges, g)
		if err != nil {
			return err
		}
		fmt.Fprintf(c.Stdout, "import %s: %d sites, %d edges (%d self-edges dropped) into %s; "+
			"PageRank and OPIC (%d greedy reads) computed; %.1fs (%.1fs reading)\n",
			res.File, res.Sites, res.Edges, res.SelfEdges, p.Dir, res.OPICReads,
			time.Since(start).Seconds(), read.Seconds())
		return nil
	})
}

// writeRankBuffered writes the ranking through a buffer: the table format
// writes a line at a time, which unbuffered is a system call per site.
func writeRankBuffered(w io.Writer, rows []app.RankRow, format string) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	if err := app.WriteRank(bw, rows, format); err != nil {
		return err
	}
	return bw.Flush()
}
