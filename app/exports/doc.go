// Package exports is the service that writes what a project hands over,
// each deliverable under a name that starts with the project's: the
// approved selection (txt, CSV, JSON), the top K sites, the community seeds
// and saved collections, the ratings file, the sites table, the agreement,
// the crawler configurations (Browsertrix YAML with its exclusions
// translated to JavaScript, Heritrix seeds and precedence) and the crawl as
// a WACZ file for ReplayWeb.page. It leaves out the sites a deliverable
// should not carry (dead, closed to robots, rejected, platforms) and says
// how many and why.
//
// It stands on app/project, app/ranking, app/crawling, app/imports,
// app/communities and app/review, and on app/export for the file formats.
package exports
