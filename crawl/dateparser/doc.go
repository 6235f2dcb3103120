// Package dateparser is sitesift's own stand-in for the module
// github.com/markusmobius/go-dateparser, which go.mod replaces with this
// folder. go-htmldate (through go-trafilatura, the main-text extractor)
// imports that module for its extensive search of a page's publication date;
// the module compiles about 4,000 regular expressions of 200 locales when a
// program starts: 0.2 s of CPU and 78 MB for every sitesift command, `help`
// included, whether or not a page is ever read.
//
// sitesift runs go-trafilatura without its fallback extractors, which makes
// go-htmldate skip the extensive search: this package's parser is not called
// when a page is crawled or imported. It is called only when the fallback is
// enabled (the extraction benchmark), and then reads an absolute date written
// with its month as a number or a name in one of a dozen European languages,
// building its tables the first time it is asked. It has the API go-htmldate
// uses and nothing more.
package dateparser
