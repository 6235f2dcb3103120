-- 0008: what a crawl left out of each site, and the delay it kept there.
--
-- out_of_scope counts the distinct URLs of the site found and not fetched
-- for being out of the crawl's scope (or too deep); trapped those a trap
-- guard left out; delay_ms is the delay between two requests to the site
-- the last crawl used (its robots.txt's Crawl-delay, a 429 or 503, or the
-- project's delay), 0 before any crawl.
ALTER TABLE sites ADD COLUMN out_of_scope INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sites ADD COLUMN trapped INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sites ADD COLUMN delay_ms INTEGER NOT NULL DEFAULT 0;
