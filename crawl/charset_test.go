package crawl

import (
	"strings"
	"testing"

	"golang.org/x/text/encoding/charmap"
)

// TestToUTF8Sniffs: a body whose Content-Type names no charset is read in
// the charset its head declares, however far into the head, or as UTF-8
// when it is valid UTF-8 beyond its first kilobyte.
func TestToUTF8Sniffs(t *testing.T) {
	head := strings.Repeat(`<script src="/static/app.js" defer></script>`+"\n", 40) // > 1 KiB of ASCII
	cp1251 := func(s string) string {
		out, err := charmap.Windows1251.NewEncoder().String(s)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	latin1 := func(s string) string {
		out, err := charmap.Windows1252.NewEncoder().String(s)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, tc := range []struct{ name, body, want string }{
		{"utf-8 meta late", head + `<meta charset="utf-8"><p>café — “x”</p>`, "café — “x”"},
		{"utf-8 no meta", head + `<p>café — “x”</p>`, "café — “x”"},
		{"utf-8 cut inside a rune", head + `<p>café — “x”` + "\xe2\x80", "café — “x”"},
		{"windows-1251 meta late", cp1251(head + `<meta http-equiv="Content-Type" content="text/html; charset=windows-1251"><p>Новости дня</p>`), "Новости дня"},
		{"windows-1251 meta first", cp1251(`<meta charset="windows-1251">` + head + `<p>Новости дня</p>`), "Новости дня"},
		{"latin-1 no meta", latin1(head + `<p>café</p>`), "café"},
		{"meta in body ignored", head + `<body><meta charset="windows-1251"><p>café</p>`, "café"},
		{"utf-16 meta read as utf-8", `<meta charset="utf-16"><p>café</p>`, "café"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := string(toUTF8([]byte(tc.body), "text/html"))
			if !strings.Contains(got, tc.want) {
				t.Errorf("decoded %q, want it to hold %q", got[max(0, len(got)-80):], tc.want)
			}
		})
	}
}
