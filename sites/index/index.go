package index

import (
	"context"
	"errors"
	"fmt"
	"html"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	htmlhl "github.com/blevesearch/bleve/v2/search/highlight/highlighter/html"
	"github.com/blevesearch/bleve/v2/search/query"

	"sitesift/sites"
)

// ErrBadQuery is returned (wrapped, with the reason) for a query that cannot
// be run: empty, malformed, or with a bad offset. Callers map it to "bad
// request".
var ErrBadQuery = errors.New("index: bad query")

// ErrMappingChanged is returned (wrapped) by [Open] for an index built with a
// different mapping than this code's; delete the directory and rebuild it
// from the store.
var ErrMappingChanged = errors.New("index: built with another mapping, rebuild it")

const (
	// docType is the one document type of the mapping.
	docType = "page"

	// mappingVersion is stored in the index and checked on Open, so a change
	// to buildMapping is detected instead of silently searching fields the
	// old index does not have. Bump it with every change to buildMapping.
	mappingVersion = "sitesift-page-2"

	// titleBoost weighs a match in the title above the same match in the
	// text: a page titled "Avocados" is more about avocados than one that
	// mentions them.
	titleBoost = 3.0

	// DefaultLimit and MaxLimit bound Query.Limit.
	DefaultLimit = 20
	MaxLimit     = 100

	// snippetRunes is the length of the snippet taken from the start of the
	// text when highlighting produced no fragment; bleve's own fragments are
	// about as long.
	snippetRunes = 200
)

var mappingVersionKey = []byte("sitesift_mapping_version")

// openTimeout bounds the wait for the lock of an index directory. Bleve waits
// forever by default when the index is already open, even in this very
// process; with a timeout the second Open fails instead.
const openTimeout = "1s"

// Index is an open page index. Search and Count are safe for concurrent use;
// Add must be called from one goroutine at a time.
type Index struct {
	bi bleve.Index
	// timeout is the time a search may take when its query does not say:
	// SearchTimeout when 0, none when negative (WithSearchTimeout).
	timeout time.Duration
}

// Option configures an index of [Open] or [NewMemory].
type Option func(*Index)

// WithSearchTimeout sets the time a search may take when its Query.Timeout
// does not say (default [SearchTimeout]); a negative d sets none, and a
// search then runs until its context ends. A test sets none, or a
// deadline of its own through its context, so that whether a search ends
// does not depend on how busy the machine is.
func WithSearchTimeout(d time.Duration) Option { return func(ix *Index) { ix.timeout = d } }

func newIndex(bi bleve.Index, opts []Option) *Index {
	ix := &Index{bi: bi}
	for _, o := range opts {
		o(ix)
	}
	return ix
}

// document is what is indexed for a page: url, site, lang and language,
// and the page's title and text in the fields of its language (see
// [LanguageKey]); the keys are the field names of the mapping.
func document(p *sites.Page) map[string]any {
	key := LanguageKey(p.Language)
	return map[string]any{
		"url":           p.URL,
		"site":          p.Site,
		languageField:   p.Language,
		langField:       langValue(key),
		titleField(key): p.Title,
		textField(key):  p.Text,
	}
}

// buildMapping is the static mapping: nothing outside the fields below is
// indexed, whatever a document carries.
func buildMapping() (mapping.IndexMapping, error) {
	keywordField := func(store bool) *mapping.FieldMapping {
		f := bleve.NewKeywordFieldMapping()
		f.Analyzer = keyword.Name
		f.Store = store
		f.IncludeInAll = false
		f.IncludeTermVectors = false
		return f
	}
	// Term vectors (positions) serve phrase queries and highlighting.
	textMapping := func(analyzer string) *mapping.FieldMapping {
		f := bleve.NewTextFieldMapping()
		f.Analyzer = analyzer
		f.Store = true
		f.IncludeTermVectors = true
		f.IncludeInAll = false
		f.DocValues = false
		return f
	}

	page := bleve.NewDocumentStaticMapping()
	page.AddFieldMappingsAt("url", keywordField(true))
	page.AddFieldMappingsAt("site", keywordField(true))
	page.AddFieldMappingsAt(languageField, keywordField(true))
	page.AddFieldMappingsAt(langField, keywordField(false))
	for _, l := range languages {
		page.AddFieldMappingsAt(titleField(l.key), textMapping(l.analyzer))
		page.AddFieldMappingsAt(textField(l.key), textMapping(l.analyzer))
	}

	im := bleve.NewIndexMapping()
	if err := addAnalyzers(im); err != nil {
		return nil, fmt.Errorf("index: mapping: %w", err)
	}
	im.AddDocumentMapping(docType, page)
	im.DefaultType = docType
	im.DefaultMapping = bleve.NewDocumentDisabledMapping()
	im.DefaultAnalyzer = en.AnalyzerName
	// Query leaves that searchFields does not spread over the title and
	// text fields (numeric ranges, say) fall back to this field.
	im.DefaultField = textField(unknown)
	im.StoreDynamic = false
	im.IndexDynamic = false
	im.DocValuesDynamic = false
	return im, nil
}

// Open opens the index in dir, creating it when dir does not exist or is an
// empty directory. An index already open (in this process or another) makes
// Open fail after about a second rather than hang.
func Open(dir string, opts ...Option) (*Index, error) {
	cfg := func() map[string]any { return map[string]any{"bolt_timeout": openTimeout} }
	bi, err := bleve.OpenUsing(dir, cfg())
	switch {
	case err == nil:
		ix := newIndex(bi, opts)
		if err := ix.checkMapping(); err != nil {
			bi.Close()
			return nil, fmt.Errorf("index: open %q: %w", dir, err)
		}
		return ix, nil
	case errors.Is(err, bleve.ErrorIndexPathDoesNotExist) || (errors.Is(err, bleve.ErrorIndexMetaMissing) && emptyDir(dir)):
		// scorch ignores the kvstore name; the config is stored with the
		// index, so even a plain bleve.Open of it gets the lock timeout.
		m, err := buildMapping()
		if err != nil {
			return nil, err
		}
		bi, err = bleve.NewUsing(dir, m, scorch.Name, scorch.Name, cfg())
		if err != nil {
			return nil, fmt.Errorf("index: create %q: %w", dir, err)
		}
		ix := newIndex(bi, opts)
		if err := bi.SetInternal(mappingVersionKey, []byte(mappingVersion)); err != nil {
			bi.Close()
			return nil, fmt.Errorf("index: create %q: %w", dir, err)
		}
		return ix, nil
	default:
		return nil, fmt.Errorf("index: open %q: %w", dir, err)
	}
}

func emptyDir(dir string) bool {
	entries, err := os.ReadDir(dir)
	return err == nil && len(entries) == 0
}

func (ix *Index) checkMapping() error {
	v, err := ix.bi.GetInternal(mappingVersionKey)
	if err != nil {
		return fmt.Errorf("read mapping version: %w", err)
	}
	if string(v) != mappingVersion {
		return fmt.Errorf("%w: it has mapping %q, this program uses %q", ErrMappingChanged, v, mappingVersion)
	}
	return nil
}

// NewMemory returns an empty index held in memory only, for tests and
// throw-away projects. It is a scorch index, as on disk (bleve's own
// NewMemOnly is another kind), so that it searches and bounds queries the
// same way.
func NewMemory(opts ...Option) (*Index, error) {
	m, err := buildMapping()
	if err != nil {
		return nil, err
	}
	bi, err := bleve.NewUsing("", m, scorch.Name, scorch.Name, nil)
	if err != nil {
		return nil, fmt.Errorf("index: new in-memory index: %w", err)
	}
	return newIndex(bi, opts), nil
}

// Close closes the index; an on-disk index can then be opened again.
func (ix *Index) Close() error {
	if err := ix.bi.Close(); err != nil {
		return fmt.Errorf("index: close: %w", err)
	}
	return nil
}

// present returns the languages of the index's pages, with their
// analyzers: those whose title or text field the index holds. An empty
// index has none, and is searched as if its pages were of unknown
// language, as before languages were told.
func (ix *Index) present() ([]langAnalyzer, error) {
	fields, err := ix.bi.Fields()
	if err != nil {
		return nil, fmt.Errorf("list the fields of the index: %w", err)
	}
	have := map[string]bool{}
	for _, f := range fields {
		if k, ok := fieldLanguage(f); ok {
			have[k] = true
		}
	}
	if len(have) == 0 {
		have[unknown] = true
	}
	m := ix.bi.Mapping()
	var out []langAnalyzer
	for _, l := range languages {
		if !have[l.key] {
			continue
		}
		an := m.AnalyzerNamed(l.analyzer)
		if an == nil {
			return nil, fmt.Errorf("no analyzer %q for language %q", l.analyzer, l.key)
		}
		out = append(out, langAnalyzer{key: l.key, an: an})
	}
	return out, nil
}

// Count returns the number of indexed pages.
func (ix *Index) Count() (uint64, error) {
	n, err := ix.bi.DocCount()
	if err != nil {
		return 0, fmt.Errorf("index: count: %w", err)
	}
	return n, nil
}

// searchable reports whether a page belongs in the index: a successful fetch
// with something to search.
func searchable(p *sites.Page) bool {
	return p.Status == 200 && (p.Title != "" || p.Text != "")
}

// Add indexes pages in one batch, the page URL being the document ID. Pages
// that are not searchable (status other than 200, or neither title nor text)
// are removed from the index instead, so that a page re-fetched with an error
// no longer turns up in searches. Add must be called from one goroutine at a
// time (bleve's batches are written by a single writer).
func (ix *Index) Add(pages []sites.Page) error {
	b := ix.bi.NewBatch()
	for i := range pages {
		p := &pages[i]
		if p.URL == "" {
			return fmt.Errorf("index: add: page with empty URL (site %q)", p.Site)
		}
		if !searchable(p) {
			b.Delete(p.URL)
			continue
		}
		if err := b.Index(p.URL, document(p)); err != nil {
			return fmt.Errorf("index: add %q: %w", p.URL, err)
		}
	}
	if b.Size() == 0 {
		return nil
	}
	if err := ix.bi.Batch(b); err != nil {
		return fmt.Errorf("index: add batch of %d pages: %w", len(pages), err)
	}
	return nil
}

// Query is a search request.
type Query struct {
	// Text is in bleve's query-string syntax; see the package documentation.
	Text string
	// Site, if set, restricts hits to pages of that site.
	Site string
	// Offset skips that many hits; Limit caps the hits returned: 0 means
	// DefaultLimit, more than MaxLimit means MaxLimit.
	Offset, Limit int
	// FacetSites, when > 0, asks for the FacetSites sites with the most hits
	// in Result.Sites (a Bleve term facet over the site field).
	FacetSites int
	// Any finds the pages with any of the plain words and phrases; without
	// it (the default) a page must have them all. +word and -word are
	// required and excluded either way.
	Any bool
	// Timeout bounds the time the search may take; 0 means the index's
	// (SearchTimeout unless WithSearchTimeout says), negative none.
	Timeout time.Duration
}

// Result is one page of search hits.
type Result struct {
	Total uint64        // hits in all, not only on this page
	Took  time.Duration // time bleve spent searching
	// MaxScore is the best hit's score over all hits, not only this page's.
	MaxScore float64
	Hits     []Hit
	// Sites is the site facet when Query.FacetSites asked for it: the sites
	// with the most hits, most hits first, over all hits (not only this
	// page's).
	Sites []SiteCount
	// Ignored are the words and phrases of the query too common to search
	// for (stop words of every language of the index's pages), as typed;
	// the search ran without them.
	Ignored []string
}

// SiteCount is one entry of the site facet.
type SiteCount struct {
	Site  string `json:"site"`
	Count int    `json:"count"`
}

// Hit is one matching page.
type Hit struct {
	URL, Site, Title string
	// Language is the page's language as the crawl told it (ISO 639-1),
	// "" when unknown.
	Language string
	Score    float64
	// Snippet is HTML: the text around the matches with each match wrapped
	// in <mark>…</mark>, everything else escaped; or, when the matches are
	// not in the text, the escaped start of the text.
	Snippet string
}

// Search runs q. A query that cannot be run (empty, malformed, made of
// stop words only, or past one of the bounds of cost.go) is a
// [*QueryError], which wraps [ErrBadQuery]; a negative offset is an
// ErrBadQuery error. The search stops when ctx is done, and after
// q.Timeout (the index's when 0) with a QueryError that says so.
func (ix *Index) Search(ctx context.Context, q Query) (Result, error) {
	if q.Timeout == 0 {
		q.Timeout = ix.timeout
	}
	ls, err := ix.present()
	if err != nil {
		return Result{}, fmt.Errorf("index: search %q: %w", q.Text, err)
	}
	bq, ignored, err := buildQuery(q, ls)
	if err != nil {
		return Result{}, err
	}
	ctx, cancel := boundedContext(ctx, q.Timeout)
	defer cancel()
	if err := ix.checkExpansions(ctx, bq); err != nil {
		var qe *QueryError
		if errors.As(err, &qe) {
			return Result{}, err
		}
		if slow := tooSlow(ctx, q.Timeout); slow != nil {
			return Result{}, slow
		}
		return Result{}, fmt.Errorf("index: search %q: %w", q.Text, err)
	}
	limit := q.Limit
	switch {
	case limit <= 0:
		limit = DefaultLimit
	case limit > MaxLimit:
		limit = MaxLimit
	}
	req := bleve.NewSearchRequestOptions(bq, limit, q.Offset, false)
	req.Fields = []string{"url", "site", languageField}
	req.Highlight = bleve.NewHighlightWithStyle(htmlhl.Name)
	for _, l := range ls {
		req.Fields = append(req.Fields, titleField(l.key), textField(l.key))
		req.Highlight.AddField(textField(l.key))
	}
	const siteFacet = "sites"
	if q.FacetSites > 0 {
		req.AddFacet(siteFacet, bleve.NewFacetRequest("site", q.FacetSites))
	}

	res, err := ix.bi.SearchInContext(ctx, req)
	if err != nil {
		if slow := tooSlow(ctx, q.Timeout); slow != nil {
			return Result{}, slow
		}
		return Result{}, fmt.Errorf("index: search %q: %w", q.Text, err)
	}
	out := Result{Total: res.Total, Took: res.Took, MaxScore: res.MaxScore, Hits: make([]Hit, 0, len(res.Hits)), Ignored: ignored}
	for _, h := range res.Hits {
		key := LanguageKey(stringField(h.Fields, languageField))
		hit := Hit{
			URL:      h.ID,
			Site:     stringField(h.Fields, "site"),
			Title:    stringField(h.Fields, titleField(key)),
			Language: stringField(h.Fields, languageField),
			Score:    h.Score,
		}
		if frags := h.Fragments[textField(key)]; len(frags) > 0 && frags[0] != "" {
			hit.Snippet = frags[0]
		} else {
			hit.Snippet = leadSnippet(stringField(h.Fields, textField(key)))
		}
		out.Hits = append(out.Hits, hit)
	}
	if q.FacetSites > 0 {
		out.Sites = []SiteCount{}
		if f := res.Facets[siteFacet]; f != nil {
			for _, tf := range f.Terms.Terms() {
				out.Sites = append(out.Sites, SiteCount{Site: tf.Term, Count: tf.Count})
			}
		}
	}
	return out, nil
}

func stringField(fields map[string]any, name string) string {
	s, _ := fields[name].(string)
	return s
}

// leadSnippet is the escaped start of text, cut at a word boundary.
func leadSnippet(text string) string {
	if utf8.RuneCountInString(text) <= snippetRunes {
		return html.EscapeString(text)
	}
	cut := 0
	for i := range text {
		if cut == snippetRunes {
			cut = i
			break
		}
		cut++
	}
	head := text[:cut]
	if sp := strings.LastIndexByte(head, ' '); sp > len(head)/2 {
		head = head[:sp]
	}
	return html.EscapeString(head) + "…"
}

// withField returns a copy of a text-matching leaf query set to field, and
// false for leaves that do not match text (numeric and date ranges).
func withField(q query.FieldableQuery, field string) (query.FieldableQuery, bool) {
	switch x := q.(type) {
	case *query.MatchQuery:
		return copyWithField(x, field), true
	case *query.MatchPhraseQuery:
		return copyWithField(x, field), true
	case *query.WildcardQuery:
		return copyWithField(x, field), true
	case *query.RegexpQuery:
		return copyWithField(x, field), true
	case *query.FuzzyQuery:
		return copyWithField(x, field), true
	case *query.PrefixQuery:
		return copyWithField(x, field), true
	case *query.TermQuery:
		return copyWithField(x, field), true
	}
	return nil, false
}

// copyWithField copies a leaf query struct (its fields are values, and
// SetBoost replaces rather than writes through the boost pointer, so a
// shallow copy is independent) and sets its field.
func copyWithField[T any, P interface {
	*T
	query.FieldableQuery
}](q P, field string) query.FieldableQuery {
	c := P(new(T))
	*c = *q
	c.SetField(field)
	return c
}
