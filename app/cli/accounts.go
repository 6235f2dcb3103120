package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"sitesift/app"
	"sitesift/app/accounts"
	"sitesift/app/project"
	"sitesift/app/review"
)

// stdin is where --password-stdin reads.
func (c CLI) stdin() io.Reader {
	if c.Stdin != nil {
		return c.Stdin
	}
	return os.Stdin
}

// readPassword reads a password, its first line, from standard input.
func (c CLI) readPassword(cmd string) (string, error) {
	line, err := bufio.NewReader(c.stdin()).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("%s: read the password from standard input: %w", cmd, err)
	}
	pw := strings.TrimRight(line, "\r\n")
	if pw == "" {
		return "", usageError{cmd + ": --password-stdin read no password"}
	}
	return pw, nil
}

// withAccounts runs f on the accounts of the existing project dir, held
// by this process: accounts are changed while no server holds the project,
// or on its Accounts API.
func (c CLI) withAccounts(dir string, f func(*accounts.Service) error) error {
	return c.held(dir, false, false, func(_ *app.App, p *project.Project) error {
		return f(accounts.New(p, accounts.Options{}))
	})
}

func (c CLI) accounts(ctx context.Context, args []string) error {
	sub, args := subcommand(args)
	switch sub {
	case "", "list":
		f := c.newFlags("accounts list")
		dir := f.project
		if err := f.parseNoArgs(args); err != nil {
			return err
		}
		return c.withAccounts(*dir, func(acc *accounts.Service) error {
			as, err := acc.List(ctx)
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(c.Stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "account\trole\tstate\tratings\tchanged\tlast sign-in")
			for _, a := range as {
				state := "active"
				switch {
				case a.Disabled:
					state = "disabled"
				case a.LinkPending:
					state = "sign-in link pending"
				}
				last := "never"
				if !a.LastSignIn.IsZero() {
					last = a.LastSignIn.Local().Format(time.DateTime)
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\n", a.Name, a.Role, state, a.Ratings, a.UpdatedAt.Local().Format(time.DateTime), last)
			}
			return tw.Flush()
		})
	case "add", "reset":
		f := c.newFlags("accounts " + sub)
		dir := f.project
		var role *string
		if sub == "add" {
			role = f.String("role", "curator", "curator, approver or admin")
		}
		stdin := f.Bool("password-stdin", false, "read the password from the first line of standard input instead of generating one")
		base := f.String("url", "http://127.0.0.1:7777", "address the team server is reached at, for the sign-in link")
		rest, err := f.parse(args)
		if err != nil {
			return err
		}
		if len(rest) != 1 {
			return usageError{"accounts " + sub + ": give one NAME"}
		}
		var r project.Role
		if role != nil {
			if r, err = project.ParseRole(*role); err != nil {
				return usageError{"accounts add: " + err.Error()}
			}
		}
		pw := ""
		if *stdin {
			if pw, err = c.readPassword("accounts " + sub); err != nil {
				return err
			}
		}
		return c.withAccounts(*dir, func(acc *accounts.Service) error {
			var g accounts.Granted
			if sub == "add" {
				g, err = acc.Add(ctx, rest[0], r, pw)
			} else {
				g, err = acc.Reset(ctx, rest[0], pw)
			}
			if err != nil {
				return err
			}
			verb := "added"
			if sub == "reset" {
				verb = "has a new password"
			}
			fmt.Fprintf(c.Stdout, "account %s (%s) %s\n", g.Account.Name, g.Account.Role, verb)
			if g.Password != "" {
				fmt.Fprintf(c.Stdout, "password: %s\n", g.Password)
			}
			fmt.Fprintf(c.Stdout, "sign-in link, once, until %s: %s/?signin=%s\n",
				g.LinkExpires.Local().Format(time.DateTime), strings.TrimRight(*base, "/"), g.LinkToken)
			return nil
		})
	case "disable", "enable", "role":
		f := c.newFlags("accounts " + sub)
		dir := f.project
		rest, err := f.parse(args)
		if err != nil {
			return err
		}
		want := 1
		if sub == "role" {
			want = 2
		}
		if len(rest) != want {
			if sub == "role" {
				return usageError{"accounts role: give NAME and ROLE"}
			}
			return usageError{"accounts " + sub + ": give one NAME"}
		}
		return c.withAccounts(*dir, func(acc *accounts.Service) error {
			var a accounts.Account
			switch sub {
			case "disable":
				if a, err = acc.Disable(ctx, rest[0]); err != nil {
					return err
				}
				fmt.Fprintf(c.Stdout, "account %s disabled; its ratings and decisions stay\n", a.Name)
				return nil
			case "enable":
				if a, err = acc.Enable(ctx, rest[0]); err != nil {
					return err
				}
				fmt.Fprintf(c.Stdout, "account %s enabled: it signs in with its password\n", a.Name)
				return nil
			}
			r, err := project.ParseRole(rest[1])
			if err != nil {
				return usageError{"accounts role: " + err.Error()}
			}
			if a, err = acc.SetRole(ctx, rest[0], r); err != nil {
				return err
			}
			fmt.Fprintf(c.Stdout, "account %s is now %s\n", a.Name, a.Role)
			return nil
		})
	}
	return usageError{fmt.Sprintf("accounts: unknown subcommand %q (want list, add, disable, enable, reset or role)", sub)}
}

func (c CLI) audit(ctx context.Context, args []string) error {
	f := c.newFlags("audit")
	dir := f.project
	since := f.String("since", "", "rows at or after this date (2026-03-01) or time (RFC 3339)")
	librarian := f.String("librarian", "", "rows of this librarian only")
	site := f.String("site", "", "rows of this site only")
	limit := f.Int("limit", review.DefaultAuditLimit, fmt.Sprintf("rows at most, the newest (1..%d)", review.MaxAuditLimit))
	format := f.String("format", "table", "table or json")
	if err := f.parseNoArgs(args); err != nil {
		return err
	}
	if *format != "table" && *format != "json" {
		return usageError{fmt.Sprintf("audit: --format %q: want table or json", *format)}
	}
	q := review.AuditQuery{Librarian: *librarian, Site: *site, Limit: *limit}
	if *since != "" {
		t, err := time.Parse(time.DateOnly, *since)
		if err != nil {
			if t, err = time.Parse(time.RFC3339, *since); err != nil {
				return usageError{fmt.Sprintf("audit: --since %q is neither a date (2026-03-01) nor an RFC 3339 time", *since)}
			}
		}
		q.Since = t
	}
	return c.readProject(*dir, func(a *app.App) error {
		rows, err := a.Review.AuditLog(ctx, q)
		if err != nil {
			return err
		}
		if *format == "json" {
			enc := json.NewEncoder(c.Stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(rows)
		}
		tw := tabwriter.NewWriter(c.Stdout, 0, 4, 2, ' ', 0)
		// The table says what each row records in words; --format json
		// gives the states before and after as they are stored.
		fmt.Fprintln(tw, "when\twho\taddress\taction\tsite\twhat")
		for _, r := range rows {
			who := r.Librarian
			if who == "" {
				who = "-"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.At.Local().Format(time.DateTime), who, dash(r.Address), r.Action,
				dash(r.Site), dash(r.Summary))
		}
		return tw.Flush()
	})
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
