-- signed_in_at is when an account last signed in (a password or a one-time
-- link), '' for never: an admin tells an account in use from one never
-- taken up or left behind.
ALTER TABLE accounts ADD COLUMN signed_in_at TEXT NOT NULL DEFAULT '';
