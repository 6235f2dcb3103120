-- 0011: recrawls, and each site's importance reading per crawl.
--
-- A recrawl revisits the pages a project has (store.RevisitList) and tells
-- apart what changed. digest is the digest of what sitesift keeps of a page
-- (its title, text and links), '' for a page saved
-- before recrawls, whose digest is computed from its stored version when a
-- recrawl first needs it. last_seen is when a fetch last found the page
-- with this content; gone_at when a recrawl found it gone (404 or 410, or
-- moved by a redirect): it is kept, without its out-links. round is the
-- last round that fetched the page (0: the first crawl).
ALTER TABLE pages ADD COLUMN digest TEXT NOT NULL DEFAULT '';
ALTER TABLE pages ADD COLUMN last_seen TEXT;
ALTER TABLE pages ADD COLUMN gone_at TEXT;
ALTER TABLE pages ADD COLUMN round INTEGER NOT NULL DEFAULT 0;

-- rounds are the visits of the web, numbered: round 0 is the first crawl
-- (with the crawls that continued it), round k > 0 the k-th recrawl (with
-- the recrawls that continued it after a stop or a kill). A round is open
-- until finished_at is set; g is OPIC's clock G at its end: the cash read
-- in all rounds up to it.
CREATE TABLE rounds (
    round       INTEGER PRIMARY KEY CHECK (round >= 0),
    started_at  TEXT    NOT NULL,
    finished_at TEXT,
    g           REAL    NOT NULL DEFAULT 0 CHECK (g >= 0)
);

-- round_sites holds a site's part in a round. history_start is its OPIC
-- history when the round began; at the end, received is the cash it
-- received during the round (its history then, less history_start), reading
-- received over the cash read by all sites in the round (the paper's
-- ΔH/ΔG: the site's importance reading of that crawl), importance the
-- site's importance after the round under the project's window policy.
-- unchanged … failed count what the round's fetches found of the site's
-- pages: a page with the same digest, another digest, a page not stored
-- before (or back after it was gone), gone, and a fetch that failed
-- (the stored page is kept as it was).
CREATE TABLE round_sites (
    round         INTEGER NOT NULL REFERENCES rounds (round) ON DELETE CASCADE,
    site_id       INTEGER NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    history_start REAL    NOT NULL DEFAULT 0,
    received      REAL    NOT NULL DEFAULT 0,
    reading       REAL    NOT NULL DEFAULT 0,
    importance    REAL    NOT NULL DEFAULT 0,
    unchanged     INTEGER NOT NULL DEFAULT 0,
    changed       INTEGER NOT NULL DEFAULT 0,
    new           INTEGER NOT NULL DEFAULT 0,
    gone          INTEGER NOT NULL DEFAULT 0,
    failed        INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (site_id, round)
) WITHOUT ROWID;

CREATE INDEX round_sites_round ON round_sites (round);
