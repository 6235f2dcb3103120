-- What a crawl that follows editorial links left out of the template's links
-- to other sites, kept with its record so that its status reads the same
-- after the app restarts: the distinct URLs and their sites.
ALTER TABLE crawls ADD COLUMN template_links_left_out INTEGER NOT NULL DEFAULT 0;
ALTER TABLE crawls ADD COLUMN template_sites_left_out INTEGER NOT NULL DEFAULT 0;
