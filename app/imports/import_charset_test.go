package imports_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"sitesift/app/apptest"
	"sitesift/app/imports"
	"sitesift/sites"

	"golang.org/x/text/encoding/charmap"
)

// TestImportWARCSniffsCharset: a page archived with a Content-Type that
// names no charset is read in the charset its <meta> declares, as a crawl
// of the live page reads it: UTF-8 stays UTF-8 (no "â€”"), and a
// windows-1251 page declared only in its <meta> becomes Cyrillic text.
func TestImportWARCSniffsCharset(t *testing.T) {
	t0 := time.Date(2024, 3, 1, 10, 0, 0, 0, time.UTC)
	// Real heads often hold a kilobyte of scripts and styles before the
	// <meta>, and no byte above ASCII before the text.
	long := strings.Repeat(`<link rel="preload" href="/static/font.woff2" as="font" crossorigin>`+"\n", 30)
	utf8Page := `<html><head>` + long + `<meta charset="utf-8"><title>Brothers — “Le Café”</title></head>` +
		`<body><article><p>The brothers met at the café — a long evening of talk about the naïve years ` +
		`and what came after them, in the old town by the river.</p></article></body></html>`
	cyr := `<html><head>` + long + `<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">` +
		`<title>Новости дня</title></head><body><article><p>Съезд библиотекарей открылся в Москве ` +
		`докладом о сохранении сайтов и веб-архивах для будущих поколений читателей.</p></article></body></html>`
	cp1251, err := charmap.Windows1251.NewEncoder().String(cyr)
	if err != nil {
		t.Fatal(err)
	}
	capture := func(u, body string) sites.Capture {
		c := htmlCapture(u, body, t0)
		c.ResponseHeader = http.Header{"Content-Type": {"text/html"}}
		return c
	}
	file := writeWARC(t, []sites.Capture{
		capture("http://a.test/utf8", utf8Page),
		capture("http://b.test/cp1251", cp1251),
	})
	a := apptest.EmptyStoreApp(t)
	if _, err := a.Imports.ImportArchives(context.Background(), imports.ArchiveImportRequest{WARC: []string{file}}, nil); err != nil {
		t.Fatal(err)
	}
	pages := pageURLs(t, a.Store)
	for _, tc := range []struct{ url, title, text string }{
		{"http://a.test/utf8", "Brothers — “Le Café”", "café — a long evening"},
		{"http://b.test/cp1251", "Новости дня", "Съезд библиотекарей открылся"},
	} {
		p := pages[tc.url]
		if p.Title != tc.title {
			t.Errorf("%s: title %q, want %q", tc.url, p.Title, tc.title)
		}
		if !strings.Contains(p.Text, tc.text) {
			t.Errorf("%s: text %q, want it to hold %q", tc.url, p.Text, tc.text)
		}
	}
}
