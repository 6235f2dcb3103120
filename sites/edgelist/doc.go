// Package edgelist reads a link graph from a text edge list, one edge a
// line: SRC DST [WEIGHT], separated by spaces or a tab, a # at the start of
// a token starting a comment. A token with a scheme (http://…) is a URL and stands for its site
// (sites.Of); a token without one is a site name, taken verbatim but
// lower-cased. Repeated edges add their weights; self-edges (an edge from a
// site to itself) are dropped. A file whose name ends in .gz is gunzipped.
//
// A file with bad lines is refused whole: the error lists every bad line
// (up to a limit) with its number, so nothing half-read is ever imported.
package edgelist
