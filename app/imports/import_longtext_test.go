package imports_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"sitesift/app/apptest"
	"sitesift/app/imports"
	"sitesift/sites"
	"sitesift/sites/index"
)

// TestImportLongArticleKeptWhole: a Cyrillic article of 53,000 characters
// (106 KB of UTF-8) keeps its text to the end, and a search for its last
// words finds it.
func TestImportLongArticleKeptWhole(t *testing.T) {
	words := []string{"библиотека", "архив", "сайт", "читатель", "история", "город", "время", "слово"}
	var b strings.Builder
	b.WriteString(`<html lang="ru"><head><meta charset="utf-8"><title>Длинная статья</title></head><body><article><h1>Длинная статья</h1>`)
	article := ""
	for p := 0; utf8.RuneCountInString(article) < 53_000; p++ {
		var para strings.Builder
		for i := range 60 {
			if i > 0 {
				para.WriteByte(' ')
			}
			para.WriteString(words[(p*7+i)%len(words)])
		}
		para.WriteString(".")
		article += para.String() + " "
		fmt.Fprintf(&b, "<p>%s</p>\n", para.String())
	}
	const last = "Последний абзац рассказывает про бронепоезд у реки."
	b.WriteString("<p>" + last + "</p></article></body></html>")
	if n := utf8.RuneCountInString(article + last); n < 53_000 || n > 54_000 {
		t.Fatalf("article of %d characters, want about 53,000", n)
	}
	file := writeWARC(t, []sites.Capture{htmlCapture("http://ru.test/long", b.String(), time.Date(2024, 3, 1, 10, 0, 0, 0, time.UTC))})
	a := apptest.EmptyStoreApp(t)
	ctx := context.Background()
	if _, err := a.Imports.ImportArchives(ctx, imports.ArchiveImportRequest{WARC: []string{file}}, nil); err != nil {
		t.Fatal(err)
	}
	p := pageURLs(t, a.Store)["http://ru.test/long"]
	if !strings.HasSuffix(p.Text, last) {
		t.Errorf("text of %d characters ends %q, want it to end with the article's last paragraph",
			utf8.RuneCountInString(p.Text), p.Text[max(0, len(p.Text)-200):])
	}
	sr, err := a.Review.Search(ctx, index.Query{Text: "бронепоезд"})
	if err != nil {
		t.Fatal(err)
	}
	if sr.Total != 1 {
		t.Errorf("a search for the article's last words finds %d pages, want 1", sr.Total)
	}
}
