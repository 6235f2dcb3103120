// Package edgelist reads a link graph from a text edge list, one edge a
// line: SRC DST [WEIGHT], separated by spaces or a tab, a # at the start of
// a token starting a comment. A token with a scheme (http://…) is a URL and
// stands for its site (sites.Of); a token without one is a site name: a host
// name or IP address, maybe with a port and a path (sites.CheckName; a
// label such as "blog.example.com/~ann" is only lower-cased), normalised by
// sites.Name (IDNA ASCII form, lower case, no default port). A name that is
// no host name ("<img/src=x>", "javascript:…") makes its line bad. Repeated edges add
// their weights; self-edges (an edge from a site to itself) are dropped. A
// weight is a positive, finite, normal float64 and the weights of a file
// must add up to a finite number. A UTF-8 byte-order mark at the start is
// skipped; lines are at most 1 MiB; a file without an edge is refused. A
// file whose name ends in .gz is gunzipped as it is read.
//
// A file may also be the domain graph of the Archives Unleashed Toolkit or
// ARCH, told by its first bytes, whatever its name: the CSV of
// DomainGraphExtractor (header crawl_date,src_domain,dest_domain,count; the
// counts of a pair summed over its crawl dates into one edge), or GraphML
// or GEXF as AUT's WriteGraphML and WriteGEXF write it (a node a domain,
// named by its label; an edge weighted by its weight or count). Their XML
// is read strictly, without a DOCTYPE, with tokens of at most 1 MiB and
// elements nested at most 32 deep, so an entity bomb or a deep nest is
// refused with its line and byte offset. Their names are sites as an edge
// list's are, and their bad records are bad lines.
//
// A file whose nodes are integer ids ("0 1", as LAW, SNAP, networkx and
// igraph write them) is a graph of ids: the ids are the names, and the site
// rule leaves them alone (Graph.IDs), and every id from 0 to the largest is
// a node, as igraph reads such a file.
//
// By default a bad line is skipped: the Graph counts the skipped lines by
// what is wrong with them and names the first MaxReported, and
// Summary.Report says so in lines of text. Read strictly (Options.Strict,
// and Read, ReadFile and ReadFileRule), a file with bad lines is refused
// whole: the error lists every bad line (up to a limit) with its number and
// what is wrong in words, never quoting the line, so nothing half-read is
// ever imported. A file of bad lines only is refused either way.
package edgelist
