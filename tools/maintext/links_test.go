package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"sitesift/crawl"
)

// TestLinkCorpus checks the link corpus is what its figures claim: every
// template of linkTemplates, pages whose author wrote links to other sites,
// every one of them on the page, among template links to other sites.
func TestLinkCorpus(t *testing.T) {
	ps, err := renderCorpus(linkCorpus())
	if err != nil {
		t.Fatal(err)
	}
	tmpls := map[string]int{}
	for _, p := range ps {
		tmpls[p.a.tmpl]++
		doc, err := crawl.ParseDocument([]byte(p.render()), "text/html; charset=utf-8", p.a.url)
		if err != nil {
			t.Fatal(err)
		}
		all := slices.Concat(doc.Links, doc.TemplateLinks)
		truth, err := authorLinks(p.a)
		if err != nil {
			t.Fatal(err)
		}
		if len(truth) < 2 {
			t.Errorf("%s: %d links written by the author, want at least 2", p.a.file, len(truth))
		}
		for _, l := range truth {
			if !slices.Contains(all, l) {
				t.Errorf("%s: the author's link %s is not among the page's links", p.a.file, l)
			}
		}
		if r, _ := scoreLinks(p, []byte(p.render())); len(all)-len(truth) < 10 {
			t.Errorf("%s: %d links of the template, want at least 10 (%+v)", p.a.file, len(all)-len(truth), r.all)
		}
	}
	for _, tm := range linkTemplates {
		if tmpls[tm] < 2 {
			t.Errorf("%d pages of template %q, want at least 2", tmpls[tm], tm)
		}
	}
}

// TestAuthorLinks: the links of an article's prose, lists and tables, as a
// crawl normalises them, each once.
func TestAuthorLinks(t *testing.T) {
	a, err := parseArticle("t.txt", "lang: en\ntemplate: arc\ntitle: T\nurl: https://x.example/a/t\n\n"+
		"See [the report](https://Y.example/r?utm_source=tw) and [ours](/b).\n\n- [again](https://y.example/r)\n| [c](https://z.example/) | d |\n")
	if err != nil {
		t.Fatal(err)
	}
	got, err := authorLinks(a)
	want := []string{"https://y.example/r", "https://x.example/b", "https://z.example/"}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("authorLinks = %q, %v; want %q", got, err, want)
	}
}

func TestRunLinks(t *testing.T) {
	var b bytes.Buffer
	if err := runLinks(&b, true); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "editorial links to other sites: precision") {
		t.Errorf("output:\n%s", b.String())
	}
}

// TestEditorialLinksToOtherSites is the aim of the link classification:
// of the links to other sites that sitesift takes for editorial, on the
// pages of both corpora, at least 0.9 are the author's, and it takes at
// least 0.9 of those the authors wrote.
func TestEditorialLinksToOtherSites(t *testing.T) {
	rs, err := evaluateLinks(corpus(), linkCorpus())
	if err != nil {
		t.Fatal(err)
	}
	_, other := linkTotals(rs)
	if other.precision() < 0.9 || other.recall() < 0.9 {
		for _, r := range rs {
			for _, l := range r.extra {
				t.Logf("%s: template link taken for editorial: %s", r.a.file, l)
			}
			for _, l := range r.missed {
				t.Logf("%s: editorial link missed: %s", r.a.file, l)
			}
		}
		t.Errorf("editorial links to other sites: precision %.3f, recall %.3f; want at least 0.9 each", other.precision(), other.recall())
	}
}
