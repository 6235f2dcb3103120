-- 0018: a project's own choices of platform sites.
--
-- Whether a site is a platform (a social network, video platform, URL
-- shortener, CDN, ad or tracking host) is read from the list
-- sites/urlrules/platforms.txt, which the program carries; nothing of it is
-- stored, so that an edited list applies to every project. A librarian can
-- move a site into the platforms (platform 1) or out of them (platform 0)
-- for one project: the choice overrides the list for that site, whatever
-- the list says later. who is the librarian who chose, '' when none was
-- named (the command line).
CREATE TABLE platform_choices (
    site_id   INTEGER PRIMARY KEY REFERENCES sites (id) ON DELETE CASCADE,
    platform  INTEGER NOT NULL CHECK (platform IN (0, 1)),
    who       TEXT    NOT NULL DEFAULT '',
    chosen_at TEXT    NOT NULL
);
