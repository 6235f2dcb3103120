package warcfile

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nlnwa/gowarc"
)

// Kinds of [Warning]: the breaches of the WARC standard that real writers
// commit and that [Read] mends, as warcio forgives them.
const (
	// WarnBracketedURI: a WARC-Target-URI (or WARC-Refers-To-Target-URI)
	// in angle brackets, "<http://…>", as wget 1.19 and later write it.
	WarnBracketedURI = "bracketed_uri"
	// WarnContentLength: a Content-Length a few bytes off; the block was
	// taken to end where the next record starts, found within
	// [ResyncWindow] bytes of where the Content-Length says.
	WarnContentLength = "content_length"
	// WarnCRCRLF: header lines ending in CR CR LF.
	WarnCRCRLF = "cr_cr_lf"
	// WarnLowerCaseVersion: a version line in lower case, "warc/1.0".
	WarnLowerCaseVersion = "lower_case_version"
	// WarnFoldedHeader: a header field continued on the next line (a line
	// starting with a space or a tab), as WARC 0.17 allowed.
	WarnFoldedHeader = "folded_header"
	// WarnSpaceInURI: a WARC-Target-URI (or WARC-Refers-To-Target-URI)
	// holding white space, which a URI cannot: read as written, warned of
	// as warcio warns of it; Detail names the URI.
	WarnSpaceInURI = "space_in_uri"
)

// ResyncWindow bounds how far, either way, from where its Content-Length
// says a record's block ends [Read] looks for the next record: a
// Content-Length further off is an error, since a "WARC/" line further away
// is more likely in a payload than the next record.
const ResyncWindow = 4096

// Warning is a record [Read] read although it breaks the WARC standard:
// what it mended (Kind, one of the Warn constants), in the record at byte
// Offset (InMember bytes into that gzip member's data, for a record in a
// member it shares, as [Record] says); Detail says more, in words.
type Warning struct {
	Offset   int64
	InMember int64
	Kind     string
	Detail   string
}

// Where names the record w is about: "record at byte offset N", as
// [ReadError.Where] does.
func (w Warning) Where() string {
	return (&ReadError{Offset: w.Offset, InMember: w.InMember}).Where()
}

// ReadOption is an option of [Read].
type ReadOption func(*readOptions)

type readOptions struct {
	warn func(Warning)
}

// OnWarning has [Read] call fn with each record it mends (by default the
// mending is silent).
func OnWarning(fn func(Warning)) ReadOption {
	return func(o *readOptions) { o.warn = fn }
}

// recordReader reads the records of a WARC file, plain or gzip (a member
// a record, or records sharing members), framing each itself: its header is read and mended here (see
// [Warning]) and handed to gowarc with a block that ends where the record
// does, so that gowarc only ever parses a well-formed record.
type recordReader struct {
	cr   *countingReader
	br   *bufio.Reader // the file
	gz   gzip.Reader
	zcr  *countingReader // the member's data
	zbr  *bufio.Reader   // the member being read
	in   *bufio.Reader   // what gowarc reads: the mended header, then blk
	u    gowarc.Unmarshaler
	warn func(Warning)

	off      int64 // where the current record, or its gzip member, starts
	inMember int64 // where the current record starts in its member's data
	members  int   // the gzip members started, the current one's included
	rec      gowarc.WarcRecord
	blk      block
	member   bool // the current record is in a gzip member
	open     bool // a record was started and is not finished
	// The records from byte cutIn of the data of the member at cutOff on
	// are not read: the member fails there (see wholePrefix).
	cutOff, cutIn int64
}

func newRecordReader(r io.Reader, o readOptions) *recordReader {
	cr := &countingReader{r: r}
	return &recordReader{
		cr:     cr,
		br:     bufio.NewReaderSize(cr, 1<<16),
		zcr:    &countingReader{},
		zbr:    bufio.NewReaderSize(nil, 1<<16),
		cutOff: -1,
		in:     bufio.NewReaderSize(nil, 1<<16),
		u: gowarc.NewUnmarshaler(
			gowarc.WithSyntaxErrorPolicy(gowarc.ErrWarn), gowarc.WithSpecViolationPolicy(gowarc.ErrWarn),
			gowarc.WithUnknownRecordTypePolicy(gowarc.ErrIgnore), gowarc.WithBlockErrorPolicy(gowarc.ErrWarn)),
		warn: o.warn,
	}
}

func (rd *recordReader) at() int64 { return rd.cr.n - int64(rd.br.Buffered()) }

// next returns the next record and its offset; io.EOF itself (and no
// record) at the end of the file, between records, and never otherwise.
// An error names the offset of the record it is in.
func (rd *recordReader) next() (rec gowarc.WarcRecord, off int64, err error) {
	if err := rd.finish(); err != nil {
		return nil, rd.off, err
	}
	if rd.member {
		// A member may hold more records than one (a plain file run
		// through gzip): they are read up to its end, blank lines
		// between them allowed.
		for {
			b, err := rd.zbr.ReadByte()
			if errors.Is(err, io.EOF) { // the member's end, its checksum checked
				rd.member = false
				break
			}
			if err != nil {
				if rd.off == rd.cutOff {
					return nil, rd.off, io.EOF
				}
				rd.inMember = rd.zat()
				return nil, rd.off, readErr(err)
			}
			if b != '\r' && b != '\n' {
				rd.zbr.UnreadByte()
				break
			}
		}
		if rd.member {
			rd.inMember = rd.zat()
			if rd.off == rd.cutOff && rd.inMember >= rd.cutIn {
				return nil, rd.off, io.EOF
			}
			return rd.start(rd.zbr)
		}
	}
	// Blank lines between records are allowed.
	for {
		b, err := rd.br.ReadByte()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil, rd.at(), io.EOF
			}
			return nil, rd.at(), err
		}
		if b != '\r' && b != '\n' {
			rd.br.UnreadByte()
			break
		}
	}
	rd.off, rd.inMember = rd.at(), 0
	src := rd.br
	if head, _ := rd.br.Peek(2); len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		if err := rd.gz.Reset(rd.br); err != nil {
			return nil, rd.off, readErr(err)
		}
		rd.gz.Multistream(false)
		*rd.zcr = countingReader{r: &rd.gz}
		rd.zbr.Reset(rd.zcr)
		src, rd.member = rd.zbr, true
		rd.members++
	}
	return rd.start(src)
}

// zat is where the member's data is read to.
func (rd *recordReader) zat() int64 { return rd.zcr.n - int64(rd.zbr.Buffered()) }

// start reads the record at rd.off (rd.inMember into its gzip member's
// data) from src.
func (rd *recordReader) start(src *bufio.Reader) (rec gowarc.WarcRecord, off int64, err error) {
	rd.open = true
	h, err := readHeader(src, rd.off == 0 && rd.inMember == 0)
	if err != nil {
		return nil, rd.off, err
	}
	if h.size < 0 && !rd.member {
		return nil, rd.off, errors.New("corrupt record: its header has no Content-Length")
	}
	if rd.warn != nil {
		for _, w := range h.warns {
			rd.warn(Warning{Offset: rd.off, InMember: rd.inMember, Kind: w.kind, Detail: w.detail})
		}
	}
	rd.blk = block{src: src, left: h.size, declared: h.size, member: rd.member, off: rd.off, in: rd.inMember, warn: rd.warn,
		headerLen: rd.inMember + h.n, start: -1}
	if !rd.member {
		rd.blk.start = rd.at()
	}
	// The block ends where the record does, which may be past its
	// Content-Length: gowarc is told a length it cannot reach, and reads
	// up to the block's end.
	told := h.size + 2*ResyncWindow
	if h.size < 0 {
		told = 1 << 62 // a gzip member's record without one: up to the member's end
	}
	rd.in.Reset(io.MultiReader(bytes.NewReader(h.bytes(told)), &rd.blk))
	rd.rec, err = rd.unmarshal()
	if err != nil {
		// The block's own error says what is wrong with the record.
		if rd.blk.err != nil {
			err = rd.blk.err
		}
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, rd.off, readErr(err)
	}
	return rd.rec, rd.off, nil
}

// unmarshal is gowarc's Unmarshal of rd.in, a panic of gowarc's (some
// corrupt records make one) turned into an error.
func (rd *recordReader) unmarshal() (rec gowarc.WarcRecord, err error) {
	defer func() {
		if p := recover(); p != nil {
			rec, err = nil, fmt.Errorf("corrupt record (the WARC reader failed: %v)", p)
		}
	}()
	rec, _, _, err = rd.u.Unmarshal(rd.in)
	return rec, err
}

// finish reads what is left of the current record's block; the rest of a
// gzip member, whose checksum is checked, is read by next, for the records
// it may still hold.
func (rd *recordReader) finish() error {
	if !rd.open {
		return nil
	}
	rd.open = false
	if rd.rec != nil {
		err := rd.rec.Close()
		rd.rec = nil
		if err != nil && rd.blk.err == nil {
			return readErr(err)
		}
	}
	if _, err := io.Copy(io.Discard, &rd.blk); err != nil {
		return readErr(err)
	}
	return nil
}

// header is a record's header as read: its lines, mended, and its
// Content-Length (-1 when it has none).
type header struct {
	lines  []string // the version line, then the fields, unfolded
	size   int64
	sizeAt int   // the Content-Length line's index in lines
	n      int64 // its length in the file (in its gzip member's data)
	warns  []warning
}

type warning struct{ kind, detail string }

// bytes is the header as gowarc is to read it, with Content-Length size.
func (h *header) bytes(size int64) []byte {
	var b bytes.Buffer
	for k, l := range h.lines {
		if k == h.sizeAt && k > 0 {
			l = "Content-Length: " + strconv.FormatInt(size, 10)
		}
		b.WriteString(l)
		b.WriteString("\r\n")
	}
	if h.sizeAt <= 0 {
		b.WriteString("Content-Length: " + strconv.FormatInt(size, 10) + "\r\n")
	}
	b.WriteString("\r\n")
	return b.Bytes()
}

// readHeader reads a record's header from br, which is at its first byte
// (the file's first, when first), mending what [Warning] lists.
func readHeader(br *bufio.Reader, first bool) (header, error) {
	h := header{size: -1}
	crcr, folded := 0, 0
	for k := 0; ; k++ {
		line, err := br.ReadSlice('\n')
		// Bytes that cannot start a record are no record, even when
		// the file ends, or the buffer fills, before their line does.
		if k == 0 && err != nil && !startsWARC(line) {
			return h, notWARC(line, first)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			return h, fmt.Errorf("corrupt record: a header line longer than %d bytes", br.Size())
		}
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		if err != nil {
			return h, readErr(err)
		}
		h.n += int64(len(line))
		text := string(line)
		if strings.HasSuffix(text, "\r\r\n") {
			crcr++
		}
		text = strings.TrimRight(text, "\r\n")
		switch {
		case k == 0:
			if !startsWARC(line) {
				return h, notWARC(line, first)
			}
			if !strings.HasPrefix(text, "WARC/") {
				h.warns = append(h.warns, warning{WarnLowerCaseVersion, fmt.Sprintf("version line %q", text)})
				text = "WARC/" + text[5:]
			}
			h.lines = append(h.lines, text)
			continue
		case text == "":
			if crcr > 0 {
				h.warns = append(h.warns, warning{WarnCRCRLF, fmt.Sprintf("%d header lines end in CR CR LF", crcr)})
			}
			if folded > 0 {
				h.warns = append(h.warns, warning{WarnFoldedHeader, fmt.Sprintf("%d header lines continue the line before", folded)})
			}
			return h, h.fields()
		case text[0] == ' ' || text[0] == '\t':
			if k == 1 {
				return h, errors.New("corrupt record: its first header line starts with a space, continuing no field")
			}
			h.lines[len(h.lines)-1] += " " + strings.TrimSpace(text)
			folded++
		default:
			h.lines = append(h.lines, text)
		}
	}
}

// fields reads the Content-Length of h and unbrackets its URIs.
func (h *header) fields() error {
	for k := 1; k < len(h.lines); k++ {
		name, value, ok := strings.Cut(h.lines[k], ":")
		if !ok {
			continue
		}
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		switch {
		case strings.EqualFold(name, "Content-Length"):
			n, err := strconv.ParseInt(value, 10, 64)
			if err != nil || n < 0 {
				return errors.New("corrupt record: its Content-Length is not a whole number of bytes")
			}
			h.size, h.sizeAt = n, k
		case strings.EqualFold(name, "WARC-Target-URI") || strings.EqualFold(name, "WARC-Refers-To-Target-URI"):
			if len(value) >= 2 && value[0] == '<' && value[len(value)-1] == '>' {
				value = value[1 : len(value)-1]
				h.lines[k] = name + ": " + value
				h.warns = append(h.warns, warning{WarnBracketedURI, name + " in angle brackets"})
			}
			if strings.ContainsAny(value, " \t") {
				h.warns = append(h.warns, warning{WarnSpaceInURI, fmt.Sprintf("%s %q holds white space", name, cut(value, 300))})
			}
		}
	}
	return nil
}

// cut is s cut to at most n bytes, on a character boundary, with an
// ellipsis when it was longer.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// startsWARC reports whether b starts as a version line does, "WARC/" in
// any case, or is the start of one.
func startsWARC(b []byte) bool {
	n := min(len(b), 5)
	return bytes.EqualFold(b[:n], []byte("WARC/")[:n])
}

// isVersionLine reports whether b starts with a version line: "WARC/", in
// any case, and a digit.
func isVersionLine(b []byte) bool {
	return len(b) >= 6 && bytes.EqualFold(b[:5], []byte("WARC/")) && b[5] >= '0' && b[5] <= '9'
}

// block reads a record's block from src: up to where its Content-Length
// says it ends when a record, or the file's end, follows there; otherwise
// up to where the nearest record within [ResyncWindow] bytes starts.
type block struct {
	src       *bufio.Reader
	left      int64 // bytes to pass before the end is looked for; -1: up to src's end
	declared  int64 // the Content-Length
	member    bool  // src ends where the record does (a gzip member)
	decided   bool
	tail      int   // once decided, the bytes of the block left
	off       int64 // the record's offset
	in        int64 // and where it starts in its gzip member's data
	start     int64 // the block's offset in the file; -1 in a gzip member
	headerLen int64
	warn      func(Warning)
	err       error
}

func (b *block) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	if b.left < 0 {
		return b.src.Read(p) // a gzip member's record without Content-Length
	}
	if !b.decided && b.left > ResyncWindow {
		// Bytes within the window of the data's end are not handed over
		// before the block's end is known: they may be the separator.
		n := min(int64(len(p)), b.left-ResyncWindow, int64(b.src.Size()-ResyncWindow-16))
		ahead, err := b.src.Peek(int(n) + ResyncWindow + 16)
		if err != nil && !errors.Is(err, io.EOF) {
			b.err = err
			return 0, err
		}
		n = min(n, int64(len(ahead)-ResyncWindow-16))
		if n > 0 {
			n, _ := b.src.Read(p[:n])
			b.left -= int64(n)
			return n, nil
		}
	}
	if !b.decided {
		if b.err = b.decide(); b.err != nil {
			return 0, b.err
		}
	}
	if b.tail == 0 {
		return 0, io.EOF
	}
	n, err := b.src.Read(p[:min(len(p), b.tail)])
	b.tail -= n
	if errors.Is(err, io.EOF) && b.tail > 0 {
		err = io.ErrUnexpectedEOF
	}
	if errors.Is(err, io.EOF) {
		err = nil
	}
	return n, err
}

// decide finds where the block ends: src is b.left bytes before where the
// Content-Length says (at most ResyncWindow, or more when the data ends
// sooner).
func (b *block) decide() error {
	w, err := b.src.Peek(int(min(b.left, ResyncWindow)) + ResyncWindow + 16)
	eof := errors.Is(err, io.EOF)
	if err != nil && !eof {
		return err
	}
	// sepStart is where the block ends when the record after it (or the
	// data's end) starts at q: before the separator, CR LF CR LF, or
	// before the blank lines that stand for it.
	sepStart := func(q int) int {
		if q >= 4 && string(w[q-4:q]) == "\r\n\r\n" {
			return q - 4
		}
		for q > 0 && (w[q-1] == '\r' || w[q-1] == '\n') {
			q--
		}
		return q
	}
	at := b.left // where the Content-Length says, in w
	// There, the separator (or blank lines) and a record, or the end:
	// the usual case.
	if at <= int64(len(w)) {
		j := int(at)
		for j < len(w) && (w[j] == '\r' || w[j] == '\n') {
			j++
		}
		if (j == len(w) && eof) || isVersionLine(w[j:]) {
			if bytes.HasPrefix(w[at:], []byte("\r\n\r\n")) || int(at) == len(w) || int64(sepStart(j)) == at {
				b.tail, b.decided = int(at), true
				return nil
			}
		}
	}
	best := -1
	for q := 1; q <= len(w); q++ {
		var ok bool
		if q == len(w) {
			// The end of a gzip member ends its record; the end of a
			// plain file ends a record only where its Content-Length
			// says (else the file was cut).
			ok = eof && b.member
		} else {
			ok = w[q-1] == '\n' && isVersionLine(w[q:])
		}
		if !ok {
			continue
		}
		end := sepStart(q)
		d := abs(int64(end) - at)
		if q < len(w) && d > ResyncWindow {
			continue
		}
		if best < 0 || d < abs(int64(best)-at) {
			best = end
		}
	}
	switch {
	case best >= 0:
		size := b.declared - at + int64(best)
		if b.warn != nil {
			b.warn(Warning{Offset: b.off, InMember: b.in, Kind: WarnContentLength,
				Detail: fmt.Sprintf("Content-Length %d, block of %d bytes up to the next record", b.declared, size)})
		}
		b.tail, b.decided = best, true
		return nil
	case at > int64(len(w)) && eof:
		return io.ErrUnexpectedEOF
	case at <= int64(len(w)) && bytes.HasPrefix(w[at:], []byte("\r\n\r\n")):
		// The separator, then what starts no record: that is the next
		// record's error, at its own offset.
		b.tail, b.decided = int(at), true
		return nil
	}
	where := fmt.Sprintf("at byte offset %d", b.start+b.declared)
	if b.start < 0 {
		where = fmt.Sprintf("at byte %d of its gzip member's data", b.headerLen+b.declared)
	}
	return fmt.Errorf("corrupt record: its Content-Length (%d) ends it %s, where no record starts, nor within %d bytes either way",
		b.declared, where, ResyncWindow)
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}
