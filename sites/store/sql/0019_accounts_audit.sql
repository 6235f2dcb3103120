-- 0019: accounts of a team server, and the audit log.
--
-- An account is a librarian profile given a password, so that the ratings
-- and decisions a profile made before keep their author. password is an
-- encoded argon2id hash with its own salt (app/accounts); link is the
-- SHA-256 of a one-time sign-in link's token, '' when none is pending.
CREATE TABLE accounts (
    librarian_id  INTEGER PRIMARY KEY REFERENCES librarians (id),
    role          TEXT    NOT NULL CHECK (role IN ('curator', 'approver', 'admin')),
    password      TEXT    NOT NULL,
    disabled      INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
    link          TEXT    NOT NULL DEFAULT '',
    link_expires  TEXT    NOT NULL DEFAULT '',
    created_at    TEXT    NOT NULL,
    updated_at    TEXT    NOT NULL
);

-- The audit log: one row a decision, never changed nor removed (the
-- triggers refuse both). librarian and site are names, not ids, so that a
-- row reads the same whatever happens to the profile or the site later;
-- before and after are JSON ('' for none).
CREATE TABLE audit (
    id        INTEGER PRIMARY KEY,
    at        TEXT NOT NULL,
    librarian TEXT NOT NULL DEFAULT '',
    address   TEXT NOT NULL DEFAULT '',
    action    TEXT NOT NULL,
    site      TEXT NOT NULL DEFAULT '',
    before    TEXT NOT NULL DEFAULT '',
    after     TEXT NOT NULL DEFAULT ''
);
CREATE INDEX audit_site ON audit (site, id);
CREATE INDEX audit_librarian ON audit (librarian COLLATE NOCASE, id);

CREATE TRIGGER audit_append_only_update BEFORE UPDATE ON audit
BEGIN
    SELECT RAISE(ABORT, 'the audit log is append-only');
END;
CREATE TRIGGER audit_append_only_delete BEFORE DELETE ON audit
BEGIN
    SELECT RAISE(ABORT, 'the audit log is append-only');
END;
