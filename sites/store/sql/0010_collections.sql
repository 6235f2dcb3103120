-- 0010: saved collections — a communities run and a librarian's edits of
-- it, kept as a named seed list.
--
-- A collection keeps what it showed, not how to compute it again: the
-- extraction settings (params, JSON), the picture of the site graph
-- (graph, JSON) and every community with its members, so that a new crawl
-- that changes the graph does not change a saved collection.
CREATE TABLE collections (
    id          INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused: an address naming a deleted collection finds none
    name        TEXT NOT NULL UNIQUE,
    created_by  TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    params      TEXT NOT NULL DEFAULT '{}',
    graph       TEXT NOT NULL DEFAULT '{}'
);

-- One row per community (bipartite core) of a collection. kept is 0 when
-- the librarian unchecked its seed; hubs and authorities are JSON arrays of
-- URLs; from_hub is the hub page whose site gave the seed.
CREATE TABLE collection_communities (
    collection_id INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
    core          INTEGER NOT NULL,
    name          TEXT NOT NULL,
    topic         TEXT NOT NULL DEFAULT '',
    kept          INTEGER NOT NULL DEFAULT 1,
    seed          TEXT NOT NULL,
    site          TEXT NOT NULL,
    from_hub      TEXT NOT NULL DEFAULT '',
    hub_score     REAL NOT NULL DEFAULT 0,
    cover_density REAL NOT NULL DEFAULT 0,
    hubs          TEXT NOT NULL DEFAULT '[]',
    authorities   TEXT NOT NULL DEFAULT '[]',
    PRIMARY KEY (collection_id, core)
);

-- The seeds added by hand, in the order added.
CREATE TABLE collection_seeds (
    collection_id INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
    position      INTEGER NOT NULL,
    url           TEXT NOT NULL,
    site          TEXT NOT NULL,
    PRIMARY KEY (collection_id, position),
    UNIQUE (collection_id, url)
);
