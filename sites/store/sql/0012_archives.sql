-- 0012: what was imported from web archives and crawl engines.
--
-- archive_files records each file imported (WARC, CDX, crawl.log, Common
-- Crawl host graph parts) by its size and SHA-256 digest, so that a second
-- run of the same import changes nothing; summary holds what the file added.
-- pages.captures counts the captures of a page an archive holds (response
-- and revisit records); 0 for a page only crawled. site_archive is what an
-- archive's index (CDX) says it holds of a site; site_cc what the Common
-- Crawl host graph says of it: links arriving from hosts outside the slice
-- imported, and Common Crawl's own harmonic centrality and PageRank.

CREATE TABLE archive_files (
    id          INTEGER PRIMARY KEY,
    kind        TEXT    NOT NULL CHECK (kind <> ''),
    path        TEXT    NOT NULL,
    size        INTEGER NOT NULL CHECK (size >= 0),
    digest      TEXT    NOT NULL CHECK (digest <> ''),
    imported_at TEXT    NOT NULL,
    summary     TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(summary)),
    UNIQUE (kind, size, digest)
);

ALTER TABLE pages ADD COLUMN captures INTEGER NOT NULL DEFAULT 0;

CREATE TABLE site_archive (
    site_id       INTEGER PRIMARY KEY REFERENCES sites (id) ON DELETE CASCADE,
    urls          INTEGER NOT NULL CHECK (urls >= 0),
    captures      INTEGER NOT NULL CHECK (captures >= 0),
    first_capture TEXT    NOT NULL,
    last_capture  TEXT    NOT NULL
);

CREATE TABLE site_cc (
    site_id         INTEGER PRIMARY KEY REFERENCES sites (id) ON DELETE CASCADE,
    inlinks_outside INTEGER NOT NULL DEFAULT 0 CHECK (inlinks_outside >= 0),
    harmonic        REAL,
    pagerank        REAL
);
