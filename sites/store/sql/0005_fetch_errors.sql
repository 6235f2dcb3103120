-- 0005: what failed, and why a crawl ended.
--
-- err_class sorts a failed fetch (sites.ErrDNS …; '' for a page fetched
-- fine), so that a failed fetch is not counted as a page and a site's crawl
-- status (ok, dead, robots-closed, errors-only) can be told. Rows of older
-- databases get the class their status and error imply; their network
-- failures cannot be told apart any more and are 'other'.
ALTER TABLE pages ADD COLUMN err_class TEXT NOT NULL DEFAULT '';
UPDATE pages SET err_class = CASE
    WHEN status >= 500 THEN 'http-5xx'
    WHEN status >= 400 THEN 'http-4xx'
    WHEN status = 0 AND err <> '' THEN 'other'
    WHEN err <> '' THEN 'incomplete'
    ELSE '' END;
CREATE INDEX pages_site_class ON pages (site_id, err_class);

-- end_reason says why a finished crawl ended: limit, exhausted, stopped,
-- seeds-failed or failed ('' for crawls of older databases).
ALTER TABLE crawls ADD COLUMN end_reason TEXT NOT NULL DEFAULT '';
