-- 0009: curation a team can trust.
--
-- Librarian names are one profile whatever their case: name_key is the name
-- folded to lower case (foldName). The Go step of this migration
-- (mergeLibrarianCase) fills it, merges the profiles whose names differ only
-- in case into the oldest of them, records each merge in librarian_merges,
-- and then makes name_key unique.
ALTER TABLE librarians ADD COLUMN name_key TEXT;

CREATE TABLE librarian_merges (
    merged    TEXT NOT NULL,
    into_name TEXT NOT NULL,
    ratings   INTEGER NOT NULL,
    dropped   INTEGER NOT NULL,
    merged_at TEXT NOT NULL
);

-- A rating may be a note alone: rating NULL, note not empty. Agreement,
-- biased rankings and the ratings table count only rated rows; the review
-- queue still proposes a site its librarian only noted.
CREATE TABLE ratings_new (
    librarian_id INTEGER NOT NULL REFERENCES librarians (id) ON DELETE CASCADE,
    site_id      INTEGER NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    rating       INTEGER CHECK (rating IS NULL OR rating BETWEEN 1 AND 4),
    note         TEXT    NOT NULL DEFAULT '',
    rated_at     TEXT    NOT NULL,
    PRIMARY KEY (librarian_id, site_id),
    CHECK (rating IS NOT NULL OR note <> '')
) WITHOUT ROWID;
INSERT INTO ratings_new (librarian_id, site_id, rating, note, rated_at)
    SELECT librarian_id, site_id, rating, note, rated_at FROM ratings;
DROP TABLE ratings;
ALTER TABLE ratings_new RENAME TO ratings;
CREATE INDEX ratings_site ON ratings (site_id);

-- Two-person approval keeps each step of the workflow: who nominated the
-- site and when, who approved it and when, who rejected it, when and why.
-- decided_by and decided_at stay the last change of status. A selection made
-- before this migration keeps what was known: the last change is the
-- nomination of a nominated site, the approval of an approved one (its
-- nominator stays unknown, NULL) and the rejection of a rejected one.
ALTER TABLE selections ADD COLUMN nominated_by INTEGER REFERENCES librarians (id) ON DELETE SET NULL;
ALTER TABLE selections ADD COLUMN nominated_at TEXT;
ALTER TABLE selections ADD COLUMN approved_by INTEGER REFERENCES librarians (id) ON DELETE SET NULL;
ALTER TABLE selections ADD COLUMN approved_at TEXT;
ALTER TABLE selections ADD COLUMN rejected_by INTEGER REFERENCES librarians (id) ON DELETE SET NULL;
ALTER TABLE selections ADD COLUMN rejected_at TEXT;
ALTER TABLE selections ADD COLUMN rejected_reason TEXT NOT NULL DEFAULT '';
UPDATE selections SET nominated_by = decided_by, nominated_at = decided_at WHERE status = 'nominated';
UPDATE selections SET approved_by = decided_by, approved_at = decided_at WHERE status = 'approved';
UPDATE selections SET rejected_by = decided_by, rejected_at = decided_at WHERE status = 'rejected';

-- project holds the project's id: what keeps a browser's choice of
-- librarian apart from one project to another.
CREATE TABLE project (
    one INTEGER PRIMARY KEY CHECK (one = 1),
    id  TEXT NOT NULL
);
INSERT INTO project (one, id) VALUES (1, lower(hex(randomblob(16))));
