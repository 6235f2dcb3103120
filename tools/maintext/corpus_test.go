package main

import (
	"bytes"
	"strings"
	"testing"
	"unicode"
)

// TestCorpus checks the corpus is what the figures claim: at least 30
// pages, every template, at least 6 languages with Chinese or Japanese
// among them, articles of 150 to 800 words, and pages whose main text is
// all there, among plenty of template.
func TestCorpus(t *testing.T) {
	rs, ps, err := evaluate(corpus())
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) < 30 {
		t.Errorf("%d pages, want at least 30", len(rs))
	}
	langs, tmpls := map[string]int{}, map[string]int{}
	for i, r := range rs {
		a := r.a
		langs[a.lang]++
		tmpls[a.tmpl]++
		n := len(strings.Fields(a.MainText()))
		if a.lang == "ja" || a.lang == "zh" {
			// Written without spaces: about two characters a word.
			n = 0
			for _, c := range a.MainText() {
				if unicode.In(c, unicode.Han, unicode.Hiragana, unicode.Katakana) {
					n++
				}
			}
			n /= 2
		}
		if n < 150 || n > 800 {
			t.Errorf("%s: main text of about %d words, want 150 to 800", a.file, n)
		}
		// The known main text is on the page: all of it, but for the
		// shingles that straddle a box the template puts inside it.
		if rec := r.baseline.Recall(); rec < 0.9 {
			t.Errorf("%s: the whole page holds only %.2f of the main text's shingles", a.file, rec)
		}
		if prec := r.baseline.Precision(); prec > 0.8 {
			t.Errorf("%s: the main text is %.2f of the page's shingles: too little template", a.file, prec)
		}
		if html := ps[i].render(); !strings.Contains(html, `lang="`+a.lang+`"`) && a.tmpl != "legacy" {
			t.Errorf("%s: the page does not declare its language %q", a.file, a.lang)
		}
	}
	if len(langs) < 6 || langs["ja"]+langs["zh"] == 0 {
		t.Errorf("languages %v, want at least 6 with Japanese or Chinese", langs)
	}
	for _, tm := range templates {
		if tmpls[tm] == 0 {
			t.Errorf("no page of template %q", tm)
		}
	}
}

// TestParseArticle checks the source format on a small article.
func TestParseArticle(t *testing.T) {
	src := "lang: en\ntemplate: wordpress\ntitle: T\nurl: https://x.example/t\ntags: a, b\n\n" +
		"First line\nsame paragraph with a [link](https://y.example/).\n\n## Heading\n- one\n- two\n1. first\n> said\n> twice\n| h1 | h2 |\n| c1 | c2 |\n```\ncode  here\n```\n\n%% Reader\nA comment.\n"
	a, err := parseArticle("t.txt", src)
	if err != nil {
		t.Fatal(err)
	}
	want := "First line same paragraph with a link.\n\nHeading\n\none\n\ntwo\n\nfirst\n\nsaid twice\n\nh1 h2\n\nc1 c2\n\ncode  here"
	if got := a.MainText(); got != want {
		t.Errorf("MainText =\n%q\nwant\n%q", got, want)
	}
	if len(a.comments) != 1 || a.comments[0].author != "Reader" || len(a.tags) != 2 {
		t.Errorf("comments %+v, tags %q", a.comments, a.tags)
	}
	if h := blocksHTML(a.blocks); !strings.Contains(h, `<a href="https://y.example/">link</a>`) || !strings.Contains(h, "<ol>\n<li>first</li>") {
		t.Errorf("HTML:\n%s", h)
	}
	for _, bad := range []string{
		"lang: en\ntemplate: nosuch\ntitle: T\nurl: u\n\nx\n",
		"lang: en\ntemplate: forum\ntitle: T\nurl: u\n\nA paragraph outside any post.\n",
		"lang en\n\nx\n",
		"lang: en\ntemplate: docs\ntitle: T\nurl: u\n\n```\nnot closed\n",
	} {
		if _, err := parseArticle("bad.txt", bad); err == nil || !strings.Contains(err.Error(), "bad.txt") {
			t.Errorf("parseArticle(%q): error %v, want one naming the file", bad, err)
		}
	}
}

// TestWholeText checks the baseline keeps every readable text of the body
// and nothing of scripts and styles.
func TestWholeText(t *testing.T) {
	got, err := wholeText([]byte(`<html><head><title>No</title><style>p{}</style></head><body><nav>Home</nav><p>One<b>two</b></p><script>var x</script><p>three</p></body></html>`))
	if err != nil || got != "Home Onetwo three" {
		t.Errorf("wholeText = %q, %v", got, err)
	}
}

func TestRun(t *testing.T) {
	var b bytes.Buffer
	if err := run(&b, t.TempDir()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "whole-page text:") || !strings.Contains(b.String(), "crawl.ParseDocument Text:") {
		t.Errorf("output:\n%s", b.String())
	}
}

// TestMainTextF1 is the aim of main-content extraction: a mean shingle F1
// of at least 0.93 on the corpus for the text sitesift indexes; the whole
// page's text scores about 0.68.
func TestMainTextF1(t *testing.T) {
	rs, _, err := evaluate(corpus())
	if err != nil {
		t.Fatal(err)
	}
	var ss, bs []Score
	for _, r := range rs {
		ss, bs = append(ss, r.sitesift), append(bs, r.baseline)
	}
	_, _, f1 := means(ss)
	_, _, base := means(bs)
	if f1 < 0.93 {
		for _, r := range rs {
			t.Logf("%s: F1 %.3f (whole page %.3f)", r.a.file, r.sitesift.F1(), r.baseline.F1())
		}
		t.Errorf("mean F1 of crawl.ParseDocument's Text is %.3f, want at least 0.93 (whole page: %.3f)", f1, base)
	}
}
