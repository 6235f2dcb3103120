package index

import (
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/lang/ar"
	"github.com/blevesearch/bleve/v2/analysis/lang/bg"
	"github.com/blevesearch/bleve/v2/analysis/lang/ca"
	"github.com/blevesearch/bleve/v2/analysis/lang/cjk"
	"github.com/blevesearch/bleve/v2/analysis/lang/ckb"
	"github.com/blevesearch/bleve/v2/analysis/lang/cs"
	"github.com/blevesearch/bleve/v2/analysis/lang/da"
	"github.com/blevesearch/bleve/v2/analysis/lang/de"
	"github.com/blevesearch/bleve/v2/analysis/lang/el"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/lang/es"
	"github.com/blevesearch/bleve/v2/analysis/lang/eu"
	"github.com/blevesearch/bleve/v2/analysis/lang/fa"
	"github.com/blevesearch/bleve/v2/analysis/lang/fi"
	"github.com/blevesearch/bleve/v2/analysis/lang/fr"
	"github.com/blevesearch/bleve/v2/analysis/lang/ga"
	"github.com/blevesearch/bleve/v2/analysis/lang/gl"
	"github.com/blevesearch/bleve/v2/analysis/lang/hi"
	"github.com/blevesearch/bleve/v2/analysis/lang/hr"
	"github.com/blevesearch/bleve/v2/analysis/lang/hu"
	"github.com/blevesearch/bleve/v2/analysis/lang/hy"
	"github.com/blevesearch/bleve/v2/analysis/lang/id"
	"github.com/blevesearch/bleve/v2/analysis/lang/it"
	"github.com/blevesearch/bleve/v2/analysis/lang/nl"
	"github.com/blevesearch/bleve/v2/analysis/lang/no"
	"github.com/blevesearch/bleve/v2/analysis/lang/pl"
	"github.com/blevesearch/bleve/v2/analysis/lang/pt"
	"github.com/blevesearch/bleve/v2/analysis/lang/ro"
	"github.com/blevesearch/bleve/v2/analysis/lang/ru"
	"github.com/blevesearch/bleve/v2/analysis/lang/sv"
	"github.com/blevesearch/bleve/v2/analysis/lang/tr"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/registry"
)

// Languages of the index. Each page's title and text are indexed in fields
// of its language, title_fr and text_fr for a French page, analysed with
// the analyzer Bleve ships for that language: stop words left out and
// words stemmed, so that "journal" finds "journaux". A query is spread
// over the fields of every language present in the index, each field
// analysing the query's words its own way.
//
// Fields per language rather than one text field analysed per document:
// a query word must be analysed the way the page it should find was, and
// with one field Bleve analyses a query with one analyzer only. Apart,
// each language also keeps its own term statistics, so that a word common
// in French pages does not weigh as rare in English ones, and its own
// stop list when the query holds a word that is a stop word in one
// language and a word in another.
//
// Languages Bleve has a stop list for but no analyzer (Bulgarian, Catalan,
// Czech…) get one of their own: the neutral analyzer with that stop list
// (and the elision of articles for Catalan and Irish), no stemming. A page
// of a language Bleve has nothing for (Hebrew, Thai, Welsh…) is indexed in
// title_other and text_other with the neutral analyzer: Unicode words,
// lower-cased, no stop words, no stemming, and Chinese, Japanese and
// Korean characters in overlapping pairs as the cjk analyzer makes them, so
// that such a page quoting them stays searchable.
//
// A page whose language was not told (Language ""), which is every page
// stored before sitesift told languages and, since, only pages whose text
// the detector could not tell, is indexed as every page was before: in
// title and text, with the English analyzer. Rebuilding an older project's
// index thus loses nothing (its English pages keep their stemming and stop
// words), and the English analyzer does to text of another language about
// what the neutral one does (the Porter stemmer leaves Cyrillic, Greek or
// Arabic words alone), English stop words apart.
const (
	// unknown is the key of pages whose language was not told.
	unknown = ""
	// other is the key of the pages of languages Bleve has nothing for.
	other = "other"
	// neutralAnalyzer is the analyzer of other.
	neutralAnalyzer = "sitesift_neutral"
	// langField holds each page's language key (kept whole), "und" for
	// unknown (see langValue), for the query of one language's pages.
	langField = "lang"
	// languageField holds each page's language as the crawl gave it,
	// ISO 639-1, "" when unknown; stored for the hits.
	languageField = "language"
)

// language is one set of fields of the index: its key (the suffix of its
// field names) and its analyzer.
type language struct {
	key, analyzer string
	// stop is the name of the Bleve stop list of the language, "" when
	// Bleve has none.
	stop string
}

// languages are the languages of the index, by key.
var languages = []language{
	{unknown, en.AnalyzerName, ""},
	{"ar", ar.AnalyzerName, ar.StopName},
	{"bg", "sitesift_bg", bg.StopName},
	{"ca", "sitesift_ca", ca.StopName},
	{"cjk", cjk.AnalyzerName, ""},
	{"ckb", ckb.AnalyzerName, ckb.StopName},
	{"cs", "sitesift_cs", cs.StopName},
	{"da", da.AnalyzerName, da.StopName},
	{"de", de.AnalyzerName, de.StopName},
	{"el", "sitesift_el", el.StopName},
	{"en", en.AnalyzerName, en.StopName},
	{"es", es.AnalyzerName, es.StopName},
	{"eu", "sitesift_eu", eu.StopName},
	{"fa", fa.AnalyzerName, fa.StopName},
	{"fi", fi.AnalyzerName, fi.StopName},
	{"fr", fr.AnalyzerName, fr.StopName},
	{"ga", "sitesift_ga", ga.StopName},
	{"gl", "sitesift_gl", gl.StopName},
	{"hi", hi.AnalyzerName, hi.StopName},
	{"hr", hr.AnalyzerName, hr.StopName},
	{"hu", hu.AnalyzerName, hu.StopName},
	{"hy", "sitesift_hy", hy.StopName},
	{"id", "sitesift_id", id.StopName},
	{"it", it.AnalyzerName, it.StopName},
	{"nl", nl.AnalyzerName, nl.StopName},
	{"no", no.AnalyzerName, no.StopName},
	{"pl", pl.AnalyzerName, pl.StopName},
	{"pt", pt.AnalyzerName, pt.StopName},
	{"ro", ro.AnalyzerName, ro.StopName},
	{"ru", ru.AnalyzerName, ru.StopName},
	{"sv", sv.AnalyzerName, sv.StopName},
	{"tr", tr.AnalyzerName, tr.StopName},
	{other, neutralAnalyzer, ""},
}

// elisions are the elision filters of the languages given an analyzer of
// their own here.
var elisions = map[string]string{"ca": ca.ElisionName, "ga": ga.ElisionName}

// aliases are the ISO 639-1 codes whose pages go to another language's
// fields: Norwegian Bokmål and Nynorsk to Norwegian's, and Chinese,
// Japanese and Korean to the cjk analyzer's.
var aliases = map[string]string{"nb": "no", "nn": "no", "zh": "cjk", "ja": "cjk", "ko": "cjk"}

// LanguageKey returns the key of the fields a page of language code (ISO
// 639-1, as sites.Page.Language) is indexed in: the code itself ("fr"),
// "no" for "nb" and "nn", "cjk" for "zh", "ja" and "ko", and "und" for ""
// and for languages Bleve has neither an analyzer nor a stop list for.
// [TermCount.Language] is such a key.
func LanguageKey(code string) string {
	code = strings.ToLower(strings.TrimSpace(code))
	if k, ok := aliases[code]; ok {
		return k
	}
	if _, ok := languageByKey[code]; ok {
		return code
	}
	return other
}

var languageByKey = func() map[string]language {
	m := make(map[string]language, len(languages))
	for _, l := range languages {
		m[l.key] = l
	}
	return m
}()

// langValue is the value of langField for the language of key: the key,
// ISO 639-2's "und" (undetermined) for unknown.
func langValue(key string) string {
	if key == unknown {
		return "und"
	}
	return key
}

// titleField and textField are the names of the fields of the language
// of key: title_fr and text_fr, title and text for pages of unknown
// language.
func titleField(key string) string {
	if key == unknown {
		return "title"
	}
	return "title_" + key
}

func textField(key string) string {
	if key == unknown {
		return "text"
	}
	return "text_" + key
}

// fieldLanguage returns the language key of a title or text field, and
// whether it is one.
func fieldLanguage(field string) (string, bool) {
	if field == "title" || field == "text" {
		return unknown, true
	}
	for _, p := range []string{"title_", "text_"} {
		if k, ok := strings.CutPrefix(field, p); ok {
			if _, known := languageByKey[k]; known {
				return k, true
			}
		}
	}
	return "", false
}

// addAnalyzers adds to the mapping the analyzers of the languages Bleve
// has a stop list but no analyzer for, and the neutral one.
func addAnalyzers(im interface {
	AddCustomAnalyzer(string, map[string]any) error
}) error {
	for _, l := range languages {
		if !strings.HasPrefix(l.analyzer, "sitesift_") {
			continue
		}
		filters := []string{}
		if e, ok := elisions[l.key]; ok {
			filters = append(filters, e)
		}
		filters = append(filters, lowercase.Name)
		if l.stop != "" {
			filters = append(filters, l.stop)
		} else {
			filters = append(filters, cjk.WidthName, cjk.BigramName)
		}
		if err := im.AddCustomAnalyzer(l.analyzer, map[string]any{
			"type":          custom.Name,
			"tokenizer":     unicode.Name,
			"token_filters": filters,
		}); err != nil {
			return err
		}
	}
	return nil
}

// stopLists are Bleve's stop lists by language key, read once.
var stopLists = sync.OnceValue(func() map[string]analysis.TokenMap {
	cache := registry.NewCache()
	out := map[string]analysis.TokenMap{}
	for _, l := range languages {
		if l.stop == "" {
			continue
		}
		tm, err := cache.TokenMapNamed(l.stop)
		if err != nil {
			panic("index: Bleve's stop list " + l.stop + " is not registered: " + err.Error())
		}
		out[l.key] = tm
	}
	return out
})

// StopWord reports whether word (lower-cased) is one of Bleve's stop words
// for the language of key (see [LanguageKey]). For a language Bleve has no
// stop list for ("", "other", "cjk"), it is a stop word of any language: a
// word such pages share says nothing of their topic when it is "il" or
// "то".
func StopWord(key, word string) bool {
	lists := stopLists()
	if tm, ok := lists[key]; ok {
		_, ok := tm[word]
		return ok
	}
	for _, tm := range lists {
		if _, ok := tm[word]; ok {
			return true
		}
	}
	return false
}

// langAnalyzer is a language of the index's pages and its analyzer, one
// of those a query is searched in.
type langAnalyzer struct {
	key string
	an  analysis.Analyzer
}
