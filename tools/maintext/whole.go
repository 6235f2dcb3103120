package main

import (
	"bytes"
	"fmt"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// inline are the elements that do not break a word: "One<b>two</b>" is
// one word.
var inlineElems = map[atom.Atom]bool{atom.A: true, atom.Abbr: true, atom.B: true, atom.Cite: true, atom.Code: true,
	atom.Em: true, atom.Font: true, atom.I: true, atom.Mark: true, atom.Q: true, atom.S: true, atom.Small: true,
	atom.Span: true, atom.Strong: true, atom.Sub: true, atom.Sup: true, atom.Time: true, atom.U: true}

// wholeText returns the readable text of a page's whole body, template
// included: every text node but those of scripts, styles and the like,
// with a space between block elements.
func wholeText(body []byte) (string, error) {
	root, err := html.Parse(bytes.NewReader(body))
	if err != nil {
		return "", fmt.Errorf("parse the page: %w", err)
	}
	var b strings.Builder
	var walk func(n *html.Node, inBody bool)
	walk = func(n *html.Node, inBody bool) {
		switch n.Type {
		case html.TextNode:
			if inBody {
				b.WriteString(n.Data)
			}
			return
		case html.ElementNode:
			switch n.DataAtom {
			case atom.Script, atom.Style, atom.Noscript, atom.Template, atom.Svg, atom.Iframe, atom.Textarea, atom.Select:
				return
			case atom.Body:
				inBody = true
			}
			if !inlineElems[n.DataAtom] {
				b.WriteByte(' ')
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, inBody)
		}
	}
	walk(root, false)
	return strings.Join(strings.Fields(b.String()), " "), nil
}
