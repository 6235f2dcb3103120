// Command maintext measures how much of each page's main text sitesift's
// extractor keeps, on a corpus of realistic pages whose main text is known.
//
//	go run ./tools/maintext            # per page and mean figures
//	go run ./tools/maintext -write DIR # also writes each page and its main text
//	go run ./tools/maintext -links     # editorial links' precision and recall
//	go run ./tools/maintext -links -mistakes
//
// The corpus (testdata/*.txt) is a set of articles written for it, in
// several languages, each rendered by a template that models a publishing
// system (WordPress with comments and widgets, a news site with a mega-menu,
// cookie consent, related stories and a paywall teaser, Blogger, Medium, a
// phpBB forum thread, MkDocs documentation, a GOV.UK-style page, Drupal, a
// Shopify journal post, a 1990s table layout). The main text is what the
// article's author wrote (every post, for a forum thread), without the
// headline.
//
// Scoring follows the public article-extraction benchmark (ScrapingHub's):
// lower-cased word tokens, 4-token shingles compared as multisets, precision,
// recall and F1 per page, then their means. Two extractors are scored:
// crawl.ParseDocument's Text, which is what sitesift indexes, and the
// whole page's readable text, the baseline a crawler without main-content
// extraction would keep.
package main

import (
	"embed"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"sitesift/crawl"
)

//go:embed testdata/*.txt testdata/links/*.txt
var corpusFS embed.FS

// corpus returns the corpus directory.
func corpus() fs.FS {
	sub, err := fs.Sub(corpusFS, "testdata")
	if err != nil {
		panic(err) // a constant path into the embedded files
	}
	return sub
}

func main() {
	write := flag.String("write", "", "directory to write each page (.html) and its main text (.txt) to")
	links := flag.Bool("links", false, "score the editorial links instead of the main text (see links.go)")
	mistakes := flag.Bool("mistakes", false, "with -links, list each link to another site classified wrongly")
	flag.Parse()
	var err error
	if *links {
		err = runLinks(os.Stdout, *mistakes)
	} else {
		err = run(os.Stdout, *write)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "maintext:", err)
		os.Exit(1)
	}
}

// result is the score of the two extractors on one page.
type result struct {
	a                  *article
	sitesift, baseline Score
}

// evaluate renders every page of the corpus and scores both extractors.
func evaluate(fsys fs.FS) ([]result, []*page, error) {
	ps, err := renderCorpus(fsys)
	if err != nil {
		return nil, nil, err
	}
	var rs []result
	for _, p := range ps {
		a := p.a
		body := []byte(p.render())
		doc, err := crawl.ParseDocument(body, "text/html; charset=utf-8", a.url)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: ParseDocument: %w", a.file, err)
		}
		whole, err := wholeText(body)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", a.file, err)
		}
		truth := a.MainText()
		rs = append(rs, result{a: a, sitesift: Compare(truth, doc.Text), baseline: Compare(truth, whole)})
	}
	return rs, ps, nil
}

// renderCorpus returns the pages of every article of a corpus, each with
// the other articles of its language as its related stories.
func renderCorpus(fsys fs.FS) ([]*page, error) {
	as, err := loadCorpus(fsys)
	if err != nil {
		return nil, err
	}
	var ps []*page
	for _, a := range as {
		p := &page{a: a, l: locale[a.lang]}
		if p.l.home == "" {
			return nil, fmt.Errorf("%s: no chrome labels for language %q", a.file, a.lang)
		}
		for _, o := range as {
			if o != a && o.lang == a.lang {
				p.related = append(p.related, o)
			}
		}
		ps = append(ps, p)
	}
	return ps, nil
}

// means returns the mean precision, recall and F1 of scores.
func means(scores []Score) (p, r, f1 float64) {
	for _, s := range scores {
		p += s.Precision()
		r += s.Recall()
		f1 += s.F1()
	}
	n := float64(len(scores))
	return p / n, r / n, f1 / n
}

func run(w io.Writer, writeDir string) error {
	rs, ps, err := evaluate(corpus())
	if err != nil {
		return err
	}
	if writeDir != "" {
		for _, p := range ps {
			name := strings.TrimSuffix(p.a.file, ".txt")
			if err := os.WriteFile(filepath.Join(writeDir, name+".html"), []byte(p.render()), 0o644); err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(writeDir, name+".txt"), []byte(p.a.MainText()+"\n"), 0o644); err != nil {
				return err
			}
		}
	}
	fmt.Fprintf(w, "%-34s %-4s %-9s %6s   %-20s   %-20s\n", "page", "lang", "template", "tokens", "sitesift P / R / F1", "whole page P / R / F1")
	langs := map[string]bool{}
	var ss, bs []Score
	for _, r := range rs {
		langs[r.a.lang] = true
		ss, bs = append(ss, r.sitesift), append(bs, r.baseline)
		fmt.Fprintf(w, "%-34s %-4s %-9s %6d   %.3f %.3f %.3f    %.3f %.3f %.3f\n", strings.TrimSuffix(r.a.file, ".txt"), r.a.lang, r.a.tmpl,
			len(Tokens(r.a.MainText())), r.sitesift.Precision(), r.sitesift.Recall(), r.sitesift.F1(),
			r.baseline.Precision(), r.baseline.Recall(), r.baseline.F1())
	}
	sp, sr, sf := means(ss)
	bp, br, bf := means(bs)
	fmt.Fprintf(w, "\n%d pages, %d languages, 4-token shingles\n", len(rs), len(langs))
	fmt.Fprintf(w, "crawl.ParseDocument Text: mean precision %.3f, recall %.3f, F1 %.3f\n", sp, sr, sf)
	fmt.Fprintf(w, "whole-page text:          mean precision %.3f, recall %.3f, F1 %.3f\n", bp, br, bf)
	return nil
}
