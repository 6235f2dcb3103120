package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"reflect"
	"strings"
)

// The help is written from the command table: the synopsis and summary of
// each command, and the flags as its flag set defines them.

// help is `sitesift help [COMMAND [SUBCOMMAND]]`.
func (c CLI) help(_ context.Context, args []string) error {
	args, err := c.newFlags("help").parse(args)
	if err != nil {
		return err
	}
	if len(args) == 0 {
		fmt.Fprint(c.Stdout, overview())
		return nil
	}
	name := strings.Join(args, " ")
	if cmd := lookup(name); cmd == nil || name == "" {
		return usageError{fmt.Sprintf("help: unknown command %q (run sitesift help)", name)}
	}
	if err := c.commandHelp(name); err != nil {
		return err
	}
	if name == "export" {
		fmt.Fprintln(c.Stdout)
		c.exportHelp()
	}
	return nil
}

// commandHelp prints the help of the command name; the desktop window's
// ("") is the overview.
func (c CLI) commandHelp(name string) error {
	if name == "" {
		_, err := fmt.Fprint(c.Stdout, overview())
		return err
	}
	h, err := commandText(lookup(name))
	if err != nil {
		return err
	}
	_, err = fmt.Fprint(c.Stdout, h)
	return err
}

const title = "sitesift — choose the web sites worth archiving"

// overview is `sitesift help`: every command's synopsis and summary.
func overview() string {
	var b strings.Builder
	b.WriteString(title + "\n\nUsage:\n")
	for _, cmd := range commands {
		for _, c := range withSubs(cmd) {
			for _, u := range c.usage {
				fmt.Fprintf(&b, "  %s\n", synopsis(c.name, u, "  "))
			}
			if c.summary != "" && len(c.usage) > 0 {
				fmt.Fprintf(&b, "        %s\n", c.summary)
			}
		}
	}
	b.WriteString("\nRun 'sitesift help COMMAND' or 'sitesift COMMAND --help' for a command's flags.\n")
	return b.String()
}

// withSubs is cmd and its subcommands, or its subcommands alone when it
// has them.
func withSubs(cmd command) []command {
	if len(cmd.subs) > 0 {
		return cmd.subs
	}
	return []command{cmd}
}

// synopsis is a usage line after "sitesift ", its continuation lines
// indented under the command's first argument, and by indent more.
func synopsis(name, u, indent string) string {
	under := strings.Repeat(" ", len("sitesift "+name+" "))
	return "sitesift " + strings.ReplaceAll(u, "\n", "\n"+indent+under)
}

// commandText is the help of one command: of each of its subcommands when
// it has them.
func commandText(cmd *command) (string, error) {
	var b strings.Builder
	if len(cmd.subs) > 0 {
		fmt.Fprintf(&b, "sitesift %s — %s\n", cmd.name, cmd.summary)
		for _, sub := range cmd.subs {
			h, err := commandText(&sub)
			if err != nil {
				return "", err
			}
			b.WriteString("\n" + h)
		}
		return b.String(), nil
	}
	fs, err := describe(cmd.name)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(&b, "sitesift %s — %s\n\nUsage:\n", cmd.name, cmd.summary)
	for _, u := range cmd.usage {
		fmt.Fprintf(&b, "  %s\n", synopsis(cmd.name, u, "  "))
	}
	if cmd.notes != "" {
		fmt.Fprintf(&b, "\n%s\n", wrap(cmd.notes, "  ", 100))
	}
	if fl := flagList(fs); len(fl) > 0 {
		b.WriteString("\nFlags:\n")
		for _, f := range fl {
			fmt.Fprintf(&b, "  --%s", f.Name)
			if f.arg != "" {
				b.WriteString(" " + f.arg)
			}
			fmt.Fprintf(&b, "\n%s", wrap(f.usage, "        ", 100))
			if f.def != "" {
				fmt.Fprintf(&b, " (default %s)", f.def)
			}
			b.WriteString("\n")
		}
	}
	return b.String(), nil
}

// describe runs the command name until it parses its flags and returns
// its flag set. A command declares its flags, then parses them before it
// does anything; one that does not is an error here, which the tests of
// the help catch.
func describe(name string) (*flag.FlagSet, error) {
	top, sub, _ := strings.Cut(name, " ")
	parent := lookup(top)
	var args []string
	if sub != "" {
		args = []string{sub}
	}
	var got flags
	var out strings.Builder
	c := CLI{Stdout: &out, Stderr: &out, describing: &got, cmd: top}
	err := parent.run(c, context.Background(), args)
	if !errors.Is(err, errDescribed) || got.cmd != name {
		return nil, fmt.Errorf("help of sitesift %s: the command did not stop at its flags' parse (it returned %v)", name, err)
	}
	if out.Len() > 0 {
		return nil, fmt.Errorf("help of sitesift %s: the command wrote %q before it parsed its flags", name, out.String())
	}
	return got.FlagSet, nil
}

// flagHelp is one flag as the help shows it.
type flagHelp struct {
	*flag.Flag
	// arg names its value ("" for a boolean flag); usage is its help
	// without the backquotes that name arg (flag.UnquoteUsage).
	arg, usage string
	// def is its default, "" when it is the zero value.
	def string
}

// flagList is the flags of fs, sorted by name, as flag.PrintDefaults
// would show them.
func flagList(fs *flag.FlagSet) []flagHelp {
	var list []flagHelp
	fs.VisitAll(func(f *flag.Flag) {
		arg, usage := flag.UnquoteUsage(f)
		h := flagHelp{Flag: f, arg: arg, usage: usage}
		if !isZeroValue(f) {
			h.def = f.DefValue
			if reflect.TypeOf(f.Value).String() == "*flag.stringValue" {
				h.def = fmt.Sprintf("%q", f.DefValue)
			}
		}
		list = append(list, h)
	})
	return list
}

// isZeroValue reports whether f's default is its type's zero value, which
// the help leaves unsaid, as flag.PrintDefaults does.
func isZeroValue(f *flag.Flag) (zero bool) {
	// A zero Value of some types cannot say itself: as flag.PrintDefaults,
	// show their default.
	defer func() {
		if recover() != nil {
			zero = false
		}
	}()
	t := reflect.TypeOf(f.Value)
	var z reflect.Value
	if t.Kind() == reflect.Pointer {
		z = reflect.New(t.Elem())
	} else {
		z = reflect.Zero(t)
	}
	v, ok := z.Interface().(flag.Value)
	if !ok {
		return f.DefValue == ""
	}
	return f.DefValue == v.String()
}

// wrap breaks text into lines of at most width columns, each starting with
// indent.
func wrap(text, indent string, width int) string {
	var b strings.Builder
	line := indent
	for _, w := range strings.Fields(text) {
		if line != indent && len(line)+1+len(w) > width {
			b.WriteString(line + "\n")
			line = indent
		}
		if line != indent {
			line += " "
		}
		line += w
	}
	b.WriteString(line)
	return b.String()
}
