-- 0015: the slice of the Common Crawl host graph is part of an imported
-- file's identity.
--
-- A vertices or edges file of the host graph adds the sites and links of the
-- slice (--tld, --host-suffix) it was read with: the same file read with
-- another slice adds other sites, so "imported before" must compare the
-- slice too, or a second slice would be skipped as if imported. slice is ''
-- for every other kind of file, and for the host graph's files imported
-- before this migration: their slice was not recorded, and such a record
-- stands for any slice (reading the file again would add its links' weights
-- twice).
CREATE TABLE archive_files_new (
    id          INTEGER PRIMARY KEY,
    kind        TEXT    NOT NULL CHECK (kind <> ''),
    path        TEXT    NOT NULL,
    size        INTEGER NOT NULL CHECK (size >= 0),
    digest      TEXT    NOT NULL CHECK (digest <> ''),
    slice       TEXT    NOT NULL DEFAULT '',
    imported_at TEXT    NOT NULL,
    summary     TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(summary)),
    UNIQUE (kind, size, digest, slice)
);
INSERT INTO archive_files_new (id, kind, path, size, digest, imported_at, summary)
    SELECT id, kind, path, size, digest, imported_at, summary FROM archive_files;
DROP TABLE archive_files;
ALTER TABLE archive_files_new RENAME TO archive_files;
