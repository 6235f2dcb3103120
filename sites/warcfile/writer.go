package warcfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nlnwa/gowarc"

	"sitesift/sites"
)

// DefaultMaxFileSize is the size at which a WARC file is closed and the
// next begun: 1 GB, as WARC 1.1 (annex C) recommends.
const DefaultMaxFileSize = 1_000_000_000

// File name parts: a finished WARC file ends in warcSuffix, the one being
// written in warcSuffix+openSuffix.
const (
	warcSuffix = ".warc.gz"
	openSuffix = ".open"
	filePrefix = "sitesift-"
)

// Options describe the crawl a [Writer] archives, for the warcinfo record
// that begins each file.
type Options struct {
	// MaxFileSize is the size, in bytes, past which a file is closed and
	// the next begun (0: DefaultMaxFileSize). A file ends past it by at
	// most one record pair.
	MaxFileSize int64
	// Software names the crawler: "sitesift/0.1".
	Software string
	// Operator is how to reach whoever runs the crawl (an e-mail address,
	// a web page); left out when "".
	Operator string
	// UserAgent is the User-Agent of the crawl's requests; left out when "".
	UserAgent string
}

// Writer writes captures to WARC files in one directory. Its methods are
// safe for concurrent use.
type Writer struct {
	dir  string
	opts Options

	hookMu   sync.Mutex
	finished []string // files gowarc closed whose index is still to sort

	mu      sync.Mutex
	ww      *gowarc.WarcFileWriter
	closed  bool
	index   *os.File // the open index of the file being written
	indexOf string   // the WARC file it indexes
	seen    map[string]gowarc.RevisitRef
	// Recovered names the files Open found left open by a killed process
	// and mended; read it before the first Write.
	Recovered []string
}

// Open returns a Writer of WARC files in dir, created if needed. It first
// mends what a killed writer left there (see the package documentation)
// and reads the indexes of the files there, so that a payload archived by
// an earlier crawl of the project is written as a revisit too.
func Open(dir string, opts Options) (*Writer, error) {
	if opts.MaxFileSize <= 0 {
		opts.MaxFileSize = DefaultMaxFileSize
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("warcfile: %w", err)
	}
	w := &Writer{dir: dir, opts: opts, seen: map[string]gowarc.RevisitRef{}}
	var err error
	if w.Recovered, err = Recover(dir); err != nil {
		return nil, err
	}
	files, err := warcFiles(dir)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if err := w.learn(f); err != nil {
			return nil, err
		}
	}
	w.ww = gowarc.NewWarcFileWriter(
		gowarc.WithFileNameGenerator(&gowarc.PatternNameGenerator{
			Directory: dir,
			Prefix:    filePrefix,
			// The serial follows the files already there, so that a
			// writer opened again within the same second names its first
			// file anew.
			Serial: int32(len(files)),
		}),
		gowarc.WithCompression(true),
		gowarc.WithCompressedFileSuffix(".gz"),
		gowarc.WithOpenFileSuffix(openSuffix),
		gowarc.WithMaxFileSize(opts.MaxFileSize),
		gowarc.WithMaxConcurrentWriters(1),
		gowarc.WithAddWarcConcurrentToHeader(true),
		gowarc.WithWarcInfoFunc(w.warcinfo),
		// Called when a file is closed (rotated or at Close), from within
		// gowarc while w.mu is held by the caller of Write or Close: it
		// only notes the file, whose index is sorted once gowarc returns.
		gowarc.WithAfterFileCreationHook(func(name string, _ int64, _ string) error {
			w.hookMu.Lock()
			w.finished = append(w.finished, filepath.Base(name))
			w.hookMu.Unlock()
			return nil
		}),
	)
	return w, nil
}

// learn reads the index of the finished WARC file warc for the payloads it
// holds.
func (w *Writer) learn(warc string) error {
	lines, err := readLines(filepath.Join(w.dir, indexName(warc)))
	if err != nil {
		return fmt.Errorf("warcfile: %w", err)
	}
	for _, l := range lines {
		e, err := ParseLine(l)
		if err != nil {
			return err
		}
		if e.Mime == "warc/revisit" || e.Digest == "" {
			continue
		}
		t, err := time.Parse(timestamp14, e.Timestamp)
		if err != nil {
			continue
		}
		d := "sha1:" + e.Digest
		if _, ok := w.seen[d]; !ok {
			w.seen[d] = gowarc.RevisitRef{Profile: gowarc.ProfileIdenticalPayloadDigestV1_1,
				TargetUri: e.URL, TargetDate: t.UTC().Format(time.RFC3339)}
		}
	}
	return nil
}

// warcinfo writes the fields of the warcinfo record that begins each file.
func (w *Writer) warcinfo(rb gowarc.WarcRecordBuilder) error {
	fields := [][2]string{
		{"software", w.opts.Software},
		{"format", "WARC File Format 1.1"},
		{"conformsTo", "http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/"},
		{"robots", "obey"},
		{"operator", w.opts.Operator},
		{"http-header-user-agent", w.opts.UserAgent},
	}
	for _, f := range fields {
		if f[1] != "" {
			if _, err := fmt.Fprintf(rb, "%s: %s\r\n", f[0], f[1]); err != nil {
				return err
			}
		}
	}
	return nil
}

// Write archives c: a response record, or a revisit record when its
// payload was archived before, and the request record, in the same file.
//
// Revisits apply across URLs: a response whose payload digest equals that
// of any response archived in this directory, whatever its URL, refers to
// the first. A project never fetches a URL twice, so same-URL revisits
// would almost never occur; the same bytes under several URLs (a page
// with and without a query, one error page for every missing URL, http
// and https) do, and replay tools resolve a revisit by the
// WARC-Refers-To-Target-URI and -Date it carries. An empty payload is
// always written whole: there is nothing to save.
func (w *Writer) Write(c sites.Capture) error {
	_, err := w.WriteDigest(c)
	return err
}

// WriteDigest is [Writer.Write] that returns the payload digest of the
// response it archived (its WARC-Payload-Digest, "sha1:BASE32"), which a
// crawl log gives the fetch, as Heritrix's does; "" when the record has
// none.
func (w *Writer) WriteDigest(c sites.Capture) (digest string, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return "", errors.New("warcfile: write after close")
	}
	at := c.At.UTC().Truncate(time.Second) // the 14-digit CDXJ timestamp holds it whole
	resp, err := responseRecord(c, at)
	if err != nil {
		return "", fmt.Errorf("warcfile: response of %s: %w", c.URL, err)
	}
	defer resp.Close()
	req, err := requestRecord(c, at)
	if err != nil {
		return "", fmt.Errorf("warcfile: request of %s: %w", c.URL, err)
	}
	defer req.Close()

	out := resp
	digest = resp.WarcHeader().Get(gowarc.WarcPayloadDigest)
	ref, dup := w.seen[digest]
	if dup && c.BodyLen() > 0 {
		rv, err := resp.ToRevisitRecord(&ref)
		if err != nil {
			return "", fmt.Errorf("warcfile: revisit of %s: %w", c.URL, err)
		}
		defer rv.Close()
		out = rv
	}

	res := w.ww.Write(out, req)
	if len(res) != 2 {
		return "", errors.New("warcfile: write after close")
	}
	if err := errors.Join(res[0].Err, res[1].Err); err != nil {
		return "", fmt.Errorf("warcfile: write %s: %w", c.URL, err)
	}
	if !dup && digest != "" && c.BodyLen() > 0 {
		r, err := resp.CreateRevisitRef(gowarc.ProfileIdenticalPayloadDigestV1_1)
		if err == nil {
			w.seen[digest] = *r
		}
	}
	if err := w.finishIndexes(); err != nil {
		return "", err
	}
	e, _ := entryOf(out)
	e.Offset, e.Filename = res[0].FileOffset, res[0].FileName
	if res[1].FileName == res[0].FileName {
		e.Length = res[1].FileOffset - e.Offset
	} else {
		// The file was rotated between the two records.
		fi, err := os.Stat(filepath.Join(w.dir, res[0].FileName))
		if err != nil {
			return "", fmt.Errorf("warcfile: %w", err)
		}
		e.Length = fi.Size() - e.Offset
	}
	return digest, w.appendIndex(e)
}

// appendIndex adds e to the open index of its file, opening the index
// first if it is not.
func (w *Writer) appendIndex(e Entry) error {
	if w.indexOf != e.Filename {
		if fi, err := os.Stat(filepath.Join(w.dir, e.Filename)); err == nil && fi.Mode().IsRegular() {
			// The record's file is closed already (rotated between
			// response and request): index it again whole.
			return reindex(w.dir, e.Filename)
		}
		f, err := os.OpenFile(filepath.Join(w.dir, indexName(e.Filename)+openSuffix), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return fmt.Errorf("warcfile: %w", err)
		}
		w.index, w.indexOf = f, e.Filename
	}
	if _, err := w.index.WriteString(e.String() + "\n"); err != nil {
		return fmt.Errorf("warcfile: index of %s: %w", e.Filename, err)
	}
	return nil
}

// finishIndexes sorts the indexes of the files gowarc closed.
func (w *Writer) finishIndexes() error {
	w.hookMu.Lock()
	names := w.finished
	w.finished = nil
	w.hookMu.Unlock()
	var errs []error
	for _, name := range names {
		if w.indexOf == name {
			errs = append(errs, w.index.Close())
			w.index, w.indexOf = nil, ""
		}
		open := filepath.Join(w.dir, indexName(name)+openSuffix)
		lines, err := readLines(open)
		if err == nil {
			err = writeIndex(w.dir, name, lines)
		} else if errors.Is(err, os.ErrNotExist) {
			err = reindex(w.dir, name)
		}
		if err == nil {
			err = os.Remove(open)
			if errors.Is(err, os.ErrNotExist) {
				err = nil
			}
		}
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// Close closes the file being written and sorts its index. Write fails
// after Close.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil
	}
	w.closed = true
	err := w.ww.Close()
	return errors.Join(err, w.finishIndexes())
}

// responseRecord builds the response record of c.
func responseRecord(c sites.Capture, at time.Time) (gowarc.WarcRecord, error) {
	rb := gowarc.NewRecordBuilder(gowarc.Response)
	rb.AddWarcHeader(gowarc.WarcTargetURI, c.URL)
	rb.AddWarcHeaderTime(gowarc.WarcDate, at)
	rb.AddWarcHeader(gowarc.ContentType, "application/http;msgtype=response")
	if c.RemoteIP != "" {
		rb.AddWarcHeader(gowarc.WarcIPAddress, c.RemoteIP)
	}
	if c.Truncated != "" {
		rb.AddWarcHeader(gowarc.WarcTruncated, c.Truncated)
	}
	proto := c.Proto
	if proto == "" {
		proto = "HTTP/1.1"
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s\r\n", proto, c.Status)
	writeHeader(&b, c.ResponseHeader)
	// The body goes to the record as it is (the record keeps what passes a
	// megabyte on disk): a copy beside the header would hold a page of up
	// to MaxBodySize twice over.
	if _, err := rb.Write(b.Bytes()); err != nil {
		rb.Close()
		return nil, err
	}
	if _, err := io.Copy(rb, c.BodyReader()); err != nil {
		rb.Close()
		return nil, err
	}
	rec, _, err := rb.Build()
	return rec, err
}

// requestRecord builds the request record of c.
func requestRecord(c sites.Capture, at time.Time) (gowarc.WarcRecord, error) {
	rb := gowarc.NewRecordBuilder(gowarc.Request)
	rb.AddWarcHeader(gowarc.WarcTargetURI, c.URL)
	rb.AddWarcHeaderTime(gowarc.WarcDate, at)
	rb.AddWarcHeader(gowarc.ContentType, "application/http;msgtype=request")
	target := "/"
	if u, err := url.Parse(c.URL); err == nil {
		target = u.RequestURI()
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\n", c.Method, target)
	writeHeader(&b, c.RequestHeader)
	if _, err := rb.Write(b.Bytes()); err != nil {
		rb.Close()
		return nil, err
	}
	rec, _, err := rb.Build()
	return rec, err
}

// writeHeader writes h and the empty line after it. net/http keeps header
// fields in a map, so their order on the wire is lost: Host comes first,
// as it is sent, and the others in the order of their names.
func writeHeader(b *bytes.Buffer, h http.Header) {
	if v := h.Get("Host"); v != "" {
		fmt.Fprintf(b, "Host: %s\r\n", v)
	}
	keys := make([]string, 0, len(h))
	for k := range h {
		if k != "Host" {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		for _, v := range h[k] {
			// A field value cannot hold a line break; net/http refuses
			// them, this is for captures made otherwise.
			v = strings.NewReplacer("\r", " ", "\n", " ").Replace(v)
			fmt.Fprintf(b, "%s: %s\r\n", k, v)
		}
	}
	b.WriteString("\r\n")
}
