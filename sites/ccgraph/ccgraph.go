package ccgraph

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sitesift/sites/textlines"
	"slices"
	"strconv"
	"strings"
)

// ReverseHost turns a reversed host name back: "com.example.news" becomes
// "news.example.com". It works both ways.
func ReverseHost(rev string) string {
	parts := strings.Split(rev, ".")
	slices.Reverse(parts)
	return strings.Join(parts, ".")
}

// Filter chooses the hosts of a slice: those under one of TLDs ("fr") or
// ending with one of Suffixes ("bnf.fr" keeps bnf.fr and www.bnf.fr, not
// notbnf.fr). An empty filter keeps nothing: a slice must be asked for.
type Filter struct {
	TLDs     []string
	Suffixes []string
}

// Empty reports whether f names no TLD and no suffix.
func (f Filter) Empty() bool { return len(f.TLDs) == 0 && len(f.Suffixes) == 0 }

// Keep reports whether host (not reversed, lower case) is in the slice.
func (f Filter) Keep(host string) bool {
	for _, t := range f.TLDs {
		t = strings.Trim(strings.ToLower(t), ".")
		if host == t || strings.HasSuffix(host, "."+t) {
			return true
		}
	}
	for _, s := range f.Suffixes {
		s = strings.Trim(strings.ToLower(s), ".")
		if host == s || strings.HasSuffix(host, "."+s) {
			return true
		}
	}
	return false
}

// IDs maps the vertex ids of the kept hosts to a small value (a site's
// position): a sorted array, 12 bytes a kept host, whatever the size of
// the whole graph.
type IDs struct {
	ids    []int64
	vals   []int32
	sorted bool
}

// Add keeps id with value v.
func (s *IDs) Add(id int64, v int32) {
	s.ids = append(s.ids, id)
	s.vals = append(s.vals, v)
	s.sorted = false
}

// Len returns the number of ids kept.
func (s *IDs) Len() int { return len(s.ids) }

// Sort sorts the ids for [IDs.Find]; an id added twice keeps its last
// value.
func (s *IDs) Sort() {
	idx := make([]int, len(s.ids))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case s.ids[a] < s.ids[b]:
			return -1
		case s.ids[a] > s.ids[b]:
			return 1
		}
		return 0
	})
	ids := make([]int64, 0, len(idx))
	vals := make([]int32, 0, len(idx))
	for _, i := range idx {
		if n := len(ids); n > 0 && ids[n-1] == s.ids[i] {
			vals[n-1] = s.vals[i]
			continue
		}
		ids = append(ids, s.ids[i])
		vals = append(vals, s.vals[i])
	}
	s.ids, s.vals, s.sorted = ids, vals, true
}

// Find returns the value of id and whether it is kept. [IDs.Sort] must
// have been called after the last Add.
func (s *IDs) Find(id int64) (int32, bool) {
	if !s.sorted {
		panic("ccgraph: IDs.Find before Sort")
	}
	i, ok := slices.BinarySearch(s.ids, id)
	if !ok {
		return 0, false
	}
	return s.vals[i], true
}

// ParseError is a line that is not of the dump's format, or a file that
// cannot be read past a line; its Format is "ccgraph".
type ParseError = textlines.FileError

// format names the format in a [*ParseError].
const format = "ccgraph"

// lines calls fn with each line of r (plain or gzip) but blank ones and
// comments ("#…"), and its number.
func lines(r io.Reader, name string, fn func(n int64, line []byte) error) error {
	err := textlines.Scan(r, 1<<20, func(n int64, raw []byte) error {
		l := bytes.TrimRight(raw, "\r")
		if len(l) == 0 || l[0] == '#' {
			return nil
		}
		return fn(n, l)
	})
	return textlines.InFile(err, format, name)
}

// twoFields splits a line at its first tab (or, failing one, space).
func twoFields(l []byte) (a, b []byte, ok bool) {
	a, b, ok = bytes.Cut(l, []byte{'\t'})
	if !ok {
		a, b, ok = bytes.Cut(l, []byte{' '})
	}
	return bytes.TrimSpace(a), bytes.TrimSpace(b), ok && len(bytes.TrimSpace(b)) > 0
}

func parseID(b []byte) (int64, error) {
	id, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil || id < 0 {
		return 0, fmt.Errorf("vertex id %q is not a non-negative integer", b)
	}
	return id, nil
}

// ReadVertices reads a vertices file: fn gets each vertex's id and host
// name, turned back from its reversed form and lower-cased.
func ReadVertices(r io.Reader, name string, fn func(id int64, host string) error) error {
	return lines(r, name, func(n int64, l []byte) error {
		a, b, ok := twoFields(l)
		if !ok {
			return &ParseError{Format: format, File: name, Line: n, Err: fmt.Errorf("%q: want id<TAB>reversed host", trunc(l))}
		}
		id, err := parseID(a)
		if err != nil {
			return &ParseError{Format: format, File: name, Line: n, Err: err}
		}
		// The dumps of some releases add a column (the host count of a
		// domain graph); the name is the first word.
		host, _, _ := bytes.Cut(b, []byte{'\t'})
		return fn(id, strings.ToLower(ReverseHost(string(host))))
	})
}

// ReadEdges reads an edges file: fn gets each edge's vertex ids.
func ReadEdges(r io.Reader, name string, fn func(from, to int64) error) error {
	return lines(r, name, func(n int64, l []byte) error {
		a, b, ok := twoFields(l)
		if !ok {
			return &ParseError{Format: format, File: name, Line: n, Err: fmt.Errorf("%q: want from<TAB>to", trunc(l))}
		}
		f, err := parseID(a)
		if err != nil {
			return &ParseError{Format: format, File: name, Line: n, Err: err}
		}
		t, err := parseID(b)
		if err != nil {
			return &ParseError{Format: format, File: name, Line: n, Err: err}
		}
		return fn(f, t)
	})
}

// Rank is a host's line of a ranks file.
type Rank struct {
	Host               string
	Harmonic, PageRank float64
}

// ReadRanks reads a ranks file of the host graph: tab-separated
// harmonic-centrality position and value, PageRank position and value,
// reversed host name (Common Crawl's "#harmonicc_pos #harmonicc_val #pr_pos
// #pr_val #host_rev"; the "#" header line is skipped).
func ReadRanks(r io.Reader, name string, fn func(Rank) error) error {
	return lines(r, name, func(n int64, l []byte) error {
		f := strings.Fields(string(l))
		if len(f) < 5 {
			return &ParseError{Format: format, File: name, Line: n, Err: fmt.Errorf("%d fields, want 5: harmonicc_pos harmonicc_val pr_pos pr_val host_rev", len(f))}
		}
		h, err1 := strconv.ParseFloat(f[1], 64)
		pr, err2 := strconv.ParseFloat(f[3], 64)
		if err := errors.Join(err1, err2); err != nil {
			return &ParseError{Format: format, File: name, Line: n, Err: fmt.Errorf("rank value: %w", err)}
		}
		return fn(Rank{Host: strings.ToLower(ReverseHost(f[4])), Harmonic: h, PageRank: pr})
	})
}

func trunc(l []byte) string {
	if len(l) > 80 {
		return string(l[:80]) + "…"
	}
	return string(l)
}
