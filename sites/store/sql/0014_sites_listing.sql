-- 0014: what the sites listing needs to answer fast at millions of sites.
--
-- importance_version counts the changes to the sites' importance: a site
-- added or removed, or its OPIC (cash, history) or PageRank written. The
-- site count, the OPIC total and every site's rank among all sites are read
-- from all sites, seconds at five million; they are kept in memory and read
-- again only when this number moved. PRAGMA data_version, which moves with
-- every commit, would throw them away at each rating a librarian gives.
-- The triggers run for every row written, a few microseconds a site.
CREATE TABLE importance_version (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    version INTEGER NOT NULL
);
INSERT INTO importance_version (id, version) VALUES (1, 0);

CREATE TRIGGER sites_importance_insert AFTER INSERT ON sites
BEGIN
    UPDATE importance_version SET version = version + 1 WHERE id = 1;
END;

CREATE TRIGGER sites_importance_delete AFTER DELETE ON sites
BEGIN
    UPDATE importance_version SET version = version + 1 WHERE id = 1;
END;

CREATE TRIGGER sites_importance_update AFTER UPDATE OF opic_cash, opic_history, pagerank ON sites
BEGIN
    UPDATE importance_version SET version = version + 1 WHERE id = 1;
END;

-- The degrees an import stores (0013), sorted through an index as OPIC and
-- PageRank are; a crawled project, whose degrees are NULL, sorts by counts.
CREATE INDEX sites_in_sites ON sites (in_sites);
CREATE INDEX sites_out_sites ON sites (out_sites);
