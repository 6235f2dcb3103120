package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Account is a librarian's account on a team server: a profile (see
// [Librarian]) given a role and a password. The store keeps the password's
// hash as the service encodes it and knows nothing of hashing.
type Account struct {
	Name      string
	Role      string
	Disabled  bool
	CreatedAt time.Time
	UpdatedAt time.Time
	// Ratings is the number of sites the librarian has rated.
	Ratings int
	// LinkPending is true while a one-time sign-in link is unused and
	// unexpired.
	LinkPending bool
	// LastSignIn is when the account last signed in; zero for never.
	LastSignIn time.Time
}

// AccountSecret is what a sign-in checks: the account, its password hash,
// and its pending sign-in link's hash and expiry.
type AccountSecret struct {
	Account
	Password    string
	Link        string
	LinkExpires time.Time
}

// PutAccount gives the librarian called name (in any case; a new profile
// when there is none, an existing one keeping its ratings and decisions)
// an account with role and password hash, or replaces the role and hash of
// the account it has; the pending sign-in link, if any, becomes link (a
// hash, "" for none) until linkExpires, and the account is enabled.
// created tells whether the account is new. audit, if given, logs the
// change in its transaction (see [Auditor]).
func (s *Store) PutAccount(ctx context.Context, name, role, password, link string, linkExpires time.Time, audit ...Auditor[Account]) (a Account, created bool, err error) {
	if err := validLibrarian(name); err != nil {
		return Account{}, false, fmt.Errorf("store: put account: %w", err)
	}
	now := formatTime(s.now())
	what := fmt.Sprintf("put account %q", name)
	err = s.write(ctx, what, func(tx *sql.Tx) error {
		id, _, err := ensureLibrarian(ctx, tx, name, now)
		if err != nil {
			return err
		}
		var before *Account
		if audited(audit) {
			if before, err = s.accountIn(ctx, tx, name); err != nil {
				return fmt.Errorf("store: %s: account before: %w", what, err)
			}
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO accounts (librarian_id, role, password, link, link_expires, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (librarian_id) DO NOTHING`,
			id, role, password, link, linkExpiry(link, linkExpires), now, now)
		if err != nil {
			return fmt.Errorf("store: add account %q: %w", name, err)
		}
		if n, _ := res.RowsAffected(); n == 1 {
			created = true
		} else if _, err = tx.ExecContext(ctx, `UPDATE accounts SET role = ?, password = ?, link = ?, link_expires = ?, disabled = 0, updated_at = ?
			WHERE librarian_id = ?`, role, password, link, linkExpiry(link, linkExpires), now, id); err != nil {
			return fmt.Errorf("store: update account %q: %w", name, err)
		}
		after, err := s.accountIn(ctx, tx, name)
		if err != nil {
			return fmt.Errorf("store: %s: %w", what, err)
		}
		if after == nil {
			return fmt.Errorf("store: account %q: %w", name, ErrNotFound)
		}
		a = *after
		return logChange(ctx, s, tx, what, audit, before, after)
	})
	if err != nil {
		return Account{}, false, err
	}
	return a, created, nil
}

// accountIn returns name's account as tx sees it, nil for none.
func (s *Store) accountIn(ctx context.Context, tx *sql.Tx, name string) (*Account, error) {
	as, err := s.accountsIn(ctx, tx, `WHERE l.name_key = ?`, foldName(name))
	if err != nil || len(as) == 0 {
		return nil, err
	}
	return &as[0].Account, nil
}

func linkExpiry(link string, t time.Time) string {
	if link == "" {
		return ""
	}
	return formatTime(t)
}

// SetAccountPassword replaces the password hash of name's account and its
// pending sign-in link (link "" for none). An unknown account is
// [ErrNotFound].
func (s *Store) SetAccountPassword(ctx context.Context, name, password, link string, linkExpires time.Time, audit ...Auditor[Account]) (Account, error) {
	return s.updateAccount(ctx, name, "password", `password = ?, link = ?, link_expires = ?`, []any{password, link, linkExpiry(link, linkExpires)}, audit)
}

// ResetAccount is SetAccountPassword that also enables the account again,
// in the same transaction.
func (s *Store) ResetAccount(ctx context.Context, name, password, link string, linkExpires time.Time, audit ...Auditor[Account]) (Account, error) {
	return s.updateAccount(ctx, name, "reset", `password = ?, link = ?, link_expires = ?, disabled = 0`, []any{password, link, linkExpiry(link, linkExpires)}, audit)
}

// SetAccountRole changes the role of name's account.
func (s *Store) SetAccountRole(ctx context.Context, name, role string, audit ...Auditor[Account]) (Account, error) {
	return s.updateAccount(ctx, name, "role", `role = ?`, []any{role}, audit)
}

// ErrLastAdmin is returned (wrapped) by a change that would leave a
// project that has an enabled admin account without one.
var ErrLastAdmin = errors.New("store: the last enabled admin account")

// enabledAdmins counts the enabled admin accounts as tx sees them.
func enabledAdmins(ctx context.Context, tx *sql.Tx) (int, error) {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM accounts WHERE role = 'admin' AND disabled = 0`).Scan(&n)
	return n, err
}

// SetAccountDisabled disables (or enables again) name's account; a
// disabled account cannot sign in, and its pending link is dropped.
func (s *Store) SetAccountDisabled(ctx context.Context, name string, disabled bool, audit ...Auditor[Account]) (Account, error) {
	if disabled {
		return s.updateAccount(ctx, name, "disable", `disabled = 1, link = '', link_expires = ''`, nil, audit)
	}
	return s.updateAccount(ctx, name, "enable", `disabled = 0`, nil, audit)
}

// TakeSignInLink consumes the pending sign-in link whose hash is link,
// if it has not expired at now, and returns its account: a link signs in
// once. A link unknown, used or expired is [ErrNotFound].
func (s *Store) TakeSignInLink(ctx context.Context, link string, now time.Time) (Account, error) {
	if link == "" {
		return Account{}, fmt.Errorf("store: sign-in link: %w", ErrNotFound)
	}
	var name string
	err := s.write(ctx, "take sign-in link", func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `UPDATE accounts SET link = '', link_expires = '', updated_at = ?
			WHERE link = ? AND link_expires > ? AND disabled = 0
			RETURNING (SELECT name FROM librarians WHERE id = librarian_id)`,
			formatTime(now), link, formatTime(now)).Scan(&name)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("store: sign-in link: %w", ErrNotFound)
		}
		return err
	})
	if err != nil {
		return Account{}, err
	}
	return s.Account(ctx, name)
}

// AccountSignedIn records that name's account signed in at t, and voids
// its pending sign-in link: the person is in, and a link still lying in an
// email or a chat no longer opens their account.
func (s *Store) AccountSignedIn(ctx context.Context, name string, t time.Time) error {
	return s.write(ctx, fmt.Sprintf("sign-in of account %q", name), func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE accounts SET signed_in_at = ?, link = '', link_expires = ''
			WHERE librarian_id = (SELECT id FROM librarians WHERE name_key = ?)`, formatTime(t), foldName(name))
		if err != nil {
			return fmt.Errorf("store: sign-in of account %q: %w", name, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("store: account %q: %w", name, ErrNotFound)
		}
		return nil
	})
}

func (s *Store) updateAccount(ctx context.Context, name, what, set string, args []any, audit []Auditor[Account]) (Account, error) {
	op := fmt.Sprintf("%s of account %q", what, name)
	var after Account
	err := s.write(ctx, op, func(tx *sql.Tx) error {
		var before *Account
		if audited(audit) {
			var err error
			if before, err = s.accountIn(ctx, tx, name); err != nil {
				return fmt.Errorf("store: %s: account before: %w", op, err)
			}
		}
		// No change leaves the project without the enabled admin it had:
		// the count before and after, in the change's transaction.
		admins, err := enabledAdmins(ctx, tx)
		if err != nil {
			return fmt.Errorf("store: %s: admins: %w", op, err)
		}
		res, err := tx.ExecContext(ctx, `UPDATE accounts SET `+set+`, updated_at = ?
			WHERE librarian_id = (SELECT id FROM librarians WHERE name_key = ?)`,
			append(args, formatTime(s.now()), foldName(name))...)
		if err != nil {
			return fmt.Errorf("store: %s of account %q: %w", what, name, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("store: account %q: %w", name, ErrNotFound)
		}
		if left, err := enabledAdmins(ctx, tx); err != nil {
			return fmt.Errorf("store: %s: admins: %w", op, err)
		} else if admins > 0 && left == 0 {
			return fmt.Errorf("store: %s: %w", op, ErrLastAdmin)
		}
		a, err := s.accountIn(ctx, tx, name)
		if err != nil {
			return fmt.Errorf("store: %s: %w", op, err)
		}
		if a == nil {
			return fmt.Errorf("store: account %q: %w", name, ErrNotFound)
		}
		after = *a
		return logChange(ctx, s, tx, op, audit, before, &after)
	})
	if err != nil {
		return Account{}, err
	}
	return after, nil
}

// Account returns the account of the librarian called name, in any case.
// A profile without an account, or no profile, is [ErrNotFound].
func (s *Store) Account(ctx context.Context, name string) (Account, error) {
	a, err := s.AccountSecret(ctx, name)
	return a.Account, err
}

// AccountSecret returns name's account with its password and link hashes.
func (s *Store) AccountSecret(ctx context.Context, name string) (AccountSecret, error) {
	as, err := s.accounts(ctx, `WHERE l.name_key = ?`, foldName(name))
	if err != nil {
		return AccountSecret{}, err
	}
	if len(as) == 0 {
		return AccountSecret{}, fmt.Errorf("store: account %q: %w", name, ErrNotFound)
	}
	return as[0], nil
}

// Accounts returns every account, sorted by name whatever its case.
func (s *Store) Accounts(ctx context.Context) ([]Account, error) {
	as, err := s.accounts(ctx, "")
	if err != nil {
		return nil, err
	}
	out := make([]Account, len(as))
	for i, a := range as {
		out[i] = a.Account
	}
	return out, nil
}

func (s *Store) accounts(ctx context.Context, where string, args ...any) ([]AccountSecret, error) {
	return s.accountsIn(ctx, s.rdb, where, args...)
}

// accountsIn is accounts as q (the read pool, or a transaction) sees them.
func (s *Store) accountsIn(ctx context.Context, q querier, where string, args ...any) ([]AccountSecret, error) {
	now := s.now()
	out, err := queryList(ctx, q, func(sc scanner) (AccountSecret, error) {
		var a AccountSecret
		var created, updated, expires, signedIn string
		if err := sc.Scan(&a.Name, &a.Role, &a.Disabled, &created, &updated, &a.Password, &a.Link, &expires, &signedIn, &a.Ratings); err != nil {
			return a, err
		}
		var err error
		if a.CreatedAt, err = parseTime(created); err != nil {
			return a, err
		}
		if a.UpdatedAt, err = parseTime(updated); err != nil {
			return a, err
		}
		if expires != "" {
			if a.LinkExpires, err = parseTime(expires); err != nil {
				return a, err
			}
		}
		if signedIn != "" {
			if a.LastSignIn, err = parseTime(signedIn); err != nil {
				return a, err
			}
		}
		a.LinkPending = a.Link != "" && a.LinkExpires.After(now)
		return a, nil
	}, `SELECT l.name, a.role, a.disabled, a.created_at, a.updated_at, a.password, a.link, a.link_expires, a.signed_in_at,
			(SELECT COUNT(*) FROM ratings r WHERE r.librarian_id = l.id AND r.rating IS NOT NULL)
		FROM accounts a JOIN librarians l ON l.id = a.librarian_id `+where+` ORDER BY l.name_key, l.name`, args...)
	if err != nil {
		return nil, fmt.Errorf("store: accounts: %w", err)
	}
	return out, nil
}
