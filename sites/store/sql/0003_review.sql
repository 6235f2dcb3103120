-- 0003: librarian review: selection state per site and OPIC over the crawl.
--
-- selections holds the selection workflow of established selection tools
-- (Web Curator Tool, PANDAS): a site without a row is a candidate. The status
-- changes candidate → nominated → approved, any status → rejected, rejected →
-- candidate (reopened); the store checks the transitions. decided_by and
-- decided_at record who last changed the status and when (NULL for a site
-- whose status never changed: a note on a candidate is no decision).

CREATE TABLE selections (
    site_id    INTEGER PRIMARY KEY REFERENCES sites (id) ON DELETE CASCADE,
    status     TEXT    NOT NULL CHECK (status IN ('candidate', 'nominated', 'approved', 'rejected')),
    note       TEXT    NOT NULL DEFAULT '',
    subject    TEXT    NOT NULL DEFAULT '',
    decided_by INTEGER REFERENCES librarians (id) ON DELETE SET NULL,
    decided_at TEXT
);

CREATE INDEX selections_status ON selections (status);

-- opic_snapshots are the points of a site's importance over the crawl: the
-- crawl sink takes one every few seconds. pages, the number of crawled pages
-- of the project when it was taken, is the crawl step; it grows across
-- continued crawls, so it orders the snapshots of every crawl of a project.
-- The store keeps at most a fixed number of snapshots by dropping every other
-- old one, so the series always spans the whole crawl.
CREATE TABLE opic_snapshots (
    id       INTEGER PRIMARY KEY,
    pages    INTEGER NOT NULL UNIQUE CHECK (pages >= 0),
    taken_at TEXT    NOT NULL
);

-- opic is the site's share of all OPIC importance at the snapshot, as
-- SiteRow.OPIC; sites with no importance yet have no row. The primary key
-- serves a site's series, the second index the deletion of a snapshot.
CREATE TABLE opic_snapshot_sites (
    site_id     INTEGER NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    snapshot_id INTEGER NOT NULL REFERENCES opic_snapshots (id) ON DELETE CASCADE,
    opic        REAL    NOT NULL,
    PRIMARY KEY (site_id, snapshot_id)
) WITHOUT ROWID;

CREATE INDEX opic_snapshot_sites_snapshot ON opic_snapshot_sites (snapshot_id);
