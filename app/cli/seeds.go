package cli

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"sitesift/app"
	"sitesift/app/communities"
	"sitesift/app/crawling"
	"sitesift/app/export"
	"sitesift/app/exports"
	"sitesift/app/ranking"
	"sitesift/importance"
)

func (c CLI) seeds(ctx context.Context, args []string) error {
	f := c.newFlags("seeds")
	dir := f.project
	count := f.Int("count", 0, "number of seeds")
	method := f.String("method", exports.MethodCommunities,
		"communities (one hub of each HITS bipartite core) or importance (the sites with the most OPIC importance)")
	def := importance.DefaultCoreOptions()
	density := f.Float64("density", def.CoverDensity,
		"communities: least cover density of a core, in percent (100: complete bipartite cores)")
	coreSize := f.Int("core-size", 0, "communities: grow each core to this many members instead (fixed-size extraction)")
	newMembers := f.Int("new-members", 1, "communities, with --core-size: hubs and authorities added per step")
	iterations := f.Int("hits-iterations", def.HITS.MaxIter, "communities: HITS iterations before each core (1..1000)")
	minHubs := f.Int("min-hubs", def.MinHubs, "communities: fewest hub sites a core must have to count as a community")
	minAuths := f.Int("min-authorities", def.MinAuthorities, "communities: fewest authority sites a core must have to count as a community")
	format := f.String("format", export.Txt, "txt, csv or json")
	includeFailed := f.Bool("include-failed", false,
		"importance: keep the sites whose crawl gave nothing worth archiving (dead, closed to robots, errors only)")
	includeRejected := f.Bool("include-rejected", false, "importance: keep the sites librarians rejected")
	includePlatforms := f.Bool("include-platforms", false,
		"keep the platform sites (social networks, video sites, shorteners, CDNs, ad hosts) as seeds")
	if err := f.parseNoArgs(args); err != nil {
		return err
	}
	defer lowGC()()
	set := map[string]bool{}
	f.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	if *count <= 0 {
		return usageError{"seeds: --count K (K > 0) is required"}
	}
	if err := checkFormat("seeds", *format, export.Txt, export.CSV, export.JSON); err != nil {
		return err
	}
	switch *method {
	case exports.MethodImportance:
		for _, name := range []string{"density", "core-size", "new-members", "hits-iterations", "min-hubs", "min-authorities"} {
			if set[name] {
				return usageError{fmt.Sprintf("seeds: --%s goes with --method communities", name)}
			}
		}
		return c.readProject(*dir, func(a *app.App) error {
			// The top-k export's list: rejected sites stay out, as there.
			seeds, left, err := a.Exports.TopSeeds(ctx, *count, *includeFailed, *includeRejected, *includePlatforms)
			if err != nil {
				return err
			}
			if t := exports.LeftOutText(left); t != "" {
				fmt.Fprintf(c.Stderr, "sitesift: seeds: %s\n", t)
			}
			if err := exports.WriteSeeds(c.Stdout, seeds, *format); err != nil {
				return err
			}
			return emptied("seeds", exports.NoTopSeeds(len(seeds), left))
		})
	case exports.MethodCommunities:
	default:
		return usageError{fmt.Sprintf("seeds: unknown method %q (want communities or importance)", *method)}
	}
	var settings communities.CoreSettings
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
	return c.readProject(*dir, func(a *app.App) error {
		var buf bytes.Buffer
		wr, err := a.Exports.ExportCommunitySeeds(ctx, &buf, exports.CommunitySeedsRequest{Count: *count, Options: opt,
			IncludePlatforms: *includePlatforms, Format: *format})
		if err != nil {
			return err
		}
		if wr.Fewer != "" {
			fmt.Fprintf(c.Stderr, "sitesift: seeds: %s\n", wr.Fewer)
		}
		if t := exports.LeftOutText(wr.LeftOut); t != "" {
			fmt.Fprintf(c.Stderr, "sitesift: seeds: %s\n", t)
		}
		if _, err := c.Stdout.Write(buf.Bytes()); err != nil {
			return err
		}
		return emptied("seeds", wr.Empty)
	})
}

// export writes one deliverable of the Export page (see exports.Deliverables),
// or the list of the project's WARC files.
func (c CLI) export(ctx context.Context, args []string) error {
	f := c.newFlags("export")
	dir := f.project
	what := f.String("what", "", "the deliverable (sitesift help export lists them)")
	format := f.String("format", "", "the deliverable's format (default its first: sitesift help export)")
	out := f.String("out", "", "file to write, or a directory to write it in under its own name (default: standard output)")
	count := f.Int("count", exports.DefaultTopK, "top-k: number of sites")
	includeFailed := f.Bool("include-failed", false, "top-k, approved, heritrix-precedence: keep the sites whose crawl failed (dead, closed to robots, errors only)")
	includeRejected := f.Bool("include-rejected", false, "top-k, heritrix-precedence: keep the sites librarians rejected")
	includePlatforms := f.Bool("include-platforms", false,
		"top-k, approved, communities, heritrix-precedence: keep the platform sites (social networks, video sites, shorteners, CDNs, ad hosts)")
	buckets := f.Int("buckets", exports.DefaultPrecedenceBuckets, "heritrix-precedence: number of precedence values (1 = crawl first)")
	colName := f.String("name", "", "collection: the saved collection, by name or ID (sitesift collections list)")
	bom := f.Bool("bom", false, "CSV: start the file with a UTF-8 byte-order mark, so that Excel on Windows reads its accents right "+
		"(default on for --what ratings and sites: --bom=false leaves it out)")
	if err := f.parseNoArgs(args); err != nil {
		return err
	}
	set := map[string]bool{}
	f.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	req := exports.ExportRequest{What: *what, Format: *format, Count: *count, IncludeFailed: *includeFailed,
		IncludeRejected: *includeRejected, IncludePlatforms: *includePlatforms, Buckets: *buckets}
	if set["bom"] {
		req.BOM = bom
	}
	// The options each deliverable takes are the export table's, which the
	// API checks too: a flag the deliverable does not take is refused.
	if d, err := exports.DeliverableOf(*what); err == nil {
		for _, o := range exports.Options {
			if name := strings.ReplaceAll(o, "_", "-"); set[name] && !d.Takes(o) {
				return usageError{fmt.Sprintf("export: --%s goes with --what %s", name, strings.Join(exports.Taking(o), ", "))}
			}
		}
	}
	switch {
	case set["bom"] && (*what == ExportBrowsertrix || *what == ExportHeritrixCrawl || *what == exports.ExportWARCList || *what == exports.ExportWACZ):
		return usageError{"export: --bom goes with CSV files; --what " + *what + " writes none"}
	case *what == ExportBrowsertrix || *what == ExportHeritrixCrawl: // export_crawlers.go
		return c.exportCrawler(ctx, *dir, *what, *out, *buckets)
	case *what == exports.ExportWACZ:
		return c.exportWACZ(ctx, *dir, *out, *format, set)
	case *what == ExportCollection:
		for _, name := range []string{"count", "include-failed", "include-rejected", "include-platforms", "buckets", "bom"} {
			if set[name] {
				return usageError{"export: --what collection takes no --" + name}
			}
		}
		if *colName == "" {
			return usageError{"export: --what collection needs --name NAME, a saved collection (sitesift collections list)"}
		}
		if *format == "" {
			*format = export.Txt
		}
		if err := checkFormat("export --what collection", *format, export.Txt, export.CSV, export.JSON); err != nil {
			return err
		}
	case set["name"]:
		return usageError{"export: --name goes with --what collection"}
	case *what == "":
		return usageError{"export: --what is required: " + exportChoices()}
	case *what == "ratings-csv":
		return usageError{"export: --what ratings-csv is now --what " + exports.ExportSites + " (the sites table with every librarian's rating); " +
			"the ratings file that `sitesift ratings import` reads is --what " + exports.ExportRatings}
	case *what == exports.ExportWARCList:
		if *format != "" {
			return usageError{"export: --what warc-list has no --format"}
		}
	default:
		if _, err := exports.DeliverableOf(*what); err != nil {
			return usageError{"export: unknown --what " + strconv.Quote(*what) + ": " + exportChoices()}
		}
		if set["count"] && *count <= 0 {
			return usageError{fmt.Sprintf("export: --count %d must be positive", *count)}
		}
		if set["buckets"] && *buckets <= 0 {
			return usageError{fmt.Sprintf("export: --buckets %d must be positive", *buckets)}
		}
	}
	var buf bytes.Buffer
	name := ""
	empty := ""
	err := c.readProject(*dir, func(a *app.App) error {
		if *what == ExportCollection {
			col, err := findCollection(ctx, a, *colName)
			if err != nil {
				return err
			}
			name = a.Exports.CollectionName(col, *format)
			if len(communities.CollectionSeeds(col)) == 0 {
				empty = emptyCollection(col)
			}
			return exports.WriteCollection(&buf, col, *format)
		}
		if *what == exports.ExportWARCList {
			fs, err := a.Crawling.WARCFiles()
			if err != nil {
				return err
			}
			name = "warc-list.tsv"
			if len(fs) == 0 {
				empty = "no WARC file in this project yet"
			}
			return crawling.WriteWARCList(&buf, fs)
		}
		var err error
		if name, err = a.Exports.ExportName(req); err != nil {
			return err
		}
		wr, err := a.Exports.ExportWritten(ctx, &buf, req)
		if t := exports.LeftOutText(wr.LeftOut); err == nil && t != "" && wr.Empty == "" {
			// On stderr: the file itself stays what its crawler reads.
			fmt.Fprintf(c.Stderr, "sitesift: export %s: %s\n", *what, t)
		}
		if err == nil && wr.Differs != "" {
			fmt.Fprintf(c.Stderr, "sitesift: export %s: %s\n", *what, wr.Differs)
		}
		empty = wr.Empty
		return err
	})
	if err != nil {
		return err
	}
	// An empty deliverable is written all the same (its header alone), and
	// said, with exit status 3.
	none := emptied("export "+*what, empty)
	if *out == "" {
		if _, err = c.Stdout.Write(buf.Bytes()); err != nil {
			return err
		}
		return none
	}
	path := *out
	if isDirArg(path) {
		path = filepath.Join(path, name)
	}
	if err := writeFileWhole(path, buf.Bytes()); err != nil {
		return err
	}
	fmt.Fprintf(c.Stderr, "wrote %s\n", path)
	return none
}

// exportChoices names the deliverables of --what.
func exportChoices() string {
	names := []string{}
	for _, d := range exports.Deliverables {
		names = append(names, d.What)
	}
	return strings.Join(append(names, ExportCollection, exports.ExportWARCList, exports.ExportWACZ), ", ") + " (sitesift help export says what each is)"
}

// exportHelp is `sitesift help export`: every deliverable, its formats, its
// file name and what it is for.
func (c CLI) exportHelp() {
	var b strings.Builder
	b.WriteString("Each deliverable of the app's Export page, under the same file name (PROJECT is the project directory's name):\n\n")
	for _, d := range exports.Deliverables {
		ext := strings.Join(d.Formats, "|")
		what := d.What
		if what == exports.ExportTopK {
			what = "top-K"
		}
		fmt.Fprintf(&b, "  --what %-20s PROJECT-%s.%s\n      %s\n", d.What, what, ext, d.Purpose)
		if len(d.Options) > 0 {
			flags := make([]string, len(d.Options))
			for i, o := range d.Options {
				flags[i] = "--" + strings.ReplaceAll(o, "_", "-")
				switch o {
				case exports.OptCount:
					flags[i] += fmt.Sprintf(" K (default %d)", exports.DefaultTopK)
				case exports.OptBuckets:
					flags[i] += fmt.Sprintf(" N (default %d)", exports.DefaultPrecedenceBuckets)
				}
			}
			fmt.Fprintf(&b, "      %s\n", strings.Join(flags, ", "))
		}
		fmt.Fprintf(&b, "      --format %s (default %s)\n", strings.Join(d.Formats, ", "), d.Formats[0])
		if slices.Contains(d.Formats, export.CSV) {
			if d.BOM {
				b.WriteString("      CSV starts with a UTF-8 byte-order mark (--bom=false leaves it out)\n")
			} else {
				b.WriteString("      --bom: CSV starts with a UTF-8 byte-order mark\n")
			}
		}
	}
	fmt.Fprintf(&b, "  --what %-20s PROJECT-seeds-NAME.txt|csv|json (--name NAME or ID required)\n"+
		"      a saved collection's seed list as librarians edited it (unchecked seeds out, seeds added by hand in);\n"+
		"      --what communities is the current extraction, and says so when it differs from a saved collection\n"+
		"      --format txt, csv, json (default txt)\n", ExportCollection)
	fmt.Fprintf(&b, "  --what %-20s the project's WARC files: name, size, records, state (the files are in PROJECT/warcs/)\n", exports.ExportWARCList)
	fmt.Fprintf(&b, "  --what %-20s PROJECT-crawl.wacz (--out FILE|DIR required)\n"+
		"      the crawl as a WACZ 1.1.1 file for ReplayWeb.page and other WACZ tools: every finished WARC file of the\n"+
		"      project's crawls, their CDXJ index, the HTML pages with their titles (pages.jsonl), datapackage.json;\n"+
		"      pages imported from WARC files are not in it (the project keeps their pages, not the files)\n", exports.ExportWACZ)
	b.WriteString("\nA CSV file with a byte-order mark opens right in Excel on Windows, which reads one without it in the\n" +
		"local code page (café as cafÃ©); sitesift ratings import reads the ratings file with or without it.\n")
	b.WriteString("\nA site's seed is the shallowest page the crawl fetched with a 2xx answer (http://SITE/ when none did:\n" +
		"checked false in CSV and JSON). Sites whose crawl failed (dead, closed to robots, errors only) are left out\n" +
		"of the seed lists and the Heritrix files, and rejected sites of top-k and heritrix-precedence, unless asked;\n" +
		"platform sites (social networks, video sites, shorteners, CDNs, ad hosts: sitesift platforms) are left out\n" +
		"of every seed list, the community seeds and the Heritrix and Browsertrix files, unless asked;\n" +
		"how many and why is printed on standard error. " + ranking.PlatformNote + "\n")
	b.WriteString("\nA deliverable that holds nothing (nothing approved yet, no rating, no site) is written with its header\n" +
		"alone (a CSV header row, [] in JSON, an empty txt file, a crawler file's comments); standard error says why\n" +
		"and the exit status is 3.\n")
	fmt.Fprint(c.Stdout, b.String())
}
