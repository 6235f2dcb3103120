// Package whatlanggo is sitesift's stand-in for the module
// github.com/RadhiFadlillah/whatlanggo, which go.mod replaces with this
// folder. go-trafilatura, the main-text extractor, imports that module for
// one call: the language of the whole text it extracted, which it puts in
// its metadata. On an import of generated 8 KB pages that call was a quarter
// of all the CPU the import spent (14 s of 57 for 10,000 pages), and sitesift
// did not need it: it detects a page's language itself, once, on the first
// 2 KB of the text it keeps, with the page's declared language
// (crawl.language, which uses github.com/abadojack/whatlanggo).
//
// This package has the API go-trafilatura uses and nothing more: DetectLang
// answers that it does not know, as the module does for a text it cannot
// tell, and go-trafilatura then leaves the metadata's language empty.
package whatlanggo

// Lang is a language; -1 is none.
type Lang int

// DetectLang returns -1: no language, see the package's comment.
func DetectLang(text string) Lang { return -1 }

// Iso6391 returns the ISO 639-1 code of lang, "" for none.
func (lang Lang) Iso6391() string { return "" }
