package main

import (
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"

	"sitesift/crawl"
	"sitesift/sites"
)

// The link benchmark scores how sitesift tells a page's editorial links
// from its template's. A link is editorial when the article's author wrote
// it: in the prose, a list or the sources of the article (the [text](url)
// of its source file, or of a forum thread's posts); every other link of
// the page is the template's. It is run on the main corpus's pages, whose
// articles link nothing, so that every link counted editorial there is a
// mistake, and on the link corpus (testdata/links/), articles with links
// rendered by templates that put their boxes inside the article (see
// linkTemplates).

// linkCounts are the true positives, false positives and false negatives
// of the links taken for editorial.
type linkCounts struct{ tp, fp, fn int }

func (c linkCounts) precision() float64 { return ratio(c.tp, c.tp+c.fp) }
func (c linkCounts) recall() float64    { return ratio(c.tp, c.tp+c.fn) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

func (c *linkCounts) add(o linkCounts) { c.tp, c.fp, c.fn = c.tp+o.tp, c.fp+o.fp, c.fn+o.fn }

// linkResult is the link score of one page: over all its links, and over
// its links to other sites.
type linkResult struct {
	a                 *article
	corpus            string // "main" or "links"
	all, other        linkCounts
	extra, missed     []string // links to other sites taken for editorial wrongly, or missed
	editorial, linksN int      // links the page's author wrote, links of the page
}

// authorLinks returns the links a's author wrote, as a crawl normalises
// them.
func authorLinks(a *article) ([]string, error) {
	base, err := sites.Parse(a.url)
	if err != nil {
		return nil, fmt.Errorf("%s: url: %w", a.file, err)
	}
	bs := a.blocks
	for _, p := range a.posts {
		bs = append(bs, p.blocks...)
	}
	var texts []string
	for _, b := range bs {
		texts = append(texts, b.text)
		texts = append(texts, b.items...)
		for _, r := range b.rows {
			texts = append(texts, r...)
		}
	}
	var out []string
	for _, t := range texts {
		for _, m := range linkRE.FindAllStringSubmatch(t, -1) {
			u, err := sites.Resolve(base, m[2])
			if err != nil {
				return nil, fmt.Errorf("%s: link %q: %w", a.file, m[2], err)
			}
			sites.StripTracking(u)
			if s := u.String(); !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out, nil
}

// scoreLinks scores the links of page p, whose HTML is body.
func scoreLinks(p *page, body []byte) (linkResult, error) {
	a := p.a
	doc, err := crawl.ParseDocument(body, "text/html; charset=utf-8", a.url)
	if err != nil {
		return linkResult{}, fmt.Errorf("%s: ParseDocument: %w", a.file, err)
	}
	truth, err := authorLinks(a)
	if err != nil {
		return linkResult{}, err
	}
	self, err := sites.Of(a.url)
	if err != nil {
		return linkResult{}, err
	}
	other := func(l string) bool {
		s, err := sites.Of(l)
		return err == nil && s != self
	}
	r := linkResult{a: a, editorial: len(truth), linksN: len(doc.Links) + len(doc.TemplateLinks)}
	count := func(l string, c linkCounts) {
		r.all.add(c)
		if other(l) {
			r.other.add(c)
			if c.fp > 0 {
				r.extra = append(r.extra, l)
			}
			if c.fn > 0 {
				r.missed = append(r.missed, l)
			}
		}
	}
	for _, l := range doc.Links {
		if slices.Contains(truth, l) {
			count(l, linkCounts{tp: 1})
		} else {
			count(l, linkCounts{fp: 1})
		}
	}
	for _, l := range truth {
		if !slices.Contains(doc.Links, l) {
			count(l, linkCounts{fn: 1})
		}
	}
	return r, nil
}

// linkCorpus returns the link corpus directory.
func linkCorpus() fs.FS {
	sub, err := fs.Sub(corpusFS, "testdata/links")
	if err != nil {
		panic(err) // a constant path into the embedded files
	}
	return sub
}

// evaluateLinks scores the links of every page of the main corpus and of
// the link corpus.
func evaluateLinks(main, links fs.FS) ([]linkResult, error) {
	var rs []linkResult
	for _, c := range []struct {
		name string
		fsys fs.FS
	}{{"main", main}, {"links", links}} {
		ps, err := renderCorpus(c.fsys)
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			r, err := scoreLinks(p, []byte(p.render()))
			if err != nil {
				return nil, err
			}
			r.corpus = c.name
			rs = append(rs, r)
		}
	}
	return rs, nil
}

// linkTotals sums the counts of rs, all links and links to other sites.
func linkTotals(rs []linkResult) (all, other linkCounts) {
	for _, r := range rs {
		all.add(r.all)
		other.add(r.other)
	}
	return all, other
}

// runLinks prints the link benchmark; with mistakes, each link to another
// site taken wrongly for editorial or missed.
func runLinks(w io.Writer, mistakes bool) error {
	rs, err := evaluateLinks(corpus(), linkCorpus())
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%-34s %-5s %-9s %5s %9s   %-19s   %-19s\n", "page", "lang", "template", "links", "author's", "all P / R", "other sites P / R")
	for _, r := range rs {
		fmt.Fprintf(w, "%-34s %-5s %-9s %5d %9d   %.3f %.3f %5s   %.3f %.3f\n", strings.TrimSuffix(r.a.file, ".txt"), r.a.lang, r.a.tmpl,
			r.linksN, r.editorial, r.all.precision(), r.all.recall(), "", r.other.precision(), r.other.recall())
		if mistakes {
			for _, l := range r.extra {
				fmt.Fprintf(w, "    template taken for editorial: %s\n", l)
			}
			for _, l := range r.missed {
				fmt.Fprintf(w, "    editorial missed:             %s\n", l)
			}
		}
	}
	for _, c := range []string{"main", "links", ""} {
		var sel []linkResult
		for _, r := range rs {
			if c == "" || r.corpus == c {
				sel = append(sel, r)
			}
		}
		all, other := linkTotals(sel)
		name := map[string]string{"main": "main corpus", "links": "link corpus", "": "both"}[c]
		fmt.Fprintf(w, "\n%s (%d pages): editorial links to other sites: precision %.3f, recall %.3f (%d taken, %d right, %d written)\n",
			name, len(sel), other.precision(), other.recall(), other.tp+other.fp, other.tp, other.tp+other.fn)
		fmt.Fprintf(w, "%*s all editorial links:                precision %.3f, recall %.3f (%d taken, %d right, %d written)\n",
			len(name)+len(fmt.Sprintf(" (%d pages):", len(sel))), "", all.precision(), all.recall(), all.tp+all.fp, all.tp, all.tp+all.fn)
	}
	return nil
}
