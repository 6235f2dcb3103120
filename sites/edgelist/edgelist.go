package edgelist

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/bits"
	"os"
	"slices"
	"strconv"
	"strings"

	"sitesift/sites"
	"sitesift/sites/textlines"
)

// Graph is a parsed edge list: site names by id, and the edges as parallel
// slices in order of first appearance. An edge may be there more than once
// (callers merge repeats, adding their weights), but never more often than
// keeps the slices within twice the number of distinct edges plus a few
// million entries, or, for a file of known size whose lines repeat few
// edges, within the number of lines its size predicts: when the repeats
// would take more, the parser merges them (see [Read]).
type Graph struct {
	Names  []string
	From   []int32
	To     []int32
	Weight []float64
	// SelfEdges counts the edges dropped because both ends are one site.
	SelfEdges int
	Summary
}

// Summary is what a reading says of a file besides its edges.
type Summary struct {
	// Format names the layout the file was recognised as: FormatEdgeList,
	// FormatDomainCSV, FormatGraphML or FormatGEXF.
	Format string `json:"format"`
	// IDs says that the nodes are integer ids, not host names: a graph of
	// ids as LAW, SNAP, networkx and igraph write them ("0 1"). The site
	// rule leaves them alone; an id is named by its digits without leading
	// zeros ("007" is "7").
	IDs bool `json:"ids"`
	// Unnamed counts the ids from 0 to the largest that no line names, in
	// a graph of ids: nodes without links, added after the others, unless
	// UnnamedLeftOut (they were more than the ids named).
	Unnamed        int  `json:"ids_unnamed,omitempty"`
	UnnamedLeftOut bool `json:"ids_unnamed_left_out,omitempty"`
	// Skipped counts the bad lines left out of a file read leniently;
	// SkippedLines names the first MaxReported of them, and SkippedWhy
	// counts them by what is wrong with them.
	Skipped      int            `json:"skipped_lines"`
	SkippedLines []LineError    `json:"skipped_first"`
	SkippedWhy   map[string]int `json:"skipped_why"`
}

// Report says in lines of text what s says of the file name: the layout
// it was read as when not a plain edge list, that its nodes are ids, and
// how many lines were skipped, why ("  2 lines: why"), and the first of
// them one a line ("name:12: why"). It is "" for an edge list of host
// names read whole.
func (s Summary) Report(name string) string {
	var b strings.Builder
	if s.Format != "" && s.Format != FormatEdgeList {
		fmt.Fprintf(&b, "%s: read as %s\n", name, s.Format)
	}
	if s.IDs {
		fmt.Fprintf(&b, "%s: a graph of ids (every node an integer), not of host names", name)
		switch {
		case s.UnnamedLeftOut:
			fmt.Fprintf(&b, "; the %d ids up to the largest that no line names are left out, more than the ids named", s.Unnamed)
		case s.Unnamed > 0:
			fmt.Fprintf(&b, "; %d ids up to the largest that no line names are nodes without links", s.Unnamed)
		}
		b.WriteByte('\n')
	}
	if s.Skipped == 0 {
		return b.String()
	}
	fmt.Fprintf(&b, "%s: %d bad line", name, s.Skipped)
	if s.Skipped != 1 {
		b.WriteByte('s')
	}
	b.WriteString(" skipped (--strict refuses the file):")
	for _, r := range s.Reasons() {
		fmt.Fprintf(&b, "\n  %d line", r.Lines)
		if r.Lines != 1 {
			b.WriteByte('s')
		}
		fmt.Fprintf(&b, ": %s", r.Why)
	}
	b.WriteByte('\n')
	for _, l := range s.SkippedLines {
		fmt.Fprintf(&b, "%s:%d: %s\n", name, l.Line, l.Msg)
	}
	if s.Skipped > len(s.SkippedLines) {
		fmt.Fprintf(&b, "(%d more)\n", s.Skipped-len(s.SkippedLines))
	}
	return b.String()
}

// Reason is one thing wrong with skipped lines, and how many lines it is
// wrong with.
type Reason struct {
	Why   string
	Lines int
}

// Reasons lists what is wrong with the lines skipped, the commonest first
// (then by name).
func (s Summary) Reasons() []Reason {
	rs := make([]Reason, 0, len(s.SkippedWhy))
	for w, n := range s.SkippedWhy {
		rs = append(rs, Reason{Why: w, Lines: n})
	}
	slices.SortFunc(rs, func(x, y Reason) int { return cmp.Or(cmp.Compare(y.Lines, x.Lines), strings.Compare(x.Why, y.Why)) })
	return rs
}

// Options says how to read an edge list.
type Options struct {
	// Rule names the sites of a host graph; "" is sites.RuleHost. It
	// does not apply to a graph of ids.
	Rule sites.Rule
	// Strict refuses a file with a bad line, naming its bad lines; by
	// default (false) bad lines are skipped, counted and named in the
	// Graph, and only a file without a good line is refused.
	Strict bool
}

// LineError is one bad line.
type LineError = textlines.BadLine

// ParseError refuses a file: it lists the bad lines (at most MaxReported of
// them; Total counts all), or says what is wrong with the file as a whole.
type ParseError struct {
	Name  string
	Lines []LineError
	Total int
	// Problem, when Total is 0, is what is wrong with the file as a whole
	// ("no edges").
	Problem string
}

// MaxReported bounds the bad lines a ParseError lists.
const MaxReported = 20

func (e *ParseError) Error() string {
	if e.Total == 0 {
		return e.Name + ": " + e.Problem
	}
	return textlines.Refusal(e.Name, "nothing imported", e.Total, e.Lines)
}

// ReadFile reads the edge list in path, gunzipping it when the name ends in
// .gz. The file is read as a stream: a small .gz of many repeated lines
// takes memory for its distinct sites and edges only. Its sites follow the
// host rule; [ReadFileRule] names them by another.
func ReadFile(path string) (*Graph, error) { return ReadFileRule(path, sites.RuleHost) }

// ReadFileRule is [ReadFile] with the sites named by the site rule r: a
// URL stands for its site under r, and a site name is mapped as r maps
// hosts ("www.example.org" is "example.org" under host-www).
//
// A file with a bad line is refused whole; [ReadFileOptions] can skip them.
func ReadFileRule(path string, rule sites.Rule) (*Graph, error) {
	return ReadFileOptions(path, Options{Rule: rule, Strict: true})
}

// ReadFileOptions is [ReadFile] as o says. Whether the file is a graph of
// ids or of host names is decided by its first 1024 lines: a graph of ids
// when most of their good lines are two non-negative integers (and maybe a
// weight). Then a line with another name is a bad line, as a line with a
// plain integer is in a host graph.
func ReadFileOptions(path string, o Options) (*Graph, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if strings.HasSuffix(path, ".gz") {
		gz, err := gzip.NewReader(bufio.NewReaderSize(f, 1<<20))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		defer gz.Close()
		return read(gz, path, 0, o)
	}
	var size int64
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		size = fi.Size()
	}
	return read(f, path, size, o)
}

// Read parses an edge list; name is used in error messages. A UTF-8
// byte-order mark at the start is skipped. A weight must be a normal,
// finite, positive float64 (at least 2.2250738585072014e-308), and the
// weights of the whole file must add up to a finite number, as the
// importance computations divide by their sums. A line longer than 1 MiB
// ends the reading, and is reported with its number and byte offset. A
// file without an edge is refused ("FILE: no edges").
//
// Repeated edges are merged once the edges read since the last merge are
// more than those merged and more than a few million (CompactEdges): a
// file of repeated lines takes the memory of its distinct edges plus that
// much, and a file without many repeats is not slowed down by merging.
// When a merge finds few repeats (under one in eight) in a file of known
// size, the lines are kept as read up to the number its size predicts,
// without the memory of the table merging takes.
//
// Read refuses a file with a bad line, naming its bad lines.
func Read(r io.Reader, name string) (*Graph, error) {
	return read(r, name, 0, Options{Rule: sites.RuleHost, Strict: true})
}

// ReadOptions is [Read] as o says.
func ReadOptions(r io.Reader, name string, o Options) (*Graph, error) { return read(r, name, 0, o) }

// CompactEdges is the least number of edges read before the parser merges
// repeated ones (16 bytes each).
const CompactEdges = 4 << 20

// read is Read of an input of size bytes, 0 if unknown. With the size, the
// edge slices are allocated once, for the number of lines the first block's
// line length predicts (up to CompactEdges), instead of growing by copies.
func read(r io.Reader, name string, size int64, o Options) (*Graph, error) {
	r, g, err, done := readDerivative(r, name, o)
	if done {
		return g, err
	}
	g, err = readBuffer(r, name, size, readChunk, maxLine, CompactEdges, o)
	if g != nil {
		g.Format = FormatEdgeList
	}
	return g, err
}

// bom is the UTF-8 byte-order mark some editors write at a file's start.
const bom = "\uFEFF"

// readBuffer is read with a buffer of chunk bytes, lines of at most longest
// bytes (longest < chunk) and repeated edges merged once compactAt edges
// are read; tests make them small.
func readBuffer(r io.Reader, name string, size int64, chunk, longest, compactAt int, o Options) (*Graph, error) {
	if o.Rule == "" {
		o.Rule = sites.RuleHost
	}
	p := parser{g: &Graph{}, perr: &ParseError{Name: name}, compactAt: compactAt, rule: o.Rule, strict: o.Strict}
	p.t.init()
	p.e.init()
	// Lines are cut from a large buffer in place, not copied out by a
	// bufio.Scanner: the parser's tokens point into the buffer, and the
	// queued lines are resolved (flush) before the buffer's data moves.
	buf := make([]byte, chunk)
	start, end := 0, 0 // unparsed data is buf[start:end]
	var base int64     // the offset in the input of buf[0]
	line := 0
	var seen int64
	eof := false
	tooLong := func() (*Graph, error) {
		p.final = true
		p.flush()
		p.fail(line+1, fmt.Sprintf("a line longer than %d bytes (it starts at byte offset %d); the file was not read further", longest, base+int64(start)))
		return nil, p.perr
	}
	for {
		for {
			i := bytes.IndexByte(buf[start:end], '\n')
			if i < 0 {
				if !eof {
					break
				}
				if start == end {
					return p.finish()
				}
				i = end - start // the last line, without a newline
			}
			if i > longest {
				return tooLong()
			}
			b := buf[start : start+i]
			start = min(start+i+1, end)
			if n := len(b); n > 0 && b[n-1] == '\r' {
				b = b[:n-1]
			}
			line++
			if line == 1 {
				b = bytes.TrimPrefix(b, []byte(bom))
			}
			if size > 0 {
				if seen += int64(len(b)) + 1; line == blockLines {
					p.expect = int(float64(size)/float64(seen)*blockLines*1.02) + blockLines
					n := min(p.expect, compactAt+1)
					p.g.From = slices.Grow(p.g.From, n)
					p.g.To = slices.Grow(p.g.To, n)
					p.g.Weight = slices.Grow(p.g.Weight, n)
				}
			}
			p.add(line, b)
		}
		if end-start > longest {
			return tooLong()
		}
		p.flush()
		copy(buf, buf[start:end])
		base += int64(start)
		end -= start
		start = 0
		for empty := 0; !eof && end < len(buf); empty++ {
			n, err := r.Read(buf[end:])
			end += n
			if err == io.EOF {
				eof = true
			} else if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			if n > 0 {
				break
			}
			if empty == 100 { // as bufio.Scanner gives up
				return nil, fmt.Errorf("%s: %w", name, io.ErrNoProgress)
			}
		}
	}
}

// readChunk is the size of read's buffer; it must exceed maxLine.
const readChunk = 4 << 20

// maxLine is the longest line read accepts.
const maxLine = 1 << 20

// blockLines is how many lines the parser splits before it resolves their
// tokens to sites (see parser).
const blockLines = 1024

// maxEdges is the most distinct edges a graph may have, those an edge
// table of 1<<32 slots holds.
const maxEdges = 3 << 30

// minWeight is the smallest weight accepted, the smallest normal float64:
// below it precision is lost and a weight may round to 0 when divided.
const minWeight = 0x1p-1022

// parser reads lines in blocks. Looking a token up in a table of a million
// tokens misses the CPU caches and waits on memory, once per token if done
// line by line. So the first pass over a block splits its lines, copies their
// two tokens and hashes them; a second touches the table slots of all the
// block's tokens, loads that do not depend on each other and so overlap; the
// third resolves the tokens, in line order, from the now cached table. Sites
// get their ids in order of first appearance, and bad lines are reported in
// line order, as line by line.
type parser struct {
	rule   sites.Rule // how tokens name sites
	strict bool       // a bad line refuses the file
	// kind is what the nodes are, decided (by decide) from the first
	// blockLines lines with fields; held keeps those lines, their tokens
	// copied, until they are all read (or the input ends: final), so
	// that the decision does not depend on where the reads cut the input.
	kind  nodeKind
	held  []pendingLine
	final bool
	g     *Graph
	t     tokenTable
	e     edgeTable
	perr  *ParseError

	block []pendingLine
	sink  uint64 // keeps the touching loads from being optimised away

	total    float64 // the sum of the weights of the edges
	overflow bool    // total overflowed, and was reported

	// merged is how many edges at the start of Graph's slices are
	// distinct, their repeats merged; compactAt is how many more may come
	// before they are merged, at least.
	merged, compactAt int
	// expect is the number of lines the input's size predicts, 0 when it
	// is not known; fewRepeats says that the last merge found few
	// repeats: the edges will then be about as many as the lines.
	expect     int
	fewRepeats bool
}

// nodeKind is what a file's node tokens are.
type nodeKind uint8

const (
	undecided nodeKind = iota
	hostNodes
	idNodes
)

// maxIDDigits bounds an id's digits, those of the largest int64.
const maxIDDigits = 19

// pendingLine is a split line whose tokens are not resolved yet.
type pendingLine struct {
	line     int
	msg      string // what is wrong with the line
	src, dst []byte // tokens, in read's buffer
	hs, hd   uint64 // token hashes
	w        float64
	fatal    bool // msg stops the reading, however lenient
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

// tokenEnd returns the index of the first space, tab or CR in b from i on,
// or len(b). It tests eight bytes at a time: a token is usually longer than
// that, and a byte loop was a tenth of the parse.
func tokenEnd(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		if m := separators(binary.LittleEndian.Uint64(b[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for i < len(b) && !isSpace(b[i]) {
		i++
	}
	return i
}

const (
	lowBits  = 0x0101010101010101
	highBits = 0x8080808080808080
)

// separators sets the high bit of the bytes of w (little-endian) that are a
// space, a tab or a CR. A byte above the first one set may be set wrongly
// (a borrow); the first one set is always right, and only it is used.
func separators(w uint64) uint64 {
	return zeroBytes(w^(lowBits*' ')) | zeroBytes(w^(lowBits*'\t')) | zeroBytes(w^(lowBits*'\r'))
}

// zeroBytes is the classic test for a zero byte in a word.
func zeroBytes(v uint64) uint64 { return (v - lowBits) &^ v & highBits }

// add splits line number n, b, and queues it.
func (p *parser) add(n int, b []byte) {
	b = stripComment(b)
	// Split at runs of spaces, tabs and CRs into at most four fields (a
	// fourth is an error), with a byte loop: bytes.IndexAny and TrimLeft
	// build a character set on every call.
	var f [4][]byte
	nf := 0
	for i := 0; nf < len(f); {
		for i < len(b) && isSpace(b[i]) {
			i++
		}
		if i == len(b) {
			break
		}
		j := tokenEnd(b, i)
		f[nf] = b[i:j]
		nf++
		i = j
	}
	pl := pendingLine{line: n, w: 1}
	switch {
	case nf == 0:
		return
	case nf == 1:
		pl.msg = "want SRC DST [WEIGHT], found one field"
	case nf == 4:
		pl.msg = "want SRC DST [WEIGHT], found more than three fields"
	case nf == 3:
		pl.w, pl.msg = weight(f[2])
	}
	if pl.msg == "" {
		pl.src, pl.dst = f[0], f[1]
		pl.hs, pl.hd = p.t.hash(f[0]), p.t.hash(f[1])
	}
	p.block = append(p.block, pl)
	if len(p.block) == blockLines {
		p.flush()
	}
}

// weight parses a weight, or says what is wrong with it (without quoting
// it, as no message about a file quotes the file).
func weight(b []byte) (float64, string) {
	v, err := strconv.ParseFloat(string(b), 64)
	switch {
	case math.IsInf(v, 0) || math.IsNaN(v):
		return 0, "the weight is not a finite number"
	case err != nil:
		return 0, "the weight is not a number"
	case v < 0 || v == 0 && !nonzeroMantissa(b):
		return 0, "the weight is not a positive number"
	case v < minWeight: // "1e-400" parses as 0
		return 0, fmt.Sprintf("the weight is below the smallest normal number %v", minWeight)
	}
	return v, ""
}

// nonzeroMantissa reports whether a number's digits before its exponent
// are not all 0: whether it is 0 or a positive number too small for a
// float64.
func nonzeroMantissa(b []byte) bool {
	hex := len(b) > 2 && b[0] == '0' && (b[1] == 'x' || b[1] == 'X')
	if hex {
		b = b[2:]
	}
	for _, c := range b {
		switch {
		case c == 'p' || c == 'P' || !hex && (c == 'e' || c == 'E'):
			return false
		case '1' <= c && c <= '9' || hex && ('a' <= c && c <= 'f' || 'A' <= c && c <= 'F'):
			return true
		}
	}
	return false
}

// bad records a bad line: one left out, unless the reading is strict.
func (p *parser) bad(line int, msg string) {
	if p.strict {
		p.fail(line, msg)
		return
	}
	g := p.g
	g.Skipped++
	if len(g.SkippedLines) < MaxReported {
		g.SkippedLines = append(g.SkippedLines, LineError{Line: line, Msg: msg})
	}
	if g.SkippedWhy == nil {
		g.SkippedWhy = map[string]int{}
	}
	g.SkippedWhy[msg]++
}

// fail records a line that refuses the file.
func (p *parser) fail(line int, msg string) {
	p.perr.Total++
	if len(p.perr.Lines) < MaxReported {
		p.perr.Lines = append(p.perr.Lines, LineError{Line: line, Msg: msg})
	}
}

// flush resolves the queued lines.
func (p *parser) flush() {
	if p.kind == undecided {
		for i := range p.block {
			pl := &p.block[i]
			pl.src, pl.dst = bytes.Clone(pl.src), bytes.Clone(pl.dst)
		}
		p.held = append(p.held, p.block...)
		p.block = p.block[:0]
		if len(p.held) < blockLines && !p.final {
			return
		}
		p.decide(p.held[:min(len(p.held), blockLines)])
		p.block, p.held = p.held, nil
	}
	var sink uint64
	for i := range p.block {
		if pl := &p.block[i]; pl.msg == "" {
			sink += p.t.touch(pl.hs) + p.t.touch(pl.hd)
		}
	}
	p.sink += sink
	for i := range p.block {
		pl := &p.block[i]
		if pl.msg == "" {
			pl.msg, pl.fatal = p.edge(pl)
		}
		switch {
		case pl.fatal:
			p.fail(pl.line, pl.msg)
		case pl.msg != "":
			p.bad(pl.line, pl.msg)
		}
	}
	p.block = p.block[:0]
}

// decide says what the nodes of the file are from its first lines: ids
// when most of their good lines hold two integers, host names otherwise.
func (p *parser) decide(first []pendingLine) {
	good, ids := 0, 0
	for i := range first {
		if pl := &first[i]; pl.msg == "" {
			good++
			if isID(pl.src) && isID(pl.dst) {
				ids++
			}
		}
	}
	p.kind = hostNodes
	if 2*ids > good {
		p.kind = idNodes
		p.g.IDs = true
	}
}

// isID reports whether b is a non-negative integer in decimal digits.
func isID(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// edge resolves a line's tokens and adds its edge; it returns what is wrong
// with the line, or "", and whether that stops the reading.
func (p *parser) edge(pl *pendingLine) (string, bool) {
	src, msg, fatal := p.node(pl.src, pl.hs, "source")
	if msg != "" {
		return msg, fatal
	}
	dst, msg, fatal := p.node(pl.dst, pl.hd, "target")
	if msg != "" {
		return msg, fatal
	}
	if src == dst {
		p.g.SelfEdges++
		return "", false
	}
	// The total is added in line order, as a repeated edge's weights are
	// (here and by callers), and every partial sum of a part of the
	// weights is at most the sum of all: no edge's weight overflows when
	// the total does not.
	if !p.overflow {
		if p.total += pl.w; math.IsInf(p.total, 0) {
			p.overflow = true
			return fmt.Sprintf("the weights add up to more than the largest number, %v", math.MaxFloat64), true
		}
	}
	g := p.g
	if len(g.From) == maxEdges {
		return "too many edges", true
	}
	if n := len(g.From); n == cap(g.From) {
		// Twice as large, but no larger than the compaction needs
		// while it is not reached: append's smaller steps left more
		// garbage, and a larger one would double the memory a file of
		// repeated lines takes.
		grow := max(n, 1024)
		switch {
		case n <= p.compactAt:
			grow = min(grow, p.compactAt+1-n)
		case p.fewRepeats && p.expect > n:
			// Lines of distinct edges: grow once to what the size
			// predicts. Doubling would leave up to half the slices
			// unused, and its last copy would hold three times the
			// edges' memory at once: at 50 million edges, over 2 GB.
			grow = p.expect - n + 1024
		case p.fewRepeats:
			grow = max(n/4, 1024) // beyond the prediction
		}
		g.From = slices.Grow(g.From, grow)
		g.To = slices.Grow(g.To, grow)
		g.Weight = slices.Grow(g.Weight, grow)
	}
	g.From = append(g.From, src)
	g.To = append(g.To, dst)
	g.Weight = append(g.Weight, pl.w)
	if len(g.From)-p.merged > max(p.merged, p.compactAt) && !p.distinct() {
		p.compact()
	}
	return "", false
}

// distinct reports whether the merges can wait until the caller's: the
// last merge found few repeats and the edges are still within the number of
// lines the input's size predicts, so they take at most 16 bytes a line. The
// edge table is then let go: at 50 million edges it is half a gigabyte, a
// quarter of the reading's memory. Past the prediction, or on an input of
// unknown size (a .gz), merging goes on as before, so that a file of
// repeated lines takes the memory of its distinct edges.
func (p *parser) distinct() bool {
	if p.fewRepeats && p.expect > 0 && len(p.g.From) <= p.expect {
		p.e = edgeTable{}
		return true
	}
	return false
}

// compact merges the edges added since the last compaction into the
// distinct edges before them, in place: an edge read before gets the
// weight added, a new one moves down to the end of the distinct ones. The
// lines come in blocks, whose slots in the edge table are touched first,
// as the parser's tokens are.
func (p *parser) compact() {
	g := p.g
	if p.e.slots == nil {
		// Let go by distinct: index the edges merged so far again.
		p.e.init()
		for k := range p.merged {
			p.e.insert(edgeHash(g.From[k], g.To[k]), uint32(k))
		}
	}
	w := p.merged
	var hs [blockLines]uint64
	for lo := p.merged; lo < len(g.From); lo += blockLines {
		hi := min(lo+blockLines, len(g.From))
		var sink uint64
		for k := lo; k < hi; k++ {
			hs[k-lo] = edgeHash(g.From[k], g.To[k])
			sink += p.e.touch(hs[k-lo])
		}
		p.sink += sink
		for k := lo; k < hi; k++ {
			f, t, wt := g.From[k], g.To[k], g.Weight[k]
			if j, ok := p.e.lookup(f, t, hs[k-lo], g); ok {
				g.Weight[j] += wt
				continue
			}
			p.e.insert(hs[k-lo], uint32(w))
			g.From[w], g.To[w], g.Weight[w] = f, t, wt
			w++
		}
	}
	p.fewRepeats = 8*w > 7*len(g.From)
	g.From, g.To, g.Weight = g.From[:w], g.To[:w], g.Weight[:w]
	p.merged = w
}

// finish resolves the lines still queued and returns the graph, or the
// file's error.
func (p *parser) finish() (*Graph, error) {
	p.final = true
	p.flush()
	// The token and edge tables are garbage from here on; clearing them
	// lets a collection during the caller's next step free them even if
	// the parser is still referenced.
	p.t, p.e = tokenTable{}, edgeTable{}
	if p.perr.Total > 0 {
		return nil, p.perr
	}
	if len(p.g.From) == 0 && p.g.Skipped > 0 {
		// Nothing but bad lines: refused as a strict reading would.
		p.perr.Total, p.perr.Lines = p.g.Skipped, p.g.SkippedLines
		return nil, p.perr
	}
	if len(p.g.From) == 0 {
		p.perr.Problem = "no edges"
		if p.g.SelfEdges > 0 {
			p.perr.Problem = fmt.Sprintf("no edges but %d from a site to itself, which are dropped", p.g.SelfEdges)
		}
		return nil, p.perr
	}
	if p.kind == idNodes {
		p.fillIDs()
	}
	return p.g, nil
}

// fillIDs makes a node of every id from 0 to the largest that no line
// names, as igraph reads an edge list of ids and as LAW and SNAP number
// their nodes: a node without links still takes its share of PageRank. It
// does so only while they are at most as many as the ids named, so that a
// line naming a huge id cannot make the memory of the names grow beyond
// twice; Summary.Unnamed counts them, and UnnamedLeftOut says they were
// too many to add.
func (p *parser) fillIDs() {
	g := p.g
	var largest uint64
	for _, s := range g.Names {
		v, _ := strconv.ParseUint(s, 10, 64) // at most maxIDDigits digits
		largest = max(largest, v)
	}
	missing := largest + 1 - uint64(len(g.Names))
	if missing == 0 {
		return
	}
	if missing > uint64(len(g.Names)) || largest >= math.MaxInt32 {
		g.Unnamed, g.UnnamedLeftOut = int(min(missing, math.MaxInt)), true
		return
	}
	named := make([]bool, largest+1)
	for _, s := range g.Names {
		v, _ := strconv.ParseUint(s, 10, 64)
		named[v] = true
	}
	for v, ok := range named {
		if !ok {
			g.Names = append(g.Names, strconv.Itoa(v))
		}
	}
	g.Unnamed = int(missing)
}

// stripComment cuts a line at a # that starts a token: at the start of the
// line or after a space or tab. A # inside a token stays: labels such as
// "blog.aspx?a=1&#38;b=2" are real.
func stripComment(b []byte) []byte {
	for from := 0; ; {
		i := bytes.IndexByte(b[from:], '#')
		if i < 0 {
			return b
		}
		i += from
		if i == 0 || b[i-1] == ' ' || b[i-1] == '\t' {
			return b[:i]
		}
		from = i + 1
	}
}

// node returns the id of the node a token (of hash h) stands for, as
// site does, a node id in a graph of ids; it says whether what is wrong
// stops the reading.
func (p *parser) node(tok []byte, h uint64, role string) (int32, string, bool) {
	if p.kind != idNodes {
		id, msg := p.site(tok, h, role)
		return id, msg, msg == "too many sites"
	}
	if id, ok := p.t.lookup(tok, h); ok {
		return id, "", false
	}
	if !isID(tok) {
		return 0, fmt.Sprintf("the %s is no node id (a non-negative integer), in a graph of ids", role), false
	}
	digits := bytes.TrimLeft(tok, "0")
	if len(digits) == 0 {
		digits = tok[len(tok)-1:]
	}
	if len(digits) > maxIDDigits {
		return 0, fmt.Sprintf("the %s id has more than %d digits", role, maxIDDigits), false
	}
	if len(digits) == len(tok) {
		id, msg := p.newSite(string(tok), tok, h)
		return id, msg, msg != ""
	}
	dh := p.t.hash(digits)
	id, ok := p.t.lookup(digits, dh)
	if !ok {
		var msg string
		if id, msg = p.newSite(string(digits), digits, dh); msg != "" {
			return 0, msg, true
		}
	}
	p.t.insert(tok, h, id)
	return id, "", false
}

// site returns the id of the site a token (of hash h) stands for; role
// ("source", "target") names the token in what is wrong with it. No message
// quotes the token: a file given by mistake may hold anything, and a name
// such as "<img/src=x>" is no text to show.
func (p *parser) site(tok []byte, h uint64, role string) (int32, string) {
	if id, ok := p.t.lookup(tok, h); ok {
		return id, ""
	}
	raw := string(tok)
	var name string
	if strings.Contains(raw, "://") {
		s, err := p.rule.Of(raw)
		if err != nil {
			return 0, fmt.Sprintf("the %s URL: %s", role, sites.Problem(raw, err))
		}
		name = s
	} else {
		if !utf8Printable(raw) {
			return 0, fmt.Sprintf("the %s name is not UTF-8 text or has control characters", role)
		}
		// A name is a host, with a port and a path maybe; markup or a
		// script would become a site, and then a seed.
		if !plainHost(tok) {
			if err := sites.CheckName(raw); err != nil {
				if p := sites.Problem(raw, err); strings.HasPrefix(p, "its port") {
					return 0, fmt.Sprintf("the %s name: %s", role, p)
				}
				return 0, fmt.Sprintf("the %s name is no host name (letters, digits, '-', '_' and dots, or an IP address; then maybe a :port and a /path)", role)
			}
		}
		// One site, one name: "Bücher.test", "xn--bcher-kva.test" and
		// "bücher.test:80" are the same site, as their URLs are.
		name = raw
		if !plainName(tok) || p.rule != sites.RuleHost {
			name = p.rule.Name(raw)
		}
		if !utf8Printable(name) {
			return 0, fmt.Sprintf("the %s name is not UTF-8 text or has control characters", role)
		}
	}
	if name == raw {
		return p.newSite(name, tok, h)
	}
	nb := []byte(name)
	nh := p.t.hash(nb)
	id, ok := p.t.lookup(nb, nh)
	if !ok {
		var msg string
		if id, msg = p.newSite(name, nb, nh); msg != "" {
			return 0, msg
		}
	}
	p.t.insert(tok, h, id)
	return id, ""
}

// newSite gives the site name (whose bytes are b, of hash h) the next id.
func (p *parser) newSite(name string, b []byte, h uint64) (int32, string) {
	if len(p.g.Names) == math.MaxInt32 {
		return 0, "too many sites"
	}
	id := int32(len(p.g.Names))
	p.g.Names = append(p.g.Names, name)
	p.t.insert(b, h, id)
	return id, ""
}

// plainName reports whether sites.Name leaves b as it is, for the names
// most edge lists hold, without its URL parsing and IDNA mapping (a fifth of
// the parse): lower-case ASCII letters, digits, '-' and '_' in non-empty
// labels, none an IDNA "xn--" label, the last not a number.
func plainName(b []byte) bool {
	label := 0 // the start of the current label
	for i, c := range b {
		switch {
		case 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_':
			if i == label+3 && c == '-' && b[label] == 'x' && b[label+1] == 'n' && b[label+2] == '-' {
				return false
			}
		case c == '.':
			if i == label {
				return false
			}
			label = i + 1
		default:
			return false
		}
	}
	if label == len(b) {
		return false // empty, or a trailing dot
	}
	last := b[label:]
	return len(bytes.Trim(last, "0123456789")) > 0 && !bytes.HasPrefix(last, []byte("0x"))
}

// plainHost reports whether b is a host name that needs no further check:
// a plainName short enough that no label is over 63 bytes.
func plainHost(b []byte) bool { return len(b) <= 63 && plainName(b) }

func utf8Printable(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == '\uFFFD' {
			return false
		}
	}
	return true
}
