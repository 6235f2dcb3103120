// Package ranking is the service that ranks a project's sites: the offline
// PageRank (Kim–Lee M*) of the site graph after every crawl batch and
// import, the offline OPIC of an imported graph, the biased PageRank of the
// librarians' ratings, and the standing of every site among the others
// that the Sites table, a site's page and the review card show.
//
// It stands on app/project and the store; the crawl, the imports, the
// communities, the review and the exports stand on it.
package ranking
