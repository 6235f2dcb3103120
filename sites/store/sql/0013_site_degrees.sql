-- 0013: the in- and out-degree of a site in an imported graph, stored.
--
-- The sites listing shows for every site the number of sites linking to it
-- and linked from it, counted in site_links. The most important sites of a
-- large imported graph have hundreds of thousands of in-links, and counting
-- them for a page of fifty took seconds. An import writes both counts for
-- every site (it holds the whole graph); NULL, as in every crawled project,
-- whose site_links change with each batch, means "count site_links".
ALTER TABLE sites ADD COLUMN in_sites INTEGER;
ALTER TABLE sites ADD COLUMN out_sites INTEGER;
