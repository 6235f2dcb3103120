package warcfile

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/nlnwa/gowarc"

	"sitesift/sites/wholefile"
)

// Entry is one line of a CDXJ index: a capture (a response, revisit or
// resource record) and where its record lies.
type Entry struct {
	SURT      string // SURT(URL), the sort key
	Timestamp string // WARC-Date as 14 digits, UTC
	URL       string
	Mime      string // media type of the payload; "warc/revisit" for a revisit
	Status    string // HTTP status; "" for a resource
	Digest    string // payload digest without its "sha1:" label
	Length    int64  // bytes of the (gzip) record in the file
	Offset    int64  // where the record starts in the file
	Filename  string
}

// entryJSON is the JSON block of a CDXJ line, numbers as strings as pywb
// writes them.
type entryJSON struct {
	URL      string `json:"url"`
	Mime     string `json:"mime"`
	Status   string `json:"status,omitempty"`
	Digest   string `json:"digest"`
	Length   string `json:"length"`
	Offset   string `json:"offset"`
	Filename string `json:"filename"`
}

// String returns e as a CDXJ line without its newline:
// `SURT TIMESTAMP {"url": …}`.
func (e Entry) String() string {
	b, _ := json.Marshal(entryJSON{URL: e.URL, Mime: e.Mime, Status: e.Status, Digest: e.Digest,
		Length: fmt.Sprint(e.Length), Offset: fmt.Sprint(e.Offset), Filename: e.Filename})
	return e.SURT + " " + e.Timestamp + " " + string(b)
}

// IsPage reports whether e is the capture of a page a person would open:
// an HTML document answered with a 2xx status (what a WACZ file's
// pages.jsonl lists).
func (e Entry) IsPage() bool {
	return strings.HasPrefix(e.Status, "2") && (e.Mime == "text/html" || e.Mime == "application/xhtml+xml")
}

// Time is e's capture time, parsed from its 14-digit Timestamp (UTC).
func (e Entry) Time() (time.Time, error) {
	return time.Parse(timestamp14, e.Timestamp)
}

// ParseLine parses a CDXJ line written by [Entry.String].
func ParseLine(line string) (Entry, error) {
	key, rest, ok1 := strings.Cut(line, " ")
	ts, js, ok2 := strings.Cut(rest, " ")
	if !ok1 || !ok2 {
		return Entry{}, fmt.Errorf("warcfile: CDXJ line %q: want SURT TIMESTAMP JSON", line)
	}
	var j entryJSON
	if err := json.Unmarshal([]byte(js), &j); err != nil {
		return Entry{}, fmt.Errorf("warcfile: CDXJ line %q: %w", line, err)
	}
	e := Entry{SURT: key, Timestamp: ts, URL: j.URL, Mime: j.Mime, Status: j.Status, Digest: j.Digest, Filename: j.Filename}
	if _, err := fmt.Sscan(j.Length, &e.Length); err != nil {
		return Entry{}, fmt.Errorf("warcfile: CDXJ line %q: length: %w", line, err)
	}
	if _, err := fmt.Sscan(j.Offset, &e.Offset); err != nil {
		return Entry{}, fmt.Errorf("warcfile: CDXJ line %q: offset: %w", line, err)
	}
	return e, nil
}

const timestamp14 = "20060102150405"

// entryOf returns the index entry of rec, without its place in a file;
// ok is false for a record that is not indexed (warcinfo, request,
// metadata).
func entryOf(rec gowarc.WarcRecord) (e Entry, ok bool) {
	switch rec.Type() {
	case gowarc.Response, gowarc.Revisit, gowarc.Resource:
	default:
		return Entry{}, false
	}
	h := rec.WarcHeader()
	e.URL = h.Get(gowarc.WarcTargetURI)
	e.SURT = SURT(e.URL)
	if t, err := time.Parse(time.RFC3339Nano, h.Get(gowarc.WarcDate)); err == nil {
		e.Timestamp = t.UTC().Format(timestamp14)
	}
	d := h.Get(gowarc.WarcPayloadDigest)
	if rec.Type() == gowarc.Resource && d == "" {
		d = h.Get(gowarc.WarcBlockDigest)
	}
	e.Digest = strings.TrimPrefix(d, "sha1:")
	e.Mime = mediaType(h.Get(gowarc.ContentType))
	if pb, isHTTP := rec.Block().(gowarc.ProtocolHeaderBlock); isHTTP {
		e.Status, e.Mime = httpHead(pb.ProtocolHeaderBytes())
	}
	if rec.Type() == gowarc.Revisit {
		e.Mime = "warc/revisit"
	}
	return e, true
}

// httpHead returns the status code and the media type of the HTTP
// response head b. It reads only the status line and Content-Type, and
// leniently, as replay tools do: archived servers did not all follow the
// RFCs that net/http enforces.
func httpHead(b []byte) (status, mt string) {
	lines := strings.Split(string(b), "\n")
	if f := strings.Fields(lines[0]); len(f) >= 2 && strings.HasPrefix(f[0], "HTTP/") {
		status = f[1]
	}
	mt = "unk"
	for _, l := range lines[1:] {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.EqualFold(strings.TrimSpace(k), "Content-Type") {
			mt = mediaType(strings.TrimSpace(v))
			break
		}
	}
	return status, mt
}

// mediaType is the media type of a Content-Type field, lower-case without
// parameters; "unk" when there is none, as pywb writes it.
func mediaType(ct string) string {
	if mt, _, err := mime.ParseMediaType(ct); err == nil {
		return mt
	}
	if mt := strings.ToLower(strings.TrimSpace(strings.Split(ct, ";")[0])); mt != "" {
		return mt
	}
	return "unk"
}

// ReadIndex indexes the WARC file read from r (gzip or not) whose name is
// filename: one entry per response, revisit and resource record, in file
// order. It reads records with gowarc and so checks them, digests
// included: the indexed records it finds invalid are counted in bad, and
// indexed still.
func ReadIndex(r io.Reader, filename string) (entries []Entry, bad int, err error) {
	wr, err := gowarc.NewWarcFileReaderFromStream(r, 0)
	if err != nil {
		return nil, 0, fmt.Errorf("warcfile: index %s: %w", filename, err)
	}
	defer wr.Close()
	last := -1 // the entry whose length ends at the next record
	for {
		rec, off, val, err := wr.Next()
		if last >= 0 {
			entries[last].Length = off - entries[last].Offset
			last = -1
		}
		if errors.Is(err, io.EOF) {
			return entries, bad, nil
		}
		if err != nil {
			return entries, bad, fmt.Errorf("warcfile: index %s at offset %d: %w", filename, off, err)
		}
		if e, ok := entryOf(rec); ok {
			if !val.Valid() {
				bad++
			}
			e.Offset, e.Filename = off, filename
			entries = append(entries, e)
			last = len(entries) - 1
		}
	}
}

// indexName is the name of the index of the WARC file named warc.
func indexName(warc string) string { return strings.TrimSuffix(warc, ".warc.gz") + ".cdxj" }

// writeIndex writes the sorted index of the WARC file named warc in dir
// from lines, through a temporary file so that the index is whole or
// absent.
func writeIndex(dir, warc string, lines []string) error {
	slices.Sort(lines)
	path := filepath.Join(dir, indexName(warc))
	err := wholefile.Write(path, func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		for _, l := range lines {
			bw.WriteString(l)
			bw.WriteByte('\n')
		}
		return bw.Flush()
	})
	if err != nil {
		return fmt.Errorf("warcfile: index of %s: %w", warc, err)
	}
	return nil
}

// readLines returns the lines of the file at path.
func readLines(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return strings.FieldsFunc(string(b), func(r rune) bool { return r == '\n' }), nil
}

// reindex indexes the WARC file named warc in dir anew.
func reindex(dir, warc string) error {
	f, err := os.Open(filepath.Join(dir, warc))
	if err != nil {
		return fmt.Errorf("warcfile: %w", err)
	}
	defer f.Close()
	entries, _, err := ReadIndex(f, warc)
	if err != nil {
		return err
	}
	lines := make([]string, len(entries))
	for i, e := range entries {
		lines[i] = e.String()
	}
	return writeIndex(dir, warc, lines)
}

// Index returns the index of the finished WARC file named name in dir, in
// its sorted order: the entries of its CDXJ file, or, when that is
// missing, of the file read again.
func Index(dir, name string) ([]Entry, error) {
	f, err := OpenFile(dir, name)
	if err != nil {
		return nil, err
	}
	f.Close()
	lines, err := readLines(filepath.Join(dir, indexName(name)))
	if errors.Is(err, os.ErrNotExist) {
		if err := reindex(dir, name); err != nil {
			return nil, err
		}
		lines, err = readLines(filepath.Join(dir, indexName(name)))
	}
	if err != nil {
		return nil, fmt.Errorf("warcfile: index of %s: %w", name, err)
	}
	entries := make([]Entry, len(lines))
	for i, l := range lines {
		if entries[i], err = ParseLine(l); err != nil {
			return nil, fmt.Errorf("warcfile: index of %s, line %d: %w", name, i+1, err)
		}
	}
	return entries, nil
}
