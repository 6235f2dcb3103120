package warcfile

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"sort"

	"sitesift/sites/textlines"
)

// Formats of the files [ReadFile] reads.
const (
	FormatWARC = "WARC"
	FormatARC  = "ARC"
)

// Ways a file [ReadFile] reads is compressed, as [Layout.Gzip] says.
const (
	GzipNone      = ""
	GzipPerRecord = "per record" // each record its own gzip member
	GzipShared    = "shared"     // records sharing gzip members (a whole file run through gzip)
)

// Layout is how a file [ReadFile] read was stored: its format, its
// compression, and how many of its records share a gzip member with
// others. Records that share one can be read only from the member's
// start: CDX offsets and the random access replay tools need want each
// record its own gzip member.
type Layout struct {
	Format string `json:"format"`
	Gzip   string `json:"gzip,omitempty"`
	// Members counts the gzip members holding records; SharedMembers
	// those holding more than one, SharedRecords the records in them.
	Members       int `json:"gzip_members,omitempty"`
	SharedMembers int `json:"shared_gzip_members,omitempty"`
	SharedRecords int `json:"shared_gzip_records,omitempty"`
}

// memberStart is where a gzip member starts: in the compressed file, and
// in the decompressed data of all members one after another.
type memberStart struct{ plain, comp int64 }

// members reads the decompressed data of a gzip file's members one after
// another, as gzip -d gives it, and keeps where each member starts so
// that an offset in that data can be named in the file. A record is
// whole wherever its bytes lie: a file gzipped per record and a plain
// file run through gzip read alike.
type members struct {
	cr *countingReader
	br *bufio.Reader
	zr gzip.Reader
	in bool // inside a member
	// n counts the decompressed bytes handed out; wholeEnd is where the
	// last member whose checksum matched ends, in them.
	n, wholeEnd int64
	starts      []memberStart
	first       int // the index, among all members, of starts[0]
	i           int // the member of the last locate
	err         error
	// keep keeps every start for [members.find]; without it, locate
	// forgets the members it has passed.
	keep bool
}

func newMembers(r io.Reader, keep bool) *members {
	cr := &countingReader{r: r}
	// A bufio.Reader is an io.ByteReader: the inflater reads no byte past
	// a member's end, so the count minus what is buffered is where the
	// next member starts.
	return &members{cr: cr, br: bufio.NewReaderSize(cr, 1<<16), keep: keep}
}

func (m *members) Read(p []byte) (int, error) {
	if m.err != nil {
		return 0, m.err
	}
	for {
		if !m.in {
			if _, err := m.br.Peek(1); err != nil {
				m.err = err
				return 0, err
			}
			comp := m.cr.n - int64(m.br.Buffered())
			m.starts = append(m.starts, memberStart{m.n, comp})
			if err := m.zr.Reset(m.br); err != nil {
				m.err = fmt.Errorf("no gzip member starts at byte offset %d: %w", comp, err)
				return 0, m.err
			}
			m.zr.Multistream(false)
			m.in = true
		}
		n, err := m.zr.Read(p)
		m.n += int64(n)
		if errors.Is(err, io.EOF) {
			m.in = false
			m.wholeEnd = m.n
			if n == 0 {
				continue
			}
			return n, nil
		}
		if err != nil {
			m.err = err
			return n, m.err
		}
		if n > 0 {
			return n, nil
		}
	}
}

// locate returns the member holding the decompressed byte plain: its
// index among all members and where it starts in the file. Calls go
// forward: the members before the last one found are forgotten.
func (m *members) locate(plain int64) (index int, comp int64, starts bool) {
	for m.i+1 < len(m.starts) && m.starts[m.i+1].plain <= plain {
		m.i++
	}
	if len(m.starts) == 0 {
		return 0, 0, plain == 0
	}
	s := m.starts[m.i]
	index = m.first + m.i
	if !m.keep && m.i > 4096 {
		m.first += m.i
		m.starts = append(m.starts[:0], m.starts[m.i:]...)
		m.i = 0
	}
	return index, s.comp, s.plain == plain
}

// find is locate for any offset, as the member holding it starts in the
// file and how far into its data the offset is; it needs keep.
func (m *members) find(plain int64) (comp, in int64) {
	k := sort.Search(len(m.starts), func(i int) bool { return m.starts[i].plain > plain }) - 1
	if k < 0 {
		return 0, plain
	}
	return m.starts[k].comp, plain - m.starts[k].plain
}

// sharing counts, as records come in file order, the records of each
// gzip member, for a [Layout].
type sharing struct {
	member, records int
	l               *Layout
}

func (s *sharing) add(member int) {
	if s.records > 0 && member == s.member {
		s.records++
		return
	}
	s.done()
	s.member, s.records = member, 1
	s.l.Members++
}

func (s *sharing) done() {
	if s.records > 1 {
		s.l.SharedMembers++
		s.l.SharedRecords += s.records
	}
	s.records = 0
}

// place names where the record at decompressed offset plain starts, for
// its Offset and InMember, and the index of its member (0 for a plain
// file).
func place(m *members, plain int64) (off, in int64, member int) {
	if m == nil || len(m.starts) == 0 {
		return plain, 0, 0
	}
	member, comp, starts := m.locate(plain)
	if starts {
		return comp, 0, member
	}
	return comp, plain - m.starts[m.i].plain, member
}

// notArchive says what the bytes b, a file's first (its decompressed
// first when gz), look like, when they start neither a WARC nor an ARC
// file. A file given by mistake may hold anything: the words never quote
// it.
func notArchive(b []byte, gz bool) error {
	const want = `a WARC file starts with "WARC/", an ARC file with "filedesc://"`
	what := textlines.Describe(b)
	switch {
	case gz && len(b) == 0:
		return fmt.Errorf("not a WARC or ARC file: it looks like a gzip of nothing (its gzip data is empty); %s", want)
	case gz:
		return fmt.Errorf("not a WARC or ARC file: it looks like a gzip of something else (its gzip data holds %s); %s", what, want)
	case len(b) == 0:
		return fmt.Errorf("not a WARC or ARC file: it is an empty file (0 bytes)")
	}
	return fmt.Errorf("not a WARC or ARC file: it looks like %s; %s", what, want)
}

// sniff returns the format the bytes b, a file's first (decompressed),
// start; "" for neither.
func sniff(b []byte) string {
	b = bytes.TrimLeft(b, "\r\n")
	if len(b) >= 5 && bytes.EqualFold(b[:5], []byte("WARC/")) {
		return FormatWARC
	}
	if bytes.HasPrefix(b, []byte("filedesc://")) {
		return FormatARC
	}
	return ""
}

// tail counts the bytes read through it and where the last one that is
// not a line end was, so that a reader that stops early can be told from
// one that reached the end: only blank lines may follow the last record.
type tail struct {
	r       io.Reader
	n, last int64
}

func (t *tail) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if k := len(bytes.TrimRight(p[:n], "\r\n")); k > 0 {
		t.last = t.n + int64(k)
	}
	t.n += int64(n)
	return n, err
}
