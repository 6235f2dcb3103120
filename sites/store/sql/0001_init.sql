-- 0001: the first sitesift project schema.
--
-- Sites are referred to by an integer id everywhere but in sites itself, so a
-- site name is stored once. Times are TEXT in UTC, RFC 3339 with nanoseconds
-- and a fixed width, so that they sort as text.

CREATE TABLE sites (
    id           INTEGER PRIMARY KEY,
    name         TEXT    NOT NULL UNIQUE CHECK (name <> ''),
    opic_cash    REAL    NOT NULL DEFAULT 0,
    opic_history REAL    NOT NULL DEFAULT 0,
    pagerank     REAL    NOT NULL DEFAULT 0,
    first_seen   TEXT    NOT NULL
);

-- Sorting by OPIC importance sorts by history + cash; the expression index
-- lets "top sites by OPIC" read in order instead of sorting every site.
CREATE INDEX sites_opic ON sites ((opic_history + opic_cash));
CREATE INDEX sites_pagerank ON sites (pagerank);

CREATE TABLE pages (
    id           INTEGER PRIMARY KEY,
    url          TEXT    NOT NULL UNIQUE CHECK (url <> ''),
    site_id      INTEGER NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    status       INTEGER NOT NULL DEFAULT 0,
    content_type TEXT    NOT NULL DEFAULT '',
    title        TEXT    NOT NULL DEFAULT '',
    text         TEXT    NOT NULL DEFAULT '',
    depth        INTEGER NOT NULL DEFAULT 0,
    fetched_at   TEXT,
    err          TEXT    NOT NULL DEFAULT ''
);

-- Serves both "pages of a site" counts and the site page list, which is
-- ordered by depth then URL.
CREATE INDEX pages_site ON pages (site_id, depth, url);

-- links are the out-links of crawled pages. The target need not be crawled,
-- but its site is always a row of sites.
CREATE TABLE links (
    page_id        INTEGER NOT NULL REFERENCES pages (id) ON DELETE CASCADE,
    target_url     TEXT    NOT NULL,
    target_site_id INTEGER NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    PRIMARY KEY (page_id, target_url)
) WITHOUT ROWID;

CREATE INDEX links_target_site ON links (target_site_id);

-- site_links is the inter-site graph, kept up to date by SaveCrawlBatch:
-- weight is the number of distinct pages of from_site that link to at least
-- one URL of to_site (from_site <> to_site). Rows never hold weight 0, so the
-- number of rows per site is its in/out degree.
CREATE TABLE site_links (
    from_site_id INTEGER NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    to_site_id   INTEGER NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    weight       INTEGER NOT NULL CHECK (weight > 0),
    PRIMARY KEY (from_site_id, to_site_id),
    CHECK (from_site_id <> to_site_id)
) WITHOUT ROWID;

CREATE INDEX site_links_to ON site_links (to_site_id, from_site_id);

CREATE TABLE librarians (
    id         INTEGER PRIMARY KEY,
    name       TEXT    NOT NULL UNIQUE CHECK (name <> ''),
    created_at TEXT    NOT NULL
);

CREATE TABLE ratings (
    librarian_id INTEGER NOT NULL REFERENCES librarians (id) ON DELETE CASCADE,
    site_id      INTEGER NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    rating       INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 4),
    note         TEXT    NOT NULL DEFAULT '',
    rated_at     TEXT    NOT NULL,
    PRIMARY KEY (librarian_id, site_id)
) WITHOUT ROWID;

CREATE INDEX ratings_site ON ratings (site_id);

CREATE TABLE crawls (
    id          INTEGER PRIMARY KEY,
    started_at  TEXT    NOT NULL,
    finished_at TEXT,
    settings    TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(settings)),
    state       TEXT    NOT NULL,
    pages       INTEGER NOT NULL DEFAULT 0
);
