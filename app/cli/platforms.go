package cli

import (
	"context"
	"fmt"

	"sitesift/app"
	"sitesift/app/ranking"
)

// platforms lists the project's platform sites, or moves one into or out
// of them (--in, --out).
func (c CLI) platforms(ctx context.Context, args []string) error {
	f := c.newFlags("platforms")
	dir := f.project
	librarian := f.String("librarian", "", "who moves the site (recorded; optional)")
	in := f.String("in", "", "move this site into the platforms, whatever the list says")
	out := f.String("out", "", "move this site out of the platforms, whatever the list says")
	if err := f.parseNoArgs(args); err != nil {
		return err
	}
	if *in != "" && *out != "" {
		return usageError{"platforms: give --in SITE or --out SITE, not both"}
	}
	if *in == "" && *out == "" {
		if *librarian != "" {
			return usageError{"platforms: --librarian goes with --in or --out"}
		}
		return c.readProject(*dir, func(a *app.App) error {
			names, err := a.Ranking.PlatformSites(ctx)
			if err != nil {
				return err
			}
			for _, n := range names {
				fmt.Fprintln(c.Stdout, n)
			}
			fmt.Fprintf(c.Stderr, "sitesift: %d platform sites. %s\n", len(names), ranking.PlatformNote)
			return nil
		})
	}
	site, platform := *in, true
	if *out != "" {
		site, platform = *out, false
	}
	return c.withProject(*dir, func(a *app.App) error {
		ch, err := a.Ranking.SetPlatform(ctx, site, platform, *librarian)
		if err != nil {
			return err
		}
		where, list := "out of", "names it"
		if ch.Platform {
			where = "into"
		}
		if !ch.Listed {
			list = "does not name it"
		}
		fmt.Fprintf(c.Stdout, "%s moved %s the platforms (the list %s)\n", ch.Site, where, list)
		return nil
	})
}

// platformsLeftOut says on standard error how many platform sites a list
// left out, when it left any.
func (c CLI) platformsLeftOut(ctx context.Context, a *app.App, cmd string) error {
	p, err := a.Ranking.Platforms(ctx)
	if err != nil || p.Count == 0 {
		return err
	}
	fmt.Fprintf(c.Stderr, "sitesift: %s: left out %d platform sites (--include-platforms keeps them)\n", cmd, p.Count)
	return nil
}
