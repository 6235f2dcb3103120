package wacz

import (
	"strings"
	"testing"
)

func TestHTMLTitle(t *testing.T) {
	for _, tc := range []struct{ name, body, ctype, want string }{
		{"plain", "<html><head><title>Le  Monde\n — Actualités</title></head><body><h1>Headline</h1></body></html>", "text/html; charset=utf-8", "Le Monde — Actualités"},
		{"entities", "<title>Caf&eacute; &amp; co</title>", "text/html", "Café & co"},
		{"latin-1", "<title>Caf\xe9</title>", "text/html; charset=iso-8859-1", "Café"},
		{"svg title first", "<body><svg><title>icon</title></svg><title>Page</title>", "text/html", "Page"},
		{"none", "<html><body><h1>Only a headline</h1></body></html>", "text/html", ""},
		{"empty", "<title></title>", "text/html", ""},
		{"long", "<title>" + strings.Repeat("é", 2000) + "</title>", "text/html; charset=utf-8", strings.Repeat("é", MaxTitle/2)},
	} {
		if got := HTMLTitle([]byte(tc.body), tc.ctype); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
