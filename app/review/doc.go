// Package review is the service of the librarians' side of a project: the
// sites table and a site's page, full-text search, librarian profiles,
// ratings (1–4) and notes, the review queue (by importance, by the biased
// PageRank of the ratings, by community, by a search) and the review card,
// the two-person selection (nominated, approved, rejected), ratings files
// to merge the work of several laptops, and the agreement of the
// librarians' ratings with each other and with the computed measures, as
// in the OPIC paper's experiment.
//
// It stands on app/project, app/ranking, app/crawling (the approval
// setting) and app/communities; what imported archives say of a site it
// reads from the store. The exports stand on it.
package review
