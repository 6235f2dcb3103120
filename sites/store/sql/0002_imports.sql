-- 0002: site graphs imported from edge lists instead of crawled.
--
-- An imported graph writes sites and site_links only (no pages, no links),
-- with weights read from the file: they may be fractional, and
-- site_links.weight (INTEGER affinity, CHECK weight > 0) keeps such a value
-- as REAL, since SQLite converts to INTEGER only when no information is lost.
-- A project is either crawled or imported: ImportGraph refuses a project with
-- pages or crawls, and the app refuses to crawl a project with an imports row.

CREATE TABLE imports (
    id          INTEGER PRIMARY KEY,
    file        TEXT    NOT NULL,
    imported_at TEXT    NOT NULL,
    sites       INTEGER NOT NULL CHECK (sites >= 0),      -- distinct sites the file names
    edges       INTEGER NOT NULL CHECK (edges >= 0),      -- distinct site pairs after merging repeats
    self_edges  INTEGER NOT NULL CHECK (self_edges >= 0)  -- edges dropped because both ends are one site
);
