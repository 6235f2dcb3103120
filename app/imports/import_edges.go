package imports

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"sitesift/app/fault"
	"sitesift/app/project"
	"sitesift/app/ranking"
	"sitesift/sites/edgelist"
	"sitesift/sites/store"
)

// EdgeImportRequest names an edge list on the server (an uploaded one
// included) to import into the project's site graph. Strict refuses the
// file whole when a line of it is bad; by default bad lines are skipped,
// counted and the first of them named.
type EdgeImportRequest struct {
	Path   string `json:"path"`
	Strict bool   `json:"strict,omitempty"`
}

// EdgeListRead is what the reading of an edge list said of the file.
type EdgeListRead struct {
	// Format is the layout the file was recognised as: "edge list",
	// "domain-graph CSV (Archives Unleashed Toolkit, ARCH)", "GraphML" or
	// "GEXF".
	Format string `json:"format"`
	// IDs says the nodes are integer ids, not host names; IDsUnnamed
	// counts the ids up to the largest that no line names, left out when
	// IDsUnnamedLeftOut, nodes without links otherwise.
	IDs               bool `json:"ids"`
	IDsUnnamed        int  `json:"ids_unnamed"`
	IDsUnnamedLeftOut bool `json:"ids_unnamed_left_out"`
	// SkippedLines counts the bad lines left out; SkippedFirst names the
	// first edgelist.MaxReported of them by line number, and SkippedWhy
	// counts them by what is wrong with them, the commonest first.
	SkippedLines int            `json:"skipped_lines"`
	SkippedFirst []EdgeListLine `json:"skipped_first"`
	SkippedWhy   []EdgeListWhy  `json:"skipped_why"`
}

// EdgeListLine is one bad line of an edge list: its number (from 1) and
// what is wrong with it.
type EdgeListLine struct {
	Line  int    `json:"line"`
	Error string `json:"error"`
}

// EdgeListWhy is how many bad lines of an edge list one thing is wrong
// with.
type EdgeListWhy struct {
	Why   string `json:"why"`
	Lines int    `json:"lines"`
}

// edgeListRead is the wire form of a reading's summary.
func edgeListRead(s edgelist.Summary) EdgeListRead {
	r := EdgeListRead{Format: s.Format, IDs: s.IDs, IDsUnnamed: s.Unnamed, IDsUnnamedLeftOut: s.UnnamedLeftOut,
		SkippedLines: s.Skipped, SkippedFirst: edgeListLines(s.SkippedLines), SkippedWhy: []EdgeListWhy{}}
	for _, w := range s.Reasons() {
		r.SkippedWhy = append(r.SkippedWhy, EdgeListWhy{Why: w.Why, Lines: w.Lines})
	}
	return r
}

func edgeListLines(ls []edgelist.LineError) []EdgeListLine {
	out := make([]EdgeListLine, len(ls))
	for i, l := range ls {
		out[i] = EdgeListLine{Line: l.Line, Error: l.Msg}
	}
	return out
}

// EdgeListRefusal is the data of a refused edge list: its bad lines by
// number (the first edgelist.MaxReported) and how many there were; none
// when the file as a whole was refused (no edges).
type EdgeListRefusal struct {
	BadLines []EdgeListLine `json:"bad_lines"`
	TotalBad int            `json:"total_bad"`
}

// edgeListError refuses an edge list, carrying its bad lines for the API.
type edgeListError struct{ pe *edgelist.ParseError }

func (e *edgeListError) Error() string { return e.pe.Error() }
func (e *edgeListError) Unwrap() error { return e.pe }

// Details lists the bad lines of the file refused.
func (e *edgeListError) Details() any {
	return EdgeListRefusal{BadLines: edgeListLines(e.pe.Lines), TotalBad: e.pe.Total}
}

// ImportEdgesAs reads the edge list req names, by the project's site rule,
// and imports it with [Service.ImportEdgeList], as `import --edges` does:
// bad lines skipped, counted and named, or with req.Strict the file
// refused whole at its first bad line, nothing imported. A file refused
// is a bad request whose error names its bad lines (and carries them as
// [EdgeListRefusal]), as is a missing or unreadable file. An import or a
// crawl running is a conflict. On a team server an admin alone imports,
// and only files in the import folder or uploaded into the project; the
// import is written to the audit log.
func (s *Service) ImportEdgesAs(ctx context.Context, req EdgeImportRequest) (ImportResult, error) {
	path := strings.TrimSpace(req.Path)
	if _, team := project.IdentityFrom(ctx); team {
		if err := project.Require(ctx, project.RoleAdmin, "import an edge list"); err != nil {
			return ImportResult{}, err
		}
		if err := s.checkImportPath(path); err != nil {
			return ImportResult{}, err
		}
	}
	if path == "" {
		return ImportResult{}, fault.Invalid(errors.New("import: no edge list given"))
	}
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return ImportResult{}, fault.Invalid(fmt.Errorf("import: edge list %s: %w", path, unwrapPathError(err)))
	case !fi.Mode().IsRegular():
		return ImportResult{}, fault.Invalid(fmt.Errorf("import: edge list %s is not a regular file", path))
	}
	if s.Running() {
		return ImportResult{}, fault.Conflict(errors.New("import: an import is running; wait for it or cancel it"))
	}
	if s.crawling != nil && s.crawling() {
		return ImportResult{}, fault.Conflict(errors.New("import: a crawl is running; stop it or wait for its end"))
	}
	g, err := ranking.ReadEdgeListOptions(path, edgelist.Options{Rule: s.store.SiteRule(), Strict: req.Strict})
	if pe := (*edgelist.ParseError)(nil); errors.As(err, &pe) {
		return ImportResult{}, fault.Invalid(&edgeListError{pe})
	}
	if err != nil {
		// What cannot be read of a file someone chose (a gzip stream
		// cut short, a file that is no text) is that file's fault.
		return ImportResult{}, fault.Invalid(err)
	}
	res, err := s.ImportEdgeList(ctx, path, g)
	if err != nil {
		return res, err
	}
	return res, s.project.Audit(ctx, "", store.AuditImport, "", nil, req)
}
