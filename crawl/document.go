package crawl

import (
	"mime"

	"golang.org/x/net/html/charset"

	"sitesift/sites"
)

// Document is what the crawler keeps of an HTML page: its title, readable
// text and links, as a crawl would have kept them.
type Document struct {
	Title string
	Text  string
	// Links are normalised absolute http(s) URLs, deduplicated, in
	// document order.
	Links []string
}

// MediaType returns the media type of a Content-Type header without its
// parameters, lower-cased; when the header is missing it sniffs body.
func MediaType(contentType string, body []byte) string { return mediaType(contentType, body) }

// IsHTML reports whether a media type (see [MediaType]) is one the crawler
// parses as a page.
func IsHTML(mediaType string) bool { return isHTML(mediaType) }

// ParseDocument extracts from an HTML body received from pageURL with the
// given Content-Type header what a crawl keeps of it, by the crawler's own
// rules (links from a[href], area[href] and frame[src] resolved against
// <base href>, text capped at MaxTextSize). Unlike a body colly has read,
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
	doc, err := parseHTML(body, u, MaxTextSize)
	if err != nil {
		return Document{}, err
	}
	return Document{Title: doc.title, Text: doc.text, Links: doc.links}, nil
}
