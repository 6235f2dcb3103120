// Package ranking is the service that ranks a project's sites: the
// importance shown, OPIC carried on to its fixpoint with the PageRank
// (Kim–Lee M*) that checks it, computed over the site graph after every
// crawl batch, import and settings change, so that one graph gets one
// ranking whatever the path to it; the biased PageRank of the librarians'
// ratings; the standing of every site among the others that the Sites
// table, a site's page and the review card show, ties as ties; and what the
// ranking rests on, with a word when a crawl is too small to separate the
// sites.
//
// It stands on app/project and the store; the crawl, the imports, the
// communities, the review and the exports stand on it.
package ranking
