package imports

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"sitesift/app/fault"
	"sitesift/app/project"
	"sitesift/sites/store"
)

// Kinds of archive file an import reads.
const (
	KindWARC       = "warc"
	KindCDX        = "cdx"
	KindCrawlLog   = "crawl-log"
	KindCCVertices = "cc-vertices"
	KindCCEdges    = "cc-edges"
	KindCCRanks    = "cc-ranks"
)

// ArchiveImportRequest names the files of an import from web archives and
// crawl engines; any mix of kinds may be given. WARC files are WARC or
// ARC files; a WARC path may be a directory: its *.warc, *.warc.gz, *.arc
// and *.arc.gz files are read, in name order.
type ArchiveImportRequest struct {
	WARC     []string `json:"warc,omitempty"`
	CDX      []string `json:"cdx,omitempty"`
	CrawlLog []string `json:"crawl_log,omitempty"`
	// The Common Crawl host graph: vertices and edges files (both needed),
	// and optionally ranks; TLDs and HostSuffixes choose the slice kept.
	CCVertices   []string `json:"cc_vertices,omitempty"`
	CCEdges      []string `json:"cc_edges,omitempty"`
	CCRanks      []string `json:"cc_ranks,omitempty"`
	TLDs         []string `json:"tld,omitempty"`
	HostSuffixes []string `json:"host_suffix,omitempty"`
}

// hostGraph says whether r names files of the Common Crawl host graph.
func (r ArchiveImportRequest) hostGraph() bool {
	return len(r.CCVertices)+len(r.CCEdges)+len(r.CCRanks) > 0
}

// ArchiveFileResult is what an import did with one file.
type ArchiveFileResult struct {
	Kind string `json:"kind"`
	Path string `json:"path"`
	Size int64  `json:"size"`
	// Skipped says the file (the same size and digest, and for the
	// Common Crawl host graph the same slice) was imported before, as
	// Previous; nothing was read from it again.
	Skipped  bool   `json:"skipped,omitempty"`
	Previous string `json:"previous,omitempty"`
	// Summary is what the file held and added (the counts of each kind's
	// summary type: WARCSummary…).
	Summary any `json:"summary,omitempty"`
	// Warnings say what of the file, read whole, other tools would have
	// trouble with (records sharing gzip members…).
	Warnings []string `json:"warnings,omitempty"`
}

// ArchiveImportResult is what an import did.
type ArchiveImportResult struct {
	Files []ArchiveFileResult `json:"files"`
	// OPICReads is the number of reads of the offline OPIC simulation run
	// afterwards on the whole site graph (0 when nothing was added).
	OPICReads int `json:"opic_reads"`
	// Indexed is the number of pages added to the search index.
	Indexed int `json:"indexed"`
}

// ImportProgress is how far an import is.
type ImportProgress struct {
	// File is the file being read, Kind its kind, Phase "digest" (its
	// SHA-256 is computed to find whether it was imported before), "read",
	// "rank" (PageRank and OPIC of the whole graph) or "index".
	File  string `json:"file"`
	Kind  string `json:"kind"`
	Phase string `json:"phase"`
	// Files is the number of files, FilesDone those finished.
	Files     int `json:"files"`
	FilesDone int `json:"files_done"`
	// BytesDone of BytesTotal: each file counts twice its size, once for
	// its digest and once for its read.
	BytesDone  int64 `json:"bytes_done"`
	BytesTotal int64 `json:"bytes_total"`
}

// archiveInput is one file of an import, checked.
type archiveInput struct {
	kind, path string
	size       int64
}

// checkArchiveRequest expands directories and checks that every file
// exists, is a regular file and can be read; the error names the path.
func checkArchiveRequest(req ArchiveImportRequest) ([]archiveInput, error) {
	var in []archiveInput
	// keep adds a file to read; an empty one, a copy cut short or a file
	// still being written, is refused with the others before any is read.
	keep := func(kind, p string, size int64) error {
		if size == 0 {
			return fault.Invalid(fmt.Errorf("import: %s file %s is empty (0 bytes): nothing was imported", kind, p))
		}
		in = append(in, archiveInput{kind, p, size})
		return nil
	}
	add := func(kind string, paths []string, dirs bool) error {
		for _, p := range paths {
			p = strings.TrimSpace(p)
			if p == "" {
				return fault.Invalid(fmt.Errorf("import: an empty %s path", kind))
			}
			fi, err := os.Stat(p)
			if err != nil {
				return fault.Invalid(fmt.Errorf("import: %s file %s: %w", kind, p, unwrapPathError(err)))
			}
			if fi.IsDir() {
				if !dirs {
					return fault.Invalid(fmt.Errorf("import: %s %s is a directory, not a file", kind, p))
				}
				files, err := warcFilesIn(p)
				if err != nil {
					return fault.Invalid(fmt.Errorf("import: WARC directory %s: %w", p, err))
				}
				if len(files) == 0 {
					return fault.Invalid(fmt.Errorf("import: WARC directory %s holds no .warc, .warc.gz, .arc or .arc.gz file", p))
				}
				for _, f := range files {
					fi, err := os.Stat(f)
					if err != nil {
						return fault.Invalid(fmt.Errorf("import: WARC file %s: %w", f, unwrapPathError(err)))
					}
					if err := keep(kind, f, fi.Size()); err != nil {
						return err
					}
				}
				continue
			}
			if !fi.Mode().IsRegular() {
				return fault.Invalid(fmt.Errorf("import: %s %s is not a regular file", kind, p))
			}
			f, err := os.Open(p)
			if err != nil {
				return fault.Invalid(fmt.Errorf("import: %s file %s cannot be read: %w", kind, p, unwrapPathError(err)))
			}
			f.Close()
			if err := keep(kind, p, fi.Size()); err != nil {
				return err
			}
		}
		return nil
	}
	for _, k := range []struct {
		kind  string
		paths []string
	}{{KindWARC, req.WARC}, {KindCDX, req.CDX}, {KindCrawlLog, req.CrawlLog},
		{KindCCVertices, req.CCVertices}, {KindCCEdges, req.CCEdges}, {KindCCRanks, req.CCRanks}} {
		if err := add(k.kind, k.paths, k.kind == KindWARC); err != nil {
			return nil, err
		}
	}
	cc := req.hostGraph()
	if cc && (len(req.CCVertices) == 0 || len(req.CCEdges) == 0) {
		return nil, fault.Invalid(errors.New("import: the Common Crawl host graph needs both its vertices and its edges files"))
	}
	if cc && len(req.TLDs) == 0 && len(req.HostSuffixes) == 0 {
		return nil, fault.Invalid(errors.New("import: a Common Crawl import needs a slice: --tld (fr) or --host-suffix (bnf.fr,gouv.fr)"))
	}
	if !cc && len(req.TLDs)+len(req.HostSuffixes) > 0 {
		return nil, fault.Invalid(errors.New("import: --tld and --host-suffix choose a slice of the Common Crawl host graph, and none was given"))
	}
	for _, s := range append(slices.Clone(req.TLDs), req.HostSuffixes...) {
		if t := strings.Trim(strings.TrimSpace(s), "."); t == "" || strings.ContainsAny(t, " /:") {
			return nil, fault.Invalid(fmt.Errorf("import: %q is no TLD or host suffix", s))
		}
	}
	if len(in) == 0 {
		return nil, fault.Invalid(errors.New("import: no file given"))
	}
	return in, nil
}

// ccSliceName names the slice of the Common Crawl host graph req keeps as
// its flags would give it, "--tld fr --host-suffix bnf.fr,gouv.fr", each
// list lower-cased, without dots at its ends, sorted and without repeats,
// so that one slice has one name however it was typed; "" for an import
// without the host graph.
func ccSliceName(req ArchiveImportRequest) string {
	if !req.hostGraph() {
		return ""
	}
	var parts []string
	for _, l := range []struct {
		flag  string
		names []string
	}{{"--tld", req.TLDs}, {"--host-suffix", req.HostSuffixes}} {
		var names []string
		for _, n := range l.names {
			names = append(names, strings.Trim(strings.ToLower(strings.TrimSpace(n)), "."))
		}
		slices.Sort(names)
		if names = slices.Compact(names); len(names) > 0 {
			parts = append(parts, l.flag+" "+strings.Join(names, ","))
		}
	}
	return strings.Join(parts, " ")
}

// checkCCSlice refuses to import the slice named slice of the Common Crawl
// host graph into a project that holds another one: the links between the
// two slices' hosts would be in neither, and those inside both counted
// twice. A vertices file that kept no host holds no slice.
func (s *Service) checkCCSlice(ctx context.Context, slice string) error {
	if slice == "" {
		return nil
	}
	done, err := s.store.ArchiveImports(ctx)
	if err != nil {
		return err
	}
	for _, r := range done {
		if r.Kind != KindCCVertices || r.Slice == "" || r.Slice == slice {
			continue
		}
		var sum CCVerticesSummary
		if err := json.Unmarshal(r.Summary, &sum); err != nil || sum.Kept == 0 {
			continue
		}
		return fault.Conflict(fmt.Errorf("import: this project holds the Common Crawl slice %s (from %s), not %s: "+
			"a slice is imported whole into a project of its own; to hold both, import them together "+
			"(one list of TLDs and host suffixes) into a new project", r.Slice, r.Path, slice))
	}
	return nil
}

// unwrapPathError drops the path an *fs.PathError repeats.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// warcFilesIn returns the WARC and ARC files under dir, in name order.
func warcFilesIn(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		n := strings.ToLower(d.Name())
		if d.Type().IsRegular() && (strings.HasSuffix(n, ".warc") || strings.HasSuffix(n, ".warc.gz") ||
			strings.HasSuffix(n, ".arc") || strings.HasSuffix(n, ".arc.gz")) {
			out = append(out, p)
		}
		return nil
	})
	slices.Sort(out)
	return out, err
}

// ImportArchives imports web archives and crawl engines' output into the
// project, crawled or not, adding to what it holds: WARC files (pages, their
// text and links; ARC files alike), CDX indexes (what the archive holds per site), crawl.log
// files (a crawl's page graph) and a slice of the Common Crawl host graph.
// Every file is checked first (it exists and can be read). Each file is
// then read as a stream and what it adds is committed with it: a bad file
// stops the import with an error naming it and the byte offset or line,
// nothing of it kept, and the files before it stay imported. A file
// imported before (same kind, size and SHA-256, and the same slice of the
// Common Crawl host graph) is skipped, so running the same import twice
// changes nothing. A project holds one slice of the host graph: another
// is refused before anything is read, and so is a slice that keeps none of
// the vertices files' hosts, before its edges are read. Afterwards PageRank and the OPIC
// simulation are recomputed on the whole site graph, as after an edge-list
// import, and new pages are indexed for search, also when a file failed
// (and when every file was imported before: a run killed after its files
// were committed leaves them to the next). A file that adds to the graph
// marks the importance stale as it is committed, and saving the importance
// clears the mark: until then the rankings, seeds and exports refuse
// ([ranking.ErrImportanceStale]), and opening the project finishes the ranking
// ([Service.RepairImportance]).
//
// progress, when not nil, is called as the import goes.
func (s *Service) ImportArchives(ctx context.Context, req ArchiveImportRequest, progress func(ImportProgress)) (ArchiveImportResult, error) {
	in, err := checkArchiveRequest(req)
	if err != nil {
		return ArchiveImportResult{}, err
	}
	if s.crawling != nil && s.crawling() {
		return ArchiveImportResult{}, fault.Conflict(errors.New("import: a crawl is running; stop it or wait for its end"))
	}
	slice := ccSliceName(req)
	if err := s.checkCCSlice(ctx, slice); err != nil {
		return ArchiveImportResult{}, err
	}
	var p ImportProgress
	p.Files = len(in)
	for _, f := range in {
		p.BytesTotal += 2 * f.size
	}
	report := func() {
		if progress != nil {
			progress(p)
		}
	}
	var res ArchiveImportResult
	added := false
	imp := &archiveImporter{s: s, req: req}
	err = func() error {
		for _, f := range in {
			p.File, p.Kind = f.path, f.kind
			base := p.BytesDone
			counter := func(phase string, off int64) func(int64) {
				p.Phase = phase
				report()
				return func(n int64) {
					p.BytesDone = base + off + n
					report()
				}
			}
			digest, err := fileDigest(ctx, f.path, counter("digest", 0))
			if err != nil {
				return err
			}
			af := store.ArchiveFile{Kind: f.kind, Path: f.path, Size: f.size, Digest: digest}
			if f.kind == KindCCVertices || f.kind == KindCCEdges || f.kind == KindCCRanks {
				af.Slice = slice
			}
			if f.kind == KindCCEdges && len(imp.slice().sites) == 0 {
				return fault.Invalid(fmt.Errorf("import: the slice %s keeps none of the %d hosts of the cc-vertices files: "+
					"nothing of the host graph was imported; check the TLDs and host suffixes", slice, imp.slice().hosts))
			}
			prev, done, err := s.store.ArchiveImported(ctx, af)
			if err != nil {
				return err
			}
			r := ArchiveFileResult{Kind: f.kind, Path: f.path, Size: f.size}
			if done {
				r.Skipped, r.Previous, r.Summary = true, prev.Path, prev.Summary
				// The run that imported it may have been killed before
				// the importance and the index caught up: computing
				// them again gives the same values if it was not.
				added = true
			}
			sum, wrote, err := imp.importFile(ctx, af, done, counter("read", f.size))
			if err != nil {
				return err
			}
			if !done {
				r.Summary = sum
				added = added || wrote
				if w, ok := sum.(interface{ fileWarnings() []string }); ok {
					r.Warnings = w.fileWarnings()
				}
			}
			res.Files = append(res.Files, r)
			p.FilesDone++
			p.BytesDone = base + 2*f.size
			report()
		}
		return nil
	}()
	actx := context.WithoutCancel(ctx)
	// A file that added to the graph marked the importance stale when it
	// was committed; so did one of a run killed before it ranked.
	stale, serr := s.store.ImportanceStale(actx)
	if serr != nil {
		return res, errors.Join(err, fmt.Errorf("import: %w", serr))
	}
	if added || stale {
		// Also after a failed file: the files before it are in the graph.
		p.Phase, p.File, p.Kind = "rank", "", ""
		report()
		reads, rerr := s.ranking.UpdateImportedImportance(actx)
		if rerr != nil {
			return res, errors.Join(err, fmt.Errorf("import: PageRank and OPIC: %w", rerr))
		}
		res.OPICReads = reads
		p.Phase = "index"
		report()
		n, ierr := s.store.Unindexed(actx)
		if ierr == nil {
			ierr = project.CatchUpIndex(actx, s.store, s.index, nil)
		}
		if ierr != nil {
			return res, errors.Join(err, fmt.Errorf("import: search index: %w", ierr))
		}
		res.Indexed = n
	}
	if err != nil {
		var ae *fault.Error
		if errors.As(err, &ae) || errors.Is(err, context.Canceled) {
			return res, err
		}
		return res, fault.Invalid(err)
	}
	return res, nil
}

// archiveImporter carries what the files of one import share: the Common
// Crawl slice's vertex ids, read from the vertices files before the edges.
type archiveImporter struct {
	s   *Service
	req ArchiveImportRequest
	cc  *ccSlice
	// docs are the pages' extractions of the import's WARC files so far,
	// by warcKey, reused for the same responses met again.
	docs *docCache
}

// importFile reads one file and, unless skip, stores what it holds; the
// vertices of a Common Crawl graph are read even when skipped, since the
// edges need them. It returns the file's summary and whether it wrote
// anything the site graph or the pages hold.
func (im *archiveImporter) importFile(ctx context.Context, f store.ArchiveFile, skip bool, read func(int64)) (any, bool, error) {
	switch f.Kind {
	case KindWARC:
		if skip {
			return nil, false, nil
		}
		return im.importWARC(ctx, f, read)
	case KindCDX:
		if skip {
			return nil, false, nil
		}
		return im.importCDX(ctx, f, read)
	case KindCrawlLog:
		if skip {
			return nil, false, nil
		}
		return im.importCrawlLog(ctx, f, read)
	case KindCCVertices:
		return im.importCCVertices(ctx, f, skip, read)
	case KindCCEdges:
		if skip {
			return nil, false, nil
		}
		return im.importCCEdges(ctx, f, read)
	case KindCCRanks:
		if skip {
			return nil, false, nil
		}
		return im.importCCRanks(ctx, f, read)
	}
	return nil, false, fmt.Errorf("import: unknown kind %q", f.Kind)
}

// fileDigest returns "sha256:HEX" of the file at path.
func fileDigest(ctx context.Context, path string, progress func(int64)) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fault.Invalid(fmt.Errorf("import: %s: %w", path, unwrapPathError(err)))
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, newProgressReader(ctx, f, progress)); err != nil {
		return "", fmt.Errorf("import: digest of %s: %w", path, err)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// openArchive opens a file of an import for its read, counting the bytes
// read for progress and stopping at ctx's end. It can seek (the WARC
// reader checks a gzip file's members before it reads the records).
func openArchive(ctx context.Context, path string, progress func(int64)) (io.ReadSeekCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fault.Invalid(fmt.Errorf("import: %s: %w", path, unwrapPathError(err)))
	}
	return &archiveReader{newProgressReader(ctx, f, progress), f}, nil
}

type archiveReader struct {
	*progressReader
	f *os.File
}

func (a *archiveReader) Seek(off int64, whence int) (int64, error) {
	n, err := a.f.Seek(off, whence)
	a.n, a.last = n, n
	return n, err
}

func (a *archiveReader) Close() error { return a.f.Close() }

// progressReader counts the bytes read, reports them every MiB, and fails
// once ctx is done.
type progressReader struct {
	ctx      context.Context
	r        io.Reader
	n, last  int64
	progress func(int64)
}

func newProgressReader(ctx context.Context, r io.Reader, progress func(int64)) *progressReader {
	return &progressReader{ctx: ctx, r: r, progress: progress}
}

func (p *progressReader) Read(b []byte) (int, error) {
	if err := p.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := p.r.Read(b)
	p.n += int64(n)
	if p.progress != nil && (p.n-p.last >= 1<<20 || err != nil) {
		p.last = p.n
		p.progress(p.n)
	}
	return n, err
}

// CheckArchiveRequest checks an import's files as [Service.ImportArchives]
// does before reading any (they exist, are files and can be read; a Common
// Crawl import has both parts and a slice), so that a command line can
// refuse a bad request before it creates a project.
func CheckArchiveRequest(req ArchiveImportRequest) error {
	_, err := checkArchiveRequest(req)
	return err
}
