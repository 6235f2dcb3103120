-- 0004: which pages the search index holds.
--
-- The store commits a batch of pages before the index does, so a kill in
-- between leaves pages the index lacks; indexed says which ones it has. A
-- page saved again (a new version) is not indexed until the index has that
-- version. Pages of databases from before this migration start unindexed:
-- the next open indexes them all once (the index replaces what it had).
ALTER TABLE pages ADD COLUMN indexed INTEGER NOT NULL DEFAULT 0;
CREATE INDEX pages_unindexed ON pages (id) WHERE indexed = 0;
