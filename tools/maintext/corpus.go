package main

import (
	"bufio"
	"fmt"
	"html"
	"io/fs"
	"regexp"
	"slices"
	"strings"
)

// An article is one page of the corpus as its source file states it: what
// its author wrote (Blocks), and what the publishing system puts around it
// (the template, the site, comments or the other posts of a forum thread).
//
// A source file is a header of "key: value" lines, a blank line, then the
// body: paragraphs separated by blank lines, "## " headings, "- " and "1. "
// list items, "> " quotes, "| a | b |" table rows and "```" code blocks;
// [text](url) is a link. "%% Name" starts a reader's comment, which is not
// main text; "@@ Name" starts a post of a forum thread, whose posts are.
type article struct {
	file                            string
	lang, tmpl, site, title, author string
	date, url, section              string
	tags                            []string
	blocks                          []block
	comments                        []post
	posts                           []post // a forum thread's posts, first the opening one
}

type post struct {
	author string
	blocks []block
}

type block struct {
	kind string // p, h2, h3, ul, ol, quote, table, code
	text string // p, h2, h3, quote, code
	rows [][]string
	// items are the list items; a table's rows are in rows
	items []string
}

var templates = []string{"wordpress", "news", "blogger", "medium", "forum", "docs", "gov", "drupal", "shop", "legacy"}

// parseArticle reads one source file.
func parseArticle(name, src string) (*article, error) {
	a := &article{file: name}
	sc := bufio.NewScanner(strings.NewReader(src))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		l := sc.Text()
		if strings.TrimSpace(l) == "" {
			break
		}
		k, v, ok := strings.Cut(l, ":")
		if !ok {
			return nil, fmt.Errorf("%s:%d: header line %q is not key: value", name, line, l)
		}
		v = strings.TrimSpace(v)
		switch strings.TrimSpace(k) {
		case "lang":
			a.lang = v
		case "template":
			a.tmpl = v
		case "site":
			a.site = v
		case "title":
			a.title = v
		case "author":
			a.author = v
		case "date":
			a.date = v
		case "url":
			a.url = v
		case "section":
			a.section = v
		case "tags":
			for _, t := range strings.Split(v, ",") {
				a.tags = append(a.tags, strings.TrimSpace(t))
			}
		default:
			return nil, fmt.Errorf("%s:%d: unknown header %q", name, line, k)
		}
	}
	if a.lang == "" || a.title == "" || a.url == "" || !slices.Contains(templates, a.tmpl) && !slices.Contains(linkTemplates, a.tmpl) {
		return nil, fmt.Errorf("%s: header needs lang, title, url and a template of %v or %v (template %q)", name, templates, linkTemplates, a.tmpl)
	}
	cur := &a.blocks
	var para []string
	var code []string
	inCode := false
	flush := func() {
		if len(para) > 0 {
			*cur = append(*cur, block{kind: "p", text: strings.Join(para, " ")})
			para = nil
		}
	}
	last := func() *block {
		if n := len(*cur); n > 0 {
			return &(*cur)[n-1]
		}
		return nil
	}
	for sc.Scan() {
		line++
		l := strings.TrimRight(sc.Text(), " \t")
		if inCode {
			if l == "```" {
				*cur = append(*cur, block{kind: "code", text: strings.Join(code, "\n")})
				code, inCode = nil, false
			} else {
				code = append(code, l)
			}
			continue
		}
		switch {
		case l == "```":
			flush()
			inCode = true
		case l == "":
			flush()
		case strings.HasPrefix(l, "%% "):
			flush()
			a.comments = append(a.comments, post{author: l[3:]})
			cur = &a.comments[len(a.comments)-1].blocks
		case strings.HasPrefix(l, "@@ "):
			flush()
			a.posts = append(a.posts, post{author: l[3:]})
			cur = &a.posts[len(a.posts)-1].blocks
		case strings.HasPrefix(l, "## "):
			flush()
			*cur = append(*cur, block{kind: "h2", text: l[3:]})
		case strings.HasPrefix(l, "### "):
			flush()
			*cur = append(*cur, block{kind: "h3", text: l[4:]})
		case strings.HasPrefix(l, "> "):
			flush()
			if b := last(); b != nil && b.kind == "quote" && len(para) == 0 {
				b.text += " " + l[2:]
			} else {
				*cur = append(*cur, block{kind: "quote", text: l[2:]})
			}
		case strings.HasPrefix(l, "- "), olRE.MatchString(l):
			flush()
			kind, item := "ul", strings.TrimPrefix(l, "- ")
			if m := olRE.FindStringSubmatch(l); m != nil {
				kind, item = "ol", m[1]
			}
			if b := last(); b != nil && b.kind == kind {
				b.items = append(b.items, item)
			} else {
				*cur = append(*cur, block{kind: kind, items: []string{item}})
			}
		case strings.HasPrefix(l, "|"):
			flush()
			cells := strings.Split(strings.Trim(l, "|"), "|")
			for i := range cells {
				cells[i] = strings.TrimSpace(cells[i])
			}
			if b := last(); b != nil && b.kind == "table" {
				b.rows = append(b.rows, cells)
			} else {
				*cur = append(*cur, block{kind: "table", rows: [][]string{cells}})
			}
		default:
			para = append(para, strings.TrimSpace(l))
		}
	}
	flush()
	if inCode {
		return nil, fmt.Errorf("%s:%d: code block not closed", name, line)
	}
	if (a.tmpl == "forum") != (len(a.posts) > 0) || (len(a.posts) > 0 && len(a.blocks) > 0) {
		return nil, fmt.Errorf("%s: a forum thread is made of posts (@@ Name) and nothing else, other templates of none", name)
	}
	return a, sc.Err()
}

var (
	olRE   = regexp.MustCompile(`^\d+\. (.*)$`)
	linkRE = regexp.MustCompile(`\[([^\]]+)\]\(([^)\s]+)\)`)
)

// MainText returns the known main text of the page: what its author wrote,
// or every post of a forum thread, as plain text, one block a paragraph.
// The headline is not part of it, nor the byline, comments or anything the
// template adds, as in the public benchmark's article bodies.
func (a *article) MainText() string {
	bs := a.blocks
	for _, p := range a.posts {
		bs = append(bs, p.blocks...)
	}
	return blocksText(bs)
}

func blocksText(bs []block) string {
	var out []string
	for _, b := range bs {
		switch b.kind {
		case "ul", "ol":
			for _, it := range b.items {
				out = append(out, plain(it))
			}
		case "table":
			for _, r := range b.rows {
				cells := make([]string, len(r))
				for i, c := range r {
					cells[i] = plain(c)
				}
				out = append(out, strings.Join(cells, " "))
			}
		default:
			out = append(out, plain(b.text))
		}
	}
	return strings.Join(out, "\n\n")
}

// plain strips the link markup of a text.
func plain(s string) string { return linkRE.ReplaceAllString(s, "$1") }

// inline renders a text with its links as HTML.
func inline(s string) string {
	var b strings.Builder
	last := 0
	for _, m := range linkRE.FindAllStringSubmatchIndex(s, -1) {
		b.WriteString(html.EscapeString(s[last:m[0]]))
		fmt.Fprintf(&b, `<a href="%s">%s</a>`, html.EscapeString(s[m[4]:m[5]]), html.EscapeString(s[m[2]:m[3]]))
		last = m[1]
	}
	b.WriteString(html.EscapeString(s[last:]))
	return b.String()
}

// blocksHTML renders blocks as the HTML a publishing system would make of them.
func blocksHTML(bs []block) string {
	var b strings.Builder
	for _, x := range bs {
		switch x.kind {
		case "p":
			fmt.Fprintf(&b, "<p>%s</p>\n", inline(x.text))
		case "h2", "h3":
			fmt.Fprintf(&b, "<%s>%s</%s>\n", x.kind, inline(x.text), x.kind)
		case "quote":
			fmt.Fprintf(&b, "<blockquote><p>%s</p></blockquote>\n", inline(x.text))
		case "code":
			fmt.Fprintf(&b, "<pre><code>%s</code></pre>\n", html.EscapeString(x.text))
		case "ul", "ol":
			fmt.Fprintf(&b, "<%s>\n", x.kind)
			for _, it := range x.items {
				fmt.Fprintf(&b, "<li>%s</li>\n", inline(it))
			}
			fmt.Fprintf(&b, "</%s>\n", x.kind)
		case "table":
			b.WriteString("<table>\n<thead><tr>")
			for _, c := range x.rows[0] {
				fmt.Fprintf(&b, "<th>%s</th>", inline(c))
			}
			b.WriteString("</tr></thead>\n<tbody>\n")
			for _, r := range x.rows[1:] {
				b.WriteString("<tr>")
				for _, c := range r {
					fmt.Fprintf(&b, "<td>%s</td>", inline(c))
				}
				b.WriteString("</tr>\n")
			}
			b.WriteString("</tbody>\n</table>\n")
		}
	}
	return b.String()
}

// loadCorpus reads every source file (*.txt) of dir.
func loadCorpus(fsys fs.FS) ([]*article, error) {
	names, err := fs.Glob(fsys, "*.txt")
	if err != nil {
		return nil, err
	}
	var as []*article
	for _, n := range names {
		src, err := fs.ReadFile(fsys, n)
		if err != nil {
			return nil, fmt.Errorf("read corpus: %w", err)
		}
		a, err := parseArticle(n, string(src))
		if err != nil {
			return nil, fmt.Errorf("read corpus: %w", err)
		}
		as = append(as, a)
	}
	if len(as) == 0 {
		return nil, fmt.Errorf("read corpus: no *.txt source in the corpus directory")
	}
	return as, nil
}
