package accounts

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"sitesift/app/apptest"
	"sitesift/app/fault"
	"sitesift/app/project"
	"sitesift/sites"
	"sitesift/sites/store"
)

// cheap are hash costs that keep the tests fast; the encoding and the
// checks are those of DefaultParams.
var cheap = Params{Memory: 64, Time: 1, Threads: 1}

// clock is a hand-moved clock.
type clock struct{ t time.Time }

func (c *clock) now() time.Time       { return c.t }
func (c *clock) move(d time.Duration) { c.t = c.t.Add(d) }
func newClock() *clock                { return &clock{t: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)} }

func open(t *testing.T) *project.Project {
	t.Helper()
	p, err := project.Open(filepath.Join(t.TempDir(), "p"), true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// addCurators adds a curator account for each name, whose password is
// "NAME's long password".
func addCurators(t *testing.T, s *Service, names ...string) {
	t.Helper()
	for _, n := range names {
		if _, err := s.Add(context.Background(), n, project.RoleCurator, n+"'s long password"); err != nil {
			t.Fatal(err)
		}
	}
}

func newService(t *testing.T, p *project.Project, c *clock) *Service {
	return New(p, Options{Now: c.now, Params: cheap, IdleTimeout: time.Hour})
}

func TestPasswordHashesAreSaltedArgon2id(t *testing.T) {
	a, b := hashPassword("correct horse battery", cheap), hashPassword("correct horse battery", cheap)
	if a == b {
		t.Fatal("two hashes of one password are equal: no salt")
	}
	if !strings.HasPrefix(a, "$argon2id$v=19$m=64,t=1,p=1$") {
		t.Fatalf("hash %q is not an encoded argon2id hash", a)
	}
	for _, h := range []string{a, b} {
		if ok, err := checkPassword("correct horse battery", h); !ok || err != nil {
			t.Fatalf("right password refused by %q: %v", h, err)
		}
		if ok, _ := checkPassword("correct horse batterz", h); ok {
			t.Fatal("wrong password accepted")
		}
	}
	if _, err := checkPassword("x", "$2a$10$bcrypt"); !errors.Is(err, errBadHash) {
		t.Fatalf("a bcrypt hash: %v, want errBadHash", err)
	}
}

func TestWrongPasswordIsRefusedThenSlowed(t *testing.T) {
	ctx := context.Background()
	p, c := open(t), newClock()
	s := newService(t, p, c)
	if _, err := s.Add(ctx, "ana", project.RoleCurator, "ana's long password"); err != nil {
		t.Fatal(err)
	}
	for i := range freeTries {
		_, _, err := s.SignIn(ctx, "ana", "wrong password!", "10.0.0.1", "")
		if fault.KindOf(err) != fault.KindUnauthorized || err.Error() != "wrong name or password" {
			t.Fatalf("attempt %d: %v, want 'wrong name or password'", i+1, err)
		}
	}
	// Now even the right password waits, from that address: the guesser
	// cannot tell.
	_, _, err := s.SignIn(ctx, "ANA", "ana's long password", "10.0.0.1", "")
	if fault.KindOf(err) != fault.KindTooMany || !strings.Contains(err.Error(), "try again in 1 s") {
		t.Fatalf("after %d failures of the name from the address: %v, want too_many in 1 s", freeTries, err)
	}
	c.move(time.Second)
	if _, _, err := s.SignIn(ctx, "ana", "wrong again!!", "10.0.0.1", ""); fault.KindOf(err) != fault.KindUnauthorized {
		t.Fatalf("after the wait: %v, want unauthorized", err)
	}
	// The wait doubles.
	if _, _, err := s.SignIn(ctx, "ana", "ana's long password", "10.0.0.1", ""); err == nil || !strings.Contains(err.Error(), "try again in 2 s") {
		t.Fatalf("after %d failures: %v, want a wait of 2 s", freeTries+1, err)
	}
	// Another name from that address, and the name from another, are not
	// slowed by these few.
	if _, err := s.Add(ctx, "ben", project.RoleCurator, "ben's long password"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.SignIn(ctx, "ben", "ben's long password", "10.0.0.1", ""); err != nil {
		t.Fatalf("another name from the address: %v", err)
	}
	if _, id, err := s.SignIn(ctx, "ana", "ana's long password", "10.0.0.2", ""); err != nil || id.Name != "ana" {
		t.Fatalf("the name from another address: %v %v", id, err)
	}
	c.move(2 * time.Second)
	if _, id, err := s.SignIn(ctx, "ana", "ana's long password", "10.0.0.1", ""); err != nil || id.Name != "ana" {
		t.Fatalf("right password after the wait: %v %v", id, err)
	}
	// A success clears the name's count at the address.
	for range freeTries {
		if _, _, err := s.SignIn(ctx, "ana", "wrong", "10.0.0.1", ""); fault.KindOf(err) != fault.KindUnauthorized {
			t.Fatalf("after a success: %v, want a plain refusal", err)
		}
	}
	// An unknown name gets the same answer as a wrong password.
	if _, _, err := s.SignIn(ctx, "nobody", "whatever password", "10.0.0.4", ""); err == nil || err.Error() != "wrong name or password" {
		t.Fatalf("unknown name: %v", err)
	}
}

func TestAddressAndNameHaveLooserBounds(t *testing.T) {
	ctx := context.Background()
	p, c := open(t), newClock()
	s := newService(t, p, c)
	addCurators(t, s, "ana", "ben")
	// One address trying many names: slowed after looseTries failures,
	// whatever the names.
	for i := range looseTries {
		if _, _, err := s.SignIn(ctx, fmt.Sprintf("name%d", i), "a guess, a guess", "10.0.0.1", ""); fault.KindOf(err) != fault.KindUnauthorized {
			t.Fatalf("guess %d from one address: %v", i, err)
		}
	}
	if _, _, err := s.SignIn(ctx, "ben", "ben's long password", "10.0.0.1", ""); fault.KindOf(err) != fault.KindTooMany {
		t.Fatalf("after %d failures from the address: %v, want too_many", looseTries, err)
	}
	// One name tried from many addresses: slowed after looseTries
	// failures where the librarian has not signed in lately.
	for i := range looseTries {
		if _, _, err := s.SignIn(ctx, "ana", "a guess, a guess", fmt.Sprintf("203.0.113.%d", i), ""); fault.KindOf(err) != fault.KindUnauthorized {
			t.Fatalf("guess %d of the name: %v", i, err)
		}
	}
	if _, _, err := s.SignIn(ctx, "ana", "ana's long password", "198.51.100.1", ""); fault.KindOf(err) != fault.KindTooMany {
		t.Fatalf("after %d failures of the name from elsewhere, from a new address: %v, want too_many", looseTries, err)
	}
	// A refusal counts nothing: after the wait the right password passes.
	c.move(time.Second)
	if _, _, err := s.SignIn(ctx, "ana", "ana's long password", "198.51.100.1", ""); err != nil {
		t.Fatalf("after the wait: %v", err)
	}
}

func TestSignedDeviceIsNotSlowedByOthers(t *testing.T) {
	ctx := context.Background()
	p, c := open(t), newClock()
	s := newService(t, p, c)
	addCurators(t, s, "ana", "ben")
	if _, _, err := s.SignIn(ctx, "ana", "ana's long password", "10.0.0.1", ""); err != nil {
		t.Fatal(err)
	}
	dev := s.Device("ana", "")
	if again := s.Device("Ana", dev); again != dev {
		t.Fatalf("a device signed again: %q, want it kept %q", again, dev)
	}
	// Guessers everywhere, her own address included (a shared one), for her
	// name and others.
	for i := range 3 * looseTries {
		s.SignIn(ctx, "ana", "a guess, a guess", fmt.Sprintf("203.0.113.%d", i), "")
		s.SignIn(ctx, fmt.Sprintf("name%d", i), "a guess, a guess", "198.51.100.7", "")
	}
	for range freeTries {
		s.SignIn(ctx, "ana", "a guess, a guess", "198.51.100.7", "")
	}
	if _, _, err := s.SignIn(ctx, "ana", "ana's long password", "198.51.100.7", ""); fault.KindOf(err) != fault.KindTooMany {
		t.Fatalf("without her device, from the guessers' address: %v, want too_many", err)
	}
	// Her browser, at that address, is still hers. Only for her name.
	if _, _, err := s.SignIn(ctx, "ana", "ana's long password", "198.51.100.8", dev); err != nil {
		t.Fatalf("her signed device, from a new address: %v", err)
	}
	if _, _, err := s.SignIn(ctx, "ben", "ben's long password", "198.51.100.7", dev); fault.KindOf(err) != fault.KindTooMany {
		t.Fatalf("ana's device for ben, from the guessers' address: %v, want too_many", err)
	}
	// A forged or altered token is no device.
	forged := dev[:len(dev)-1] + string("0123456789abcdef"[(strings.IndexByte("0123456789abcdef", dev[len(dev)-1])+1)%16])
	if _, ok := s.deviceOf(forged, "ana"); ok {
		t.Fatal("an altered device token is taken")
	}
	if _, ok := s.deviceOf(s.Device("ana", ""), "ben"); ok {
		t.Fatal("ana's device token is taken for ben")
	}
	// A device's own failures slow it.
	for range freeTries {
		if _, _, err := s.SignIn(ctx, "ana", "a guess, a guess", "198.51.100.9", dev); fault.KindOf(err) != fault.KindUnauthorized {
			t.Fatalf("a wrong password from her device: %v", err)
		}
	}
	if _, _, err := s.SignIn(ctx, "ana", "ana's long password", "198.51.100.10", dev); fault.KindOf(err) != fault.KindTooMany {
		t.Fatalf("after %d failures from the device: %v, want too_many", freeTries, err)
	}
	c.move(time.Second)
	if _, _, err := s.SignIn(ctx, "ana", "ana's long password", "198.51.100.10", dev); err != nil {
		t.Fatal(err)
	}
}

func TestDelayIsBounded(t *testing.T) {
	if d := delay(1000, freeTries); d != maxDelay {
		t.Fatalf("delay(1000, freeTries) = %v, want %v", d, maxDelay)
	}
	if delay(freeTries-1, freeTries) != 0 || delay(freeTries, freeTries) != baseDelay || delay(freeTries+3, freeTries) != 8*baseDelay {
		t.Fatalf("delays %v %v %v", delay(freeTries-1, freeTries), delay(freeTries, freeTries), delay(freeTries+3, freeTries))
	}
}

func TestSessionsExpireWhenIdleAndEndOnSignOut(t *testing.T) {
	ctx := context.Background()
	p, c := open(t), newClock()
	s := newService(t, p, c)
	if _, err := s.Add(ctx, "ana", project.RoleApprover, "ana's long password"); err != nil {
		t.Fatal(err)
	}
	tok, _, err := s.SignIn(ctx, "ana", "ana's long password", "10.0.0.1", "")
	if err != nil {
		t.Fatal(err)
	}
	c.move(50 * time.Minute)
	if id, ok := s.Session(tok); !ok || id.Name != "ana" || id.Role != project.RoleApprover {
		t.Fatalf("session after 50 idle minutes: %v %v", id, ok)
	}
	c.move(50 * time.Minute) // 50 minutes since it was last used: alive
	if _, ok := s.Session(tok); !ok {
		t.Fatal("a session in use ended")
	}
	c.move(61 * time.Minute)
	if _, ok := s.Session(tok); ok {
		t.Fatal("a session idle longer than IdleTimeout is alive")
	}
	tok, _, _ = s.SignIn(ctx, "ana", "ana's long password", "10.0.0.1", "")
	s.SignOut(tok)
	if _, ok := s.Session(tok); ok {
		t.Fatal("a session signed out is alive")
	}
	// A restart is a new Service: sessions are in memory.
	tok, _, _ = s.SignIn(ctx, "ana", "ana's long password", "10.0.0.1", "")
	if _, ok := newService(t, p, c).Session(tok); ok {
		t.Fatal("a session survived a restart, which docs/team.md says it does not")
	}
}

func TestProfileBecomesAccountKeepingRatings(t *testing.T) {
	ctx := context.Background()
	p, c := open(t), newClock()
	if _, _, err := p.Store.AddLibrarian(ctx, "Ana"); err != nil {
		t.Fatal(err)
	}
	if err := p.Store.SaveCrawlBatch(ctx, []sites.Page{apptest.Page(t, "http://a.test/")}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Store.SetRating(ctx, "Ana", "a.test", 3, "maps"); err != nil {
		t.Fatal(err)
	}
	s := newService(t, p, c)
	g, err := s.Add(ctx, "ana", project.RoleCurator, "")
	if err != nil {
		t.Fatal(err)
	}
	if g.Account.Name != "Ana" || g.Account.Ratings != 1 || len(g.Password) != 27 || g.LinkToken == "" {
		t.Fatalf("granted %+v: want Ana's profile, a generated password and a link", g)
	}
	ls, _ := p.Store.LibrarianProfiles(ctx)
	if len(ls) != 1 {
		t.Fatalf("profiles %v: the account made a second one", ls)
	}
	if _, _, err := s.SignIn(ctx, "ana", g.Password, "10.0.0.1", ""); err != nil {
		t.Fatalf("the generated password: %v", err)
	}
	if _, err := s.Add(ctx, "ANA", project.RoleAdmin, ""); fault.KindOf(err) != fault.KindConflict {
		t.Fatalf("adding an account twice: %v, want conflict", err)
	}
}

func TestSignInLinkWorksOnceAndExpires(t *testing.T) {
	ctx := context.Background()
	p, c := open(t), newClock()
	s := newService(t, p, c)
	g, err := s.Add(ctx, "ana", project.RoleCurator, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, id, err := s.SignInLink(ctx, g.LinkToken, "10.0.0.1"); err != nil || id.Name != "ana" {
		t.Fatalf("link: %v %v", id, err)
	}
	if _, _, err := s.SignInLink(ctx, g.LinkToken, "10.0.0.1"); fault.KindOf(err) != fault.KindUnauthorized {
		t.Fatalf("link used twice: %v", err)
	}
	g, err = s.Reset(ctx, "ana", "")
	if err != nil {
		t.Fatal(err)
	}
	c.move(25 * time.Hour)
	if _, _, err := s.SignInLink(ctx, g.LinkToken, "10.0.0.2"); fault.KindOf(err) != fault.KindUnauthorized {
		t.Fatalf("expired link: %v", err)
	}
}

func TestDisableEndsSessionsAndRoleChangeApplies(t *testing.T) {
	ctx := context.Background()
	p, c := open(t), newClock()
	s := newService(t, p, c)
	s.Add(ctx, "ana", project.RoleCurator, "ana's long password")
	tok, _, err := s.SignIn(ctx, "ana", "ana's long password", "10.0.0.1", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetRole(ctx, "ana", project.RoleApprover); err != nil {
		t.Fatal(err)
	}
	if id, _ := s.Session(tok); id.Role != project.RoleApprover {
		t.Fatalf("role after the change: %v", id.Role)
	}
	if _, err := s.Disable(ctx, "ana"); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Session(tok); ok {
		t.Fatal("a disabled account's session is alive")
	}
	if _, _, err := s.SignIn(ctx, "ana", "ana's long password", "10.0.0.5", ""); fault.KindOf(err) != fault.KindUnauthorized {
		t.Fatalf("a disabled account signs in: %v", err)
	}
	// An account change is audited, without its hash.
	rows, err := p.Store.Audit(ctx, store.AuditQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 || rows[0].Action != store.AuditAccount || !strings.Contains(string(rows[0].After), `"disabled":true`) {
		t.Fatalf("audit rows %+v", rows)
	}
	for _, r := range rows {
		if strings.Contains(string(r.Before)+string(r.After), "argon2") {
			t.Fatalf("an audit row holds a hash: %s", r.After)
		}
	}
}

func TestAccountChangesNeedAnAdmin(t *testing.T) {
	ctx := context.Background()
	p, c := open(t), newClock()
	s := newService(t, p, c)
	ap := project.WithIdentity(ctx, project.Identity{Name: "ben", Role: project.RoleApprover})
	_, err := s.Add(ap, "cleo", project.RoleAdmin, "")
	if fault.KindOf(err) != fault.KindForbidden || !strings.Contains(err.Error(), "needs the admin role; ben is an approver") {
		t.Fatalf("an approver adds an account: %v", err)
	}
	ad := project.WithIdentity(ctx, project.Identity{Name: "ana", Role: project.RoleAdmin})
	if _, err := s.Add(ad, "ana", project.RoleAdmin, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Disable(ad, "ana"); fault.KindOf(err) != fault.KindConflict {
		t.Fatalf("an admin disables themself: %v", err)
	}
}

func TestHashesAreBounded(t *testing.T) {
	ctx := context.Background()
	p, c := open(t), newClock()
	s := New(p, Options{Now: c.now, Params: cheap, MaxHashes: 1})
	s.Add(ctx, "ana", project.RoleCurator, "ana's long password")
	s.hashes <- struct{}{} // a sign-in hashing
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, err := s.SignIn(cctx, "ana", "ana's long password", "10.0.0.1", ""); !errors.Is(err, context.Canceled) {
		t.Fatalf("a sign-in while the one hash slot is taken: %v, want it to wait (here: cancelled)", err)
	}
	<-s.hashes
	if _, _, err := s.SignIn(ctx, "ana", "ana's long password", "10.0.0.1", ""); err != nil {
		t.Fatal(err)
	}
}

// holdHashes has s count the password hashes it checks, each held until
// release is closed; entered receives one value as each begins.
func holdHashes(s *Service, entered chan<- struct{}, release <-chan struct{}) *atomic.Int64 {
	var n atomic.Int64
	check := s.verify
	s.verify = func(password, encoded string) (bool, error) {
		n.Add(1)
		entered <- struct{}{}
		<-release
		return check(password, encoded)
	}
	return &n
}

func TestBurstOfWrongPasswordsHashesAFew(t *testing.T) {
	ctx := context.Background()
	p, c := open(t), newClock()
	const burst = 40
	// As many hash slots as attempts: only the slowing can keep a hash
	// from being computed.
	s := New(p, Options{Now: c.now, Params: cheap, MaxHashes: burst})
	if _, err := s.Add(ctx, "ana", project.RoleCurator, "ana's long password"); err != nil {
		t.Fatal(err)
	}
	// Every hash waits until each attempt has either begun its hash or
	// been slowed: the whole burst arrives while the first are checked.
	events, release := make(chan struct{}, burst), make(chan struct{})
	hashed := holdHashes(s, events, release)
	var unauthorized, tooMany atomic.Int64
	var wg sync.WaitGroup
	for range burst {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, err := s.SignIn(ctx, "ana", "wrong password!", "10.0.0.1", "")
			switch fault.KindOf(err) {
			case fault.KindUnauthorized:
				unauthorized.Add(1)
			case fault.KindTooMany:
				tooMany.Add(1)
				events <- struct{}{}
			default:
				t.Errorf("a wrong password: %v", err)
				events <- struct{}{}
			}
		}()
	}
	for range burst {
		<-events
	}
	close(release)
	wg.Wait()
	if n := hashed.Load(); n > freeTries {
		t.Fatalf("a burst of %d wrong passwords for one name from one address hashed %d of them, want at most %d", burst, n, freeTries)
	}
	if unauthorized.Load() != hashed.Load() || tooMany.Load() != burst-hashed.Load() {
		t.Fatalf("%d refused as wrong and %d slowed, %d hashed", unauthorized.Load(), tooMany.Load(), hashed.Load())
	}
}

func TestFailuresFromElsewhereDoNotLockOut(t *testing.T) {
	ctx := context.Background()
	p, c := open(t), newClock()
	s := newService(t, p, c)
	if _, err := s.Add(ctx, "ben", project.RoleAdmin, "ben's long password"); err != nil {
		t.Fatal(err)
	}
	// Ben works from 10.0.0.1; a guesser tries his name from many other
	// addresses, a few attempts each, then one every 15 minutes.
	if _, _, err := s.SignIn(ctx, "ben", "ben's long password", "10.0.0.1", ""); err != nil {
		t.Fatal(err)
	}
	guess := func(i int) { s.SignIn(ctx, "ben", "a guess, a guess", fmt.Sprintf("203.0.113.%d", i), "") }
	for i := range 40 {
		guess(i)
		guess(i)
	}
	for i := range 8 {
		c.move(15 * time.Minute)
		guess(100 + i)
	}
	if _, id, err := s.SignIn(ctx, "ben", "ben's long password", "10.0.0.1", ""); err != nil || id.Name != "ben" {
		t.Fatalf("ben's right password from his own address after failures from elsewhere: %v", err)
	}
}

func TestLastEnabledAdminStays(t *testing.T) {
	ctx := context.Background()
	p, c := open(t), newClock()
	s := newService(t, p, c)
	for n, r := range map[string]project.Role{"dora": project.RoleAdmin, "eve": project.RoleAdmin, "ana": project.RoleCurator} {
		if _, err := s.Add(ctx, n, r, n+"'s long password"); err != nil {
			t.Fatal(err)
		}
	}
	dora := project.WithIdentity(ctx, project.Identity{Name: "dora", Role: project.RoleAdmin})
	// Eve is disabled: dora is the last enabled admin.
	if _, err := s.Disable(dora, "eve"); err != nil {
		t.Fatal(err)
	}
	_, err := s.SetRole(dora, "dora", project.RoleCurator)
	if fault.KindOf(err) != fault.KindConflict || err.Error() != "dora is the last enabled admin account: make another account an admin first" {
		t.Fatalf("the last enabled admin demotes themself: %v", err)
	}
	// Nor from the command line (no one signed in), by demoting or disabling.
	if _, err := s.SetRole(ctx, "DORA", project.RoleApprover); fault.KindOf(err) != fault.KindConflict {
		t.Fatalf("the last enabled admin demoted from the command line: %v", err)
	}
	if _, err := s.Disable(ctx, "dora"); fault.KindOf(err) != fault.KindConflict || !strings.Contains(err.Error(), "last enabled admin") {
		t.Fatalf("the last enabled admin disabled from the command line: %v", err)
	}
	if a, err := p.Store.Account(ctx, "dora"); err != nil || a.Role != "admin" || a.Disabled {
		t.Fatalf("dora after the refusals: %+v %v", a, err)
	}
	// With another enabled admin, either may go.
	if _, err := s.SetRole(dora, "ana", project.RoleAdmin); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetRole(dora, "dora", project.RoleCurator); err != nil {
		t.Fatalf("an admin steps down beside another: %v", err)
	}
	// A curator or a disabled admin changes nothing of the count.
	if _, err := s.SetRole(ctx, "eve", project.RoleCurator); err != nil {
		t.Fatalf("demoting a disabled admin: %v", err)
	}
}

func TestEnableAndLastSignIn(t *testing.T) {
	ctx := context.Background()
	p, c := open(t), newClock()
	s := newService(t, p, c)
	addCurators(t, s, "ana", "ben")
	dora := project.WithIdentity(ctx, project.Identity{Name: "dora", Role: project.RoleAdmin})
	if _, err := s.Enable(project.WithIdentity(ctx, project.Identity{Name: "ben", Role: project.RoleApprover}), "ana"); fault.KindOf(err) != fault.KindForbidden ||
		!strings.Contains(err.Error(), "to enable an account needs the admin role") {
		t.Fatalf("an approver enables an account: %v", err)
	}
	if _, _, err := s.SignIn(ctx, "ana", "ana's long password", "10.0.0.1", ""); err != nil {
		t.Fatal(err)
	}
	signedIn := c.t
	c.move(time.Hour)
	if _, err := s.Disable(dora, "ana"); err != nil {
		t.Fatal(err)
	}
	a, err := s.Enable(dora, "ana")
	if err != nil || a.Disabled || !a.LastSignIn.Equal(signedIn) {
		t.Fatalf("ana enabled: %+v %v, want enabled, last signed in at %v", a, err, signedIn)
	}
	// Her password works again: enabling gives her no new one.
	if _, _, err := s.SignIn(ctx, "ana", "ana's long password", "10.0.0.1", ""); err != nil {
		t.Fatalf("an enabled account signs in: %v", err)
	}
	// A one-time link counts as a sign-in too; ben never signed in before.
	g, err := s.Reset(dora, "ben", "")
	if err != nil || !g.Account.LastSignIn.IsZero() {
		t.Fatalf("ben before signing in: %+v %v", g.Account, err)
	}
	c.move(time.Minute)
	if _, _, err := s.SignInLink(ctx, g.LinkToken, "10.0.0.2"); err != nil {
		t.Fatal(err)
	}
	as, err := s.List(dora)
	if err != nil || len(as) != 2 || !as[0].LastSignIn.Equal(signedIn.Add(time.Hour)) || !as[1].LastSignIn.Equal(c.t) {
		t.Fatalf("accounts %+v %v: want ana last signed in at %v, ben at %v", as, err, signedIn.Add(time.Hour), c.t)
	}
	rows, err := p.Store.Audit(ctx, store.AuditQuery{})
	if err != nil || !strings.Contains(string(rows[1].After), `"change":"enabled"`) {
		t.Fatalf("the enabling's audit row: %+v %v", rows, err)
	}
}

// TestSignInVoidsThePendingLink: an account added with a password also gets
// a one-time link; once its owner signs in with the password, the link no
// longer opens the account.
func TestSignInVoidsThePendingLink(t *testing.T) {
	ctx := context.Background()
	p, c := open(t), newClock()
	s := newService(t, p, c)
	g, err := s.Add(ctx, "ana", project.RoleCurator, "ana's long password")
	if err != nil || g.LinkToken == "" {
		t.Fatalf("added: %+v %v; want a link", g, err)
	}
	if _, _, err := s.SignIn(ctx, "ana", "ana's long password", "10.0.0.1", ""); err != nil {
		t.Fatal(err)
	}
	c.move(time.Minute)
	if _, _, err := s.SignInLink(ctx, g.LinkToken, "10.0.0.2"); err == nil {
		t.Fatal("the link given before the password sign-in still signs in")
	}
}
