-- 0017: a page's main text apart from its whole text, and its editorial
-- links apart from its template's.
--
-- text now holds a page's main content (what search finds); full_text the
-- whole page's text, kept to be shown and never indexed; language its ISO
-- 639-1 code, '' when it could not be told; published the date the page
-- says it was published, NULL when it says none.
ALTER TABLE pages ADD COLUMN full_text TEXT NOT NULL DEFAULT '';
ALTER TABLE pages ADD COLUMN language TEXT NOT NULL DEFAULT '';
ALTER TABLE pages ADD COLUMN published TEXT;

-- editorial is 1 for a link inside the page's main content, 0 for a link
-- of its template (navigation, footer, share buttons…). Every link is kept,
-- both kinds: the project chooses which make its site graph (the setting
-- links: editorial or all). 2 is a link inside the main content to a URL
-- that most pages of the site link to (store.RepetitionRule): a template's
-- link all the same, set and cleared each time the importance is computed.
-- Links stored before this migration had no kind: they count as editorial,
-- which makes the editorial graph of their pages their all-links graph;
-- project.links_before_kinds says so (below).
ALTER TABLE links ADD COLUMN editorial INTEGER NOT NULL DEFAULT 1 CHECK (editorial IN (0, 1, 2));
CREATE INDEX links_repeated ON links (page_id) WHERE editorial = 2;

-- editorial_weight is the edge's weight in the editorial graph: the number
-- of distinct pages of from_site with at least one editorial link (1) to
-- to_site, never above weight (the all-links graph's). NULL means the
-- edge's links have no kind: an imported edge list, CDX or Common Crawl
-- graph carries no page structure, and a link stored before this migration
-- none either, so they count in both graphs, with weight. A page saved
-- since turns its edges' NULL into a number (weight, then its own share),
-- so rows written before keep their meaning. Adding a nullable column
-- rewrites no row: a project of fifty million imported edges migrates at
-- once.
ALTER TABLE site_links ADD COLUMN editorial_weight INTEGER
    CHECK (editorial_weight IS NULL OR editorial_weight BETWEEN 0 AND weight);

-- links_before_kinds is 1 for a project that held links when link kinds
-- came: its pages' links all count as editorial until they are crawled
-- again, and the app says so beside the graph's name.
ALTER TABLE project ADD COLUMN links_before_kinds INTEGER NOT NULL DEFAULT 0 CHECK (links_before_kinds IN (0, 1));
UPDATE project SET links_before_kinds = 1 WHERE EXISTS (SELECT 1 FROM links);
