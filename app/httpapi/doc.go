// Package httpapi is sitesift's HTTP adapter: [New] returns the one
// http.Handler that serves the JSON API under /api/ (documented in API.md)
// and the frontend's files. The desktop window hands every request of its
// page to it through Wails' AssetServer, and `sitesift serve` through
// net/http, so every feature works the same in both.
//
// A handler only translates: it reads path and query parameters and JSON
// bodies, calls one method of [app.App], and writes the JSON envelope
// ({"status": "success", "data": …} or an error with its type), a file to
// download, or Server-Sent Events. The error's [fault.Kind] gives the status
// code. No SQL, no ranking and no business rule live here.
//
// Nor do the storage's types: the package imports neither sites/store nor
// sites/index. The JSON field names of every answer are those of the
// services' own types (review.SiteDetail, crawling.RecrawlCounts …), and
// the constants and queries a handler names (statuses, a search query)
// come from the services too.
//
// What is HTTP's own lives here too: the guard (guard.go) that keeps other
// web sites from driving the app through the user's browser (Host, Origin,
// the per-process write token, body caps, the shared secret beyond
// loopback).
//
// Two parts serve the desktop window and the processes beside it: the
// routes only the window has (desktop.go, [Desktop]), which save and open
// files through its native dialogs, and [HolderSearch] (beside.go), the
// client with which a command reading a project beside the process that
// holds it asks that process to search.
//
//	h := httpapi.New(a, httpapi.Assets(dist), httpapi.Logger(log))
//	http.ListenAndServe("127.0.0.1:7777", h)
package httpapi
