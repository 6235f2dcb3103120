// Package wacz writes WACZ files (Web Archive Collection Zipped, version
// 1.1.1 of the specification): a ZIP of WARC files with their CDXJ index,
// a list of the pages worth opening and a manifest of every file's SHA-256
// digest and size, which ReplayWeb.page and other WACZ tools open whole.
//
// The WARC files are stored, not deflated: readers fetch a capture by a
// byte range into the ZIP, the WARC entry's data offset plus the record's
// offset from the index. Every entry is stored, with its size and CRC-32 in
// its local header (no data descriptor), so that a reader finds any entry's
// data from its local header alone.
//
//	err := wacz.Write(ctx, f, wacz.Package{
//		Title:    "project",
//		Software: "sitesift 0.1",
//		Archives: []wacz.Archive{{Name: "a.warc.gz", Path: "/p/warcs/a.warc.gz"}},
//		Index:    cdxjLines,
//		Pages:    []wacz.Page{{URL: "http://a.test/", Time: t, Title: "A"}},
//	})
//
// A WARC file is read twice (once for its digest and CRC-32, once to copy
// it) and never held in memory.
package wacz
