package edgelist

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"sitesift/sites"
)

// format is the layout of a graph file, told from its first bytes.
type format uint8

const (
	plainFormat format = iota // SRC DST [WEIGHT] a line
	autCSV                    // crawl_date,src_domain,dest_domain,count
	graphML
	gexf
)

// The layouts a file is recognised as, named as a librarian reads them.
const (
	FormatEdgeList  = "edge list"
	FormatDomainCSV = "domain-graph CSV (Archives Unleashed Toolkit, ARCH)"
	FormatGraphML   = "GraphML"
	FormatGEXF      = "GEXF"
)

// sniffBytes is how much of a file's start detectFormat looks at.
const sniffBytes = 4096

// detectFormat tells a file's format from its first bytes (head, after any
// byte-order mark): the domain-graph CSV of the Archives Unleashed Toolkit
// and ARCH by its header line, GraphML and GEXF by their root element. Any
// other file is a plain edge list.
func detectFormat(head []byte) format {
	head = bytes.TrimPrefix(head, []byte(bom))
	if cols, ok := csvHeader(firstLine(head)); ok && cols.complete() {
		return autCSV
	}
	if t := bytes.TrimLeft(head, " \t\r\n"); len(t) > 0 && t[0] == '<' {
		switch root := xmlRoot(t); root {
		case "graphml":
			return graphML
		case "gexf":
			return gexf
		}
	}
	return plainFormat
}

func firstLine(b []byte) []byte {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	return bytes.TrimSuffix(b, []byte("\r"))
}

// xmlRoot is the local name of the first element in t, past the XML
// declaration, comments and a DOCTYPE, or "" when t holds none.
func xmlRoot(t []byte) string {
	for {
		i := bytes.IndexByte(t, '<')
		if i < 0 || i+1 >= len(t) {
			return ""
		}
		t = t[i+1:]
		if t[0] == '?' || t[0] == '!' {
			continue
		}
		end := bytes.IndexAny(t, " \t\r\n/>")
		if end < 0 {
			return ""
		}
		name := string(t[:end])
		if j := strings.IndexByte(name, ':'); j >= 0 {
			name = name[j+1:]
		}
		return name
	}
}

// domainColumns are the places of a domain-graph CSV's columns.
type domainColumns struct{ date, src, dst, count int }

func (c domainColumns) complete() bool {
	return c.date >= 0 && c.src >= 0 && c.dst >= 0 && c.count >= 0
}

// csvHeader reads the header of a domain-graph CSV: the four columns the
// Archives Unleashed Toolkit's DomainGraphExtractor writes (crawl_date,
// src_domain, dest_domain, count), in any order, maybe quoted, their names
// in any case; also the names of AUT's DataFrame (CrawlDate, SrcDomain,
// DestDomain) and source/target, as ARCH and Gephi name them.
func csvHeader(line []byte) (domainColumns, bool) {
	c := domainColumns{-1, -1, -1, -1}
	fields := strings.Split(string(line), ",")
	if len(fields) != 4 {
		return c, false
	}
	for i, f := range fields {
		f = strings.ToLower(strings.TrimSpace(f))
		if len(f) >= 2 && f[0] == '"' && f[len(f)-1] == '"' {
			f = f[1 : len(f)-1]
		}
		var slot *int
		switch f {
		case "crawl_date", "crawldate":
			slot = &c.date
		case "src_domain", "srcdomain", "source", "src":
			slot = &c.src
		case "dest_domain", "destdomain", "target", "dest":
			slot = &c.dst
		case "count", "weight":
			slot = &c.count
		default:
			return c, false
		}
		if *slot >= 0 {
			return c, false
		}
		*slot = i
	}
	return c, true
}

// readDerivative reads r when its first bytes say it is a domain-graph
// CSV, GraphML or GEXF (done true); otherwise it returns a reader of all
// of r, those bytes included, for the edge-list reader.
func readDerivative(r io.Reader, name string, o Options) (rest io.Reader, g *Graph, err error, done bool) {
	head := make([]byte, sniffBytes)
	n, err := io.ReadFull(r, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, nil, fmt.Errorf("%s: %w", name, err), true
	}
	head = head[:n]
	rest = io.MultiReader(bytes.NewReader(head), r)
	var named string
	switch detectFormat(head) {
	case autCSV:
		g, err = readDomainCSV(rest, name, o)
		named = FormatDomainCSV
	case graphML:
		g, err = readGraphXML(rest, name, o, graphML)
		named = FormatGraphML
	case gexf:
		g, err = readGraphXML(rest, name, o, gexf)
		named = FormatGEXF
	default:
		return rest, nil, nil, false
	}
	if g != nil {
		g.Format = named
	}
	return nil, g, err, true
}

// maxRecord bounds a CSV record of a domain graph, quoted newlines and all.
const maxRecord = 1 << 20

// readDomainCSV reads the domain-graph CSV of the Archives Unleashed
// Toolkit or ARCH: a header naming crawl_date, src_domain, dest_domain and
// count, then a record an edge, quoted as RFC 4180 says. The counts of a
// pair of domains are added up over their crawl dates into one edge. A bad
// record (a field too many or missing, a bad quote, a domain that is no
// host name, a count that is no positive number) is a bad line; a header
// repeated further down (part files written by Spark and put end to end) is
// skipped.
func readDomainCSV(r io.Reader, name string, o Options) (*Graph, error) {
	br := bufio.NewReader(r)
	if b, _ := br.Peek(len(bom)); string(b) == bom {
		br.Discard(len(bom))
	}
	lim := &recordLimit{r: br, max: maxRecord}
	cr := csv.NewReader(lim)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	b := newDerivBuilder(name, o)
	var cols domainColumns
	header := true
	for {
		lim.n = 0
		start := cr.InputOffset()
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if lim.over {
				return b.fail(fmt.Sprintf("the record at byte offset %d is longer than %d bytes; the file was not read further", start, maxRecord))
			}
			if !errors.As(err, &pe) {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			if header {
				return b.fail(fmt.Sprintf("line %d: the header: %s", pe.StartLine, csvProblem(pe)))
			}
			b.bad(pe.StartLine, csvProblem(pe))
			continue
		}
		line, _ := cr.FieldPos(0)
		if header {
			header = false
			c, ok := csvHeader([]byte(strings.Join(rec, ",")))
			if !ok || !c.complete() {
				return b.fail("line 1: want the header crawl_date,src_domain,dest_domain,count")
			}
			cols = c
			continue
		}
		if len(rec) != 4 {
			b.bad(line, fmt.Sprintf("want 4 fields (crawl_date,src_domain,dest_domain,count), found %d", len(rec)))
			continue
		}
		if c, ok := csvHeader([]byte(strings.Join(rec, ","))); ok && c == cols {
			continue
		}
		w, msg := weight([]byte(strings.TrimSpace(rec[cols.count])))
		if msg != "" {
			b.bad(line, strings.Replace(msg, "the weight", "the count", 1))
			continue
		}
		b.edge(line, strings.TrimSpace(rec[cols.src]), strings.TrimSpace(rec[cols.dst]), w)
	}
	return b.finish()
}

// csvProblem says in words what encoding/csv found wrong with a record,
// without quoting it.
func csvProblem(pe *csv.ParseError) string {
	switch {
	case errors.Is(pe.Err, csv.ErrBareQuote):
		return fmt.Sprintf("a \" inside a field that is not quoted (column %d)", pe.Column)
	case errors.Is(pe.Err, csv.ErrQuote):
		return fmt.Sprintf("a quoted field is not closed as CSV quotes it (line %d, column %d)", pe.Line, pe.Column)
	}
	return pe.Err.Error()
}

// recordLimit is a reader that fails once more than max bytes are read
// since n was last set to 0: it bounds what one record or token of a
// hostile file can make a parser hold.
type recordLimit struct {
	r    io.Reader
	n    int64
	max  int64
	over bool
	// one is the buffer of ReadByte on a reader without one.
	one [1]byte
}

var errTooLong = errors.New("a record or token too long")

func (l *recordLimit) Read(p []byte) (int, error) {
	if l.n >= l.max {
		l.over = true
		return 0, errTooLong
	}
	if int64(len(p)) > l.max-l.n {
		p = p[:l.max-l.n]
	}
	k, err := l.r.Read(p)
	l.n += int64(k)
	return k, err
}

func (l *recordLimit) ReadByte() (byte, error) {
	if l.n >= l.max {
		l.over = true
		return 0, errTooLong
	}
	if br, ok := l.r.(io.ByteReader); ok {
		c, err := br.ReadByte()
		if err == nil {
			l.n++
		}
		return c, err
	}
	if _, err := io.ReadFull(l.r, l.one[:]); err != nil {
		return 0, err
	}
	l.n++
	return l.one[0], nil
}

// derivBuilder builds a Graph from the edges of a derivative file: it
// names their sites as the edge list does, adds up the weights of a pair
// into one edge, and keeps the bad lines.
type derivBuilder struct {
	p      parser
	strict bool
	index  map[[2]int32]int
	sum    float64
	perr   *ParseError
	why    map[string]int
}

func newDerivBuilder(name string, o Options) *derivBuilder {
	rule := o.Rule
	if rule == "" {
		rule = sites.RuleHost
	}
	b := &derivBuilder{
		p:      parser{g: &Graph{}, rule: rule},
		strict: o.Strict,
		index:  map[[2]int32]int{},
		perr:   &ParseError{Name: name},
		why:    map[string]int{},
	}
	b.p.t.init()
	return b
}

// bad keeps bad line number line and what is wrong with it.
func (b *derivBuilder) bad(line int, msg string) {
	b.perr.Total++
	b.why[msg]++
	if len(b.perr.Lines) < MaxReported {
		b.perr.Lines = append(b.perr.Lines, LineError{Line: line, Msg: msg})
	}
}

// fail refuses the whole file: problem says where and why.
func (b *derivBuilder) fail(problem string) (*Graph, error) {
	return nil, &ParseError{Name: b.perr.Name, Problem: problem}
}

// edge adds the edge of line from src to dst (site names or URLs) of
// weight w.
func (b *derivBuilder) edge(line int, src, dst string, w float64) {
	from, msg := b.p.site([]byte(src), b.p.t.hash([]byte(src)), "source")
	if msg != "" {
		b.bad(line, msg)
		return
	}
	to, msg := b.p.site([]byte(dst), b.p.t.hash([]byte(dst)), "target")
	if msg != "" {
		b.bad(line, msg)
		return
	}
	g := b.p.g
	if from == to {
		g.SelfEdges++
		return
	}
	b.sum += w
	k := [2]int32{from, to}
	if i, ok := b.index[k]; ok {
		g.Weight[i] += w
		return
	}
	b.index[k] = len(g.From)
	g.From = append(g.From, from)
	g.To = append(g.To, to)
	g.Weight = append(g.Weight, w)
}

// finish returns the graph, or the file's error: in strict reading any bad
// line refuses the file, as does a file without an edge.
func (b *derivBuilder) finish() (*Graph, error) {
	g := b.p.g
	b.p.t = tokenTable{}
	switch {
	case b.perr.Total > 0 && (b.strict || len(g.From) == 0):
		return nil, b.perr
	case len(g.From) == 0:
		b.perr.Problem = "no edges"
		if g.SelfEdges > 0 {
			b.perr.Problem = fmt.Sprintf("no edges but %d from a site to itself, which are dropped", g.SelfEdges)
		}
		return nil, b.perr
	case math.IsInf(b.sum, 0):
		b.perr.Problem = "the weights add up to more than a float64 holds"
		return nil, b.perr
	}
	g.Skipped, g.SkippedLines, g.SkippedWhy = b.perr.Total, b.perr.Lines, b.why
	return g, nil
}
