// Package communities is the service that finds communities in a
// project's link graph, after the seeds paper: iterative HITS, then a
// bipartite core grown around the best hub and taken out, again, on the
// graph of links between sites; each community gives one seed (a hub
// site's home page), its topic label comes from the words its pages use
// more than the others, and librarians keep an extraction with their
// edits as a named collection. It also maps each site to the communities
// of the current extraction, for the review queue and card, and builds the
// page graphs of the lab's seeds evaluation.
//
// It stands on app/project and app/ranking; the review and the exports
// stand on it.
package communities
