package crawl

import (
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestTextBoundInCharacters: a page's main text and full text are cut at
// MaxTextChars characters, whatever bytes they take, on a rune boundary.
func TestTextBoundInCharacters(t *testing.T) {
	u, _ := url.Parse("http://ru.test/long")
	para := "<p>" + strings.Repeat("ё", 99) + " </p>\n" // 100 characters of text, 199 bytes
	body := "<html><body><article>" + strings.Repeat(para, MaxTextChars/100+500) + "</article></body></html>"
	doc, err := parseHTML([]byte(body), u, MaxTextChars)
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]string{"text": doc.text, "full text": doc.fullText} {
		if n := utf8.RuneCountInString(s); n != MaxTextChars || !utf8.ValidString(s) {
			t.Errorf("%s of %d characters (valid UTF-8: %v), want %d", name, n, utf8.ValidString(s), MaxTextChars)
		}
	}
}
