package review

import (
	"bufio"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"sitesift/app/export"
	"sitesift/app/fault"
	"sitesift/app/project"
	"sitesift/sites"
	"sitesift/sites/store"
	"sitesift/sites/textlines"
)

// RatingsColumns are the columns of a ratings file, in the order
// WriteRatings writes them. A file read by ParseRatings has a header naming
// librarian, site and rating, and note or not, in any order.
var RatingsColumns = []string{"librarian", "site", "rating", "note"}

// MaxBadLines is the number of bad lines a refused ratings file reports
// one by one; the total is always given.
const MaxBadLines = 100

// BadLine is one refused line of a ratings file.
type BadLine struct {
	Line  int    `json:"line"`
	Error string `json:"error"`
}

// RatingsFileError refuses a ratings file: it lists the bad lines, at most
// MaxBadLines of them in line order, and counts them all.
type RatingsFileError struct {
	// Name is the file's name, for messages.
	Name  string
	Lines []BadLine
	Total int
}

func (e *RatingsFileError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "ratings %s refused, nothing imported: %d bad line", e.Name, e.Total)
	if e.Total != 1 {
		b.WriteString("s")
	}
	const shown = 3
	for i, l := range e.Lines[:min(shown, len(e.Lines))] {
		sep := "; "
		if i == 0 {
			sep = ": "
		}
		fmt.Fprintf(&b, "%sline %d: %s", sep, l.Line, l.Error)
	}
	if e.Total > shown {
		fmt.Fprintf(&b, "; and %d more", e.Total-shown)
	}
	return b.String()
}

// Details is what the API adds to its error envelope: every bad line
// reported and their total.
func (e *RatingsFileError) Details() any {
	return RatingsRefusal{BadLines: e.Lines, TotalBad: e.Total}
}

// RatingsRefusal is the data of a refused ratings file: its bad lines,
// or the librarians it names that the project does not have.
type RatingsRefusal struct {
	BadLines []BadLine `json:"bad_lines"`
	TotalBad int       `json:"total_bad"`
	// NewLibrarians are the names of the file that no librarian profile
	// has, when they were not to be created.
	NewLibrarians []string `json:"new_librarians,omitempty"`
}

// NewLibrariansError refuses a ratings file naming librarians the project
// does not have, when the import was not told to create them: a
// colleague's file may spell a name differently, and a profile made of a
// typo would split one librarian's ratings in two.
type NewLibrariansError struct {
	Name  string
	Names []string
}

func (e *NewLibrariansError) Error() string {
	return fmt.Sprintf("ratings %s refused, nothing imported: it names librarians this project does not have: %s; import it again allowing new librarians to add them, or correct the names",
		e.Name, strings.Join(e.Names, ", "))
}

// Details gives the new names, for the page to list them.
func (e *NewLibrariansError) Details() any {
	return RatingsRefusal{BadLines: []BadLine{}, NewLibrarians: e.Names}
}

// badLines collects the bad lines of a file.
type badLines struct{ e RatingsFileError }

func (b *badLines) add(line int, format string, args ...any) {
	b.e.Total++
	if len(b.e.Lines) < MaxBadLines {
		b.e.Lines = append(b.e.Lines, BadLine{Line: line, Error: fmt.Sprintf(format, args...)})
	}
}

func (b *badLines) err(name string) error {
	if b.e.Total == 0 {
		return nil
	}
	e := b.e
	e.Name = name
	slices.SortStableFunc(e.Lines, func(x, y BadLine) int { return x.Line - y.Line })
	return &e
}

// RatingLine is a rating read from a ratings file, with its line number.
type RatingLine struct {
	store.Rating
	Line int
}

// ParseRatings reads a ratings file: CSV with a header line naming the
// columns librarian, site, rating and (optionally) note, then one rating a
// line. Cells are trimmed of surrounding spaces, except the note; site
// names take the form the site rule gives them (sites.Name: lower case,
// IDNA's ASCII form, no default port); blank lines are skipped; a UTF-8
// byte-order mark (as spreadsheets write) is ignored; the single quote that
// sitesift's CSV files put before a cell starting with =, +, -, @, a tab or
// a CR, so that spreadsheets do not take it for a formula, is removed
// (see csvCell), so an exported ratings file reads back as it was. A
// missing or bad header, an unknown or repeated column, a line of the wrong
// number of cells, a rating that is not 1–4 (an empty rating with a note is
// a note kept without a rating), an empty or bad librarian, an
// empty site, an over-long note or text that is not UTF-8, and a second
// different rating of a site by one librarian are all bad lines: the file
// is refused with a [*RatingsFileError] naming every one (a CSV syntax
// error, such as an unclosed quote, may hide the lines after it); the good
// lines come back with that error. Whether the sites exist is for
// [Service.ImportRatingsCSV] to check.
func ParseRatings(r io.Reader, name string) ([]RatingLine, error) {
	br := bufio.NewReader(r)
	if b, err := br.Peek(3); err == nil && string(b) == "\uFEFF" {
		br.Discard(3)
	}
	cr := csv.NewReader(br)
	cr.FieldsPerRecord = -1 // checked below, so that the line is reported
	var bad badLines

	header, err := cr.Read()
	switch {
	case errors.Is(err, io.EOF):
		bad.add(1, "empty file: want the header %s", strings.Join(RatingsColumns, ","))
		return nil, bad.err(name)
	case err != nil:
		var pe *csv.ParseError
		if !errors.As(err, &pe) {
			return nil, fmt.Errorf("ratings %s: read: %w", name, err)
		}
		bad.add(pe.StartLine, "header: CSV: %s", pe.Err)
		return nil, bad.err(name)
	}
	// A file that is no ratings file (a CSV of something else, or a file
	// chosen by mistake) is said to be one, its first line described, not
	// quoted: it may hold anything.
	if !slices.ContainsFunc(header, func(h string) bool {
		return slices.Contains(RatingsColumns, strings.ToLower(strings.TrimSpace(h)))
	}) {
		cells := fmt.Sprintf("%d cells", len(header))
		if len(header) == 1 {
			cells = "1 cell"
		}
		bad.add(1, "not a ratings file: its first line (%s, %s) names none of the columns %s, which a ratings file's header names",
			textlines.Describe([]byte(strings.Join(header, ","))), cells, strings.Join(RatingsColumns, ","))
		return nil, bad.err(name)
	}
	col := map[string]int{}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(h))
		switch {
		case !slices.Contains(RatingsColumns, h):
			bad.add(1, "column %d is no column of a ratings file (the columns are %s)", i+1, strings.Join(RatingsColumns, ","))
		case col[h] > 0:
			bad.add(1, "column %q twice", h)
		default:
			col[h] = i + 1 // 0 means absent
		}
	}
	for _, c := range RatingsColumns[:3] {
		if col[c] == 0 {
			bad.add(1, "no %q column: the header must name %s (and may name note)", c, strings.Join(RatingsColumns[:3], ", "))
		}
	}
	if bad.e.Total > 0 {
		return nil, bad.err(name)
	}
	cell := func(rec []string, c string) string {
		if i := col[c]; i > 0 {
			return export.Uncell(rec[i-1])
		}
		return ""
	}

	type key struct{ librarian, site string }
	first := map[key]int{} // index in out of the first rating of a pair
	var out []RatingLine
	for {
		offset := cr.InputOffset()
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		var pe *csv.ParseError
		if err != nil && !errors.As(err, &pe) {
			return nil, fmt.Errorf("ratings %s: read: %w", name, err)
		}
		if err != nil {
			bad.add(pe.StartLine, "CSV: %s", pe.Err)
			if cr.InputOffset() == offset {
				break // no progress: nothing more can be read
			}
			continue
		}
		line, _ := cr.FieldPos(0) // a record read without error has a field
		if len(rec) != len(header) {
			bad.add(line, "%d cells, want %d as in the header", len(rec), len(header))
			continue
		}
		if bl := checkCells(rec); bl != "" {
			bad.add(line, "%s", bl)
			continue
		}
		rt := RatingLine{Line: line, Rating: store.Rating{
			Librarian: strings.TrimSpace(cell(rec, "librarian")),
			Site:      sites.Name(strings.TrimSpace(cell(rec, "site"))),
			Note:      cell(rec, "note"),
		}}
		var msgs []string
		if err := store.ValidLibrarian(rt.Librarian); err != nil {
			msgs = append(msgs, strings.TrimPrefix(err.Error(), store.ErrInvalid.Error()+": "))
		}
		if rt.Site == "" {
			msgs = append(msgs, "empty site")
		}
		v := strings.TrimSpace(cell(rec, "rating"))
		if v == "" && strings.TrimSpace(rt.Note) != "" {
			// A note kept without a rating: rating 0.
		} else if n, err := strconv.Atoi(v); err != nil || n < store.MinRating || n > store.MaxRating {
			msgs = append(msgs, fmt.Sprintf("rating %q is not a whole number from %d to %d", v, store.MinRating, store.MaxRating))
		} else {
			rt.Rating.Rating = n
		}
		if n := utf8.RuneCountInString(rt.Note); n > store.MaxNote {
			msgs = append(msgs, fmt.Sprintf("note of %d characters, longer than %d", n, store.MaxNote))
		}
		if len(msgs) > 0 {
			bad.add(line, "%s", strings.Join(msgs, "; "))
			continue
		}
		k := key{strings.ToLower(rt.Librarian), rt.Site} // "Ana" and "ana" are one librarian
		if i, ok := first[k]; ok {
			if o := out[i]; o.Rating.Rating != rt.Rating.Rating || o.Note != rt.Note {
				bad.add(line, "%s rates %s again, differently from line %d", rt.Librarian, rt.Site, o.Line)
			}
			continue // an equal repeat is harmless
		}
		first[k] = len(out)
		out = append(out, rt)
	}
	return out, bad.err(name)
}

// checkCells refuses cells that are not UTF-8 text or hold control
// characters other than line breaks and tabs (in a note).
func checkCells(rec []string) string {
	for _, c := range rec {
		if !utf8.ValidString(c) {
			return "text that is not UTF-8"
		}
		for _, r := range c {
			if r < 0x20 && r != '\n' && r != '\r' && r != '\t' || r == 0x7f {
				return fmt.Sprintf("control character %U", r)
			}
		}
	}
	return ""
}

// ExportRatingsCSV writes every rating of the project, and every note
// kept without a rating (an empty rating cell), as a ratings file, ordered
// by site then librarian: what [Service.ImportRatingsCSV] reads back. On a
// team server it holds those the signed-in librarian may see (see
// [sight]): her own, and the others' of the sites she has rated.
func (s *Service) ExportRatingsCSV(ctx context.Context, w io.Writer) error {
	_, err := s.ExportRatingsCSVCounted(ctx, w)
	return err
}

// ExportRatingsCSVCounted is [Service.ExportRatingsCSV] that also returns
// the number of lines below the header.
func (s *Service) ExportRatingsCSVCounted(ctx context.Context, w io.Writer) (int, error) {
	rs, err := s.store.RatingsAndNotes(ctx)
	if err != nil {
		return 0, err
	}
	rs = sightOf(reader(ctx, ""), rs).filter(rs)
	return len(rs), WriteRatings(w, rs)
}

// ImportRatingsCSV reads a ratings file (see [ParseRatings]) and merges its
// ratings into the project in one transaction: all of them or, when a line
// is bad or names a site the project does not have, none, with every bad
// line reported in a [*RatingsFileError]. A rating equal to the one stored
// is left alone, rated_at included, so a file imported twice changes
// nothing the second time. name names the file in messages. A file naming
// librarians the project does not have is refused with a
// [*NewLibrariansError] unless newLibrarians is set, which creates their
// profiles.
func (s *Service) ImportRatingsCSV(ctx context.Context, r io.Reader, name string, newLibrarians bool) (RatingsImport, error) {
	// A ratings file writes in every librarian's name: on a team server,
	// an admin's import.
	if err := project.Require(ctx, project.RoleAdmin, "import a ratings file"); err != nil {
		return RatingsImport{}, err
	}
	lines, err := ParseRatings(r, name)
	var fe *RatingsFileError
	if err != nil && !errors.As(err, &fe) {
		return RatingsImport{}, err
	}
	var bad badLines
	if fe != nil {
		bad.e = *fe
	}
	// Report the unknown sites of the good lines too, so that one round
	// of corrections fixes the whole file.
	names := make([]string, len(lines))
	for i, l := range lines {
		lines[i].Site = s.store.SiteRule().Name(l.Site)
		names[i] = lines[i].Site
	}
	unknown, err := s.store.UnknownSites(ctx, names)
	if err != nil {
		return RatingsImport{}, err
	}
	for _, l := range lines {
		if _, ok := slices.BinarySearch(unknown, l.Site); ok {
			bad.add(l.Line, "unknown site %q: not a site of this project", l.Site)
		}
	}
	if err := bad.err(name); err != nil {
		return RatingsImport{}, fault.Invalid(err)
	}
	rs := make([]store.Rating, len(lines))
	libs := make([]string, len(lines))
	for i, l := range lines {
		rs[i], libs[i] = l.Rating, l.Librarian
	}
	if !newLibrarians {
		// Librarians are never removed, so a name known now is known at
		// the write; one added meanwhile is simply not new.
		unknown, err := s.store.UnknownLibrarians(ctx, libs)
		if err != nil {
			return RatingsImport{}, err
		}
		if len(unknown) > 0 {
			return RatingsImport{}, fault.Conflict(&NewLibrariansError{Name: name, Names: unknown})
		}
	}
	res, err := s.store.ImportRatings(ctx, rs)
	var us *store.UnknownSitesError
	if errors.As(err, &us) { // sites are never removed, but say so if one was
		for _, i := range us.Rows {
			bad.add(lines[i].Line, "unknown site %q: not a site of this project", lines[i].Site)
		}
		return RatingsImport{}, fault.Invalid(bad.err(name))
	}
	out := RatingsImport(res)
	if err == nil {
		err = s.project.Audit(ctx, "", store.AuditImport, "", nil, map[string]any{"ratings_file": name, "result": out})
	}
	return out, err
}

// WriteRatings writes ratings as a ratings file: the header
// librarian,site,rating,note and one line a rating, in the order given,
// cells that a spreadsheet would take for a formula quoted (see csvCell);
// a note kept without a rating has an empty rating cell.
func WriteRatings(w io.Writer, rs []store.Rating) error {
	cw := export.NewCSVWriter(w)
	cw.Write(RatingsColumns)
	for _, r := range rs {
		rating := ""
		if r.Rating > 0 {
			rating = strconv.Itoa(r.Rating)
		}
		cw.Write([]string{r.Librarian, r.Site, rating, r.Note})
	}
	cw.Flush()
	return cw.Error()
}
