package crawl

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"sitesift/sites"
)

func TestParseHTML(t *testing.T) {
	tests := []struct {
		name        string
		body        string
		title, text string
		links       []string
	}{
		{
			name:  "plain",
			body:  `<html><head><title>  A   title </title></head><body><p>One</p><p>two  three</p></body></html>`,
			title: "A title", text: "One two three",
		},
		{
			name:  "no body tag",
			body:  `<title>T</title><p>implied <i>body</i></p>`,
			title: "T", text: "implied body",
		},
		{
			name: "inline elements join words",
			body: `<p>wo<b>rd</b> <em>next</em><br>line</p>`,
			text: "word next line",
		},
		{
			name: "script style noscript template skipped",
			body: `<body>a <script>x()</script><style>p{}</style><noscript>enable js</noscript><template><p>t</p></template> b</body>`,
			text: "a b",
		},
		{
			name: "svg title is not the title",
			body: `<body><svg><title>icon</title></svg><p>x</p></body>`,
			text: "x",
		},
		{
			name: "links resolved, normalised, deduplicated in document order",
			body: `<a href="b">1</a> <a href="/c#x">2</a> <a href="HTTP://Other.TEST:80/">3</a> <a href="b#y">4</a>
				<a href="mailto:m@x">5</a> <a href="javascript:void(0)">6</a> <a href="">7</a> <a>8</a>
				<area href="/map"><frameset><frame src="/frame"></frameset><a href="ftp://x/">9</a>`,
			text:  "1 2 3 4 5 6 7 8 9",
			links: []string{"http://a.test/dir/b", "http://a.test/c", "http://other.test/", "http://a.test/map"},
		},
		{
			name:  "base href, even after links",
			body:  `<a href="x">x</a> <head><base href="https://b.test/base/"></head><a href="../y">y</a>`,
			text:  "x y",
			links: []string{"https://b.test/base/x", "https://b.test/y"},
		},
		{
			name:  "invalid base href ignored",
			body:  `<base href="javascript:alert(1)"><a href="x">x</a>`,
			text:  "x",
			links: []string{"http://a.test/dir/x"},
		},
		{
			name:  "frames",
			body:  `<frameset><frame src="left.html"><frame src="right.html"></frameset>`,
			links: []string{"http://a.test/dir/left.html", "http://a.test/dir/right.html"},
		},
		{
			name:  "entities",
			body:  `<title>Q&amp;A</title><p>caf&eacute;&nbsp;&lt;ok&gt;</p>`,
			title: "Q&A", text: "café <ok>",
		},
	}
	base, err := sites.Parse("http://a.test/dir/page.html")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := parseHTML([]byte(tt.body), base, MaxTextChars)
			if err != nil {
				t.Fatal(err)
			}
			if doc.title != tt.title || doc.fullText != tt.text || !slices.Equal(doc.links, tt.links) {
				t.Errorf("got title %q full text %q links %q\nwant title %q text %q links %q",
					doc.title, doc.fullText, doc.links, tt.title, tt.text, tt.links)
			}
		})
	}
}

// TestParseHTMLTextCap: texts are cut at the limit in characters, never
// inside a rune.
func TestParseHTMLTextCap(t *testing.T) {
	base, _ := sites.Parse("http://a.test/")
	body := "<p>" + strings.Repeat("é ", 100) + "</p>" // 'é' is two bytes
	for limit := 1; limit < 40; limit++ {
		doc, err := parseHTML([]byte(body), base, limit)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []string{doc.text, doc.fullText} {
			if n := utf8.RuneCountInString(s); n != limit || !utf8.ValidString(s) {
				t.Errorf("limit %d: text %q (%d characters)", limit, s, n)
			}
		}
	}
}

func TestMediaType(t *testing.T) {
	tests := []struct {
		header, body, want string
		html               bool
	}{
		{"text/html; charset=UTF-8", "", "text/html", true},
		{"TEXT/HTML", "", "text/html", true},
		{"application/xhtml+xml", "", "application/xhtml+xml", true},
		{"application/pdf", "", "application/pdf", false},
		{"text/html;;bad", "", "text/html", true},
		{"", "<!DOCTYPE html><p>x", "text/html", true},
		{"", "%PDF-1.4", "application/pdf", false},
	}
	for _, tt := range tests {
		var body []byte
		if tt.body != "" {
			body = []byte(tt.body)
		}
		if got := mediaType(tt.header, body); got != tt.want || isHTML(got) != tt.html {
			t.Errorf("mediaType(%q, %q) = %q (html %v), want %q", tt.header, tt.body, got, isHTML(got), tt.want)
		}
	}
}

func TestToUTF8(t *testing.T) {
	latin1 := []byte("<meta charset=\"iso-8859-1\"><p>caf\xe9</p>")
	if got := string(toUTF8(latin1, "text/html")); !strings.Contains(got, "café") {
		t.Errorf("meta charset: %q", got)
	}
	utf := []byte("<p>café</p>")
	if got := toUTF8(utf, "text/html"); string(got) != string(utf) {
		t.Errorf("UTF-8 changed: %q", got)
	}
	// A charset in the header means colly converted the body already.
	if got := toUTF8(latin1, "text/html; charset=utf-8"); string(got) != string(latin1) {
		t.Errorf("header charset: body changed to %q", got)
	}
}

func FuzzParseHTML(f *testing.F) {
	f.Add("<title>x</title><a href='/a'>a</a>")
	f.Add("<base href='//h.test/'><a href='b'>")
	f.Add("<svg><title>t</title><a href='x'></a></svg>")
	base, _ := sites.Parse("http://a.test/p")
	f.Fuzz(func(t *testing.T, body string) {
		doc, err := parseHTML([]byte(body), base, 256)
		if err != nil {
			t.Fatal(err)
		}
		if n, nf := utf8.RuneCountInString(doc.text), utf8.RuneCountInString(doc.fullText); n > 256 || nf > 256 {
			t.Fatalf("text of %d characters, full text of %d: the bound is 256", n, nf)
		}
		if doc.template != nil && len(doc.template) != len(doc.links) {
			t.Fatalf("%d links, %d template flags", len(doc.links), len(doc.template))
		}
		seen := map[string]bool{}
		for _, l := range doc.links {
			n, err := sites.Normalize(l)
			if err != nil || n != l || seen[l] {
				t.Fatalf("link %q: normalised %q, %v, duplicate %v", l, n, err, seen[l])
			}
			seen[l] = true
		}
	})
}
