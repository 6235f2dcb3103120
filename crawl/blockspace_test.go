package crawl

import (
	"strings"
	"testing"
)

// TestMainTextBlockEdgesSpaced: the main text keeps a space where a block
// element (an image, a line break) stood between two words, as the full text
// does, and still joins the parts of a word split by inline elements.
func TestMainTextBlockEdgesSpaced(t *testing.T) {
	filler := strings.Repeat("The studio's long history of films is told here in plenty of detail for readers. ", 12)
	for _, tc := range []struct{ mid, want string }{
		{"Warner Brothers<img src=x.png>are famous.", "Warner Brothers are famous."},
		{"Warner Brothers<br>are famous.", "Warner Brothers are famous."},
		{"Warner Brothers</p><blockquote>are famous.</blockquote><p>", "Warner Brothers are famous."},
		{"Warner Brothers</p><blockquote><p>are famous.</p></blockquote><p>", "Warner Brothers are famous."},
		{"Warner Brothers</p><ul><li>are famous.</li></ul><p>", "Warner Brothers are famous."},
		{"Warner Brothers are <b>wo</b>rd<sup>1</sup> and <span>wo</span>rd and <a href=/x>wo</a>rd.", "Warner Brothers are word1 and word and word."},
	} {
		body := "<html><head><title>T</title></head><body><nav><a href='/'>Home</a></nav><article><h1>Story</h1><p>" +
			filler + "</p><p>" + tc.mid + "</p><p>" + filler + "</p></article><footer>f</footer></body></html>"
		doc, err := ParseDocument([]byte(body), "text/html; charset=utf-8", "http://a.test/x")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(doc.Text, tc.want) || !strings.Contains(doc.FullText, tc.want) {
			i := max(0, strings.Index(doc.Text, "Warner"))
			t.Errorf("%s: main text %q, want %q", tc.mid, doc.Text[i:min(len(doc.Text), i+60)], tc.want)
		}
	}
}
