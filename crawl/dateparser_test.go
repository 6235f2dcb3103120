package crawl

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/markusmobius/go-dateparser"
	"github.com/markusmobius/go-trafilatura"
)

// TestPublicationDateExtensive reads the publication date of articles that
// give it only in their text, with go-trafilatura's fallback on: its date
// extraction then searches the whole page, through sitesift's own
// dateparser (crawl/dateparser, the stand-in go.mod puts in place of
// go-dateparser), in the orders and languages it reads.
func TestPublicationDateExtensive(t *testing.T) {
	filler := strings.Repeat("The harbour festival drew crowds from the whole region, with music and boats. ", 8)
	// Dates go-htmldate's own patterns do not read: without this parser
	// each gives its year alone (2021-01-01).
	for _, tc := range []struct{ written, want string }{
		{"2 marzo 2021", "2021-03-02"},
		{"giugno 2, 2021", "2021-06-02"},
		{"2 de março de 2021", "2021-03-02"},
		{"2 maart 2021", "2021-03-02"},
		{"2 marca 2021", "2021-03-02"},
		{"2 марта 2021", "2021-03-02"},
		{"2021, 2 March", "2021-03-02"},
		{"31 aprile 2019", "2019-01-01"}, // no such day: go-htmldate keeps its year alone
	} {
		body := `<html><head><title>Harbour festival</title></head><body><article><h1>Harbour festival</h1>
			<p class="byline">Published ` + tc.written + `</p><p>` + filler + `</p><p>` + filler + `</p></article></body></html>`
		res, err := trafilatura.Extract(strings.NewReader(body), trafilatura.Options{EnableFallback: true,
			HtmlDateMode: trafilatura.Extensive})
		if err != nil {
			t.Fatalf("%s: %v", tc.written, err)
		}
		got := ""
		if !res.Metadata.Date.IsZero() {
			got = res.Metadata.Date.Format(time.DateOnly)
		}
		if got != tc.want {
			t.Errorf("%q: date %q, want %q", tc.written, got, tc.want)
		}
	}
}

// TestDateparser reads dates with the parser go.mod puts in place of
// go-dateparser, whose package initialisation compiles thousands of regular
// expressions at every start of every command (docs/performance.md). The
// test compiles against that parser's own error, so it fails to build if
// the replacement goes.
func TestDateparser(t *testing.T) {
	p := &dateparser.Parser{ParserTypes: []dateparser.ParserType{dateparser.CustomFormat, dateparser.AbsoluteTime}}
	cfg := &dateparser.Configuration{PreferredDateSource: dateparser.Past, StrictParsing: true}
	for in, want := range map[string]string{
		"Tuesday, March 2nd, 2021": "2021-03-02", "2 Mär. 2021": "2021-03-02", "2021-3-2": "2021-03-02",
		"02/03/2021": "2021-03-02", "13/02/2021": "2021-02-13", "2 октября 2020": "2020-10-02",
		"29 February 2021": "", "March 2021": "", "no date here": "", "2 March": "", "99.99.9999": "",
	} {
		d, err := p.Parse(cfg, in)
		got := ""
		if err == nil {
			got = d.Time.Format(time.DateOnly)
		} else if !errors.Is(err, dateparser.ErrNoDate) {
			t.Errorf("%q: %v", in, err)
		}
		if got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
