package cli

import (
	"context"
	"fmt"
	"time"

	"sitesift/app"
	"sitesift/app/crawling"
	"sitesift/app/project"
)

// recrawl runs `sitesift crawl --recrawl`: it revisits the project's pages
// and prints what it found and the sites whose importance moved most.
func (c CLI) recrawl(ctx context.Context, dir string, seeds []string, f flags, req crawling.CrawlRequest) error {
	if len(seeds) > 0 {
		return usageError{"crawl --recrawl: a recrawl revisits the project's pages: give no seed URL"}
	}
	for _, name := range []string{"seeds", "fresh-frontier", "scope", "max-hops", "max-depth", "include", "exclude", "site-rule"} {
		if labFlagGiven(f, name) {
			return usageError{fmt.Sprintf("crawl --recrawl: --%s is for a crawl from seeds", name)}
		}
	}
	// Left out, the caps leave room to revisit every page (crawling.CrawlRequest.Recrawl).
	if !labFlagGiven(f, "max-pages") {
		req.MaxPages = 0
	}
	if !labFlagGiven(f, "max-pages-per-site") {
		req.MaxPagesPerSite = 0
	}
	if err := req.CheckRecrawl(); err != nil {
		return err
	}
	return c.inProject(dir, false, func(a *app.App, _ *project.Project) error {
		bar := newProgressBar(c.Stderr)
		first := true
		st, err := a.Crawling.Run(ctx, req, 200*time.Millisecond, func(s crawling.CrawlStatus) {
			if first && s.Recrawl != nil {
				first = false
				fmt.Fprintf(c.Stdout, "sitesift: recrawl %d revisits %d pages\n", s.Recrawl.Round, s.Recrawl.Revisit)
			}
			bar.show(s)
		})
		bar.done()
		if err != nil {
			return err
		}
		fmt.Fprintf(c.Stdout, "recrawl %s (%s): %d fetches in %.1fs, %d retries\n",
			st.State, endReasons[st.EndReason], st.Pages, st.ElapsedSec, st.Retries)
		r := st.Recrawl
		if r == nil {
			return nil
		}
		fmt.Fprintf(c.Stdout, "pages: %d unchanged, %d changed, %d new, %d gone, %d failed (kept as they were)\n",
			r.Unchanged, r.Changed, r.New, r.Gone, r.Failed)
		if classes := byClass(st.ErrorsByClass); classes != "" {
			fmt.Fprintf(c.Stdout, "failed fetches by class: %s\n", classes)
		}
		if !r.Finished {
			fmt.Fprintf(c.Stdout, "recrawl %d not finished: run `sitesift crawl --project %s --recrawl` again to continue it\n", r.Round, dir)
			return nil
		}
		if len(r.Moved) > 0 {
			fmt.Fprintln(c.Stdout, "importance moved most (before → after):")
			for _, m := range r.Moved {
				fmt.Fprintf(c.Stdout, "  %-40s %.4f → %.4f (%+.4f)\n", m.Site, m.Before, m.After, m.After-m.Before)
			}
		}
		return nil
	})
}
