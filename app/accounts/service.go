package accounts

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"

	"sitesift/app/fault"
	"sitesift/app/internal/wire"
	"sitesift/app/project"
	"sitesift/sites/store"
)

// Options configures [New]. Zero fields take their defaults.
type Options struct {
	// Now is the clock (default time.Now): idle expiry, link expiry and the
	// slowing of failed sign-ins read it, so that tests move it by hand.
	Now func() time.Time
	// Params are the costs of new password hashes (default DefaultParams).
	Params Params
	// MaxHashes bounds the password hashes computed at once (default half
	// the CPUs, at least one), so that a burst of sign-ins cannot take
	// every core from the librarians already at work.
	MaxHashes int
	// IdleTimeout ends a session unused this long (default 8 hours: a
	// working day with its breaks).
	IdleTimeout time.Duration
	// LinkTTL is how long a one-time sign-in link stays valid (default 24
	// hours).
	LinkTTL time.Duration
	// DeviceKey signs the tokens of signed devices (default 32 random
	// bytes, new at each start).
	DeviceKey []byte
}

// Service holds the accounts of one project and the sessions of its
// signed-in librarians.
type Service struct {
	project *project.Project
	store   *store.Store
	opt     Options
	hashes  chan struct{}
	// dummy is a hash checked when a name has no account, so that a
	// sign-in takes as long for an unknown name as for a wrong password.
	dummy    string
	throttle throttle
	// verify checks a password against its hash (checkPassword; a test
	// counts the hashes computed through it).
	verify func(password, encoded string) (bool, error)

	mu       sync.Mutex
	sessions map[string]*session // by the SHA-256 of the cookie's token
}

type session struct {
	id       project.Identity
	lastSeen time.Time
}

// New returns the accounts service of p.
func New(p *project.Project, opt Options) *Service {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Params == (Params{}) {
		opt.Params = DefaultParams
	}
	if opt.MaxHashes <= 0 {
		opt.MaxHashes = max(1, runtime.NumCPU()/2)
	}
	if opt.IdleTimeout <= 0 {
		opt.IdleTimeout = 8 * time.Hour
	}
	if opt.LinkTTL <= 0 {
		opt.LinkTTL = 24 * time.Hour
	}
	if len(opt.DeviceKey) == 0 {
		opt.DeviceKey = make([]byte, 32)
		rand.Read(opt.DeviceKey)
	}
	return &Service{project: p, store: p.Store, opt: opt, hashes: make(chan struct{}, opt.MaxHashes),
		dummy: hashPassword(newPassword(), opt.Params), sessions: map[string]*session{}, verify: checkPassword}
}

// IdleTimeout is how long an unused session lasts.
func (s *Service) IdleTimeout() time.Duration { return s.opt.IdleTimeout }

// Account is a librarian's account as the API and the command line show
// it: its name, role and state, never a hash.
type Account struct {
	Name      string    `json:"name"`
	Role      string    `json:"role"`
	Disabled  bool      `json:"disabled"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// Ratings is the number of sites the librarian has rated.
	Ratings int `json:"ratings"`
	// LinkPending is true while a one-time sign-in link is unused and
	// unexpired.
	LinkPending bool `json:"link_pending"`
	// LastSignIn is when the account last signed in, with its password or
	// a one-time link; left out for never.
	LastSignIn time.Time `json:"last_sign_in,omitzero"`
}

// Granted is an account given a password: the password in clear (the one
// given, or generated) and the token of its one-time sign-in link, shown
// once and kept nowhere.
type Granted struct {
	Account Account `json:"account"`
	// Password is the generated password; "" when one was given.
	Password string `json:"password,omitempty"`
	// LinkToken signs in once, until LinkExpires: the page's
	// /?signin=TOKEN.
	LinkToken   string    `json:"link_token"`
	LinkExpires time.Time `json:"link_expires"`
}

// MinPassword is the shortest password accepted, in characters.
const MinPassword = 12

func checkNewPassword(pw string) error {
	if n := len([]rune(pw)); n < MinPassword {
		return fault.Invalid(fmt.Errorf("a password needs %d characters at least; this one has %d", MinPassword, n))
	}
	if len(pw) > 1024 {
		return fault.Invalid(errors.New("a password is 1024 bytes at most"))
	}
	return nil
}

// Add gives the librarian called name an account with role and password
// ("" generates one); a librarian profile that exists keeps its ratings and
// decisions, now under the account. An account that exists is an error:
// reset its password with [Service.Reset]. Admins only.
func (s *Service) Add(ctx context.Context, name string, role project.Role, password string) (Granted, error) {
	if err := project.Require(ctx, project.RoleAdmin, "add an account"); err != nil {
		return Granted{}, err
	}
	if _, err := project.ParseRole(string(role)); err != nil {
		return Granted{}, err
	}
	if _, err := s.store.Account(ctx, name); err == nil {
		return Granted{}, fault.Conflict(fmt.Errorf("%s has an account already: give a new password with `sitesift accounts reset %s`", name, name))
	} else if !errors.Is(err, store.ErrNotFound) {
		return Granted{}, err
	}
	g, hash, link, err := s.grant(ctx, password)
	if err != nil {
		return Granted{}, err
	}
	a, _, err := s.store.PutAccount(ctx, name, string(role), hash, link, g.LinkExpires, accountAudit(ctx, "added", false))
	if err != nil {
		if errors.Is(err, store.ErrInvalid) {
			return Granted{}, fault.Invalid(err)
		}
		return Granted{}, err
	}
	g.Account = Account(a)
	return g, nil
}

// Reset gives name's account a new password ("" generates one) and a new
// sign-in link, enables it, and ends its sessions. Admins only.
func (s *Service) Reset(ctx context.Context, name, password string) (Granted, error) {
	if err := project.Require(ctx, project.RoleAdmin, "reset an account's password"); err != nil {
		return Granted{}, err
	}
	if _, err := s.store.Account(ctx, name); err != nil {
		return Granted{}, err // before hashing a password for no one
	}
	g, hash, link, err := s.grant(ctx, password)
	if err != nil {
		return Granted{}, err
	}
	a, err := s.store.ResetAccount(ctx, name, hash, link, g.LinkExpires, accountAudit(ctx, "password reset", true))
	if err != nil {
		return Granted{}, err
	}
	s.endSessions(a.Name)
	g.Account = Account(a)
	return g, nil
}

// grant hashes password (or a generated one) and makes a sign-in link.
func (s *Service) grant(ctx context.Context, password string) (g Granted, hash, link string, err error) {
	if password == "" {
		password = newPassword()
		g.Password = password
	} else if err := checkNewPassword(password); err != nil {
		return g, "", "", err
	}
	if err := s.acquire(ctx); err != nil {
		return g, "", "", err
	}
	hash = hashPassword(password, s.opt.Params)
	s.release()
	g.LinkToken = randomToken()
	g.LinkExpires = s.opt.Now().Add(s.opt.LinkTTL)
	return g, hash, digest(g.LinkToken), nil
}

// SetRole changes the role of name's account; its sessions take the new
// role at their next request. Admins only; the last enabled admin account
// keeps its role (fault.KindConflict), so that a team always has someone
// to change accounts and settings.
func (s *Service) SetRole(ctx context.Context, name string, role project.Role) (Account, error) {
	if err := project.Require(ctx, project.RoleAdmin, "change an account's role"); err != nil {
		return Account{}, err
	}
	if _, err := project.ParseRole(string(role)); err != nil {
		return Account{}, err
	}
	a, err := s.store.SetAccountRole(ctx, name, string(role), accountAudit(ctx, "role", true))
	if err != nil {
		return Account{}, s.lastAdmin(ctx, name, err)
	}
	s.mu.Lock()
	for _, se := range s.sessions {
		if strings.EqualFold(se.id.Name, a.Name) {
			se.id.Role = role
		}
	}
	s.mu.Unlock()
	return Account(a), nil
}

// Disable stops name's account from signing in and ends its sessions; its
// ratings and decisions stay. Admins only; an admin cannot disable their
// own account, nor anyone the last enabled admin account (fault.KindConflict).
func (s *Service) Disable(ctx context.Context, name string) (Account, error) {
	if err := project.Require(ctx, project.RoleAdmin, "disable an account"); err != nil {
		return Account{}, err
	}
	if id, ok := project.IdentityFrom(ctx); ok && strings.EqualFold(id.Name, name) {
		return Account{}, fault.Conflict(fmt.Errorf("%s cannot disable their own account: ask another admin", id.Name))
	}
	a, err := s.store.SetAccountDisabled(ctx, name, true, accountAudit(ctx, "disabled", true))
	if err != nil {
		return Account{}, s.lastAdmin(ctx, name, err)
	}
	s.endSessions(a.Name)
	return Account(a), nil
}

// Enable lets name's disabled account sign in again with its password;
// its sessions, ended when it was disabled, stay ended. Admins only.
func (s *Service) Enable(ctx context.Context, name string) (Account, error) {
	if err := project.Require(ctx, project.RoleAdmin, "enable an account"); err != nil {
		return Account{}, err
	}
	a, err := s.store.SetAccountDisabled(ctx, name, false, accountAudit(ctx, "enabled", true))
	if err != nil {
		return Account{}, err
	}
	return Account(a), nil
}

// lastAdmin is the refusal of a change to name's account that would leave
// the project without an enabled admin (store.ErrLastAdmin): no one could
// change accounts or settings any more but from the command line. Any
// other err is returned as it is.
func (s *Service) lastAdmin(ctx context.Context, name string, err error) error {
	if !errors.Is(err, store.ErrLastAdmin) {
		return err
	}
	if a, aerr := s.store.Account(ctx, name); aerr == nil {
		name = a.Name
	}
	return fault.Conflict(fmt.Errorf("%s is the last enabled admin account: make another account an admin first", name))
}

// List returns every account. Admins only.
func (s *Service) List(ctx context.Context) ([]Account, error) {
	if err := project.Require(ctx, project.RoleAdmin, "list the accounts"); err != nil {
		return nil, err
	}
	as, err := s.store.Accounts(ctx)
	return wire.Each(as, func(a store.Account) Account { return Account(a) }), err
}

// accountAudit logs, in the change's transaction, an account change (see
// accountState) made by the signed-in librarian of ctx; withBefore keeps
// the account as it was, which an addition or a change of one's own
// password leaves out.
func accountAudit(ctx context.Context, change string, withBefore bool) store.Auditor[store.Account] {
	return func(before, after *store.Account) (store.AuditEntry, error) {
		var b any
		if withBefore && before != nil {
			b = accountState(*before, "")
		}
		return project.AuditEntry(ctx, "", store.AuditAccount, "", b, accountState(*after, change))
	}
}

// accountState is an account as an audit row holds it: never a hash.
func accountState(a store.Account, change string) map[string]any {
	m := map[string]any{"name": a.Name, "role": a.Role, "disabled": a.Disabled}
	if change != "" {
		m["change"] = change
	}
	return m
}

// errSignIn is the one answer to a wrong name or password, whichever it
// was, so that a sign-in does not tell which names have accounts.
var errSignIn = errors.New("wrong name or password")

// SignIn checks name's password, from address, and opens a session: its
// token goes in the cookie. device is the token of the browser's signed
// device ([Service.Device]; "" for none).
//
// Each attempt is counted as a failure before its password is hashed, and
// given back if it succeeds, so that attempts arriving together are slowed
// after the first few instead of all being hashed. An attempt is counted
// for the name from this address (three free failures) and, unless it
// comes from a device signed for the name, from the address whatever the
// name (ten) and for the name from an address it has not signed in from
// lately (ten); from a signed device, for that device (three). Past its
// free failures a count makes the next attempt wait 1 s, then 2 s, 4 s …
// up to 15 minutes (fault.KindTooMany, saying how long). Failures others
// cause for a name from elsewhere thus never slow its librarian at an
// address she signed in from, nor in a browser she signed in with.
func (s *Service) SignIn(ctx context.Context, name, password, address, device string) (token string, id project.Identity, err error) {
	n := normName(name)
	keys := []key{{"pair:" + n + "\x00" + address, freeTries, true}}
	if d, ok := s.deviceOf(device, n); ok {
		keys = append(keys, key{"device:" + d, freeTries, true})
	} else {
		keys = append(keys, key{"addr:" + address, looseTries, false})
		if !s.throttle.known(n, address) {
			keys = append(keys, key{"name:" + n, looseTries, false})
		}
	}
	if w := s.throttle.reserve(s.opt.Now(), keys...); w > 0 {
		return "", id, fault.TooMany(fmt.Errorf("too many failed sign-ins for this name or from this address: try again in %d s",
			int((w+time.Second-1)/time.Second)))
	}
	// From here the attempt counts as a failure unless it succeeds or
	// checks nothing.
	if len(password) > 1024 {
		return "", id, fault.Unauthorized(errSignIn)
	}
	sec, err := s.store.AccountSecret(ctx, name)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.throttle.release(keys...)
		return "", id, err
	}
	hash := sec.Password
	if err != nil || sec.Disabled {
		hash = s.dummy
	}
	if err := s.acquire(ctx); err != nil {
		s.throttle.release(keys...)
		return "", id, err
	}
	ok, herr := s.verify(password, hash)
	s.release()
	if herr != nil {
		s.throttle.release(keys...)
		return "", id, fmt.Errorf("sign in %s: %w", name, herr)
	}
	if !ok || err != nil || sec.Disabled {
		return "", id, fault.Unauthorized(errSignIn)
	}
	// The name from this address and this device start afresh; the counts
	// of the address and of the name, which others share, only get this
	// attempt back.
	for _, k := range keys {
		if k.own {
			s.throttle.clear(k)
		} else {
			s.throttle.release(k)
		}
	}
	s.throttle.signedInFrom(n, address)
	return s.open(ctx, sec.Account, address)
}

// SignInLink opens a session with a one-time sign-in link's token, which
// it uses up. Failures are counted from the address, before the token is
// looked up, and slowed as wrong passwords from an address are.
func (s *Service) SignInLink(ctx context.Context, token, address string) (string, project.Identity, error) {
	k := key{"addr:" + address, looseTries, false}
	if w := s.throttle.reserve(s.opt.Now(), k); w > 0 {
		return "", project.Identity{}, fault.TooMany(fmt.Errorf("too many failed sign-ins from this address: try again in %d s",
			int((w+time.Second-1)/time.Second)))
	}
	a, err := s.store.TakeSignInLink(ctx, digest(token), s.opt.Now())
	if errors.Is(err, store.ErrNotFound) {
		return "", project.Identity{}, fault.Unauthorized(errors.New("this sign-in link is unknown, used or expired: ask an admin for a new one"))
	}
	s.throttle.release(k)
	if err != nil {
		return "", project.Identity{}, err
	}
	s.throttle.signedInFrom(normName(a.Name), address)
	return s.open(ctx, a, address)
}

// open opens a session of a's account, which has just signed in from
// address, and records when for the accounts' list.
func (s *Service) open(ctx context.Context, a store.Account, address string) (string, project.Identity, error) {
	if err := s.store.AccountSignedIn(ctx, a.Name, s.opt.Now()); err != nil {
		return "", project.Identity{}, err
	}
	token := randomToken()
	id := project.Identity{Name: a.Name, Role: project.Role(a.Role), Address: address}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.opt.Now()
	for k, se := range s.sessions {
		if now.Sub(se.lastSeen) > s.opt.IdleTimeout {
			delete(s.sessions, k)
		}
	}
	s.sessions[digest(token)] = &session{id: id, lastSeen: now}
	return token, id, nil
}

// Session returns the signed-in librarian of a session token and keeps the
// session alive; false when the token is unknown, signed out or idle too
// long.
func (s *Service) Session(token string) (project.Identity, bool) {
	if token == "" {
		return project.Identity{}, false
	}
	k := digest(token)
	s.mu.Lock()
	defer s.mu.Unlock()
	se, ok := s.sessions[k]
	if !ok {
		return project.Identity{}, false
	}
	now := s.opt.Now()
	if now.Sub(se.lastSeen) > s.opt.IdleTimeout {
		delete(s.sessions, k)
		return project.Identity{}, false
	}
	se.lastSeen = now
	return se.id, true
}

// SignOut ends the session of token.
func (s *Service) SignOut(token string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.sessions, digest(token))
}

func (s *Service) endSessions(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, se := range s.sessions {
		if strings.EqualFold(se.id.Name, name) {
			delete(s.sessions, k)
		}
	}
}

func (s *Service) acquire(ctx context.Context) error {
	select {
	case s.hashes <- struct{}{}:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("password hash: %w", ctx.Err())
	}
}

func (s *Service) release() { <-s.hashes }

func randomToken() string {
	b := make([]byte, 32)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func digest(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// Change is a change to an account: a new role (if not ""), a disabling
// or an enabling, or a reset of its password to a generated one with a
// new sign-in link.
type Change struct {
	Role    project.Role
	Disable bool
	Enable  bool
	Reset   bool
}

// Change applies c to name's account, in the order role, disabling or
// enabling, reset, and returns the account (with the new password and
// link after a reset). Admins only.
func (s *Service) Change(ctx context.Context, name string, c Change) (Granted, error) {
	if c.Role == "" && !c.Disable && !c.Enable && !c.Reset {
		return Granted{}, fault.Invalid(errors.New("an account change names a role, disable, enable or reset"))
	}
	if c.Disable && c.Enable {
		return Granted{}, fault.Invalid(errors.New("an account change cannot both disable and enable"))
	}
	var g Granted
	var err error
	if c.Role != "" {
		if g.Account, err = s.SetRole(ctx, name, c.Role); err != nil {
			return Granted{}, err
		}
	}
	if c.Disable {
		if g.Account, err = s.Disable(ctx, name); err != nil {
			return Granted{}, err
		}
	}
	if c.Enable {
		if g.Account, err = s.Enable(ctx, name); err != nil {
			return Granted{}, err
		}
	}
	if c.Reset {
		return s.Reset(ctx, name, "")
	}
	return g, nil
}

// ChangePassword changes the signed-in librarian's own password, given
// their current one, and ends their other sessions (keep is the token of
// the session making the change). A wrong current password is refused
// and slowed as a failed sign-in is.
func (s *Service) ChangePassword(ctx context.Context, current, next, keep string) error {
	me, ok := project.IdentityFrom(ctx)
	if !ok {
		return fault.Unauthorized(errors.New("change a password: no one is signed in"))
	}
	if err := checkNewPassword(next); err != nil {
		return err
	}
	// The current password is checked as a sign-in is: slowed, and the
	// session itself opened by it closed at once.
	token, _, err := s.SignIn(ctx, me.Name, current, me.Address, "")
	if err != nil {
		if fault.KindOf(err) == fault.KindUnauthorized {
			return fault.Forbidden(errors.New("change a password: the current password is wrong"))
		}
		return err
	}
	s.SignOut(token)
	if err := s.acquire(ctx); err != nil {
		return err
	}
	hash := hashPassword(next, s.opt.Params)
	s.release()
	if _, err := s.store.SetAccountPassword(ctx, me.Name, hash, "", time.Time{}, accountAudit(ctx, "own password changed", false)); err != nil {
		return err
	}
	s.mu.Lock()
	for k, se := range s.sessions {
		if strings.EqualFold(se.id.Name, me.Name) && k != digest(keep) {
			delete(s.sessions, k)
		}
	}
	s.mu.Unlock()
	return nil
}
