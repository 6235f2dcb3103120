package cli

import (
	"context"
	"fmt"
	"os"
)

// backup writes a copy of the project's database, beside the process that
// holds the project if one does (serve, a crawl, the window).
func (c CLI) backup(ctx context.Context, args []string) error {
	f := c.newFlags("backup")
	dir := f.project
	force := f.Bool("force", false, "replace FILE if it exists")
	rest, err := f.parse(args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return usageError{"backup: give one FILE"}
	}
	a, p, err := c.open(*dir, false, true)
	if err != nil {
		return err
	}
	defer p.Close()
	defer a.Close()
	if err := p.Backup(ctx, rest[0], *force); err != nil {
		return err
	}
	size := ""
	if fi, err := os.Stat(rest[0]); err == nil {
		size = fmt.Sprintf(" (%d bytes)", fi.Size())
	}
	fmt.Fprintf(c.Stdout, "backup of %s written to %s%s\n", p.Dir, rest[0], size)
	return nil
}
