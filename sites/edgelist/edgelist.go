package edgelist

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
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
	var r io.Reader = bufio.NewReaderSize(f, 1<<20)
	if strings.HasSuffix(path, ".gz") {
		gz, err := gzip.NewReader(r)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		defer gz.Close()
		r = gz
	}
	return Read(r, path)
}

// Read parses an edge list; name is used in error messages.
func Read(r io.Reader, name string) (*Graph, error) {
	p := parser{g: &Graph{}, ids: map[string]int32{}, perr: &ParseError{Name: name}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for line := 1; sc.Scan(); line++ {
		if msg := p.line(sc.Bytes()); msg != "" {
			p.perr.Total++
			if len(p.perr.Lines) < MaxReported {
				p.perr.Lines = append(p.perr.Lines, LineError{line, msg})
			}
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s: a line longer than 1 MiB", name)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if p.perr.Total > 0 {
		return nil, p.perr
	}
	return p.g, nil
}

type parser struct {
	g    *Graph
	ids  map[string]int32
	perr *ParseError
}

// line parses one line and returns what is wrong with it, or "".
func (p *parser) line(b []byte) string {
	b = stripComment(b)
	var f [4][]byte
	n := 0
	for len(b) > 0 && n < len(f) {
		b = bytes.TrimLeft(b, " \t\r")
		if len(b) == 0 {
			break
		}
		end := bytes.IndexAny(b, " \t\r")
		if end < 0 {
			end = len(b)
		}
		f[n], b = b[:end], b[end:]
		n++
	}
	switch {
	case n == 0:
		return ""
	case n == 1:
		return "want SRC DST [WEIGHT], found one field"
	case n == 4:
		return "want SRC DST [WEIGHT], found more than three fields"
	}
	w := 1.0
	if n == 3 {
		v, err := strconv.ParseFloat(string(f[2]), 64)
		if err != nil || !(v > 0) || math.IsInf(v, 0) {
			return fmt.Sprintf("weight %q is not a positive number", f[2])
		}
		w = v
	}
	src, msg := p.site(f[0])
	if msg != "" {
		return msg
	}
	dst, msg := p.site(f[1])
	if msg != "" {
		return msg
	}
	if src == dst {
		p.g.SelfEdges++
		return ""
	}
	p.g.From = append(p.g.From, src)
	p.g.To = append(p.g.To, dst)
	p.g.Weight = append(p.g.Weight, w)
	return ""
}

// stripComment cuts a line at a # that starts a token: at the start of the
// line or after a space or tab. A # inside a token stays: labels such as
// "blog.aspx?a=1&#38;b=2" are real.
func stripComment(b []byte) []byte {
	for i, c := range b {
		if c == '#' && (i == 0 || b[i-1] == ' ' || b[i-1] == '\t') {
			return b[:i]
		}
	}
	return b
}

// site returns the id of the site a token stands for.
func (p *parser) site(tok []byte) (int32, string) {
	if id, ok := p.ids[string(tok)]; ok { // no allocation for a known token
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
	id, ok := p.ids[name]
	if !ok {
		if len(p.g.Names) == math.MaxInt32 {
			return 0, "too many sites"
		}
		id = int32(len(p.g.Names))
		p.g.Names = append(p.g.Names, name)
		p.ids[name] = id
	}
	p.ids[raw] = id
	return id, ""
}

func utf8Printable(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == '\uFFFD' {
			return false
		}
	}
	return true
}
