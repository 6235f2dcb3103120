package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"sitesift/app"
	"sitesift/app/exports"
	"sitesift/sites/wholefile"
)

// Export kinds of `sitesift export --what` for the big crawlers.
const (
	// ExportBrowsertrix is a browsertrix-crawler configuration (YAML) of
	// the approved selection.
	ExportBrowsertrix = "browsertrix"
	// ExportHeritrixCrawl is a Heritrix seeds file of the approved
	// selection and the precedence file of the ranking, into a directory.
	ExportHeritrixCrawl = "heritrix"
	// ExportCollection is a saved collection's seed list (--name), as
	// librarians edited it.
	ExportCollection = "collection"
)

// exportCrawler writes the approved selection for a big crawler: with
// browsertrix a YAML file (--out FILE, --out DIR under its own name, or
// standard output); with heritrix seeds.txt and precedence.txt into --out
// DIR, created when missing. Files are written whole or not at all.
func (c CLI) exportCrawler(ctx context.Context, dir, what, out string, buckets int) error {
	if what == ExportHeritrixCrawl && out == "" {
		return usageError{"export: --what heritrix writes seeds.txt and precedence.txt: --out DIR is required"}
	}
	if buckets <= 0 {
		return usageError{fmt.Sprintf("export: --buckets %d must be positive", buckets)}
	}
	files := map[string]*bytes.Buffer{}
	var none error // the seeds are none: written all the same, exit 3
	// It only reads: beside the desktop window or serve as on a free
	// project.
	err := c.readProject(dir, func(a *app.App) error {
		e, err := a.Exports.CrawlerExport(ctx)
		if err != nil {
			return err
		}
		if t := exports.LeftOutText(e.LeftOut); t != "" && e.Empty == "" {
			fmt.Fprintf(c.Stderr, "sitesift: export %s: seeds %s\n", what, t)
		}
		none = emptied("export "+what, e.Empty)
		if what == ExportBrowsertrix {
			var b bytes.Buffer
			path, err := outPath(out, a.Exports, exports.ExportRequest{What: what})
			if err != nil {
				return err
			}
			files[path] = &b
			return exports.WriteBrowsertrixConfig(&b, e)
		}
		var seeds, prec bytes.Buffer
		if err := exports.WriteHeritrixSeeds(&seeds, e); err != nil {
			return err
		}
		ps, left, err := a.Exports.HeritrixPrecedence(ctx, buckets, false, false, false)
		if err != nil {
			return err
		}
		if t := exports.LeftOutText(left); t != "" {
			fmt.Fprintf(c.Stderr, "sitesift: export %s: precedence.txt %s\n", what, t)
		}
		if err := exports.WriteHeritrixPrecedence(&prec, ps); err != nil {
			return err
		}
		files[filepath.Join(out, "seeds.txt")] = &seeds
		files[filepath.Join(out, "precedence.txt")] = &prec
		return nil
	})
	if err != nil {
		return err
	}
	if what == ExportBrowsertrix && out == "" {
		if _, err := c.Stdout.Write(files[""].Bytes()); err != nil {
			return err
		}
		return none
	}
	if what == ExportHeritrixCrawl {
		if err := os.MkdirAll(out, 0o755); err != nil {
			return fmt.Errorf("export: %w", err)
		}
	}
	for path, b := range files {
		if err := writeFileWhole(path, b.Bytes()); err != nil {
			return err
		}
		fmt.Fprintf(c.Stderr, "export: wrote %s\n", path)
	}
	return none
}

// outPath is where an export of r goes with --out out: out itself, or,
// when out is a directory (or ends with a separator), the deliverable's
// own file name inside it; "" (standard output) stays "".
func outPath(out string, s *exports.Service, r exports.ExportRequest) (string, error) {
	if out == "" || !isDirArg(out) {
		return out, nil
	}
	name, err := s.ExportName(r)
	if err != nil {
		return "", err
	}
	return filepath.Join(out, name), nil
}

// isDirArg reports whether the --out argument out names a directory: one
// that exists, or a path ending with a separator.
func isDirArg(out string) bool {
	if strings.HasSuffix(out, string(os.PathSeparator)) {
		return true
	}
	st, err := os.Stat(out)
	return err == nil && st.IsDir()
}

// writeFileWhole writes data to path whole or not at all (see
// [wholefile.WriteFile]).
func writeFileWhole(path string, data []byte) error {
	if err := wholefile.WriteFile(path, data); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
}

// exportWACZ writes the project's crawl as a WACZ file into out (a file,
// or a directory to write PROJECT-crawl.wacz in), whole or not at all, and
// says on standard error what it packaged and what it left out.
func (c CLI) exportWACZ(ctx context.Context, dir, out, format string, set map[string]bool) error {
	for _, name := range []string{"format", "count", "include-failed", "include-rejected", "include-platforms", "buckets"} {
		if set[name] {
			return usageError{"export: --what wacz takes no --" + name}
		}
	}
	if format != "" {
		return usageError{"export: --what wacz has no --format"}
	}
	if out == "" {
		return usageError{"export: --what wacz writes a ZIP file: --out FILE or DIR is required"}
	}
	return c.readProject(dir, func(a *app.App) error {
		path, info, err := a.Exports.WriteWACZ(ctx, out)
		if err != nil {
			return err
		}
		fmt.Fprintf(c.Stderr, "wrote %s: %d captures from %d WARC file(s) of %d bytes, %d pages\n", path, info.Captures, info.WARCs, info.Bytes, info.Pages)
		if info.Note != "" {
			fmt.Fprintf(c.Stderr, "sitesift: export wacz: %s\n", info.Note)
		}
		return nil
	})
}
