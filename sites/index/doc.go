// Package index is sitesift's full-text index of crawled pages, a Bleve index
// with a static mapping built in code. It holds only what search needs (URL,
// site, language, title, main text) and can always be rebuilt from the
// project database (sitesift/sites/store) with Store.ForEachPage and
// [Index.Add].
//
// A project keeps its index in the directory index.bleve/ next to project.db:
//
//	ix, err := index.Open(filepath.Join(dir, "index.bleve"))
//	if err != nil { ... }
//	defer ix.Close()
//	err = ix.Add(pages) // from one goroutine only
//	res, err := ix.Search(ctx, index.Query{Text: `"open access" +journal`, Site: "example.org"})
//
// Query text uses Bleve's query-string syntax: words, "phrases", +required,
// -excluded, field:value, word~1 (fuzzy), wild*cards, /regexps/ and ^boosts.
// Words and phrases without a field are matched against the title (boosted)
// and the text. Each page's title and text are analysed with Bleve's
// analyzer for the page's language (sites.Page.Language), in fields of
// that language, and a query is searched in the fields of every language
// of the index's pages, analysed each its way: "avocado" finds "avocados"
// in English pages, "journal" finds "journaux" in French ones, "研究" finds
// Japanese pages by their pairs of characters. Pages whose language was
// not told are analysed in English, as before languages were told (see
// lang.go). A word is left out as too common when it is a stop word of
// every language of the index. A site:NAME term restricts the search to
// that site (to any of them, when there are several), as Query.Site does; a
// query of site: terms alone lists the pages of those sites.
// Query.FacetSites adds a facet of the sites with the most hits.
//
// [Index.SiteTerms] reads the term statistics of the pages of a set of sites
// against the whole index (pages holding each term, occurrences, document
// frequency), each page's terms those of its language, from which the app
// names a community by its distinctive words; [StopWord] tells the stop
// words of each language.
package index
