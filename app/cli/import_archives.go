package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strings"
	"time"

	"sitesift/app"
	"sitesift/app/imports"
	"sitesift/app/project"
	"sitesift/sites"
)

// listFlag is a flag that may be repeated; each value is appended. With
// split, a value is also split at commas (host suffixes, not paths).
type listFlag struct {
	list  *[]string
	split bool
	last  **listFlag
}

func (l *listFlag) String() string {
	if l == nil || l.list == nil {
		return ""
	}
	return strings.Join(*l.list, ",")
}

func (l *listFlag) Set(v string) error {
	if l.split {
		for _, s := range strings.Split(v, ",") {
			if s = strings.TrimSpace(s); s != "" {
				*l.list = append(*l.list, s)
			}
		}
	} else {
		*l.list = append(*l.list, v)
	}
	*l.last = l
	return nil
}

// archiveArgs are the archive flags of import.
type archiveArgs struct {
	req  imports.ArchiveImportRequest
	last *listFlag // the last file flag given, which takes the arguments after it
}

func archiveFlags(f flags) *archiveArgs {
	a := &archiveArgs{}
	for _, d := range []struct {
		name, usage string
		list        *[]string
		split       bool
	}{
		{"warc", "WARC or ARC file (.warc, .warc.gz, .arc, .arc.gz: WARC 0.17/1.0/1.1, ARC v1; plain, gzip per record or whole; the near-misses warcio reads are read and warned of) or directory of them; repeat the flag or list files after it", &a.req.WARC, false},
		{"cdx", "CDX (11-column) or CDXJ index: what the archive holds per site", &a.req.CDX, false},
		{"crawl-log", "Heritrix crawl.log: the page graph of a crawl (each line's via → URL)", &a.req.CrawlLog, false},
		{"cc-vertices", "Common Crawl host graph vertices file(s): id<TAB>reversed host, gzip", &a.req.CCVertices, false},
		{"cc-edges", "Common Crawl host graph edges file(s): from<TAB>to, gzip", &a.req.CCEdges, false},
		{"cc-ranks", "Common Crawl host ranks file(s): harmonic centrality and PageRank kept beside sitesift's", &a.req.CCRanks, false},
		{"tld", "Common Crawl slice: keep the hosts under these TLDs (fr,be)", &a.req.TLDs, true},
		{"host-suffix", "Common Crawl slice: keep the hosts ending with these names (bnf.fr,gouv.fr)", &a.req.HostSuffixes, true},
	} {
		f.Var(&listFlag{list: d.list, split: d.split, last: &a.last}, d.name, d.usage)
	}
	return a
}

// parse parses args; an argument that is no flag is one more file of the
// file flag before it, so that a shell's "--warc *.warc.gz" works.
func (a *archiveArgs) parse(f flags, args []string) error {
	for {
		if err := f.Parse(args); err != nil {
			return err
		}
		args = f.Args()
		if len(args) == 0 {
			return nil
		}
		if a.last == nil || a.last.split {
			return usageError{fmt.Sprintf("%s: unexpected argument %q", f.Name(), args[0])}
		}
		*a.last.list = append(*a.last.list, args[0])
		args = args[1:]
	}
}

func (a *archiveArgs) empty() bool {
	r := a.req
	return len(r.WARC)+len(r.CDX)+len(r.CrawlLog)+len(r.CCVertices)+len(r.CCEdges)+len(r.CCRanks)+
		len(r.TLDs)+len(r.HostSuffixes) == 0
}

// importArchives runs an archive import into the project in dir, created
// when missing (with --site-rule when given).
func (c CLI) importArchives(ctx context.Context, dir string, rule *string, f flags, req imports.ArchiveImportRequest) error {
	if _, err := sites.ParseRule(*rule); err != nil {
		return usageError{"import: " + err.Error()}
	}
	var update project.SettingsUpdate
	f.Visit(func(fl *flag.Flag) {
		if fl.Name == "site-rule" {
			update.SiteRule = rule
		}
	})
	// A bad path is refused before a new project is created for it.
	if err := imports.CheckArchiveRequest(req); err != nil {
		return err
	}
	start := time.Now()
	// The import ranks the whole graph, the ranking a killed import left
	// unfinished included: computing that one at the open would be done
	// twice.
	return c.held(dir, true, false, func(a *app.App, p *project.Project) error {
		if _, err := a.Ranking.SetSettings(ctx, update); err != nil {
			return err
		}
		line := newStatusLine(c.Stderr, 3*time.Second)
		res, err := a.Imports.ImportArchives(ctx, req, func(pr imports.ImportProgress) {
			final := pr.FilesDone == pr.Files && pr.Phase != "read" && pr.Phase != "digest"
			if !line.due(final) {
				return
			}
			pct := 0.0
			if pr.BytesTotal > 0 {
				pct = 100 * float64(pr.BytesDone) / float64(pr.BytesTotal)
			}
			what := pr.Phase
			if pr.File != "" {
				what += " " + pr.File
			}
			line.show(fmt.Sprintf("[%5.1f%%] file %d/%d  %s", pct, min(pr.FilesDone+1, pr.Files), pr.Files, what))
		})
		line.done()
		for _, r := range res.Files {
			sum, _ := json.Marshal(r.Summary)
			if r.Skipped {
				fmt.Fprintf(c.Stdout, "%s %s: imported before (as %s), skipped\n", r.Kind, r.Path, r.Previous)
				continue
			}
			fmt.Fprintf(c.Stdout, "%s %s: %s\n", r.Kind, r.Path, sum)
			if w, ok := r.Summary.(imports.WARCSummary); ok && w.PagesWritten > 0 {
				// The project's and a site's page counts are the pages
				// fetched fine: the words say why they differ from this one.
				fmt.Fprintf(c.Stdout, "%s %s: %d written: %d pages, %d redirects, %d error captures (4xx, 5xx)\n",
					r.Kind, r.Path, w.PagesWritten, w.WrittenOK, w.WrittenRedirects, w.WrittenErrors)
			}
			if w, ok := r.Summary.(imports.WARCSummary); ok && w.Warnings > 0 {
				fmt.Fprintf(c.Stdout, "%s %s: warning: %s\n", r.Kind, r.Path, warcWarnings(w))
			}
			for _, w := range r.Warnings {
				fmt.Fprintf(c.Stderr, "warning: %s: %s\n", r.Path, w)
			}
		}
		if err != nil {
			if len(res.Files) > 0 {
				if len(res.Files) == 1 {
					fmt.Fprintln(c.Stdout, "the file above is kept")
				} else {
					fmt.Fprintf(c.Stdout, "the %d files above are kept\n", len(res.Files))
				}
			}
			return err
		}
		fmt.Fprintf(c.Stdout, "import into %s: %d files; PageRank and OPIC (%d greedy reads) computed; %d pages indexed; %.1fs\n",
			p.Dir, len(res.Files), res.OPICReads, res.Indexed, time.Since(start).Seconds())
		return nil
	})
}

// warcWarnings says in words which breaches of the WARC standard an
// import read past, and how often.
func warcWarnings(w imports.WARCSummary) string {
	plural := func(n int, one, many string) string {
		if n == 1 {
			return "1 " + one
		}
		return fmt.Sprintf("%d %s", n, many)
	}
	var parts []string
	for _, c := range []struct {
		n         int
		one, many string
	}{
		{w.WarnBracketedURIs, "target URI in angle brackets", "target URIs in angle brackets"},
		{w.WarnContentLength, "Content-Length off, the record's end found at the next record", "Content-Lengths off, the records' ends found at the next record"},
		{w.WarnCRCRLF, "header with CR CR LF line ends", "headers with CR CR LF line ends"},
		{w.WarnLowerCaseVersion, "lower-case warc/ version line", "lower-case warc/ version lines"},
		{w.WarnFoldedHeaders, "header with folded (continued) lines", "headers with folded (continued) lines"},
		{w.WarnSpaceInURIs, "target URI with white space", "target URIs with white space"},
	} {
		if c.n > 0 {
			parts = append(parts, plural(c.n, c.one, c.many))
		}
	}
	what := fmt.Sprintf("%d records read although they break", w.Warnings)
	if w.Warnings == 1 {
		what = "1 record read although it breaks"
	}
	return what + " the WARC standard: " + strings.Join(parts, "; ")
}
