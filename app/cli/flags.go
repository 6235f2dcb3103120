package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// flags is a command's flag set, with flags and arguments in any order.
// The command table declares --project on it for the commands that take a
// project (see command.project); the command declares its other flags.
type flags struct {
	*flag.FlagSet
	c CLI
	// cmd is the command's name in the table ("crawl", "collections list").
	cmd string
	// project is the value of --project, nil for a command without one.
	project *string
}

// errDescribed ends a command run only to learn its flags: its flags are
// declared, and parsing them is where it stops (see describe).
var errDescribed = errors.New("flags described")

// newFlags makes the flag set of the command named name in the table, with
// --project declared as the table says. A command run to be described
// (CLI.describing) stops at its first Parse, before it does anything.
func (c CLI) newFlags(name string) flags {
	cmd := lookup(name)
	if cmd == nil {
		panic(fmt.Sprintf("cli: command %q is not in the command table", name))
	}
	fs := flag.NewFlagSet("sitesift "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f := flags{FlagSet: fs, c: c, cmd: name}
	if p := cmd.project; p != nil {
		f.project = fs.String("project", p.dir(), p.usage)
	}
	if c.describing != nil {
		*c.describing = f
	}
	return f
}

// Parse parses args with the flag set. `--help` prints the command's help
// (exit status 0) and a bad flag is a usage mistake. A command being
// described stops here.
func (f flags) Parse(args []string) error {
	if f.c.describing != nil {
		return errDescribed
	}
	err := f.FlagSet.Parse(args)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		if herr := f.c.commandHelp(f.cmd); herr != nil {
			return herr
		}
		return err
	}
	return usageError{fmt.Sprintf("%s: %v", f.Name(), err)}
}

// parse parses flags anywhere among the arguments and returns the others.
func (f flags) parse(args []string) ([]string, error) {
	var rest []string
	for {
		if err := f.Parse(args); err != nil {
			return nil, err
		}
		args = f.Args()
		if len(args) == 0 {
			return rest, nil
		}
		if args[0] == "--" {
			return append(rest, args[1:]...), nil
		}
		rest, args = append(rest, args[0]), args[1:]
	}
}

// parseNoArgs parses flags and refuses any other argument.
func (f flags) parseNoArgs(args []string) error {
	rest, err := f.parse(args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usageError{fmt.Sprintf("%s: unexpected argument %q", f.Name(), rest[0])}
	}
	return nil
}
