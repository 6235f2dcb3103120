-- 0020: the importance shown is OPIC carried on to its fixpoint.
--
-- opic_cash and opic_history are a crawl's running OPIC: they order its
-- fetches (Greedy, by cash), are saved for its resume and give the recrawl
-- windows their history. What a librarian is shown, sorts by and exports is
-- opic: each site's share at OPIC's fixpoint over the site graph known, as
-- importance.Fixpoint computes it whenever PageRank is, so that it is one
-- value for one graph, whatever order a crawl read the sites in, where it
-- stopped, or whether the graph came from a crawl or an import. The rounds
-- and the residual of the last computation are kept with the project.
--
-- Every existing project is marked stale: opening it computes the fixpoint.
ALTER TABLE sites ADD COLUMN opic REAL NOT NULL DEFAULT 0;
CREATE INDEX sites_opic_fixpoint ON sites (opic);
ALTER TABLE project ADD COLUMN opic_rounds INTEGER NOT NULL DEFAULT 0;
ALTER TABLE project ADD COLUMN opic_residual REAL NOT NULL DEFAULT 0;

DROP TRIGGER sites_importance_update;
CREATE TRIGGER sites_importance_update AFTER UPDATE OF opic, pagerank ON sites
BEGIN
    UPDATE importance_version SET version = version + 1 WHERE id = 1;
END;

UPDATE project SET importance_stale = 1 WHERE EXISTS (SELECT 1 FROM sites);
