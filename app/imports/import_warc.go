package imports

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"sitesift/app/fault"
	"sitesift/crawl"
	"sitesift/sites"
	"sitesift/sites/store"
	"sitesift/sites/warcfile"
)

// WARCSummary is what one WARC or ARC file held and added.
type WARCSummary struct {
	// Layout is the file's format (WARC or ARC) and compression: gzip
	// per record, or records sharing gzip members (a whole file run
	// through gzip), read whole and warned of.
	warcfile.Layout
	Records   int `json:"records"`
	Responses int `json:"responses"`
	// HTMLPages counts the HTML responses; PagesWritten the pages stored
	// from them (a page captured several times is one page, its latest
	// capture), OlderCaptures those an already stored later capture of
	// the same URL outdated.
	HTMLPages     int `json:"html_pages"`
	PagesWritten  int `json:"pages_written"`
	OlderCaptures int `json:"older_captures"`
	// WrittenOK, WrittenRedirects and WrittenErrors split PagesWritten
	// as the rest of the app counts it: the pages fetched fine (those the
	// header and a site's page count), the redirects (3xx with a
	// Location) and the error captures (4xx, 5xx), which are stored but
	// are no pages.
	WrittenOK        int `json:"written_pages"`
	WrittenRedirects int `json:"written_redirects"`
	WrittenErrors    int `json:"written_error_captures"`
	// Links counts the editorial links of the pages written (those in
	// their main text), TemplateLinks the others.
	Links         int `json:"links"`
	TemplateLinks int `json:"template_links"`
	// ExtractionsReused counts the HTML responses whose main content was
	// not extracted again: a response of the same URL with the same
	// payload had been, earlier in the import (a recrawl archived whole).
	ExtractionsReused int `json:"extractions_reused"`
	// NonHTML counts the responses of other media types (images,
	// scripts…), skipped.
	NonHTML int `json:"non_html"`
	// Revisits counts the revisit records; RevisitsMatched those whose
	// own URL's page is stored (each counts as one of its captures, also
	// when its payload was archived under another URL), the rest are of
	// non-HTML URLs or of URLs with no capture imported.
	Revisits        int `json:"revisits"`
	RevisitsMatched int `json:"revisits_matched"`
	// Requests, Metadata and Other (warcinfo, resource…) records are
	// skipped.
	Requests int `json:"requests"`
	Metadata int `json:"metadata"`
	Other    int `json:"other"`
	// OutlinksUsed counts the pages without a body whose links came from
	// a Heritrix metadata record's outlink lines.
	OutlinksUsed int `json:"outlinks_used"`
	// DNS counts the dns: records (a crawler's lookup of a host, as
	// Heritrix archives it), skipped: no page, and no bad URL.
	DNS int `json:"dns"`
	// BadURLs counts records whose target is no http(s) URL with a site;
	// Undecodable the HTML bodies whose content coding could not be undone
	// (kept as pages without text or links).
	BadURLs     int `json:"bad_urls"`
	Undecodable int `json:"undecodable"`
	// Redirects counts the 3xx responses with a Location kept as redirect
	// pages whatever their Content-Type, or without one (those of an HTML
	// type are among HTMLPages too).
	Redirects int `json:"redirects"`
	// Warnings counts the records read although they break the WARC
	// standard, as warcio reads them; the Warn… fields count them by what
	// was mended (a record may count in several).
	Warnings int `json:"warnings"`
	// WarnBracketedURIs: a WARC-Target-URI in angle brackets (wget 1.19+).
	WarnBracketedURIs int `json:"warn_bracketed_uris"`
	// WarnContentLength: a Content-Length a few bytes off, the record's
	// end found at the next record, within 4 KiB.
	WarnContentLength int `json:"warn_content_length"`
	// WarnCRCRLF: header lines ending in CR CR LF.
	WarnCRCRLF int `json:"warn_cr_cr_lf"`
	// WarnLowerCaseVersion: a "warc/1.0" version line.
	WarnLowerCaseVersion int `json:"warn_lower_case_version"`
	// WarnFoldedHeaders: header fields continued on the next line (WARC 0.17).
	WarnFoldedHeaders int `json:"warn_folded_headers"`
	// WarnSpaceInURIs: a target URI holding white space, read as written
	// (the first of them named in the file's warnings).
	WarnSpaceInURIs int `json:"warn_space_in_uris"`
	// spaceURIs names the first records of WarnSpaceInURIs.
	spaceURIs []string
	// Seconds is how long reading the file took (extracting and storing
	// its pages; ranking and indexing come after), PagesPerSec its HTML
	// pages over that time.
	Seconds     float64 `json:"seconds"`
	PagesPerSec float64 `json:"pages_per_sec"`
}

// importWARC imports one WARC file; see [Service.ImportArchives].
func (im *archiveImporter) importWARC(ctx context.Context, f store.ArchiveFile, progress func(int64)) (any, bool, error) {
	var sum WARCSummary
	type revisit struct {
		n    int
		last time.Time
	}
	_, err := im.s.store.ImportArchiveFile(ctx, f, func(tx *store.ArchiveTx) error {
		sum = WARCSummary{}
		start := time.Now()
		rule := tx.Rule()
		revisits := map[string]*revisit{}
		// HTML pages stored without a body: a metadata record's outlinks
		// give their links.
		bodiless := map[string]sites.Page{}
		ex := im.extractor()
		defer ex.abandon()
		ex.save = func(pp *warcPage) error {
			p := pp.p
			if pp.doc != nil {
				d := pp.doc
				p.Title, p.Text, p.FullText, p.Language, p.Published = d.Title, d.Text, d.FullText, d.Language, d.Published
				// Another capture may share d: its lists are copied.
				p.Links, p.TemplateLinks = slices.Clone(d.Links), slices.Clone(d.TemplateLinks)
			}
			if pp.truncated && !pp.bodyless && p.Err == "" {
				p.Err = fmt.Sprintf("body truncated at %d bytes (MaxBodySize)", crawl.DefaultMaxBodySize)
			}
			if loc := pp.location; p.Status >= 300 && p.Status < 400 && loc != "" {
				if base, err := sites.Parse(p.URL); err == nil {
					if t, err := sites.Resolve(base, loc); err == nil {
						// The target of a redirect is the page's one link
						// that counts.
						p.Links = appendNew(p.Links, t.String())
					}
				}
				p.ErrClass = sites.ErrRedirect
				p.Err = "redirect to " + loc
			} else if c := statusClass(p.Status); c != "" {
				p.ErrClass, p.Err = c, fmt.Sprintf("HTTP %d", p.Status)
			}
			p.Links = normalizeLinks(p.Links, rule)
			p.TemplateLinks = without(normalizeLinks(p.TemplateLinks, rule), p.Links)
			wrote, err := tx.SavePage(ctx, p, 1)
			if err != nil {
				return err
			}
			if !wrote {
				sum.OlderCaptures++
				return nil
			}
			sum.PagesWritten++
			switch p.ErrClass {
			case "":
				sum.WrittenOK++
			case sites.ErrRedirect:
				sum.WrittenRedirects++
			default:
				sum.WrittenErrors++
			}
			sum.Links += len(p.Links)
			sum.TemplateLinks += len(p.TemplateLinks)
			if pp.bodyless {
				bodiless[p.URL] = p
			}
			return nil
		}
		r, err := openArchive(ctx, f.Path, progress)
		if err != nil {
			return err
		}
		defer r.Close()
		warned := map[[2]int64]bool{} // the records warned of, by offset and place in their gzip member
		onWarning := warcfile.OnWarning(func(w warcfile.Warning) {
			if at := [2]int64{w.Offset, w.InMember}; !warned[at] {
				warned[at] = true
				sum.Warnings++
			}
			switch w.Kind {
			case warcfile.WarnBracketedURI:
				sum.WarnBracketedURIs++
			case warcfile.WarnContentLength:
				sum.WarnContentLength++
			case warcfile.WarnCRCRLF:
				sum.WarnCRCRLF++
			case warcfile.WarnLowerCaseVersion:
				sum.WarnLowerCaseVersion++
			case warcfile.WarnFoldedHeader:
				sum.WarnFoldedHeaders++
			case warcfile.WarnSpaceInURI:
				sum.WarnSpaceInURIs++
				if len(sum.spaceURIs) < maxNamedWarnings {
					sum.spaceURIs = append(sum.spaceURIs, w.Detail+" ("+w.Where()+")")
				}
			}
		})
		sum.Layout, err = warcfile.ReadFile(r, f.Path, func(rec *warcfile.Record) error {
			sum.Records++
			switch rec.Kind {
			case warcfile.KindRequest:
				sum.Requests++
				return nil
			case warcfile.KindOther:
				sum.Other++
				return nil
			case warcfile.KindMetadata:
				sum.Metadata++
				// Its page may still wait for its extraction.
				if err := ex.drain(); err != nil {
					return err
				}
				u, err := sites.Normalize(rec.URL)
				if err != nil {
					return nil
				}
				p, ok := bodiless[u]
				if !ok || len(rec.Outlinks) == 0 {
					return nil
				}
				p.Links = normalizeLinks(rec.Outlinks, rule)
				if _, err := tx.AddLinks(ctx, p); err != nil {
					return err
				}
				delete(bodiless, u)
				sum.OutlinksUsed++
				sum.Links += len(p.Links)
				return nil
			case warcfile.KindRevisit:
				sum.Revisits++
				// A revisit is a capture of its own URL, also when its
				// payload was first archived under another one (the
				// URL-agnostic revisits of sitesift's writer, Heritrix,
				// Browsertrix, warcprox).
				u, err := sites.Normalize(rec.URL)
				if err != nil {
					sum.BadURLs++
					return nil
				}
				rv := revisits[u]
				if rv == nil {
					rv = &revisit{}
					revisits[u] = rv
				}
				rv.n++
				if rec.Date.After(rv.last) {
					rv.last = rec.Date
				}
				return nil
			}
			if isDNS(rec.URL) {
				sum.DNS++
				return nil
			}
			sum.Responses++
			u, err := sites.Normalize(rec.URL)
			if err != nil {
				sum.BadURLs++
				return nil
			}
			site, err := rule.Of(u)
			if err != nil {
				sum.BadURLs++
				return nil
			}
			ct := rec.Header.Get("Content-Type")
			body, truncated, berr := rec.Body(crawl.DefaultMaxBodySize)
			mt := crawl.MediaType(ct, body)
			// A redirect is a page whatever its type: its target is the
			// link that counts, and servers send 3xx as text/plain, or
			// with no type at all.
			redirect := rec.Status >= 300 && rec.Status < 400 && rec.Header.Get("Location") != ""
			if redirect {
				sum.Redirects++
			}
			if !crawl.IsHTML(mt) && !redirect {
				sum.NonHTML++
				return nil
			}
			if crawl.IsHTML(mt) {
				sum.HTMLPages++
			} else {
				body, berr = nil, nil // not HTML: no text or links to take
			}
			pp := &warcPage{p: sites.Page{URL: u, Site: site, Status: rec.Status, ContentType: mt,
				FetchedAt: rec.Date, Size: len(body)}, truncated: truncated, bodyless: len(body) == 0,
				location: rec.Header.Get("Location")}
			switch {
			case berr != nil:
				sum.Undecodable++
				pp.p.Err = "archived body not read: " + berr.Error()
			case len(body) > 0:
				if ex.extract(pp, body, ct, u) {
					sum.ExtractionsReused++
				}
			}
			return ex.push(pp)
		}, onWarning)
		if err == nil {
			err = ex.drain()
		}
		if secs := time.Since(start).Seconds(); secs > 0 {
			sum.Seconds = secs
			sum.PagesPerSec = float64(sum.HTMLPages) / secs
		}
		if err != nil {
			return err
		}
		for u, rv := range revisits {
			ok, err := tx.AddCaptures(ctx, u, rv.n, rv.last)
			if err != nil {
				return err
			}
			if ok {
				sum.RevisitsMatched += rv.n
			}
		}
		return nil
	}, func() any { return sum })
	if err != nil {
		return nil, false, archiveErr(f, err)
	}
	return sum, sum.PagesWritten+sum.RevisitsMatched+sum.OutlinksUsed > 0, nil
}

// archiveErr gives an import's error for file f: a bad file is a bad
// request whose message names the file (and where in it the reader
// stopped).
func archiveErr(f store.ArchiveFile, err error) error {
	var ae *fault.Error
	if errors.As(err, &ae) || errors.Is(err, context.Canceled) {
		return err
	}
	if errors.Is(err, store.ErrAlreadyImported) {
		return fault.Conflict(err)
	}
	var we *warcfile.ReadError
	if errors.As(err, &we) {
		return fault.Invalid(fmt.Errorf("import: WARC/ARC file %s: %s: %w; nothing of this file was kept", f.Path, we.Where(), we.Err))
	}
	return fault.Invalid(fmt.Errorf("import: %s %s: %w; nothing of this file was kept", f.Kind, f.Path, err))
}

// fileWarnings says what of the file an archive tool would have trouble
// with, though the import read it whole.
func (s WARCSummary) fileWarnings() []string {
	var w []string
	if s.SharedRecords > 0 {
		members := fmt.Sprintf("%d gzip members", s.SharedMembers)
		if s.SharedMembers == 1 {
			members = "one gzip member"
		}
		w = append(w, fmt.Sprintf("%d of its %d records share %s (a plain %s file run through gzip): all were read, "+
			"but replay tools need each record in a gzip member of its own for random access, and a CDX index of this "+
			"file can only point to where a member starts; recompress it per record (warcio recompress) before indexing "+
			"or replaying it", s.SharedRecords, s.Records, members, s.Format))
	}
	if n := s.WarnSpaceInURIs; n > 0 {
		named := strings.Join(s.spaceURIs, "; ")
		if n > len(s.spaceURIs) {
			named += fmt.Sprintf("; and %d more", n-len(s.spaceURIs))
		}
		what := fmt.Sprintf("%d target URIs hold", n)
		if n == 1 {
			what = "1 target URI holds"
		}
		w = append(w, what+" white space, which a URI cannot (read as written; warcio warns of it too): "+named)
	}
	return w
}

// maxNamedWarnings bounds the records a file's warnings name one by one.
const maxNamedWarnings = 20

// isDNS reports whether the target URI u is a dns: one, a crawler's record
// of a host lookup (Heritrix writes one a host).
func isDNS(u string) bool {
	return len(u) >= 4 && strings.EqualFold(u[:4], "dns:")
}

// statusClass is the failure class of an HTTP status, as a crawl records it.
func statusClass(status int) string {
	switch {
	case status >= 500:
		return sites.ErrHTTP5xx
	case status >= 400:
		return sites.ErrHTTP4xx
	}
	return ""
}

// normalizeLinks keeps the links that are http(s) URLs with a site under
// rule, normalised, each once.
func normalizeLinks(links []string, rule sites.Rule) []string {
	out := make([]string, 0, len(links))
	seen := make(map[string]bool, len(links))
	for _, l := range links {
		u, err := sites.Normalize(l)
		if err != nil || seen[u] {
			continue
		}
		if _, err := rule.Of(u); err != nil {
			continue
		}
		seen[u] = true
		out = append(out, u)
	}
	return out
}

func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// crawlMediaType is the media type of a Content-Type header, as the crawler
// reads it.
func crawlMediaType(ct string) string { return crawl.MediaType(ct, nil) }
