package exports

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"sitesift/app/fault"
	"sitesift/app/imports"
	"sitesift/app/project"
	"sitesift/app/review"
	"sitesift/sites/store"
	"sitesift/sites/wacz"
	"sitesift/sites/warcfile"
	"sitesift/sites/wholefile"
)

// ReplayDir is the directory of the project that holds the sites' WACZ
// files made for replay, each named after its site and the WARC files it
// was cut from.
const ReplayDir = "replay"

// NoCapture is what [SiteCaptures.Empty] says of a site the project holds
// no page capture of.
const NoCapture = "No capture of this site in this project"

// SiteCaptures lists what the project's crawls captured of one site, for
// ReplayWeb.page to replay from Source.
type SiteCaptures struct {
	Site string `json:"site"`
	// Source is the site's WACZ file, a path of the API relative to the
	// app ("api/sites/SITE/captures/KEY.wacz"); KEY changes when the
	// project's WARC files change, so that a replay never mixes byte
	// ranges of two files. "" when there is nothing to replay.
	Source string `json:"source"`
	// Pages are the HTML pages fetched with a 2xx answer, once a URL, the
	// shallowest first: fewest path segments, then the earliest captured,
	// then by URL.
	Pages []CapturedPage `json:"pages"`
	// Captures counts the records of the site's WACZ file (pages and every
	// other capture of the site, error answers too), Bytes its size.
	Captures int   `json:"captures"`
	Bytes    int64 `json:"bytes"`
	// Empty is [NoCapture] when Pages is empty, "" otherwise.
	Empty string `json:"empty"`
	// Note says what cannot be replayed: the WARC files of a running
	// crawl, imported WARC/ARC files; "" when nothing is left out.
	Note string `json:"note"`
}

// CapturedPage is one captured page of a site.
type CapturedPage struct {
	URL   string `json:"url"`
	Title string `json:"title"`
	// TS is its first capture's time as 14 digits (UTC), as replay URLs
	// give it.
	TS string `json:"ts"`
	// Segments counts the non-empty segments of its path: 0 for "/".
	Segments int `json:"segments"`
}

// replayFile is the end of a site's replay file's name, after "SITE-".
var replayFile = regexp.MustCompile(`^[0-9a-f]{16}\.(wacz|json)$`)

// replayCache makes one site's WACZ file at a time: two requests for the
// same site while it is being made wait for the one file.
type replayCache struct{ mu sync.Mutex }

// warcSet returns the finished WARC files of the project's crawls by name
// and a key that changes when any of them changes, from the directory's
// listing alone (no index is read), and how many files a running crawl is
// writing.
func (s *Service) warcSet() (names []string, key string, writing int, err error) {
	dir := filepath.Join(s.project.Dir, project.WARCDir)
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, "", 0, nil
	}
	if err != nil {
		return nil, "", 0, fmt.Errorf("captures: %w", err)
	}
	h := sha256.New()
	fmt.Fprintf(h, "sitesift %s\n", project.Version)
	for _, e := range ents {
		n := e.Name()
		if strings.HasSuffix(n, ".warc.gz.open") {
			writing++
			continue
		}
		if !strings.HasSuffix(n, ".warc.gz") || !e.Type().IsRegular() {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue // removed meanwhile
		}
		names = append(names, n)
		fmt.Fprintf(h, "%s %d %d\n", n, fi.Size(), fi.ModTime().UnixNano())
	}
	if len(names) == 0 {
		return nil, "", writing, nil
	}
	return names, hex.EncodeToString(h.Sum(nil))[:16], writing, nil
}

// SiteCaptures says what the project's own crawls captured of site (a
// name or a URL of it). The site's captures are cut from the project's
// WARC files into a WACZ file of their own the first time they are asked
// for, and kept in the project's replay directory until the WARC files
// change: a large project is not packaged again for every site shown.
// A site the project does not hold is a [review.NoSiteError]
// (KindNotFound); one it holds no page capture of has Empty set.
func (s *Service) SiteCaptures(ctx context.Context, site string) (SiteCaptures, error) {
	site = s.project.SiteName(site)
	out := SiteCaptures{Site: site, Pages: []CapturedPage{}}
	titles, err := s.store.PageTitles(ctx, site)
	if errors.Is(err, store.ErrNotFound) {
		names, lerr := s.store.SiteNames(ctx)
		if lerr != nil {
			return out, errors.Join(err, fmt.Errorf("listing the project's sites: %w", lerr))
		}
		return out, fault.NotFound(&review.NoSiteError{Site: site, Closest: review.ClosestSites(site, names, review.MaxSiteSuggestions)})
	}
	if err != nil {
		return out, fmt.Errorf("captures of %s: %w", site, err)
	}
	names, key, writing, err := s.warcSet()
	if err != nil {
		return out, err
	}
	var notes []string
	if writing > 0 {
		notes = append(notes, fmt.Sprintf("%d WARC file(s) a running crawl is writing are left out until it ends", writing))
	}
	archives, err := s.store.ArchiveImports(ctx)
	if err != nil {
		return out, fmt.Errorf("captures of %s: %w", site, err)
	}
	var imported []string
	for _, im := range archives {
		if im.Kind == imports.KindWARC {
			imported = append(imported, im.Path)
		}
	}
	if len(imported) > 0 {
		notes = append(notes, fmt.Sprintf("only this project's own crawls are replayed: the project keeps the pages and links read from the %d imported WARC/ARC file(s), not their captures (%s)",
			len(imported), strings.Join(imported, ", ")))
	}
	out.Note = strings.Join(notes, "; ")
	if key != "" {
		made, err := s.siteWACZ(ctx, site, names, key, titles)
		if err != nil {
			return out, err
		}
		made.Note = out.Note
		out = made
	}
	if len(out.Pages) == 0 {
		out.Empty, out.Source = NoCapture, ""
	}
	return out, nil
}

// replayPaths are the site's WACZ file and its list of captures for the
// WARC files of key.
func (s *Service) replayPaths(site, key string) (waczPath, listPath string) {
	base := filepath.Join(s.project.Dir, ReplayDir, site+"-"+key)
	return base + ".wacz", base + ".json"
}

// siteWACZ returns the captures of site in the WARC files names (of key),
// making the site's WACZ file when it is not made yet.
func (s *Service) siteWACZ(ctx context.Context, site string, names []string, key string, titles map[string]string) (SiteCaptures, error) {
	s.replay.mu.Lock()
	defer s.replay.mu.Unlock()
	waczPath, listPath := s.replayPaths(site, key)
	if b, err := os.ReadFile(listPath); err == nil {
		var c SiteCaptures
		if err := json.Unmarshal(b, &c); err == nil {
			if _, err := os.Stat(waczPath); err == nil || len(c.Pages) == 0 {
				return c, nil
			}
		}
	}
	c, err := s.makeSiteWACZ(ctx, site, names, key, titles)
	if err != nil {
		return c, fmt.Errorf("captures of %s: %w", site, err)
	}
	return c, nil
}

// makeSiteWACZ cuts the captures of site out of the WARC files names into
// a WACZ file of its own: each record is its own gzip member, so its bytes
// are copied as they are. A revisit record comes with the record it
// points to (the same payload digest), which may be another site's.
func (s *Service) makeSiteWACZ(ctx context.Context, site string, names []string, key string, titles map[string]string) (SiteCaptures, error) {
	out := SiteCaptures{Site: site, Pages: []CapturedPage{}}
	rule := s.store.SiteRule()
	dir := filepath.Join(s.project.Dir, project.WARCDir)
	// Sites by the SURT host ("org,example,www"): one rule lookup a host.
	siteOf := map[string]string{}
	inSite := func(e warcfile.Entry) bool {
		host, _, _ := strings.Cut(e.SURT, ")")
		got, ok := siteOf[host]
		if !ok {
			got, _ = rule.Of(e.URL)
			siteOf[host] = got
		}
		return got == site
	}
	var picked []warcfile.Entry
	revisited := map[string]bool{}
	for _, name := range names {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		entries, err := warcfile.Index(dir, name)
		if err != nil {
			return out, err
		}
		for _, e := range entries {
			if !inSite(e) {
				continue
			}
			picked = append(picked, e)
			if e.Mime == "warc/revisit" && e.Digest != "" {
				revisited[e.Digest] = true
			}
		}
	}
	if len(revisited) > 0 {
		for _, e := range picked {
			if e.Mime != "warc/revisit" {
				delete(revisited, e.Digest)
			}
		}
	}
	if len(revisited) > 0 {
		for _, name := range names {
			entries, err := warcfile.Index(dir, name)
			if err != nil {
				return out, err
			}
			for _, e := range entries {
				if e.Mime != "warc/revisit" && revisited[e.Digest] {
					picked = append(picked, e)
					delete(revisited, e.Digest)
				}
			}
		}
	}
	seen := map[string]string{} // URL → its first capture's timestamp
	for _, e := range picked {
		if !e.IsPage() || !inSite(e) {
			continue
		}
		if ts, ok := seen[e.URL]; !ok || e.Timestamp < ts {
			seen[e.URL] = e.Timestamp
		}
	}
	for u, ts := range seen {
		out.Pages = append(out.Pages, CapturedPage{URL: u, Title: titles[u], TS: ts, Segments: pathSegments(u)})
	}
	slices.SortFunc(out.Pages, func(x, y CapturedPage) int {
		if x.Segments != y.Segments {
			return x.Segments - y.Segments
		}
		if c := strings.Compare(x.TS, y.TS); c != 0 {
			return c
		}
		return strings.Compare(x.URL, y.URL)
	})
	rdir := filepath.Join(s.project.Dir, ReplayDir)
	if err := os.MkdirAll(rdir, 0o755); err != nil {
		return out, err
	}
	// The files of earlier WARC sets are of no more use: SITE-KEY.wacz and
	// SITE-KEY.json, and not those of a site whose name goes on after
	// "SITE-" (example.org-news.com).
	if ents, err := os.ReadDir(rdir); err == nil {
		for _, e := range ents {
			if rest, ok := strings.CutPrefix(e.Name(), site+"-"); ok && replayFile.MatchString(rest) {
				os.Remove(filepath.Join(rdir, e.Name()))
			}
		}
	}
	waczPath, listPath := s.replayPaths(site, key)
	if len(out.Pages) > 0 {
		n, size, err := s.writeSiteWACZ(ctx, site, picked, titles, waczPath)
		if err != nil {
			return out, err
		}
		out.Captures, out.Bytes = n, size
		out.Source = "api/sites/" + url.PathEscape(site) + "/captures/" + key + ".wacz"
	}
	b, err := json.Marshal(out)
	if err != nil {
		return out, err
	}
	if err := wholefile.WriteFile(listPath, b); err != nil {
		return out, err
	}
	return out, nil
}

// writeSiteWACZ copies the records of entries into one WARC file and
// packages it with its index and pages as a WACZ file at path, returning
// the records written and the file's size. The file is complete or
// absent.
func (s *Service) writeSiteWACZ(ctx context.Context, site string, entries []warcfile.Entry, titles map[string]string, path string) (int, int64, error) {
	slices.SortFunc(entries, func(x, y warcfile.Entry) int {
		if c := strings.Compare(x.Filename, y.Filename); c != 0 {
			return c
		}
		return cmp.Compare(x.Offset, y.Offset)
	})
	entries = slices.CompactFunc(entries, func(x, y warcfile.Entry) bool { return x.Filename == y.Filename && x.Offset == y.Offset })
	warcName := site + ".warc.gz"
	tmpWARC, err := wholefile.CreateTemp(filepath.Dir(path), ".site-*.warc.gz")
	if err != nil {
		return 0, 0, err
	}
	defer os.Remove(tmpWARC.Name())
	defer tmpWARC.Close()
	dir := filepath.Join(s.project.Dir, project.WARCDir)
	p := wacz.Package{Title: s.project.Name() + ": " + site, Software: "sitesift " + project.Version}
	var at int64
	var src *os.File
	defer func() {
		if src != nil {
			src.Close()
		}
	}()
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return 0, 0, err
		}
		if src == nil || filepath.Base(src.Name()) != e.Filename {
			if src != nil {
				src.Close()
			}
			if src, err = warcfile.OpenFile(dir, e.Filename); err != nil {
				return 0, 0, err
			}
		}
		n, err := io.Copy(tmpWARC, io.NewSectionReader(src, e.Offset, e.Length))
		if err == nil && n != e.Length {
			err = fmt.Errorf("record of %s at byte %d: %d bytes of %d: %w", e.URL, e.Offset, n, e.Length, io.ErrUnexpectedEOF)
		}
		if err != nil {
			return 0, 0, fmt.Errorf("copying from %s: %w", e.Filename, err)
		}
		e.Filename, e.Offset = warcName, at
		at += n
		p.Index = append(p.Index, e.String())
	}
	if err := tmpWARC.Close(); err != nil {
		return 0, 0, err
	}
	p.Archives = []wacz.Archive{{Name: warcName, Path: tmpWARC.Name()}}
	p.Pages = pagesOf(entries, titles)
	f, err := wholefile.Create(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Abort()
	if err := wacz.Write(ctx, f, p); err != nil {
		return 0, 0, err
	}
	fi, err := f.Stat()
	if err != nil {
		return 0, 0, err
	}
	if err := f.Commit(); err != nil {
		return 0, 0, err
	}
	size := fi.Size()
	return len(entries), size, nil
}

// pagesOf lists the pages of pages.jsonl: the HTML pages of entries
// fetched with a 2xx answer, in capture order.
func pagesOf(entries []warcfile.Entry, titles map[string]string) []wacz.Page {
	var pages []wacz.Page
	for _, e := range entries {
		if !e.IsPage() {
			continue
		}
		at, err := e.Time()
		if err != nil {
			continue
		}
		pages = append(pages, wacz.Page{URL: e.URL, Time: at, Title: titles[e.URL]})
	}
	slices.SortStableFunc(pages, func(x, y wacz.Page) int { return x.Time.Compare(y.Time) })
	return pages
}

// SourceKey returns the key of the WACZ file a [SiteCaptures.Source]
// names, what [Service.OpenSiteWACZ] opens; false for no file.
func SourceKey(source string) (string, bool) {
	i := strings.LastIndexByte(source, '/')
	key, ok := strings.CutSuffix(source[i+1:], ".wacz")
	return key, ok && replayFile.MatchString(key+".wacz")
}

// OpenSiteWACZ opens the WACZ file of site's captures named by key (the
// Source of [Service.SiteCaptures]). A key of WARC files the project no
// longer has is not found: a replay reading byte ranges must not switch
// files halfway.
func (s *Service) OpenSiteWACZ(ctx context.Context, site, key string) (*os.File, error) {
	site = s.project.SiteName(site)
	c, err := s.SiteCaptures(ctx, site)
	if err != nil {
		return nil, err
	}
	if c.Source == "" {
		return nil, fault.NotFound(fmt.Errorf("captures of %s: %s", site, strings.ToLower(NoCapture[:1])+NoCapture[1:]))
	}
	if !strings.HasSuffix(c.Source, "/"+key+".wacz") {
		return nil, fault.NotFound(fmt.Errorf("captures of %s: %s.wacz is of WARC files the project no longer has: ask GET /api/sites/%s/captures again", site, key, site))
	}
	waczPath, _ := s.replayPaths(site, key)
	f, err := os.Open(waczPath)
	if err != nil {
		return nil, fmt.Errorf("captures of %s: %w", site, err)
	}
	return f, nil
}

// pathSegments counts the non-empty segments of rawURL's path.
func pathSegments(rawURL string) int {
	u, err := url.Parse(rawURL)
	if err != nil {
		return strings.Count(rawURL, "/")
	}
	n := 0
	for _, seg := range strings.Split(u.Path, "/") {
		if seg != "" {
			n++
		}
	}
	return n
}
