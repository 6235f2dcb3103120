package ccgraph

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"sitesift/sites/textlines"
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
// cannot be read past a line; its Format is "ccgraph". It never quotes
// the file: a file that is no dump at all says what it starts with in
// words ([textlines.Describe]).
type ParseError = textlines.FileError

// format names the format in a [*ParseError].
const format = "ccgraph"

// lines calls fn with each line of r (plain or gzip) but blank ones and
// comments ("#…"), and its number. An error of fn at the first line read
// says the file is not a kind file, what it starts with in words, and what
// its lines should be (want).
func lines(r io.Reader, name, kind, want string, fn func(n int64, line []byte) error) error {
	seen := false
	err := textlines.Scan(r, 1<<20, func(n int64, raw []byte) error {
		l := bytes.TrimRight(raw, "\r")
		if len(l) == 0 || l[0] == '#' {
			return nil
		}
		err := fn(n, l)
		var pe *ParseError
		if !seen && errors.As(err, &pe) && pe.Line == n {
			pe.Err = fmt.Errorf("not a Common Crawl %s file: it starts with %s, not %s: %w", kind, textlines.Describe(l), want, pe.Err)
		}
		seen = true
		return err
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

// parseID parses the vertex id of a line's field (what names it: "the
// vertex id (field 1)").
func parseID(b []byte, what string) (int64, error) {
	id, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil || id < 0 {
		return 0, fmt.Errorf("%s is not a non-negative integer", what)
	}
	return id, nil
}

// ReadVertices reads a vertices file: fn gets each vertex's id and host
// name, turned back from its reversed form and lower-cased. An id given on
// two lines is refused, naming both, once the whole file is read (fn has
// been called for its lines): the edges could not tell which host they
// link. The ids are checked as runs of consecutive ids on consecutive
// lines, as the dumps number their hosts, so that the check takes a few
// bytes a file, not a few bytes a host.
func ReadVertices(r io.Reader, name string, fn func(id int64, host string) error) error {
	var given IDSet
	const want = "id<TAB>reversed host"
	err := lines(r, name, "vertices", want, func(n int64, l []byte) error {
		a, b, ok := twoFields(l)
		if !ok {
			return &ParseError{Format: format, File: name, Line: n, Err: errors.New("want " + want)}
		}
		id, err := parseID(a, "the vertex id (field 1)")
		if err != nil {
			return &ParseError{Format: format, File: name, Line: n, Err: err}
		}
		given.add(id, n)
		// The dumps of some releases add a column (the host count of a
		// domain graph); the name is the first word.
		host, _, _ := bytes.Cut(b, []byte{'\t'})
		return fn(id, strings.ToLower(ReverseHost(string(host))))
	})
	if err != nil {
		return err
	}
	if id, first, second, ok := given.duplicate(); ok {
		return &ParseError{Format: format, File: name, Line: second,
			Err: fmt.Errorf("vertex id %d is given twice, on lines %d and %d: an id names one host", id, first, second)}
	}
	return nil
}

// ReadEdges reads an edges file: fn gets each edge's vertex ids.
func ReadEdges(r io.Reader, name string, fn func(from, to int64) error) error {
	const want = "from<TAB>to"
	return lines(r, name, "edges", want, func(n int64, l []byte) error {
		a, b, ok := twoFields(l)
		if !ok {
			return &ParseError{Format: format, File: name, Line: n, Err: errors.New("want " + want)}
		}
		f, err := parseID(a, "the from id (field 1)")
		if err != nil {
			return &ParseError{Format: format, File: name, Line: n, Err: err}
		}
		t, err := parseID(b, "the to id (field 2)")
		if err != nil {
			return &ParseError{Format: format, File: name, Line: n, Err: err}
		}
		return fn(f, t)
	})
}

// Rank is a host's line of a ranks file.
type Rank struct {
	Host string
	// Harmonic and PageRank are the host's values; NaN when the file has
	// none ("---").
	Harmonic, PageRank float64
}

// missing is what cc-webgraph's join of two rankings writes for the
// position and value of a host one of them lacks.
const missing = "---"

// ReadRanks reads a ranks file of the host graph: tab-separated
// harmonic-centrality position and value, PageRank position and value,
// reversed host name (Common Crawl's "#harmonicc_pos #harmonicc_val #pr_pos
// #pr_val #host_rev"; the "#" header line is skipped). A value of "---" (a
// host one ranking lacks, as cc-webgraph's join writes it) is a missing
// value, NaN in the [Rank].
func ReadRanks(r io.Reader, name string, fn func(Rank) error) error {
	const want = "harmonicc_pos harmonicc_val pr_pos pr_val host_rev"
	return lines(r, name, "ranks", want, func(n int64, l []byte) error {
		f := strings.Fields(string(l))
		if len(f) < 5 {
			return &ParseError{Format: format, File: name, Line: n, Err: fmt.Errorf("%d fields, want 5: %s", len(f), want)}
		}
		value := func(i int, what string) (float64, error) {
			if f[i] == missing {
				return math.NaN(), nil
			}
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return 0, fmt.Errorf("the %s (field %d) is not a finite number or %s", what, i+1, missing)
			}
			return v, nil
		}
		h, err := value(1, "harmonic centrality")
		if err != nil {
			return &ParseError{Format: format, File: name, Line: n, Err: err}
		}
		pr, err := value(3, "PageRank")
		if err != nil {
			return &ParseError{Format: format, File: name, Line: n, Err: err}
		}
		return fn(Rank{Host: strings.ToLower(ReverseHost(f[4])), Harmonic: h, PageRank: pr})
	})
}

// IDSet is a set of vertex ids held as runs of consecutive ids: the dumps
// number their hosts in order, so the ids of a whole graph, hundreds of
// millions, take a few runs a file.
type IDSet struct {
	runs   []idRun
	sorted bool // the runs are in order of their first id
	merged bool // and do not overlap or touch
}

// idRun is the ids first to last; for the ids of one file, given on the
// lines from line on, one an id (line is -1 when not known).
type idRun struct {
	first, last, line int64
}

// Add adds id to the set.
func (s *IDSet) Add(id int64) { s.add(id, -1) }

// add adds id, given on line (-1: not known).
func (s *IDSet) add(id, line int64) {
	if k := len(s.runs) - 1; k >= 0 {
		r := &s.runs[k]
		next := r.line + (r.last - r.first) + 1 // the line the next id of the run is on
		if r.last < math.MaxInt64 && id == r.last+1 && (line < 0 && r.line < 0 || r.line >= 0 && line == next) {
			r.last = id
			return
		}
	}
	s.runs = append(s.runs, idRun{first: id, last: id, line: line})
	s.sorted, s.merged = false, false
}

// sort sorts the runs by their first id.
func (s *IDSet) sort() {
	if !s.sorted {
		slices.SortFunc(s.runs, func(a, b idRun) int { return cmp.Compare(a.first, b.first) })
		s.sorted = true
	}
}

// duplicate returns an id added twice, and the lines it was given on, in
// order.
func (s *IDSet) duplicate() (id, first, second int64, ok bool) {
	s.sort()
	var prev *idRun // of the runs before, the one reaching furthest
	for i := range s.runs {
		r := &s.runs[i]
		if prev != nil && r.first <= prev.last {
			a, b := prev.line+(r.first-prev.first), r.line
			return r.first, min(a, b), max(a, b), true
		}
		if prev == nil || r.last > prev.last {
			prev = r
		}
	}
	return 0, 0, 0, false
}

// Has reports whether id is in the set.
func (s *IDSet) Has(id int64) bool {
	if !s.merged {
		s.merge()
	}
	i := sort.Search(len(s.runs), func(i int) bool { return s.runs[i].first > id })
	return i > 0 && id <= s.runs[i-1].last
}

// merge sorts the runs and joins those that overlap or touch; their lines
// are forgotten.
func (s *IDSet) merge() {
	s.sort()
	out := s.runs[:0]
	for _, r := range s.runs {
		if k := len(out) - 1; k >= 0 && (r.first <= out[k].last || out[k].last < math.MaxInt64 && r.first == out[k].last+1) {
			out[k].last = max(out[k].last, r.last)
			continue
		}
		r.line = -1
		out = append(out, r)
	}
	s.runs, s.merged = out, true
}

// Runs returns the number of runs of consecutive ids the set holds, 24
// bytes each: what it takes in memory.
func (s *IDSet) Runs() int { return len(s.runs) }
