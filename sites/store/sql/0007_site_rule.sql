-- 0007: the project's site rule (sites.Rule), chosen when it is created.
--
-- Projects made before rules could be chosen used the host rule, which their
-- sites follow: they keep it. A project with no site yet takes the default
-- rule when the store is opened (Store.Open), unless one is chosen first.
INSERT OR IGNORE INTO settings (key, value) SELECT 'site_rule', 'host' WHERE EXISTS (SELECT 1 FROM sites);
