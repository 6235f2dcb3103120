package cli

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"sitesift/app"
	"sitesift/app/communities"
	"sitesift/app/export"
	"sitesift/app/exports"
	"sitesift/app/fault"
	"sitesift/importance"
)

// collections runs `sitesift collections list|show|save|export|delete`.
func (c CLI) collections(ctx context.Context, args []string) error {
	sub, args := subcommand(args)
	switch sub {
	case "", "list":
		return c.collectionsList(ctx, args)
	case "show":
		return c.collectionsShow(ctx, args)
	case "save":
		return c.collectionsSave(ctx, args)
	case "export":
		return c.collectionsExport(ctx, args)
	case "delete":
		return c.collectionsDelete(ctx, args)
	}
	return usageError{fmt.Sprintf("collections: unknown subcommand %q (want list, show, save, export or delete)", sub)}
}

// findCollection returns the collection named by ref: its ID, or else its
// name.
func findCollection(ctx context.Context, a *app.App, ref string) (communities.Collection, error) {
	if id, err := strconv.ParseInt(ref, 10, 64); err == nil {
		return a.Communities.Collection(ctx, id)
	}
	list, err := a.Communities.Collections(ctx)
	if err != nil {
		return communities.Collection{}, err
	}
	for _, s := range list {
		if s.Name == ref {
			return a.Communities.Collection(ctx, s.ID)
		}
	}
	return communities.Collection{}, &fault.Error{Kind: fault.KindNotFound, Err: fmt.Errorf("no collection named %q (sitesift collections list)", ref)}
}

// oneRef reads the one ID or NAME argument of a subcommand.
func oneRef(cmd string, rest []string) (string, error) {
	if len(rest) != 1 {
		return "", usageError{cmd + ": give one collection, by ID or NAME"}
	}
	return rest[0], nil
}

func (c CLI) collectionsList(ctx context.Context, args []string) error {
	f := c.newFlags("collections list")
	dir := f.project
	format := f.String("format", export.Table, "table or json")
	if err := f.parseNoArgs(args); err != nil {
		return err
	}
	if err := checkFormat("collections list", *format, export.Table, export.JSON); err != nil {
		return err
	}
	return c.readProject(*dir, func(a *app.App) error {
		list, err := a.Communities.Collections(ctx)
		if err != nil {
			return err
		}
		if *format == export.JSON {
			return export.WriteJSON(c.Stdout, list)
		}
		tw := tabwriter.NewWriter(c.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "id\tname\tcreated_by\tcreated_at\tupdated_at\tcommunities\tkept\tadded\t")
		for _, s := range list {
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t\n", s.ID, s.Name, s.CreatedBy,
				s.CreatedAt.UTC().Format(time.RFC3339), s.UpdatedAt.UTC().Format(time.RFC3339), s.Communities, s.Kept, s.Added)
		}
		return tw.Flush()
	})
}

func (c CLI) collectionsShow(ctx context.Context, args []string) error {
	f := c.newFlags("collections show")
	dir := f.project
	format := f.String("format", export.Table, "table or json (the whole collection, with its members and picture)")
	rest, err := f.parse(args)
	if err != nil {
		return err
	}
	ref, err := oneRef("collections show", rest)
	if err != nil {
		return err
	}
	if err := checkFormat("collections show", *format, export.Table, export.JSON); err != nil {
		return err
	}
	return c.readProject(*dir, func(a *app.App) error {
		col, err := findCollection(ctx, a, ref)
		if err != nil {
			return err
		}
		if *format == export.JSON {
			return export.WriteJSON(c.Stdout, col)
		}
		fmt.Fprintf(c.Stdout, "%s (id %d), made by %s on %s, edited %s\nsettings %s\n\n", col.Name, col.ID, col.CreatedBy,
			col.CreatedAt.UTC().Format(time.RFC3339), col.UpdatedAt.UTC().Format(time.RFC3339), col.Params)
		tw := tabwriter.NewWriter(c.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "core\tkept\tname\ttopic\tseed\tfrom_hub\thubs\tauthorities\t")
		for _, k := range col.Communities {
			kept := "yes"
			if !k.Kept {
				kept = "no"
			}
			seed := k.Seed
			if seed == "" {
				seed = "(none: its hub sites gave other seeds)"
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t\n", k.Core, kept, k.Name, k.Topic, seed, k.FromHub, len(k.Hubs), len(k.Authorities))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if len(col.Added) > 0 {
			fmt.Fprintln(c.Stdout, "\nadded by hand:")
			for _, s := range col.Added {
				fmt.Fprintf(c.Stdout, "  %s\n", s.URL)
			}
		}
		return nil
	})
}

func (c CLI) collectionsSave(ctx context.Context, args []string) error {
	f := c.newFlags("collections save")
	dir := f.project
	librarian := f.String("librarian", "", "who makes the collection")
	name := f.String("name", "", `name of the collection (default "Collection" and the time)`)
	count := f.Int("count", communities.DefaultCommunityCount, "number of communities (seeds)")
	def := importance.DefaultCoreOptions()
	density := f.Float64("density", def.CoverDensity, "least cover density of a core, in percent")
	coreSize := f.Int("core-size", 0, "grow each core to this many members instead")
	newMembers := f.Int("new-members", 1, "with --core-size: hubs and authorities added per step")
	iterations := f.Int("hits-iterations", def.HITS.MaxIter, "HITS iterations before each core (1..1000)")
	minHubs := f.Int("min-hubs", def.MinHubs, "fewest hub sites a core must have to count as a community")
	minAuths := f.Int("min-authorities", def.MinAuthorities, "fewest authority sites a core must have to count as a community")
	if err := f.parseNoArgs(args); err != nil {
		return err
	}
	if err := needLibrarian("collections save", *librarian); err != nil {
		return err
	}
	if *count <= 0 || *count > communities.MaxCommunityCount {
		return usageError{fmt.Sprintf("collections save: --count %d must lie in 1..%d", *count, communities.MaxCommunityCount)}
	}
	var s communities.CoreSettings
	f.Visit(func(fl *flag.Flag) {
		switch fl.Name {
		case "density":
			s.Density = density
		case "core-size":
			s.CoreSize = coreSize
		case "new-members":
			s.NewMembers = newMembers
		}
	})
	s.HITSIterations, s.MinHubs, s.MinAuthorities = iterations, minHubs, minAuths
	opt, err := s.Options(func(name string) string { return "--" + strings.ReplaceAll(name, "_", "-") })
	if err != nil {
		return usageError{"collections save: " + err.Error()}
	}
	return c.withProject(*dir, func(a *app.App) error {
		col, err := a.Communities.CreateCollection(ctx, communities.NewCollection{Name: *name, By: *librarian, Count: *count, Options: opt})
		if err != nil {
			return err
		}
		fmt.Fprintf(c.Stdout, "collection %d %q: %d communities, %d seeds\n", col.ID, col.Name, len(col.Communities), len(communities.CollectionSeeds(col)))
		return nil
	})
}

func (c CLI) collectionsExport(ctx context.Context, args []string) error {
	f := c.newFlags("collections export")
	dir := f.project
	format := f.String("format", export.Txt, "txt (seed URLs), csv or json")
	out := f.String("out", "", "file to write (default: standard output)")
	rest, err := f.parse(args)
	if err != nil {
		return err
	}
	ref, err := oneRef("collections export", rest)
	if err != nil {
		return err
	}
	if err := checkFormat("collections export", *format, export.Txt, export.CSV, export.JSON); err != nil {
		return err
	}
	var buf bytes.Buffer
	var none error // no seed: written all the same, exit 3, as export does
	err = c.readProject(*dir, func(a *app.App) error {
		col, err := findCollection(ctx, a, ref)
		if err != nil {
			return err
		}
		if len(communities.CollectionSeeds(col)) == 0 {
			none = emptied("collections export", emptyCollection(col))
		}
		return exports.WriteCollection(&buf, col, *format)
	})
	if err != nil {
		return err
	}
	// Written only once complete, so a failure leaves no half file.
	if *out == "" {
		if _, err = c.Stdout.Write(buf.Bytes()); err != nil {
			return err
		}
		return none
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("collections export: %w", err)
	}
	return none
}

// emptyCollection says why the collection c has no seed.
func emptyCollection(c communities.Collection) string {
	return fmt.Sprintf("the collection %q has no seed: every community unchecked, none added by hand", c.Name)
}

func (c CLI) collectionsDelete(ctx context.Context, args []string) error {
	f := c.newFlags("collections delete")
	dir := f.project
	rest, err := f.parse(args)
	if err != nil {
		return err
	}
	ref, err := oneRef("collections delete", rest)
	if err != nil {
		return err
	}
	return c.withProject(*dir, func(a *app.App) error {
		col, err := findCollection(ctx, a, ref)
		if err != nil {
			return err
		}
		if err := a.Communities.DeleteCollection(ctx, col.ID); err != nil {
			return err
		}
		fmt.Fprintf(c.Stdout, "deleted collection %d %q\n", col.ID, col.Name)
		return nil
	})
}
