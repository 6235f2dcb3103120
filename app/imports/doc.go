// Package imports is the service that reads into a project what other
// tools wrote: an edge list (`sitesift import`), and the archives a library
// already holds — WARC files (1.0, 1.1, 0.17; gzipped per record or whole;
// the near-misses warcio reads with a warning) and ARC files, CDX and CDXJ
// indexes, Heritrix crawl logs, and a national slice of the Common Crawl
// host graph. An archive import runs in the foreground or as a background
// job that the Import page follows; a file is imported whole or not at
// all, and a repeated file is skipped by its digest.
//
// It stands on app/project and app/ranking, which ranks what it imports.
package imports
