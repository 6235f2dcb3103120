package crawl

import (
	"mime"
	"time"

	"golang.org/x/net/html/charset"

	"sitesift/sites"
)

// Document is what the crawler keeps of an HTML page, as a crawl would have
// kept it; the fields are those of [sites.Page].
type Document struct {
	Title string
	// Text is the main content, what the page's authors wrote; FullText
	// the readable text of the whole body.
	Text, FullText string
	Language       string    // ISO 639-1 code, "" when it could not be told
	Published      time.Time // zero when the page says none
	// Links are the editorial links, those inside the main content;
	// TemplateLinks the others. Normalised absolute http(s) URLs,
	// deduplicated, in document order, no link in both.
	Links, TemplateLinks []string
}

// MediaType returns the media type of a Content-Type header without its
// parameters, lower-cased; when the header is missing it sniffs body.
func MediaType(contentType string, body []byte) string { return mediaType(contentType, body) }

// IsHTML reports whether a media type (see [MediaType]) is one the crawler
// parses as a page.
func IsHTML(mediaType string) bool { return isHTML(mediaType) }

// ParseDocument extracts from an HTML body received from pageURL with the
// given Content-Type header what a crawl keeps of it, by the crawler's own
// rules (main text and links told apart from the template's, links from
// a[href], area[href] and frame[src] resolved against <base href>, texts
// capped at MaxTextChars characters). Unlike a body colly has read,
// body is in the charset its header names, or sniffed when it names none;
// content codings (gzip) must have been undone. So archived pages (WARC
// files of other crawlers) become the same pages a crawl of the live site
// would have made.
func ParseDocument(body []byte, contentType, pageURL string) (Document, error) {
	u, err := sites.Parse(pageURL)
	if err != nil {
		return Document{}, err
	}
	if _, params, err := mime.ParseMediaType(contentType); err == nil && params["charset"] != "" {
		if enc, _ := charset.Lookup(params["charset"]); enc != nil {
			if out, err := enc.NewDecoder().Bytes(body); err == nil {
				body = out
			}
		}
	} else {
		body = toUTF8(body, "")
	}
	doc, err := parseHTML(body, u, MaxTextChars)
	if err != nil {
		return Document{}, err
	}
	return doc.export(), nil
}

// export returns d as a [Document].
func (d *document) export() Document {
	editorial, template := d.split()
	return Document{Title: d.title, Text: d.text, FullText: d.fullText, Language: d.lang,
		Published: d.published, Links: editorial, TemplateLinks: template}
}
