package edgelist

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"io"
	"math"
	"math/bits"
	"os"
	"slices"
	"strconv"
	"strings"

	"sitesift/sites"
)

// Graph is a parsed edge list: site names by id, and the edges as parallel
// slices (one entry per input line that holds an edge, repeats included;
// callers merge them).
type Graph struct {
	Names  []string
	From   []int32
	To     []int32
	Weight []float64
	// SelfEdges counts the edges dropped because both ends are one site.
	SelfEdges int
}

// LineError is one bad line.
type LineError struct {
	Line int
	Msg  string
}

// ParseError lists the bad lines of a file (at most MaxReported of them;
// Total counts all).
type ParseError struct {
	Name  string
	Lines []LineError
	Total int
}

// MaxReported bounds the bad lines a ParseError lists.
const MaxReported = 20

func (e *ParseError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d bad line", e.Name, e.Total)
	if e.Total != 1 {
		b.WriteByte('s')
	}
	b.WriteString(", nothing imported:")
	for _, l := range e.Lines {
		fmt.Fprintf(&b, "\n%s:%d: %s", e.Name, l.Line, l.Msg)
	}
	if e.Total > len(e.Lines) {
		fmt.Fprintf(&b, "\n(%d more)", e.Total-len(e.Lines))
	}
	return b.String()
}

// ReadFile reads the edge list in path, gunzipping it when the name ends in .gz.
func ReadFile(path string) (*Graph, error) {
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
		return read(gz, path, 0)
	}
	var size int64
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		size = fi.Size()
	}
	return read(f, path, size)
}

// Read parses an edge list; name is used in error messages.
func Read(r io.Reader, name string) (*Graph, error) { return read(r, name, 0) }

// read is Read of an input of size bytes, 0 if unknown. With the size, the
// edge slices are allocated once, for the number of lines the first block's
// line length predicts, instead of growing by copies.
func read(r io.Reader, name string, size int64) (*Graph, error) {
	return readBuffer(r, name, size, readChunk, maxLine)
}

// readBuffer is read with a buffer of chunk bytes and lines of at most
// longest bytes (longest < chunk); tests make them small.
func readBuffer(r io.Reader, name string, size int64, chunk, longest int) (*Graph, error) {
	p := parser{g: &Graph{}, perr: &ParseError{Name: name}}
	p.t.init()
	// Lines are cut from a large buffer in place, not copied out by a
	// bufio.Scanner: the parser's tokens point into the buffer, and the
	// queued lines are resolved (flush) before the buffer's data moves.
	buf := make([]byte, chunk)
	start, end := 0, 0 // unparsed data is buf[start:end]
	line := 0
	var seen int64
	eof := false
	for {
		for {
			i := bytes.IndexByte(buf[start:end], '\n')
			if i < 0 {
				if !eof {
					break
				}
				if start == end {
					p.flush()
					if p.perr.Total > 0 {
						return nil, p.perr
					}
					return p.g, nil
				}
				i = end - start // the last line, without a newline
			}
			if i > longest {
				return nil, fmt.Errorf("%s: a line longer than 1 MiB", name)
			}
			b := buf[start : start+i]
			start = min(start+i+1, end)
			if n := len(b); n > 0 && b[n-1] == '\r' {
				b = b[:n-1]
			}
			line++
			if size > 0 {
				if seen += int64(len(b)) + 1; line == blockLines {
					n := int(float64(size)/float64(seen)*blockLines*1.02) + blockLines
					p.g.From = slices.Grow(p.g.From, n)
					p.g.To = slices.Grow(p.g.To, n)
					p.g.Weight = slices.Grow(p.g.Weight, n)
				}
			}
			p.add(line, b)
		}
		if end-start > longest {
			return nil, fmt.Errorf("%s: a line longer than 1 MiB", name)
		}
		p.flush()
		copy(buf, buf[start:end])
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

// parser reads lines in blocks. Looking a token up in a table of a million
// tokens misses the CPU caches and waits on memory, once per token if done
// line by line. So the first pass over a block splits its lines, copies their
// two tokens and hashes them; a second touches the table slots of all the
// block's tokens, loads that do not depend on each other and so overlap; the
// third resolves the tokens, in line order, from the now cached table. Sites
// get their ids in order of first appearance, and bad lines are reported in
// line order, as line by line.
type parser struct {
	g    *Graph
	t    tokenTable
	perr *ParseError

	block []pendingLine
	sink  uint64 // keeps the touching loads from being optimised away
}

// pendingLine is a split line whose tokens are not resolved yet.
type pendingLine struct {
	line     int
	msg      string // what is wrong with the line, found when splitting
	src, dst []byte // tokens, in read's buffer
	hs, hd   uint64 // token hashes
	w        float64
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
		v, err := strconv.ParseFloat(string(f[2]), 64)
		if err != nil || !(v > 0) || math.IsInf(v, 0) {
			pl.msg = fmt.Sprintf("weight %q is not a positive number", f[2])
		}
		pl.w = v
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

// flush resolves the queued lines.
func (p *parser) flush() {
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
			pl.msg = p.edge(pl)
		}
		if pl.msg != "" {
			p.perr.Total++
			if len(p.perr.Lines) < MaxReported {
				p.perr.Lines = append(p.perr.Lines, LineError{pl.line, pl.msg})
			}
		}
	}
	p.block = p.block[:0]
}

// edge resolves a line's tokens and adds its edge; it returns what is wrong
// with the line, or "".
func (p *parser) edge(pl *pendingLine) string {
	src, msg := p.site(pl.src, pl.hs)
	if msg != "" {
		return msg
	}
	dst, msg := p.site(pl.dst, pl.hd)
	if msg != "" {
		return msg
	}
	if src == dst {
		p.g.SelfEdges++
		return ""
	}
	p.g.From = append(p.g.From, src)
	p.g.To = append(p.g.To, dst)
	p.g.Weight = append(p.g.Weight, pl.w)
	return ""
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

// site returns the id of the site a token (of hash h) stands for.
func (p *parser) site(tok []byte, h uint64) (int32, string) {
	if id, ok := p.t.lookup(tok, h); ok {
		return id, ""
	}
	raw := string(tok)
	var name string
	if strings.Contains(raw, "://") {
		s, err := sites.Of(raw)
		if err != nil {
			return 0, fmt.Sprintf("%q is not an http(s) URL with a host", raw)
		}
		name = s
	} else {
		name = strings.ToLower(raw)
		if !utf8Printable(name) {
			return 0, fmt.Sprintf("site name %q has control characters", raw)
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

// tokenTable maps tokens (site names and the raw tokens that stand for them)
// to site ids: open addressing with linear probing, at most half full.
//
// A slot is 32 bytes, two to a cache line, and holds the top 32 bits of the
// key's hash and the site id, and the key itself when it is short (most site
// names are), else where it lies in keys. A lookup of a short key then costs
// one cache miss, and the parser's touching pass has already paid it. The
// home slot of a key is given by the top bits of its hash, which the slot
// keeps, so growing the table moves slots without hashing keys again.
type tokenTable struct {
	seed  maphash.Seed
	slots []tokenSlot
	mask  uint64
	shift uint   // a key's home slot is its hash >> shift: the top bits
	n     int    // keys stored
	keys  []byte // the bytes of the keys too long for a slot, one after another
}

// inlineKey is the longest key kept in its slot.
const inlineKey = 23

// arenaKey in tokenSlot.n marks a key kept in tokenTable.keys, its offset
// and length in the first 12 bytes of b.
const arenaKey = 0xff

type tokenSlot struct {
	meta uint64 // hash>>32<<32 | id+1; 0 for an empty slot
	n    uint8  // key length, or arenaKey
	b    [inlineKey]byte
}

func (t *tokenTable) init() {
	t.seed = maphash.MakeSeed()
	t.resize(12)
}

// resize makes an empty table of 1<<bits slots. The home slot must come
// from the top 32 bits of the hash, those a slot keeps; more would take more
// than a hundred gigabytes.
func (t *tokenTable) resize(bits uint) {
	if bits > 32 {
		panic("edgelist: token table beyond 1<<32 slots")
	}
	t.slots = make([]tokenSlot, 1<<bits)
	t.mask = 1<<bits - 1
	t.shift = 64 - bits
}

func (t *tokenTable) hash(b []byte) uint64 { return maphash.Bytes(t.seed, b) }

func (t *tokenTable) key(s *tokenSlot) []byte {
	if s.n != arenaKey {
		return s.b[:s.n]
	}
	off := binary.LittleEndian.Uint64(s.b[:8])
	return t.keys[off : off+uint64(binary.LittleEndian.Uint32(s.b[8:12]))]
}

// touch loads the slot a lookup of hash h starts at, and the key bytes it
// points to when they are not in the slot.
func (t *tokenTable) touch(h uint64) uint64 {
	s := &t.slots[h>>t.shift]
	if s.n == arenaKey && s.meta>>32 == h>>32 {
		return uint64(t.key(s)[0])
	}
	return s.meta
}

func (t *tokenTable) lookup(b []byte, h uint64) (int32, bool) {
	for i := h >> t.shift; ; i = (i + 1) & t.mask {
		s := &t.slots[i]
		if s.meta == 0 {
			return 0, false
		}
		if s.meta>>32 == h>>32 && bytes.Equal(t.key(s), b) {
			return int32(uint32(s.meta) - 1), true
		}
	}
}

// insert adds key b (of hash h, not in the table) with site id.
func (t *tokenTable) insert(b []byte, h uint64, id int32) {
	if 2*(t.n+1) > len(t.slots) {
		t.grow()
	}
	var s tokenSlot
	s.meta = h>>32<<32 | uint64(uint32(id)+1)
	if len(b) <= inlineKey {
		s.n = uint8(copy(s.b[:], b))
	} else {
		s.n = arenaKey
		binary.LittleEndian.PutUint64(s.b[:8], uint64(len(t.keys)))
		binary.LittleEndian.PutUint32(s.b[8:12], uint32(len(b)))
		t.keys = append(t.keys, b...)
	}
	t.place(s)
	t.n++
}

// place puts s in the first free slot from its home.
func (t *tokenTable) place(s tokenSlot) {
	i := s.meta >> t.shift // the top bits of meta are those of the hash
	for t.slots[i].meta != 0 {
		i = (i + 1) & t.mask
	}
	t.slots[i] = s
}

// grow makes the table four times as large: growing costs a pass over all
// slots, so fewer, larger steps cost less in all.
func (t *tokenTable) grow() {
	old := t.slots
	t.resize(64 - t.shift + 2)
	for i := range old {
		if old[i].meta != 0 {
			t.place(old[i])
		}
	}
}

func utf8Printable(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == '\uFFFD' {
			return false
		}
	}
	return true
}
