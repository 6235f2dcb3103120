package cli

import (
	"context"
	"fmt"

	"sitesift/app"
	"sitesift/app/export"
)

// page prints the text of one crawled page: its main text, or with
// --whole the whole page's text; --format json prints the page with both
// texts, its language, date and link counts.
func (c CLI) page(ctx context.Context, args []string) error {
	f := c.newFlags("page")
	dir := f.project
	whole := f.Bool("whole", false, "print the whole page's text, template included (default: the main text, what search finds)")
	format := f.String("format", export.Txt, "txt (the text alone) or json (the page with both texts, language, date and link counts)")
	rest, err := f.parse(args)
	if err != nil {
		return err
	}
	if err := checkFormat("page", *format, export.Txt, export.JSON); err != nil {
		return err
	}
	if len(rest) != 1 {
		return usageError{"page: give one URL"}
	}
	return c.readProject(*dir, func(a *app.App) error {
		p, err := a.Review.PageText(ctx, rest[0])
		if err != nil {
			return err
		}
		if *format == export.JSON {
			return export.WriteJSON(c.Stdout, p)
		}
		text := p.Text
		switch {
		case *whole && p.FullTextMissing:
			// What was kept is the whole body's text, which is what was asked.
			fmt.Fprintf(c.Stderr, "sitesift: page: %s was fetched before sitesift told a page's main text from its template: its whole text was not kept apart, the text kept then (the whole body's) follows\n", p.URL)
		case *whole:
			text = p.FullText
		case p.FullTextMissing:
			fmt.Fprintf(c.Stderr, "sitesift: page: %s was fetched before sitesift told a page's main text from its template: the text kept then (the whole body's) follows\n", p.URL)
		}
		if text == "" {
			fmt.Fprintf(c.Stderr, "sitesift: page: %s has no text (HTTP status %d)\n", p.URL, p.Status)
			return nil
		}
		_, err = fmt.Fprintln(c.Stdout, text)
		return err
	})
}
