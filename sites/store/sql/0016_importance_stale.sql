-- 0016: whether the sites' importance is that of the site graph the project
-- holds.
--
-- An archive import commits each file with what it adds to the site graph,
-- then computes PageRank and OPIC over the whole graph and saves them. A kill
-- in between left the graph without its importance (OPIC 0 for every site,
-- or the importance of the graph before the import) and nothing told.
-- importance_stale is set in the transaction that commits a file adding to
-- the graph, and cleared in the one that saves the importance of the whole
-- graph; while it is set the rankings, seeds and exports refuse, and opening
-- the project computes the importance.
--
-- A project a kill left so before this migration is recognised as sitesift
-- recognised an edge-list import cut short: sites brought by an import, and
-- not both a PageRank and an OPIC importance (the indexes on both make the
-- two lookups cheap).
ALTER TABLE project ADD COLUMN importance_stale INTEGER NOT NULL DEFAULT 0 CHECK (importance_stale IN (0, 1));
UPDATE project SET importance_stale = 1
WHERE (EXISTS (SELECT 1 FROM imports) OR EXISTS (SELECT 1 FROM archive_files))
  AND EXISTS (SELECT 1 FROM sites)
  AND NOT (EXISTS (SELECT 1 FROM sites WHERE pagerank > 0)
       AND EXISTS (SELECT 1 FROM sites WHERE opic_history + opic_cash > 0));
