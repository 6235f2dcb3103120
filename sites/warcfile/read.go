package warcfile

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httputil"
	"strconv"
	"strings"
	"time"

	"sitesift/sites/textlines"

	"github.com/nlnwa/gowarc"
)

// Kinds of [Record], as their WARC-Type names them.
const (
	KindResponse = "response"
	KindRevisit  = "revisit"
	KindRequest  = "request"
	KindMetadata = "metadata"
	KindOther    = "other" // warcinfo, resource, conversion…
)

// Record is what [Read] hands over of one WARC record.
type Record struct {
	Kind string
	// URL is the record's WARC-Target-URI, as written.
	URL string
	// Date is its WARC-Date.
	Date time.Time
	// Offset is where the record starts in the file (in the compressed
	// file for a gzip one). A record inside a gzip member it shares with
	// records before it starts InMember bytes into the member's
	// decompressed data, the member at Offset.
	Offset   int64
	InMember int64
	// Status and Header are the HTTP response's, of a response or a
	// revisit record holding an HTTP head; Status is 0 when it has none.
	Status int
	Header http.Header
	// RefersTo is the URL a revisit record points to: its
	// WARC-Refers-To-Target-URI, or its own URL when it has none.
	RefersTo string
	// Outlinks are the URLs of a Heritrix metadata record's "outlink:"
	// lines of navigational links (hop type L).
	Outlinks []string
	payload  io.Reader
}

// Body returns up to max bytes of a response's payload with its transfer
// coding (chunked) and content coding (gzip, deflate) undone; truncated
// says the payload was longer. A content coding it cannot undo (br) is an
// error. It may be called once, inside the callback of [Read].
func (r *Record) Body(max int) (body []byte, truncated bool, err error) {
	if r.payload == nil {
		return nil, false, nil
	}
	var in io.Reader = r.payload
	if strings.EqualFold(strings.TrimSpace(r.Header.Get("Transfer-Encoding")), "chunked") {
		// Some crawlers (wget, warcprox) archive the chunked body as it
		// came; others dechunk and keep the header. Dechunk only what is
		// chunked indeed.
		br := bufio.NewReader(in)
		if head, _ := br.Peek(16); looksChunked(head) {
			in = httputil.NewChunkedReader(br)
		} else {
			in = br
		}
	}
	switch ce := strings.ToLower(strings.TrimSpace(r.Header.Get("Content-Encoding"))); ce {
	case "", "identity":
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(in)
		if err != nil {
			return nil, false, fmt.Errorf("content coding %s: %w", ce, err)
		}
		defer zr.Close()
		in = zr
	case "deflate":
		in = flate.NewReader(in)
	default:
		return nil, false, fmt.Errorf("content coding %q not supported", ce)
	}
	body, err = io.ReadAll(io.LimitReader(in, int64(max)+1))
	if len(body) > max {
		return body[:max], true, nil
	}
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return body, false, err
	}
	return body, false, nil
}

// looksChunked reports whether b starts as a chunked body does: a hex
// chunk size, optional extensions, CRLF.
func looksChunked(b []byte) bool {
	i := 0
	for i < len(b) && strings.IndexByte("0123456789abcdefABCDEF", b[i]) >= 0 {
		i++
	}
	return i > 0 && i < len(b) && (b[i] == '\r' || b[i] == ';' || b[i] == ' ' || b[i] == '\n')
}

// ReadError is an error of [Read] in a file: a record that could not be
// read (a truncated or corrupt file), at the byte offset where it starts.
type ReadError struct {
	File   string
	Offset int64
	// InMember is, for a record inside a gzip member it shares with
	// records before it, how far into the member's decompressed data it
	// starts; the member starts at Offset.
	InMember int64
	Err      error
}

func (e *ReadError) Error() string {
	return fmt.Sprintf("warcfile: %s: %s: %v", e.File, e.Where(), e.Err)
}

// Where names the record the error is at: "record at byte offset N".
func (e *ReadError) Where() string {
	if e.InMember > 0 {
		return fmt.Sprintf("record at byte %d of the decompressed data of the gzip member at byte offset %d", e.InMember, e.Offset)
	}
	return fmt.Sprintf("record at byte offset %d", e.Offset)
}

func (e *ReadError) Unwrap() error { return e.Err }

// Read reads the WARC or ARC file r (plain, gzip per record or whole;
// WARC 0.17, 1.0 or 1.1, ARC v1; name is its name, for errors) record by
// record and calls fn with each, in file order, until the end or fn's
// error. Violations of the standard in an otherwise readable record do not
// stop it, and the breaches [Warning] lists are mended (see [OnWarning]); a
// syntax error (a header line without its line end or colon) does stop
// it. A record that cannot be read whole (a truncated or corrupt file) is
// a [*ReadError] naming its offset; the records before it have been handed
// over. [ReadFile] says, besides, how the file was stored.
func Read(r io.Reader, name string, fn func(*Record) error, opts ...ReadOption) error {
	_, err := ReadFile(r, name, fn, opts...)
	return err
}

// readWARC reads the WARC file r for [ReadFile], counting in sh the
// records of each gzip member.
func readWARC(r io.Reader, name string, fn func(*Record) error, sh *sharing, opts []ReadOption) error {
	var o readOptions
	for _, opt := range opts {
		opt(&o)
	}
	// The members of a gzip file, or the records of a plain one, that can
	// seek are checked first, and only the whole ones read: so a file cut
	// inside a record is refused at that record's offset once the records
	// before it are handed over, however the cut record would read.
	cut := &ReadError{File: name, Offset: -1}
	if rs, ok := r.(io.ReadSeeker); ok {
		good, in, bad := wholePrefix(rs)
		if _, err := rs.Seek(0, io.SeekStart); err != nil {
			return &ReadError{File: name, Err: err}
		}
		if bad != nil {
			cut.Offset, cut.InMember, cut.Err = good, in, bad
			if in == 0 {
				r = io.LimitReader(rs, good)
			}
		}
	}
	rd := newRecordReader(r, o)
	rd.cutOff, rd.cutIn = cut.Offset, cut.InMember
	for {
		rec, off, err := rd.next()
		if err == io.EOF { // the end of the file, between records
			if cut.Offset >= 0 {
				return cut
			}
			return nil
		}
		if err != nil {
			return &ReadError{File: name, Offset: off, InMember: rd.inMember, Err: err}
		}
		rr, err := recordOf(rec, off)
		if err != nil {
			return &ReadError{File: name, Offset: off, InMember: rd.inMember, Err: err}
		}
		rr.InMember = rd.inMember
		if rd.member {
			sh.add(rd.members)
		}
		if err := fn(rr); err != nil {
			return err
		}
		// Read what fn left of the record now, so that a record cut short
		// is reported at its own offset rather than at the next one's.
		if rr.payload != nil {
			if _, err := io.Copy(io.Discard, rr.payload); err != nil {
				return &ReadError{File: name, Offset: off, InMember: rd.inMember, Err: readErr(err)}
			}
		}
	}
}

// wholePrefix reads r and returns the length of its longest prefix of
// whole records and, when that is not all of r, why what follows is not a
// whole record. A gzip file is checked member by member (each inflates to
// its end, checksum matching); in a member that does not, the records
// framed whole before where it fails count too, in is where they end in
// the member's decompressed data and good where the member starts. A
// plain file is checked record by record (see plainRecords).
func wholePrefix(r io.Reader) (good, in int64, bad error) {
	cr := &countingReader{r: r}
	br := bufio.NewReaderSize(cr, 1<<16)
	at := func() int64 { return cr.n - int64(br.Buffered()) }
	head, err := br.Peek(2)
	if err != nil {
		return 0, 0, nil // empty, one byte or unreadable: the reader reports it
	}
	if head[0] == 0x1f && head[1] == 0x8b {
		return gzipMembers(br, at)
	}
	good, bad = plainRecords(br, at, false)
	return good, 0, bad
}

// gzipMembers is [wholePrefix] of a gzip file; at gives br's offset.
func gzipMembers(br *bufio.Reader, at func() int64) (good, in int64, bad error) {
	var zr gzip.Reader
	zbr := bufio.NewReaderSize(nil, 1<<16)
	for {
		if _, err := br.Peek(1); err != nil {
			return good, 0, endOrErr(err)
		}
		if err := zr.Reset(br); err != nil {
			return good, 0, fmt.Errorf("not a gzip member: %w", readErr(err))
		}
		zr.Multistream(false)
		zcr := &countingReader{r: &zr}
		zbr.Reset(zcr)
		zat := func() int64 { return zcr.n - int64(zbr.Buffered()) }
		// The member's records are framed as the reader frames them,
		// so that those before where a member holding several fails
		// are read; a record that frames wrong is the reader's to
		// report, and the rest of the member is only inflated.
		whole, _ := plainRecords(zbr, zat, true)
		if _, err := io.Copy(io.Discard, zbr); err != nil {
			// A record read whole from a member whose checksum then
			// failed is not whole: the member's data may be wrong
			// anywhere.
			if errors.Is(err, gzip.ErrChecksum) {
				whole = 0
			}
			return good, whole, readErr(err)
		}
		good = at()
	}
}

// plainRecords is [wholePrefix] of a plain file, or of a gzip member's
// data when member: records framed as the reader frames them (a version
// line, header lines up to an empty line, a block up to the next record,
// Content-Length bytes away or near it, or up to the member's end); blank
// lines between records are allowed.
func plainRecords(br *bufio.Reader, at func() int64, member bool) (good int64, bad error) {
	for records := 0; ; records++ {
		for {
			b, err := br.ReadByte()
			if err != nil {
				return good, endOrErr(err)
			}
			if b != '\r' && b != '\n' {
				br.UnreadByte()
				break
			}
			good = at()
		}
		h, err := readHeader(br, records == 0 && !member)
		if err != nil {
			return good, err
		}
		if h.size < 0 && !member {
			return good, errors.New("corrupt record: its header has no Content-Length")
		}
		blk := block{src: br, left: h.size, declared: h.size, start: at(), member: member}
		if _, err := io.Copy(io.Discard, &blk); err != nil {
			return good, readErr(err)
		}
		good = at()
	}
}

// notWARC says that b, the bytes where a record should start (the file's
// first when first), start no WARC record, in words: a file given by
// mistake may hold anything, and an error never quotes it. A gzip file of
// something else is told apart before (see notArchive).
func notWARC(b []byte, first bool) error {
	if first {
		return fmt.Errorf("not a WARC file: it starts with %s, not \"WARC/\"", textlines.Describe(b))
	}
	return fmt.Errorf("no WARC record starts here: it starts with %s, not \"WARC/\"", textlines.Describe(b))
}

// endOrErr is nil for the end of a file where a record may end, and what
// went wrong for any other failed read.
func endOrErr(err error) error {
	if errors.Is(err, io.EOF) {
		return nil
	}
	return readErr(err)
}

// readErr names the usual causes of a failed read in words an operator
// recognises.
func readErr(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return fmt.Errorf("the file ends inside the record (truncated): %w", err)
	}
	var ce flate.CorruptInputError
	if errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) || errors.As(err, &ce) {
		return fmt.Errorf("corrupt gzip data: %w", err)
	}
	return err
}

func recordOf(rec gowarc.WarcRecord, off int64) (*Record, error) {
	h := rec.WarcHeader()
	rr := &Record{URL: strings.Trim(h.Get(gowarc.WarcTargetURI), "<>"), Offset: off}
	if t, err := time.Parse(time.RFC3339Nano, h.Get(gowarc.WarcDate)); err == nil {
		rr.Date = t.UTC()
	}
	switch rec.Type() {
	case gowarc.Response:
		rr.Kind = KindResponse
	case gowarc.Revisit:
		rr.Kind = KindRevisit
		rr.RefersTo = strings.Trim(h.Get(gowarc.WarcRefersToTargetURI), "<>")
		if rr.RefersTo == "" {
			rr.RefersTo = rr.URL
		}
	case gowarc.Request:
		rr.Kind = KindRequest
		return rr, nil
	case gowarc.Metadata:
		rr.Kind = KindMetadata
		b, err := rec.Block().RawBytes()
		if err != nil {
			return nil, err
		}
		rr.Outlinks, err = outlinks(b)
		return rr, err
	default:
		rr.Kind = KindOther
		return rr, nil
	}
	hb, ok := rec.Block().(gowarc.HttpResponseBlock)
	if !ok {
		// A revisit without an HTTP head, or a response of another
		// protocol (dns:): no status, no payload.
		return rr, nil
	}
	// The head is parsed here, leniently: net/http (and so gowarc) refuses
	// heads that archived servers did send, such as "Content-Length: -1".
	rr.Status, rr.Header = parseHead(hb.ProtocolHeaderBytes())
	if rr.Kind == KindResponse {
		p, err := hb.PayloadBytes()
		if err != nil {
			return nil, err
		}
		rr.payload = p
	}
	return rr, nil
}

// outlinks returns the link URLs of the "outlink:" lines of a Heritrix
// metadata record's block.
func outlinks(r io.Reader) ([]string, error) {
	var out []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		l, ok := bytes.CutPrefix(sc.Bytes(), []byte("outlink:"))
		if !ok {
			continue
		}
		// "outlink: URL HOP CONTEXT": only navigational links (hop L)
		// are a page's links; embeds (E) and the like are not.
		if f := strings.Fields(string(l)); len(f) > 0 && (len(f) == 1 || f[1] == "L") {
			out = append(out, f[0])
		}
	}
	if err := sc.Err(); err != nil && !errors.Is(err, bufio.ErrTooLong) {
		return out, err
	}
	return out, nil
}

// parseHead returns the status code and the header fields of the HTTP
// response head b; a status of 0 when the status line has none. Lines that
// are no "Name: value" field are skipped.
func parseHead(b []byte) (int, http.Header) {
	h := http.Header{}
	lines := strings.Split(string(b), "\n")
	status := 0
	if f := strings.Fields(lines[0]); len(f) >= 2 && strings.HasPrefix(f[0], "HTTP/") {
		status, _ = strconv.Atoi(f[1])
	}
	for _, l := range lines[1:] {
		k, v, ok := strings.Cut(strings.TrimRight(l, "\r"), ":")
		if !ok || k == "" || strings.ContainsAny(k, " \t") {
			continue
		}
		h.Add(k, strings.TrimSpace(v))
	}
	return status, h
}
