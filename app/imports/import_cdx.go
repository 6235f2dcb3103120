package imports

import (
	"context"
	"slices"
	"time"

	"sitesift/sites"
	"sitesift/sites/cdx"
	"sitesift/sites/crawllog"
	"sitesift/sites/store"
)

// CDXSummary is what one CDX or CDXJ index held.
type CDXSummary struct {
	// Captures counts its lines (revisits included), Revisits those that
	// are revisits.
	Captures int `json:"captures"`
	Revisits int `json:"revisits"`
	// URLs counts the distinct URLs (as its sort keys name them) and
	// Sites the sites they belong to.
	URLs  int `json:"urls"`
	Sites int `json:"sites"`
	// BadURLs counts the lines whose URL is no http(s) URL with a site
	// (dns:, whois:… lines), skipped.
	BadURLs int `json:"bad_urls"`
	// First and Last are the first and last capture times.
	First time.Time `json:"first,omitzero"`
	Last  time.Time `json:"last,omitzero"`
}

// importCDX imports one CDX or CDXJ index: per site, the number of archived
// URLs and captures and the first and last capture, added to what the
// project knows of the site's archive.
func (im *archiveImporter) importCDX(ctx context.Context, f store.ArchiveFile, progress func(int64)) (any, bool, error) {
	var sum CDXSummary
	_, err := im.s.store.ImportArchiveFile(ctx, f, func(tx *store.ArchiveTx) error {
		sum = CDXSummary{}
		rule := tx.Rule()
		per := map[string]*store.SiteArchive{}
		// A URL is counted once per run of lines with its key: a sorted
		// index (as CDX files are) holds each URL's lines together.
		lastKey := ""
		r, err := openArchive(ctx, f.Path, progress)
		if err != nil {
			return err
		}
		defer r.Close()
		err = cdx.Read(r, f.Path, func(c cdx.Capture) error {
			sum.Captures++
			if c.Mime == "warc/revisit" {
				sum.Revisits++
			}
			site, err := rule.Of(c.URL)
			if err != nil {
				sum.BadURLs++
				return nil
			}
			sa := per[site]
			if sa == nil {
				sa = &store.SiteArchive{First: c.Time, Last: c.Time}
				per[site] = sa
			}
			sa.Captures++
			if c.Key != lastKey {
				sa.URLs++
				sum.URLs++
				lastKey = c.Key
			}
			if c.Time.Before(sa.First) {
				sa.First = c.Time
			}
			if c.Time.After(sa.Last) {
				sa.Last = c.Time
			}
			if sum.First.IsZero() || c.Time.Before(sum.First) {
				sum.First = c.Time
			}
			if c.Time.After(sum.Last) {
				sum.Last = c.Time
			}
			return nil
		})
		if err != nil {
			return err
		}
		names := make([]string, 0, len(per))
		for s := range per {
			names = append(names, s)
		}
		slices.Sort(names)
		for _, s := range names {
			if err := tx.AddSiteArchive(ctx, s, *per[s]); err != nil {
				return err
			}
		}
		sum.Sites = len(per)
		return nil
	}, func() any { return sum })
	if err != nil {
		return nil, false, archiveErr(f, err)
	}
	// The sites an index names are added to the ranking, without links.
	return sum, sum.Sites > 0, nil
}

// CrawlLogSummary is what one crawl.log held and added.
type CrawlLogSummary struct {
	Lines int `json:"lines"`
	// Pages counts the URLs fetched with an answer (a status over 0),
	// PagesNew those the project did not hold (an existing page keeps its
	// content and gains the links).
	Pages    int `json:"pages"`
	PagesNew int `json:"pages_new"`
	// Links counts the distinct via → URL links kept: navigational links
	// and redirects (hop types L and R). Embeds (E), prerequisites (P,
	// robots.txt and DNS) and the other hop types are not a page's links
	// and are counted in OtherHops.
	Links     int `json:"links"`
	OtherHops int `json:"other_hops"`
	// ViaNotFetched counts links from a URL the log never fetched with an
	// answer, dropped; Failed the fetches without an answer (a negative
	// status), NotHTTP the lines of other schemes (dns:, whois:).
	ViaNotFetched int `json:"via_not_fetched"`
	Failed        int `json:"failed"`
	NotHTTP       int `json:"not_http"`
}

// importCrawlLog imports one crawl.log: each fetched URL is a page (status,
// media type and time, no text) and each line's via → URL a link of the
// via's page, so the log alone gives the page graph of a crawl whose WARC
// files are elsewhere.
func (im *archiveImporter) importCrawlLog(ctx context.Context, f store.ArchiveFile, progress func(int64)) (any, bool, error) {
	var sum CrawlLogSummary
	_, err := im.s.store.ImportArchiveFile(ctx, f, func(tx *store.ArchiveTx) error {
		sum = CrawlLogSummary{}
		rule := tx.Rule()
		fetched := map[string]sites.Page{}
		links := map[string][]string{}
		r, err := openArchive(ctx, f.Path, progress)
		if err != nil {
			return err
		}
		defer r.Close()
		err = crawllog.Read(r, f.Path, func(e crawllog.Entry) error {
			sum.Lines++
			u, err := sites.Normalize(e.URL)
			if err != nil {
				sum.NotHTTP++
				return nil
			}
			site, err := rule.Of(u)
			if err != nil {
				sum.NotHTTP++
				return nil
			}
			if e.Status > 0 {
				p := sites.Page{URL: u, Site: site, Status: e.Status, FetchedAt: e.Logged,
					ContentType: mediaTypeOf(e.ContentType), ErrClass: statusClass(e.Status)}
				if e.Size >= 0 {
					p.Size = int(e.Size)
				}
				if old, ok := fetched[u]; !ok || !old.FetchedAt.After(p.FetchedAt) {
					fetched[u] = p
				}
			} else {
				sum.Failed++
			}
			if e.Via == "" {
				return nil
			}
			hop := e.Path[len(e.Path)-1]
			if hop != 'L' && hop != 'R' {
				sum.OtherHops++
				return nil
			}
			v, err := sites.Normalize(e.Via)
			if err != nil {
				sum.OtherHops++
				return nil
			}
			links[v] = append(links[v], u)
			return nil
		})
		if err != nil {
			return err
		}
		urls := make([]string, 0, len(fetched))
		for u := range fetched {
			urls = append(urls, u)
		}
		slices.Sort(urls)
		for _, u := range urls {
			p := fetched[u]
			p.Links = normalizeLinks(links[u], rule)
			delete(links, u)
			sum.Links += len(p.Links)
			isNew, err := tx.AddLinks(ctx, p)
			if err != nil {
				return err
			}
			sum.Pages++
			if isNew {
				sum.PagesNew++
			}
		}
		for _, l := range links {
			sum.ViaNotFetched += len(l)
		}
		return nil
	}, func() any { return sum })
	if err != nil {
		return nil, false, archiveErr(f, err)
	}
	return sum, sum.Pages > 0, nil
}

// mediaTypeOf is the media type of a logged Content-Type, without
// parameters.
func mediaTypeOf(ct string) string {
	if ct == "" || ct == "unknown" || ct == "no-type" {
		return ""
	}
	return crawlMediaType(ct)
}
