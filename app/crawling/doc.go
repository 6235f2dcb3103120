// Package crawling is the service that crawls for a project: one crawl or
// recrawl at a time in the background (Start, Status, Pause, Resume, Stop),
// politely, in the order OPIC computed online as pages come in sets (the
// Greedy strategy), with the importance shown (OPIC's fixpoint and
// PageRank over the site graph known) kept up to date batch by batch; every
// exchange kept in the project's WARC files; a recrawl that revisits the
// pages in the order the window policy of Adaptive OPIC estimates. It crawls
// with the project's settings (app/project: contact, user agent, politeness,
// site rule, the links the importance is computed on, the recrawl window),
// which a crawl request may change for this crawl and the next, and refuses
// a crawl of the open web without an operator contact.
//
// It is the only part of the service that drives package crawl. It
// stands on app/project and app/ranking.
package crawling
