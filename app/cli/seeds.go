package cli

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"sitesift/app"
	"sitesift/app/export"
	"sitesift/importance"
)

// Export kinds of `sitesift export --what`.
const (
	ExportHeritrix = "heritrix-precedence"
	ExportRatings  = "ratings-csv"
	ExportWARCList = "warc-list"
)

func (c CLI) seeds(ctx context.Context, args []string) error {
	f := c.newFlags("seeds")
	dir := f.String("project", "", "project directory")
	count := f.Int("count", 0, "number of seeds")
	method := f.String("method", app.MethodCommunities,
		"communities (one hub of each HITS bipartite core) or importance (the sites with the most OPIC importance)")
	def := importance.DefaultCoreOptions()
	density := f.Float64("density", def.CoverDensity,
		"communities: least cover density of a core, in percent (100: complete bipartite cores)")
	coreSize := f.Int("core-size", 0, "communities: grow each core to this many members instead (fixed-size extraction)")
	newMembers := f.Int("new-members", 1, "communities, with --core-size: hubs and authorities added per step")
	iterations := f.Int("hits-iterations", def.HITS.MaxIter, "communities: HITS iterations before each core")
	minHubs := f.Int("min-hubs", def.MinHubs, "communities: fewest hubs a core must have to count as a community")
	minAuths := f.Int("min-authorities", def.MinAuthorities, "communities: fewest authorities a core must have to count as a community")
	format := f.String("format", export.Txt, "txt, csv or json")
	includeFailed := f.Bool("include-failed", false,
		"importance: keep the sites whose crawl gave nothing worth archiving (dead, closed to robots, errors only)")
	if err := f.parseNoArgs(args); err != nil {
		return err
	}
	set := map[string]bool{}
	f.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	if *count <= 0 {
		return usageError{"seeds: --count K (K > 0) is required"}
	}
	if err := checkFormat("seeds", *format, export.Txt, export.CSV, export.JSON); err != nil {
		return err
	}
	switch *method {
	case app.MethodImportance:
		for _, name := range []string{"density", "core-size", "new-members", "hits-iterations", "min-hubs", "min-authorities"} {
			if set[name] {
				return usageError{fmt.Sprintf("seeds: --%s goes with --method communities", name)}
			}
		}
		return c.withProject(*dir, func(a *app.App) error {
			seeds, err := a.Seeds(ctx, *count, *includeFailed)
			if err != nil {
				return err
			}
			return app.WriteSeeds(c.Stdout, seeds, *format)
		})
	case app.MethodCommunities:
	default:
		return usageError{fmt.Sprintf("seeds: unknown method %q (want communities or importance)", *method)}
	}
	var settings app.CoreSettings
	if set["density"] {
		settings.Density = density
	}
	if set["core-size"] {
		settings.CoreSize = coreSize
	}
	if set["new-members"] {
		settings.NewMembers = newMembers
	}
	settings.HITSIterations = iterations
	settings.MinHubs, settings.MinAuthorities = minHubs, minAuths
	opt, err := settings.Options(func(name string) string { return "--" + strings.ReplaceAll(name, "_", "-") })
	if err != nil {
		return usageError{"seeds: " + err.Error()}
	}
	return c.withProject(*dir, func(a *app.App) error {
		cs, err := a.Communities(ctx, *count, opt)
		if err != nil {
			return err
		}
		return app.WriteCommunities(c.Stdout, cs, *format)
	})
}

// export writes a Heritrix precedence file or the sites with their ratings.
func (c CLI) export(ctx context.Context, args []string) error {
	f := c.newFlags("export")
	dir := f.String("project", "", "project directory")
	what := f.String("what", "", ExportHeritrix+" (a Heritrix PreloadedUriPrecedencePolicy file from the OPIC ranking) or "+
		ExportRatings+" (the sites with every librarian's rating) or "+ExportWARCList+" (the project's WARC files)")
	out := f.String("out", "", "file to write (default: standard output)")
	buckets := f.Int("buckets", app.DefaultPrecedenceBuckets, "heritrix-precedence: number of precedence values (1 = crawl first)")
	if err := f.parseNoArgs(args); err != nil {
		return err
	}
	switch *what {
	case ExportHeritrix:
		if *buckets <= 0 {
			return usageError{fmt.Sprintf("export: --buckets %d must be positive", *buckets)}
		}
	case ExportRatings, ExportWARCList:
	case "":
		return usageError{"export: --what " + ExportHeritrix + "|" + ExportRatings + "|" + ExportWARCList + " is required"}
	default:
		return usageError{fmt.Sprintf("export: unknown --what %q (want %s, %s or %s)", *what, ExportHeritrix, ExportRatings, ExportWARCList)}
	}
	var buf bytes.Buffer
	err := c.withProject(*dir, func(a *app.App) error {
		if *what == ExportHeritrix {
			ps, err := a.HeritrixPrecedence(ctx, *buckets)
			if err != nil {
				return err
			}
			return app.WriteHeritrixPrecedence(&buf, ps)
		}
		if *what == ExportWARCList {
			fs, err := a.WARCFiles()
			if err != nil {
				return err
			}
			return app.WriteWARCList(&buf, fs)
		}
		t, err := a.Ratings(ctx)
		if err != nil {
			return err
		}
		return app.WriteRatingsCSV(&buf, t)
	})
	if err != nil {
		return err
	}
	// Written only once complete, so a failure leaves no half file.
	if *out == "" {
		_, err = c.Stdout.Write(buf.Bytes())
		return err
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
}
