package project

import (
	"context"
	"fmt"
	"strings"

	"sitesift/app/fault"
	"sitesift/sites/store"
)

// Role is what a signed-in librarian of a team server may do. Each role
// may do everything the roles before it may.
type Role string

// The roles of a team server (docs/team.md).
const (
	// RoleCurator rates, notes, nominates, searches, reviews and exports.
	RoleCurator Role = "curator"
	// RoleApprover also approves, rejects and reopens.
	RoleApprover Role = "approver"
	// RoleAdmin also crawls, imports, changes settings and accounts.
	RoleAdmin Role = "admin"
)

// Roles returns the roles, the least first.
func Roles() []Role { return []Role{RoleCurator, RoleApprover, RoleAdmin} }

// rank orders the roles; an unknown role ranks below every one.
func (r Role) rank() int {
	switch r {
	case RoleCurator:
		return 1
	case RoleApprover:
		return 2
	case RoleAdmin:
		return 3
	}
	return 0
}

// ParseRole returns the role called s, or an invalid-request error
// listing the roles.
func ParseRole(s string) (Role, error) {
	if r := Role(strings.ToLower(strings.TrimSpace(s))); r.rank() > 0 {
		return r, nil
	}
	return "", fault.Invalid(fmt.Errorf("unknown role %q: the roles are curator, approver and admin", s))
}

// Identity is the signed-in librarian a request acts as on a team server,
// and the address it came from.
type Identity struct {
	Name    string
	Role    Role
	Address string
}

type identityKey struct{}

// WithIdentity returns ctx carrying the signed-in librarian id: from then
// on every service call made with it acts as id alone and is held to id's
// role. A context without one is the desktop window's, the command line's
// or a single-user serve's, where the named librarian is taken at their
// word, as before accounts existed.
func WithIdentity(ctx context.Context, id Identity) context.Context {
	return context.WithValue(ctx, identityKey{}, id)
}

// IdentityFrom returns the signed-in librarian of ctx, if there is one.
func IdentityFrom(ctx context.Context) (Identity, bool) {
	id, ok := ctx.Value(identityKey{}).(Identity)
	return id, ok
}

// Require refuses (fault.KindForbidden) a call made for a signed-in
// librarian whose role is below need, saying what was asked (what: "approve
// a site") and the role it needs. Without a signed-in librarian it allows
// everything.
func Require(ctx context.Context, need Role, what string) error {
	id, ok := IdentityFrom(ctx)
	if !ok || id.Role.rank() >= need.rank() {
		return nil
	}
	return fault.Forbidden(fmt.Errorf("to %s needs the %s role; %s is %s %s", what, need, id.Name, article(id.Role), id.Role))
}

func article(r Role) string {
	if r == RoleAdmin || r == RoleApprover {
		return "an"
	}
	return "a"
}

// actAs returns the name a call acts as: for a signed-in librarian their
// own, whether the request named them (in any case) or no one, and a
// refusal (fault.KindForbidden) when it named someone else; without one,
// name as given.
func actAs(ctx context.Context, name string) (string, bool, error) {
	id, ok := IdentityFrom(ctx)
	if !ok {
		return name, false, nil
	}
	if name != "" && !strings.EqualFold(name, id.Name) {
		return "", true, fault.Forbidden(fmt.Errorf("signed in as %s: cannot act as %s", id.Name, name))
	}
	return id.Name, true, nil
}

type namedKey struct{}

// WithNamed returns ctx carrying the librarian a request of a single-user
// app names as the one at work (the app's chosen librarian): the audit
// rows of its actions that name no librarian themselves are credited to
// them. It grants nothing. A name no librarian could have is refused
// (fault.KindInvalid). With a signed-in librarian ctx is returned as it
// is: they alone are who acts, whatever the page last chose.
func WithNamed(ctx context.Context, name string) (context.Context, error) {
	if _, signedIn := IdentityFrom(ctx); signedIn {
		return ctx, nil
	}
	if err := store.ValidLibrarian(name); err != nil {
		return ctx, fault.Invalid(err)
	}
	return context.WithValue(ctx, namedKey{}, name), nil
}

// AuditEntry returns the audit row of what was done (action, one of the
// store.Audit constants), to which site ("" for none), and the state before
// and after it (any JSON value; nil for none). The row names the signed-in
// librarian of ctx and their address when there is one, else who, else
// the librarian ctx names ([WithNamed]). A change
// the store makes takes it through a store.Auditor, so that the row is
// written in the change's transaction.
func AuditEntry(ctx context.Context, who, action, site string, before, after any) (store.AuditEntry, error) {
	e := store.AuditEntry{Librarian: who, Action: action, Site: site}
	if id, ok := IdentityFrom(ctx); ok {
		e.Librarian, e.Address = id.Name, id.Address
	} else if named, _ := ctx.Value(namedKey{}).(string); who == "" {
		e.Librarian = named
	}
	if err := e.SetStates(before, after); err != nil {
		return store.AuditEntry{}, err
	}
	return e, nil
}

// Audit appends a row to the project's audit log (see [AuditEntry]) in a
// transaction of its own: for an action whose change, if any, is already
// made. A failure to log it is returned so that the caller reports it, but
// undoes nothing.
func (p *Project) Audit(ctx context.Context, who, action, site string, before, after any) error {
	e, err := AuditEntry(ctx, who, action, site, before, after)
	if err != nil {
		return err
	}
	if err := p.Store.AppendAudit(ctx, e); err != nil {
		return fmt.Errorf("audit log: %w", err)
	}
	return nil
}

// SignedInAs is the name a read that names a librarian acts as (whose
// ratings fill the sites table): on a team server the signed-in
// librarian's own, and a refusal (fault.KindForbidden) when it names
// another; signedIn is false without a signed-in librarian.
func SignedInAs(ctx context.Context, name string) (own string, signedIn bool, err error) {
	return actAs(ctx, name)
}
