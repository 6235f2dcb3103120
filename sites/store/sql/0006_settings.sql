-- 0006: the project's crawl settings, and the retries of each crawl.
--
-- settings holds what the operator set once for every crawl of the project
-- (contact, user agent, delays, parallel sites), one row a setting; the app
-- names the keys and reads the values, the store only keeps them.
CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;

-- retries counts the fetches a crawl tried again after a passing failure.
ALTER TABLE crawls ADD COLUMN retries INTEGER NOT NULL DEFAULT 0;
