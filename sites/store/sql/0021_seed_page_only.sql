-- page_only marks an approved site whose seed is handed to crawlers as that
-- page alone, not as its whole site: the Heritrix seeds file gives it no
-- SURT prefix of the site and the Browsertrix configuration the page scope.
ALTER TABLE selections ADD COLUMN page_only INTEGER NOT NULL DEFAULT 0 CHECK (page_only IN (0, 1));
