package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"sitesift/app"
	"sitesift/app/export"
	"sitesift/app/project"
	"sitesift/sites"
)

// settingsFlags adds the flags of the project's crawl settings to f and
// returns a function giving the update made of the flags set on the
// command line: the others keep the project's values.
func (f flags) settingsFlags() func() project.SettingsUpdate {
	contact := f.String("contact", "", "your e-mail address or web page, sent in the user agent (needed beyond .test and loopback hosts)")
	ua := f.String("user-agent", "", `User-Agent to send (default "sitesift/`+project.Version+` (+CONTACT)")`)
	delay := f.Duration("delay", project.DefaultDelayMS*time.Millisecond, "least delay between two requests to one site")
	parallel := f.Int("parallel", project.DefaultParallel, "sites fetched at once")
	maxDelay := f.Duration("max-delay", project.DefaultMaxDelayMS*time.Millisecond,
		"longest delay a site may ask for (Crawl-delay, Retry-After); a site asking for more is not crawled")
	rule := f.String("site-rule", string(sites.DefaultRule), "how URLs map to sites: host, host-www (www. dropped) or domain "+
		"(the registered domain); chosen when the project is created")
	window := f.String("window", project.DefaultWindow, "window policy of the importance after a recrawl: "+strings.Join(project.Windows, ", "))
	windowSize := f.Int("window-size", project.DefaultWindowSize, "size of the window, in crawls (the first crawl and each recrawl)")
	links := f.String("links", project.DefaultLinks, "links the importance is computed on: editorial (inside the pages' main "+
		"content, which their authors wrote) or all (navigation, footers and share buttons too); a change computes it again")
	return func() project.SettingsUpdate {
		var u project.SettingsUpdate
		set := map[string]func(){
			"contact":     func() { u.Contact = contact },
			"user-agent":  func() { u.UserAgent = ua },
			"delay":       func() { u.DelayMS = app.Set(int(delay.Milliseconds())) },
			"parallel":    func() { u.Parallel = parallel },
			"max-delay":   func() { u.MaxDelayMS = app.Set(int(maxDelay.Milliseconds())) },
			"site-rule":   func() { u.SiteRule = rule },
			"window":      func() { u.Window = window },
			"window-size": func() { u.WindowSize = windowSize },
			"links":       func() { u.Links = links },
		}
		f.Visit(func(fl *flag.Flag) { // the flags given, the command's others included
			if s, ok := set[fl.Name]; ok {
				s()
			}
		})
		return u
	}
}

// settings shows the project's crawl settings, after setting those given.
func (c CLI) settings(ctx context.Context, args []string) error {
	f := c.newFlags("settings")
	dir := f.project
	format := f.String("format", export.Table, "table or json")
	update := f.settingsFlags()
	if err := f.parseNoArgs(args); err != nil {
		return err
	}
	if *dir == "" {
		return usageError{"settings: --project DIR is required"}
	}
	if err := checkFormat("settings", *format, export.Table, export.JSON); err != nil {
		return err
	}
	return c.withProject(*dir, func(a *app.App) error {
		s, err := a.Ranking.SetSettings(ctx, update())
		if err != nil {
			return err
		}
		if *format == export.JSON {
			return export.WriteJSON(c.Stdout, s)
		}
		contact := s.Contact
		if contact == "" {
			contact = "(none: only .test and loopback hosts may be crawled)"
		}
		tw := tabwriter.NewWriter(c.Stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "contact\t%s\n", contact)
		fmt.Fprintf(tw, "user agent\t%s\n", s.EffectiveUserAgent)
		fmt.Fprintf(tw, "delay\t%v\n", time.Duration(s.DelayMS)*time.Millisecond)
		fmt.Fprintf(tw, "parallel\t%d\n", s.Parallel)
		fmt.Fprintf(tw, "max delay\t%v\n", time.Duration(s.MaxDelayMS)*time.Millisecond)
		fmt.Fprintf(tw, "site rule\t%s\n", s.SiteRule)
		fmt.Fprintf(tw, "window\t%s, %d crawls\n", s.Window, s.WindowSize)
		fmt.Fprintf(tw, "links\t%s\n", s.Links)
		return tw.Flush()
	})
}
