// Package store is the SQLite project database of sitesift, the source of
// truth for everything a crawl found and librarians decided: sites with their
// OPIC state and PageRank, crawled pages and their links, the weighted site
// graph, librarian profiles (one whatever the case of its name) and their
// ratings and notes, the selection state of sites (the candidate →
// nominated → approved / rejected workflow, see [CanMove], with who
// nominated, approved and rejected each site; an approval by the nominator
// is refused unless allowed, see [ErrSelfApproval]), snapshots of OPIC over
// the crawl, the record of crawls, the rounds of recrawls
// ([Store.StartRound], [Store.SaveRecrawlBatch]) with every site's
// importance reading per round, and saved collections (a communities run
// with a librarian's edits, see [Collection]).
//
// A sitesift project is a directory holding project.db (this package) and
// index.bleve/ (package sitesift/sites/index, rebuildable from the store
// through [Store.ForEachPage]).
//
// The schema lives in numbered migration files embedded from sql/ and is
// brought up to date by [Open] in one transaction; the version reached is kept
// in SQLite's user_version. A migration SQL cannot take alone has a Go step
// run in the same transaction (migrationSteps: 0009 merges librarian names
// that differ only in case). The database runs in WAL mode and every writing
// transaction begins IMMEDIATE, so concurrent writers queue on busy_timeout
// instead of failing with SQLITE_BUSY halfway through. Reads go through a
// pool of their own whose transactions begin DEFERRED on query-only
// connections: they read their snapshot beside a writer, never waiting for
// the write lock a crawl's batches hold.
//
//	st, err := store.Open(filepath.Join(dir, "project.db"))
//	if err != nil { ... }
//	defer st.Close()
//	err = st.SaveCrawlBatch(ctx, pages, opicStates)
//	total, rows, err := st.ListSites(ctx, store.SiteQuery{Sort: "opic", Desc: true, Limit: 50})
//
// A site graph can also come from an edge list instead of a crawl
// ([Store.ImportSiteGraph] for a graph in compressed sparse row form, the
// one that holds tens of millions of edges; [Store.ImportGraph] for a list
// of named edges; both recorded in imports); a project holds one or the
// other, never both. [Store.SiteGraphCSR] reads the graph back in that form.
//
// The rows carry no JSON tags: what the API and the command line call a
// field is decided by the services' own types (app/review, app/crawling …),
// which convert the rows. The store writes JSON only of what it is handed
// (a crawl's settings, an import's summary, a collection's parameters and
// picture) and of plain lists of names and ids, never of a row of its own.
//
// All methods are safe for concurrent use.
package store
