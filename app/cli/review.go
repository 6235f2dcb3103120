package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"sitesift/app"
	"sitesift/app/export"
	"sitesift/app/exports"
	"sitesift/app/ranking"
	"sitesift/app/review"
	"sitesift/sites/wholefile"
)

// The commands of librarian review: profiles, rating, the review queue,
// selection, ratings files and agreement. Every command that records a
// judgement takes --librarian NAME.

// subcommand splits "CMD SUB ..." into SUB and the rest, or "" when args
// start with a flag or are empty.
func subcommand(args []string) (string, []string) {
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		return args[0], args[1:]
	}
	return "", args
}

func (c CLI) librarians(ctx context.Context, args []string) error {
	sub, args := subcommand(args)
	switch sub {
	case "", "list":
		f := c.newFlags("librarians list")
		dir := f.project
		if err := f.parseNoArgs(args); err != nil {
			return err
		}
		return c.readProject(*dir, func(a *app.App) error {
			ls, err := a.Review.Librarians(ctx)
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(c.Stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "librarian\tratings\tcreated")
			for _, l := range ls {
				fmt.Fprintf(tw, "%s\t%d\t%s\n", l.Name, l.Ratings, l.CreatedAt.Local().Format(time.DateTime))
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			ms, err := a.Review.LibrarianMerges(ctx)
			if err != nil {
				return err
			}
			for _, m := range ms {
				fmt.Fprintf(c.Stdout, "%s was merged into %s on %s (names differing only in case are one librarian): %d ratings moved, %d older duplicate ratings dropped\n",
					m.Merged, m.Into, m.MergedAt.Local().Format(time.DateTime), m.Ratings, m.Dropped)
			}
			return nil
		})
	case "add":
		f := c.newFlags("librarians add")
		dir := f.project
		rest, err := f.parse(args)
		if err != nil {
			return err
		}
		if len(rest) != 1 {
			return usageError{"librarians add: give one NAME"}
		}
		return c.withProject(*dir, func(a *app.App) error {
			l, created, err := a.Review.AddLibrarian(ctx, rest[0])
			if err != nil {
				return err
			}
			if !created {
				fmt.Fprintf(c.Stdout, "librarian %s exists already (%d ratings; names differing only in case are one librarian)\n", l.Name, l.Ratings)
				return nil
			}
			fmt.Fprintf(c.Stdout, "librarian %s added\n", l.Name)
			return nil
		})
	}
	return usageError{fmt.Sprintf("librarians: unknown subcommand %q (want list or add)", sub)}
}

// needLibrarian refuses a missing --librarian.
func needLibrarian(cmd, name string) error {
	if name == "" {
		return usageError{cmd + ": --librarian NAME is required"}
	}
	return nil
}

func (c CLI) rate(ctx context.Context, args []string) error {
	f := c.newFlags("rate")
	dir := f.project
	librarian := f.String("librarian", "", "who rates (a librarian of the project: sitesift librarians add NAME)")
	note := f.String("note", "", "a note on the rating; without a rating, a note kept alone")
	rest, err := f.parse(args)
	if err != nil {
		return err
	}
	if err := needLibrarian("rate", *librarian); err != nil {
		return err
	}
	noted := false
	f.Visit(func(fl *flag.Flag) { noted = noted || fl.Name == "note" })
	if len(rest) == 1 && noted {
		return c.withProject(*dir, func(a *app.App) error {
			r, err := a.Review.Note(ctx, *librarian, rest[0], *note)
			if err != nil {
				return err
			}
			switch {
			case r.Note == "" && r.Rating == 0:
				fmt.Fprintf(c.Stdout, "%s's note on %s removed\n", r.Librarian, r.Site)
			case r.Rating == 0:
				fmt.Fprintf(c.Stdout, "%s noted %s (not rated)\n", r.Librarian, r.Site)
			default:
				fmt.Fprintf(c.Stdout, "%s noted %s (rated %d)\n", r.Librarian, r.Site, r.Rating)
			}
			return nil
		})
	}
	if len(rest) != 2 {
		return usageError{"rate: give SITE and RATING (1–4), or SITE and --note TEXT for a note without a rating"}
	}
	value, err := strconv.Atoi(rest[1])
	if err == nil {
		err = review.CheckRating(value)
	}
	if err != nil {
		return usageError{fmt.Sprintf("rate: rating %q is not 1, 2, 3 or 4", rest[1])}
	}
	return c.withProject(*dir, func(a *app.App) error {
		r, err := a.Review.Rate(ctx, *librarian, rest[0], value, *note)
		if err != nil {
			return err
		}
		fmt.Fprintf(c.Stdout, "%s rated %s %d\n", r.Librarian, r.Site, r.Rating)
		return nil
	})
}

func (c CLI) review(ctx context.Context, args []string) error {
	f := c.newFlags("review")
	dir := f.project
	librarian := f.String("librarian", "", "whose queue: the sites they have not rated")
	order := f.String("order", review.OrderImportance, "importance, biased, community or search")
	q := f.String("q", "", "with --order search: the full-text query; else keep sites whose name contains it")
	limit := f.Int("limit", review.DefaultQueueLimit, fmt.Sprintf("sites to list (1..%d)", review.MaxQueueLimit))
	bias := f.Float64("bias", ranking.DefaultBias, "with --order biased: teleport boost of the sites rated 3–4 on average")
	format := f.String("format", export.Table, "table, csv or json")
	includeFailed := f.Bool("include-failed", false,
		"keep the sites whose crawl gave nothing worth archiving (dead, closed to robots, errors only)")
	includePlatforms := f.Bool("include-platforms", false,
		"keep the platform sites (social networks, video sites, shorteners, CDNs, ad hosts)")
	if err := f.parseNoArgs(args); err != nil {
		return err
	}
	if err := needLibrarian("review", *librarian); err != nil {
		return err
	}
	if err := checkFormat("review", *format, export.Table, export.CSV, export.JSON); err != nil {
		return err
	}
	return c.readProject(*dir, func(a *app.App) error {
		rq, err := a.Review.ReviewQueue(ctx, review.QueueRequest{Librarian: *librarian, Order: *order, Q: *q, Limit: *limit, Bias: *bias,
			IncludeFailed: *includeFailed, IncludePlatforms: *includePlatforms})
		if err != nil {
			return err
		}
		return exports.WriteQueue(c.Stdout, rq, *format)
	})
}

func (c CLI) selection(ctx context.Context, args []string) error {
	sub, args := subcommand(args)
	switch sub {
	case "set":
		return c.selectionSet(ctx, args)
	case "export":
		return c.selectionExport(ctx, args)
	}
	return usageError{fmt.Sprintf("selection: unknown subcommand %q (want set or export)", sub)}
}

func (c CLI) selectionSet(ctx context.Context, args []string) error {
	f := c.newFlags("selection set")
	dir := f.project
	librarian := f.String("librarian", "", "who decides")
	note := f.String("note", "", "selection note (kept when not given)")
	subject := f.String("subject", "", "subject (kept when not given)")
	reason := f.String("reason", "", "rejected: why (kept when not given)")
	pageOnly := f.Bool("page-only", false, "approved: hand the site to crawlers as its seed page alone, not its whole site; --page-only=false for the whole site again (kept when not given)")
	rest, err := f.parse(args)
	if err != nil {
		return err
	}
	if err := needLibrarian("selection set", *librarian); err != nil {
		return err
	}
	if len(rest) != 2 {
		return usageError{"selection set: give SITE and STATUS (" + strings.Join(review.Statuses(), ", ") + ")"}
	}
	u := review.SelectionUpdate{Librarian: *librarian, Status: rest[1]}
	if u.Status != review.StatusRejected && *reason != "" {
		return usageError{"selection set: --reason goes with the status rejected"}
	}
	f.Visit(func(fl *flag.Flag) {
		switch fl.Name {
		case "note":
			u.Note = note
		case "subject":
			u.Subject = subject
		case "reason":
			u.Reason = reason
		case "page-only":
			u.PageOnly = pageOnly
		}
	})
	return c.withProject(*dir, func(a *app.App) error {
		s, err := a.Review.SetSelection(ctx, strings.ToLower(rest[0]), u)
		if err != nil {
			return err
		}
		fmt.Fprintf(c.Stdout, "%s: %s by %s", s.Site, s.Status, s.DecidedBy)
		if s.Status == review.StatusApproved {
			nominator := s.NominatedBy
			if s.NominatorUnknown {
				nominator = "an unrecorded librarian"
			}
			fmt.Fprintf(c.Stdout, " (nominated by %s)", nominator)
			if s.PageOnly {
				fmt.Fprint(c.Stdout, ", its seed page only")
			}
		}
		fmt.Fprintln(c.Stdout)
		return nil
	})
}

func (c CLI) selectionExport(ctx context.Context, args []string) error {
	f := c.newFlags("selection export")
	dir := f.project
	status := f.String("status", review.StatusApproved, "the sites of this status: "+strings.Join(review.Statuses(), ", "))
	format := f.String("format", export.Txt, "txt (seed URLs), csv or json")
	if err := f.parseNoArgs(args); err != nil {
		return err
	}
	if err := checkFormat("selection export", *format, export.Txt, export.CSV, export.JSON); err != nil {
		return err
	}
	return c.readProject(*dir, func(a *app.App) error {
		seeds, err := a.Review.Selection(ctx, *status)
		if err != nil {
			return err
		}
		if err := exports.WriteSelection(c.Stdout, seeds, *format); err != nil {
			return err
		}
		return emptied("selection export", exports.NoSelection(len(seeds), *status))
	})
}

func (c CLI) ratings(ctx context.Context, args []string) error {
	sub, args := subcommand(args)
	switch sub {
	case "import":
		return c.ratingsImport(ctx, args)
	case "export":
		return c.ratingsExport(ctx, args)
	}
	return usageError{fmt.Sprintf("ratings: unknown subcommand %q (want import or export)", sub)}
}

func (c CLI) ratingsImport(ctx context.Context, args []string) error {
	f := c.newFlags("ratings import")
	dir := f.project
	newLibs := f.Bool("new-librarians", false, "add a librarian profile for each name of the file the project does not have (without it, such a file is refused, listing the names)")
	rest, err := f.parse(args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return usageError{"ratings import: give one FILE (CSV: librarian,site,rating,note)"}
	}
	return c.withProject(*dir, func(a *app.App) error {
		fh, err := os.Open(rest[0])
		if err != nil {
			return err
		}
		defer fh.Close()
		res, err := a.Review.ImportRatingsCSV(ctx, fh, rest[0], *newLibs)
		var nl *review.NewLibrariansError
		if errors.As(err, &nl) {
			return usageError{fmt.Sprintf("ratings import: %s names librarians this project does not have: %s; nothing imported: add them with --new-librarians, or correct the names in the file",
				rest[0], strings.Join(nl.Names, ", "))}
		}
		var fe *review.RatingsFileError
		if errors.As(err, &fe) {
			// Like a compiler: one FILE:LINE: message a bad line, then the
			// one-line error.
			for _, l := range fe.Lines {
				fmt.Fprintf(c.Stderr, "%s:%d: %s\n", rest[0], l.Line, l.Error)
			}
			if fe.Total > len(fe.Lines) {
				fmt.Fprintf(c.Stderr, "%s: %d more bad lines not shown\n", rest[0], fe.Total-len(fe.Lines))
			}
			return fmt.Errorf("ratings import: %s refused, nothing imported: %d bad lines", rest[0], fe.Total)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(c.Stdout, "%d ratings: %d added, %d changed, %d unchanged", res.Rows, res.Added, res.Changed, res.Unchanged)
		if len(res.NewLibrarians) > 0 {
			fmt.Fprintf(c.Stdout, "; new librarians: %s", strings.Join(res.NewLibrarians, ", "))
		}
		fmt.Fprintln(c.Stdout)
		return nil
	})
}

func (c CLI) ratingsExport(ctx context.Context, args []string) error {
	f := c.newFlags("ratings export")
	dir := f.project
	bom := f.Bool("bom", true, "start the file with a UTF-8 byte-order mark, so that Excel on Windows reads its accents right (--bom=false leaves it out; ratings import reads both)")
	rest, err := f.parse(args)
	if err != nil {
		return err
	}
	if len(rest) > 1 {
		return usageError{"ratings export: give at most one FILE (default: standard output)"}
	}
	req := exports.ExportRequest{What: exports.ExportRatings, BOM: bom}
	return c.readProject(*dir, func(a *app.App) error {
		var wr exports.Written
		fill := func(w io.Writer) (err error) {
			wr, err = a.Exports.ExportWritten(ctx, w, req)
			return err
		}
		var err error
		if len(rest) == 0 {
			err = fill(c.Stdout)
		} else {
			err = wholefile.Write(rest[0], fill)
		}
		if err != nil {
			return err
		}
		return emptied("ratings export", wr.Empty)
	})
}

func (c CLI) agreement(ctx context.Context, args []string) error {
	f := c.newFlags("agreement")
	dir := f.project
	format := f.String("format", export.Table, "table, csv or json")
	biased := f.Bool("biased", false, "add the biased PageRank (in-sample and cross-validated)")
	bias := f.Float64("bias", ranking.DefaultBias, "with --biased: teleport boost of the sites rated 3–4 on average")
	rater := f.String("rater", "", "show this rater's confusion matrix (table and json)")
	if err := f.parseNoArgs(args); err != nil {
		return err
	}
	if err := checkFormat("agreement", *format, export.Table, export.CSV, export.JSON); err != nil {
		return err
	}
	if *rater != "" && *format == export.CSV {
		return usageError{"agreement: --rater goes with --format table or json"}
	}
	return c.readProject(*dir, func(a *app.App) error {
		ag, err := a.Review.Agreement(ctx, review.AgreementOptions{Biased: *biased, Bias: *bias, Rater: *rater})
		if err != nil {
			return err
		}
		return exports.WriteAgreement(c.Stdout, ag, *format)
	})
}
