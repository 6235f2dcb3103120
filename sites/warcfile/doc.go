// Package warcfile keeps the archive of a project's crawls: gzip WARC 1.1
// files of every HTTP exchange the crawler had, written with
// github.com/nlnwa/gowarc, and beside each a CDXJ index that replay tools
// (pywb) read.
//
// A [Writer] writes one request and one response record per
// [sites.Capture] as the crawl goes, each record its own gzip member, into
// files named sitesift-TIMESTAMP-SERIAL-HOST.warc.gz that start with a
// warcinfo record and rotate at [Options.MaxFileSize]. A response whose
// payload is identical to one already archived is written as a revisit
// record (profile identical-payload-digest) that points to the first.
//
// The file being written ends in ".open" and its index in ".cdxj.open",
// unsorted; closing the file sorts its index into NAME.cdxj. A process
// killed while writing leaves both: the next [Open] cuts the WARC file after
// its last complete record, gives it its name and indexes it again, so a
// kill loses at most the record being written.
//
//	w, err := warcfile.Open(filepath.Join(projectDir, "warcs"), warcfile.Options{Software: "sitesift/0.1"})
//	...
//	err = w.Write(capture) // safe for concurrent use
//	...
//	err = w.Close()
//
// [List] describes the finished files; [ReadIndex] indexes any WARC file.
// [Read] and [ReadFile] read the files of other crawlers too: WARC or ARC
// (the Internet Archive's format before WARC), plain, gzip per record, or
// gzip whole (a plain file run through gzip, whose records share one
// member: read whole, and its [Layout] says so, since replay tools need a
// member per record). A WARC record is framed by the reader itself before
// gowarc parses it, so that it reads what warcio reads: a bracketed target
// URI (wget), a Content-Length a few bytes off (the record's end found at
// the next record, within [ResyncWindow] bytes), header lines ending in
// CR CR LF, a lower-case version line, folded header lines (WARC 0.17),
// each reported as a [Warning].
package warcfile
