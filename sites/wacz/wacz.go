package wacz

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"os"
	"slices"
	"strings"
	"time"
)

// Version is the version of the WACZ specification the files follow.
const Version = "1.1.1"

// Paths of the files of a WACZ besides its WARC files.
const (
	ArchiveDir     = "archive/"
	IndexPath      = "indexes/index.cdxj"
	PagesPath      = "pages/pages.jsonl"
	DataPackage    = "datapackage.json"
	DataPackageSum = "datapackage-digest.json"
)

// PagesHeader is the first line of pages.jsonl.
const PagesHeader = `{"format":"json-pages-1.0","id":"pages","title":"All Pages"}`

// Archive is one WARC file to package: Name is its name under archive/
// (the filename its index lines give), Path where it is read from.
type Archive struct {
	Name string
	Path string
}

// Page is one line of pages.jsonl: a captured page a reader lists and
// opens, at the time of its capture.
type Page struct {
	URL   string
	Time  time.Time
	Title string // "" when the page has none
}

// Package is what a WACZ file holds.
type Package struct {
	Title    string    // the collection's title in datapackage.json
	Software string    // the program that wrote it, "name version"
	Created  time.Time // zero: now
	Archives []Archive
	// Index holds the CDXJ lines of every capture of Archives, each
	// naming its WARC file by its Name; they are sorted before writing.
	Index []string
	Pages []Page
}

// Resource is one file of a WACZ as datapackage.json describes it.
type Resource struct {
	Name  string `json:"name"`
	Path  string `json:"path"`
	Hash  string `json:"hash"` // "sha256:" and the hex digest
	Bytes int64  `json:"bytes"`
}

// Manifest is datapackage.json.
type Manifest struct {
	Profile     string     `json:"profile"`
	Resources   []Resource `json:"resources"`
	WACZVersion string     `json:"wacz_version"`
	Software    string     `json:"software"`
	Created     string     `json:"created"`
	Title       string     `json:"title,omitempty"`
}

// Digest is datapackage-digest.json: the digest of datapackage.json.
type Digest struct {
	Path string `json:"path"`
	Hash string `json:"hash"`
}

// pageLine is a line of pages.jsonl after its header.
type pageLine struct {
	ID    string `json:"id"`
	URL   string `json:"url"`
	TS    string `json:"ts"`
	Title string `json:"title,omitempty"`
}

// Write writes p to w as a WACZ file. It stops when ctx is cancelled,
// between WARC files and while copying one; what it wrote to w by then is
// not a WACZ file, and the caller discards it.
func Write(ctx context.Context, w io.Writer, p Package) error {
	if len(p.Archives) == 0 {
		return errors.New("wacz: no WARC file to package")
	}
	created := p.Created
	if created.IsZero() {
		created = time.Now()
	}
	created = created.UTC().Truncate(time.Second)
	seen := map[string]bool{}
	for _, a := range p.Archives {
		if a.Name == "" || strings.ContainsAny(a.Name, `/\`) || seen[a.Name] {
			return fmt.Errorf("wacz: WARC file name %q: want a plain name, once", a.Name)
		}
		seen[a.Name] = true
	}
	zw := zip.NewWriter(w)
	m := Manifest{Profile: "data-package", WACZVersion: Version, Software: p.Software,
		Created: created.Format(time.RFC3339), Title: p.Title}
	for _, a := range p.Archives {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("wacz: %w", err)
		}
		r, err := storeFile(ctx, zw, ArchiveDir+a.Name, a.Path, created)
		if err != nil {
			return err
		}
		m.Resources = append(m.Resources, r)
	}
	index := slices.Clone(p.Index)
	slices.Sort(index)
	var b bytes.Buffer
	for _, l := range index {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	r, err := storeBytes(zw, IndexPath, b.Bytes(), created)
	if err != nil {
		return err
	}
	m.Resources = append(m.Resources, r)
	if r, err = storeBytes(zw, PagesPath, pagesJSONL(p.Pages), created); err != nil {
		return err
	}
	m.Resources = append(m.Resources, r)
	dp, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("wacz: %s: %w", DataPackage, err)
	}
	if r, err = storeBytes(zw, DataPackage, dp, created); err != nil {
		return err
	}
	dg, err := json.MarshalIndent(Digest{Path: DataPackage, Hash: r.Hash}, "", "  ")
	if err != nil {
		return fmt.Errorf("wacz: %s: %w", DataPackageSum, err)
	}
	if _, err = storeBytes(zw, DataPackageSum, dg, created); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("wacz: end of the ZIP: %w", err)
	}
	return nil
}

// pagesJSONL is pages.jsonl of pages: its header, then a line a page with
// an id made of its URL, time and place, so that the same package gives
// the same ids.
func pagesJSONL(pages []Page) []byte {
	var b bytes.Buffer
	b.WriteString(PagesHeader)
	b.WriteByte('\n')
	for i, pg := range pages {
		ts := pg.Time.UTC().Format(time.RFC3339)
		sum := sha256.Sum256(fmt.Appendf(nil, "%d %s %s", i, ts, pg.URL))
		line, _ := json.Marshal(pageLine{ID: hex.EncodeToString(sum[:16]), URL: pg.URL, TS: ts, Title: pg.Title})
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// resource describes the file of name stored at path with its digest.
func resource(path string, sum hash.Hash, n int64) Resource {
	return Resource{Name: path[strings.LastIndexByte(path, '/')+1:], Path: path,
		Hash: "sha256:" + hex.EncodeToString(sum.Sum(nil)), Bytes: n}
}

// storeBytes stores data as the entry path.
func storeBytes(zw *zip.Writer, path string, data []byte, mod time.Time) (Resource, error) {
	n := int64(len(data))
	fw, err := zw.CreateRaw(&zip.FileHeader{Name: path, Method: zip.Store, Modified: mod,
		CRC32: crc32.ChecksumIEEE(data), CompressedSize64: uint64(n), UncompressedSize64: uint64(n)})
	if err == nil {
		_, err = fw.Write(data)
	}
	if err != nil {
		return Resource{}, fmt.Errorf("wacz: write %s: %w", path, err)
	}
	sum := sha256.New()
	sum.Write(data)
	return resource(path, sum, n), nil
}

// storeFile stores the file at src as the entry path: a first read for
// its size, CRC-32 and digest, a second to copy it, checked against the
// first so that a file changed in between is an error and not a ZIP entry
// whose CRC-32 lies.
func storeFile(ctx context.Context, zw *zip.Writer, path, src string, mod time.Time) (Resource, error) {
	f, err := os.Open(src)
	if err != nil {
		return Resource{}, fmt.Errorf("wacz: %s: %w", path, err)
	}
	defer f.Close()
	crc, sum := crc32.NewIEEE(), sha256.New()
	n, err := io.Copy(io.MultiWriter(crc, sum), ctxReader{ctx, f})
	if err != nil {
		return Resource{}, fmt.Errorf("wacz: read %s: %w", src, err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return Resource{}, fmt.Errorf("wacz: read %s: %w", src, err)
	}
	fw, err := zw.CreateRaw(&zip.FileHeader{Name: path, Method: zip.Store, Modified: mod,
		CRC32: crc.Sum32(), CompressedSize64: uint64(n), UncompressedSize64: uint64(n)})
	if err != nil {
		return Resource{}, fmt.Errorf("wacz: write %s: %w", path, err)
	}
	again := crc32.NewIEEE()
	copied, err := io.Copy(io.MultiWriter(fw, again), io.LimitReader(ctxReader{ctx, f}, n))
	if err != nil {
		return Resource{}, fmt.Errorf("wacz: write %s from %s at byte %d: %w", path, src, copied, err)
	}
	if copied != n || again.Sum32() != crc.Sum32() {
		return Resource{}, fmt.Errorf("wacz: %s changed while it was packaged (%d bytes, then %d)", src, n, copied)
	}
	return resource(path, sum, n), nil
}

// ctxReader is r that fails once ctx is done, so that a copy of a large
// file stops on cancel.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
