// Command bench measures the page index on a generated project: the rate
// at which pages go through index.Add in batches the size of the crawler's
// (crawl.DefaultBatchSize pages), and the latency of a few hundred queries
// of the kinds librarians type, with the site facet the API asks for.
//
//	go run ./tools/indexbench -pages 100000 -queries 400
//
// Pages are synthetic but shaped like a crawl: sites of power-law sizes,
// titles and texts of words drawn from a Zipf vocabulary whose most frequent
// words are the English stop words, as in real text (about 60% of the
// words; the index's English analyzer drops them), followed by made-up
// content words. Queries are what librarians type: one or two content words
// of middling frequency (in about 0.5% to 5% of the pages), a phrase of two
// adjacent content words taken from a page, a word within one site, a word
// without another. With -languages N the sites are spread over N of the
// languages the index has an analyzer for (each site one language, in turn),
// so that every query is searched in the fields of N languages; by default
// the pages' language is not told, and they are analysed in English. The
// run is deterministic given -seed. The index goes to a temporary
// directory, on disk as in a project, and is removed afterwards unless
// -keep.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2/analysis/lang/en"

	"sitesift/sites"
	"sitesift/sites/index"
)

func main() {
	cfg := defaults()
	flag.IntVar(&cfg.Pages, "pages", cfg.Pages, "pages to generate and index")
	flag.IntVar(&cfg.Batch, "batch", cfg.Batch, "pages per index.Add call (the crawler's batch size)")
	flag.IntVar(&cfg.Queries, "queries", cfg.Queries, "queries to time")
	flag.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "random seed")
	flag.BoolVar(&cfg.NoFacetRun, "no-facet-run", false, "skip the second pass of the queries without the site facet")
	flag.IntVar(&cfg.Languages, "languages", 0, fmt.Sprintf("spread the sites over this many languages (at most %d; 0: language not told)", len(benchLanguages)))
	keep := flag.Bool("keep", false, "keep the index directory")
	flag.Parse()
	dir, err := os.MkdirTemp("", "sitesift-index-bench-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if !*keep {
		defer os.RemoveAll(dir)
	}
	cfg.Dir = filepath.Join(dir, "index.bleve")
	if _, err := Run(context.Background(), cfg, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// Config sets up a run.
type Config struct {
	Pages, Batch, Queries int
	Seed                  uint64
	// Dir is where the index is created; it must not exist.
	Dir string
	// NoFacetRun skips timing the queries a second time without the site
	// facet (the API always asks for it; the second pass shows its cost).
	NoFacetRun bool
	// Languages spreads the sites over that many of benchLanguages; 0
	// leaves the pages' language untold.
	Languages int
}

// benchLanguages are languages the index has an analyzer or a stop list
// for, English first.
var benchLanguages = strings.Fields("en fr de es it pt nl sv no da fi ru pl ro hu tr ar fa hi hr ckb ja bg ca cs el eu ga gl hy id")

func defaults() Config { return Config{Pages: 100_000, Batch: 20, Queries: 400, Seed: 1} }

// Report is what a run measured.
type Report struct {
	Pages              int
	IndexTime          time.Duration
	PagesPerSec        float64
	IndexBytes         int64
	Queries            int
	P50, P95, P99, Max time.Duration
	// ByKind is the p95 of each kind of query.
	ByKind map[string]time.Duration
	// MeanHits is the mean number of hits per query.
	MeanHits float64
	// NoFacetP50 and NoFacetP95 are the latencies without the site facet
	// (zero with Config.NoFacetRun).
	NoFacetP50, NoFacetP95 time.Duration
}

// Run generates the pages, indexes them, runs the queries and writes a
// report to w.
func Run(ctx context.Context, cfg Config, w io.Writer) (Report, error) {
	if cfg.Languages < 0 || cfg.Languages > len(benchLanguages) {
		return Report{}, fmt.Errorf("-languages %d: between 0 and %d", cfg.Languages, len(benchLanguages))
	}
	gen := newGenerator(cfg.Seed, cfg.Pages)
	gen.languages = benchLanguages[:cfg.Languages]
	ix, err := index.Open(cfg.Dir)
	if err != nil {
		return Report{}, err
	}
	defer ix.Close()

	rep := Report{Pages: cfg.Pages, Queries: cfg.Queries, ByKind: map[string]time.Duration{}}
	start := time.Now()
	batch := make([]sites.Page, 0, cfg.Batch)
	for i := range cfg.Pages {
		batch = append(batch, gen.page(i))
		if len(batch) == cfg.Batch || i == cfg.Pages-1 {
			if err := ix.Add(batch); err != nil {
				return Report{}, err
			}
			batch = batch[:0]
		}
	}
	rep.IndexTime = time.Since(start)
	rep.PagesPerSec = float64(cfg.Pages) / rep.IndexTime.Seconds()
	if n, err := ix.Count(); err != nil || n != uint64(cfg.Pages) {
		return Report{}, fmt.Errorf("index holds %d pages, want %d (%v)", n, cfg.Pages, err)
	}
	rep.IndexBytes = dirSize(cfg.Dir)

	qs := gen.queries(cfg.Queries)
	var all []time.Duration
	byKind := map[string][]time.Duration{}
	var hits uint64
	for _, q := range qs {
		d, res, err := timeQuery(ctx, ix, q.text, 10)
		if err != nil {
			return Report{}, err
		}
		hits += res.Total
		all = append(all, d)
		byKind[q.kind] = append(byKind[q.kind], d)
	}
	rep.P50, rep.P95, rep.P99, rep.Max = quantile(all, 0.50), quantile(all, 0.95), quantile(all, 0.99), quantile(all, 1)
	for k, ds := range byKind {
		rep.ByKind[k] = quantile(ds, 0.95)
	}
	rep.MeanHits = float64(hits) / float64(len(qs))
	if !cfg.NoFacetRun {
		var plain []time.Duration
		for _, q := range qs {
			d, _, err := timeQuery(ctx, ix, q.text, 0)
			if err != nil {
				return Report{}, err
			}
			plain = append(plain, d)
		}
		rep.NoFacetP50, rep.NoFacetP95 = quantile(plain, 0.5), quantile(plain, 0.95)
	}

	langs := "language not told"
	if n := len(gen.languages); n > 0 {
		langs = fmt.Sprintf("%d languages", n)
	}
	fmt.Fprintf(w, "indexed %d pages (%d sites, %s) in batches of %d: %.1fs, %.0f pages/s, index %.0f MB\n",
		rep.Pages, gen.sites, langs, cfg.Batch, rep.IndexTime.Seconds(), rep.PagesPerSec, float64(rep.IndexBytes)/1e6)
	fmt.Fprintf(w, "%d queries (top 20 hits + site facet), mean %.0f hits: p50 %s, p95 %s, p99 %s, max %s\n",
		len(qs), rep.MeanHits, ms(rep.P50), ms(rep.P95), ms(rep.P99), ms(rep.Max))
	kinds := make([]string, 0, len(rep.ByKind))
	for k := range rep.ByKind {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	for _, k := range kinds {
		fmt.Fprintf(w, "  p95 %-8s %s (%d queries)\n", k, ms(rep.ByKind[k]), len(byKind[k]))
	}
	if !cfg.NoFacetRun {
		fmt.Fprintf(w, "the same queries without the site facet: p50 %s, p95 %s\n", ms(rep.NoFacetP50), ms(rep.NoFacetP95))
	}
	return rep, nil
}

// timeQuery runs one query as the API does (20 hits, highlighted) and
// times it, wall clock.
func timeQuery(ctx context.Context, ix *index.Index, text string, facet int) (time.Duration, index.Result, error) {
	t := time.Now()
	res, err := ix.Search(ctx, index.Query{Text: text, Limit: 20, FacetSites: facet})
	d := time.Since(t)
	if err != nil {
		return 0, index.Result{}, fmt.Errorf("query %q: %w", text, err)
	}
	return d, res, nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000) }

// quantile is the nearest-rank q-quantile of ds.
func quantile(ds []time.Duration, q float64) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(math.Ceil(q*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}

func dirSize(dir string) int64 {
	var n int64
	filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			n += fi.Size()
		}
		return nil
	})
	return n
}

// generator makes the pages and queries of a run.
type generator struct {
	seed  uint64
	words []string
	zipf  *rand.Zipf
	rng   *rand.Rand
	// site[i] is the site of page i; sites is their number.
	site  []int
	sites int
	// content is the rank of the first content word: words[:content] are
	// stop words.
	content int
	// languages are the languages the sites are spread over, in turn;
	// none leaves the pages' language untold.
	languages []string
}

const vocabulary = 30_000

// stopWords returns the English stop words the index's analyzer drops.
func stopWords() []string {
	var out []string
	for _, line := range strings.Split(string(en.EnglishStopWords), "\n") {
		line, _, _ = strings.Cut(line, "|")
		if f := strings.Fields(line); len(f) > 0 {
			out = append(out, f[0])
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func newGenerator(seed uint64, pages int) *generator {
	g := &generator{seed: seed, rng: rand.New(rand.NewPCG(seed, 1))}
	// The most frequent words are the stop words, in a random order.
	stop := stopWords()
	g.rng.Shuffle(len(stop), func(i, j int) { stop[i], stop[j] = stop[j], stop[i] })
	g.words, g.content = stop, len(stop)
	// Then pronounceable content words from syllables, distinct:
	// "bakemo", "tirusa"...
	syl := []string{"ba", "ke", "mo", "ti", "ru", "sa", "lo", "ne", "di", "pa", "ro", "vi", "ga", "tu", "me", "li", "so", "ca", "fe", "no", "ha", "zu", "ri", "de"}
	seen := map[string]bool{}
	for _, w := range stop {
		seen[w] = true
	}
	for len(g.words) < vocabulary {
		var b strings.Builder
		for range 2 + g.rng.IntN(3) {
			b.WriteString(syl[g.rng.IntN(len(syl))])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			g.words = append(g.words, w)
		}
	}
	g.zipf = rand.NewZipf(g.rng, 1.07, 2, vocabulary-1)
	// Site sizes follow a power law too: a few big sites, many small ones,
	// about 50 pages a site on average.
	sizes := rand.NewZipf(g.rng, 1.3, 1, 2000)
	for len(g.site) < pages {
		n := 1 + int(sizes.Uint64())
		for range min(n, pages-len(g.site)) {
			g.site = append(g.site, g.sites)
		}
		g.sites++
	}
	return g
}

// text is n words of page i's stream k, the same on every call.
func (g *generator) text(i, k, n int) []string {
	rng := rand.New(rand.NewPCG(g.seed^uint64(i)<<8, uint64(k)))
	z := rand.NewZipf(rng, 1.07, 2, vocabulary-1)
	out := make([]string, n)
	for j := range out {
		out[j] = g.words[z.Uint64()]
	}
	return out
}

func (g *generator) siteName(s int) string { return fmt.Sprintf("site%d.test", s) }

func (g *generator) page(i int) sites.Page {
	site := g.siteName(g.site[i])
	n := 150 + (i*7919)%350 // 150 to 500 words
	p := sites.Page{
		URL:    fmt.Sprintf("http://%s/p%d", site, i),
		Site:   site,
		Status: 200, ContentType: "text/html",
		Title: strings.Join(g.text(i, 0, 3+i%5), " "),
		Text:  strings.Join(g.text(i, 1, n), " "),
	}
	if len(g.languages) > 0 {
		p.Language = g.languages[g.site[i]%len(g.languages)]
	}
	return p
}

type query struct{ kind, text string }

// midWord is a content word of middling frequency, ranks 100 to 1500
// among the content words: in about 5% down to 0.5% of the pages.
func (g *generator) midWord() string { return g.words[g.content+100+g.rng.IntN(1400)] }

func (g *generator) queries(n int) []query {
	out := make([]query, 0, n)
	for len(out) < n {
		switch k := g.rng.IntN(10); {
		case k < 4:
			out = append(out, query{"word", g.midWord()})
		case k < 6:
			out = append(out, query{"words", g.midWord() + " " + g.midWord()})
		case k < 8:
			// Two adjacent content words of a page: found at least there.
			if p, ok := g.phrase(g.rng.IntN(len(g.site))); ok {
				out = append(out, query{"phrase", p})
			}
		case k < 9:
			s := g.site[g.rng.IntN(len(g.site))]
			out = append(out, query{"site", g.midWord() + " site:" + g.siteName(s)})
		default:
			out = append(out, query{"must-not", "+" + g.midWord() + " -" + g.midWord()})
		}
	}
	return out
}

// phrase returns two adjacent content words of page i's text, quoted, if
// its first 150 words have such a pair.
func (g *generator) phrase(i int) (string, bool) {
	stop := map[string]bool{}
	for _, w := range g.words[:g.content] {
		stop[w] = true
	}
	t := g.text(i, 1, 150)
	start := g.rng.IntN(len(t) - 1)
	for k := range len(t) - 1 {
		j := (start + k) % (len(t) - 1)
		if !stop[t[j]] && !stop[t[j+1]] {
			return `"` + t[j] + " " + t[j+1] + `"`, true
		}
	}
	return "", false
}
