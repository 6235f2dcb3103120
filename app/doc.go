// Package app is sitesift's service layer: it opens a project (the SQLite
// store and the Bleve index under one directory), runs crawls, keeps the
// offline PageRank up to date, and exposes the same service methods to the
// command line and, through one http.Handler, to the frontend in the desktop
// window and in the browser.
//
// It adapts and does not decide: crawling lives in crawl, ranking in
// importance, storage in sites/store and sites/index.
package app
