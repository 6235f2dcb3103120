package httpapi

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"sitesift/app"
	"sitesift/app/accounts"
	"sitesift/app/apptest"
	"sitesift/app/project"
	"sitesift/app/review"
)

// teamServer is a team server over the review project, with the accounts
// ana (curator), ben and cleo (approvers) and dora (admin), each with the
// password NAME+"-long-password".
type teamServer struct {
	t   *testing.T
	a   *app.App
	p   *project.Project
	acc *accounts.Service
	h   http.Handler
}

func newTeamServer(t *testing.T, opts ...Option) *teamServer {
	t.Helper()
	a, p, _ := apptest.OpenProject(t, apptest.ReviewProject(t))
	acc := accounts.New(p, accounts.Options{Params: accounts.Params{Memory: 64, Time: 1, Threads: 1}})
	for name, role := range map[string]project.Role{"ana": project.RoleCurator, "ben": project.RoleApprover,
		"cleo": project.RoleApprover, "dora": project.RoleAdmin} {
		if _, err := acc.Add(context.Background(), name, role, name+"-long-password"); err != nil {
			t.Fatal(err)
		}
	}
	return &teamServer{t: t, a: a, p: p, acc: acc, h: New(a, append([]Option{Team(acc)}, opts...)...)}
}

// session is a signed-in librarian's cookie and write token.
type session struct {
	cookie *http.Cookie
	token  string
}

func (ts *teamServer) login(name string) session {
	ts.t.Helper()
	rec := ts.do(session{}, "POST", "/api/login", `{"name":"`+name+`","password":"`+name+`-long-password"}`, nil)
	if rec.Code != http.StatusOK {
		ts.t.Fatalf("login %s: %d %s", name, rec.Code, rec.Body)
	}
	var s session
	for _, c := range rec.Result().Cookies() {
		if c.Name == SessionCookie {
			s.cookie = c
		}
	}
	rec = ts.do(s, "GET", "/api/session", "", nil)
	var env struct {
		Data struct{ Token string } `json:"data"`
	}
	json.Unmarshal(rec.Body.Bytes(), &env)
	s.token = env.Data.Token
	if s.cookie == nil || s.token == "" {
		ts.t.Fatalf("login %s: no cookie or token: %s", name, rec.Body)
	}
	return s
}

// do sends a request as the app's page does, in the session s.
func (ts *teamServer) do(s session, method, path, body string, edit func(*http.Request)) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Host = "127.0.0.1:7777"
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if s.cookie != nil {
		req.AddCookie(s.cookie)
	}
	if s.token != "" {
		req.Header.Set(TokenHeader, s.token)
	}
	if edit != nil {
		edit(req)
	}
	rec := httptest.NewRecorder()
	ts.h.ServeHTTP(rec, req)
	return rec
}

// audit is the audit log's rows that path (GET /api/audit?…) answers s.
func (ts *teamServer) audit(s session, path string) []review.AuditEntry {
	ts.t.Helper()
	rec := ts.want(s, "GET", path, "", 200, "")
	var env struct{ Data []review.AuditEntry }
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
		ts.t.Fatalf("GET %s: %v", path, err)
	}
	return env.Data
}

// want fails the test unless the request gets status and an error
// message matching re (for an error status).
func (ts *teamServer) want(s session, method, path, body string, status int, re string) *httptest.ResponseRecorder {
	ts.t.Helper()
	rec := ts.do(s, method, path, body, nil)
	if rec.Code != status {
		ts.t.Fatalf("%s %s %s: %d, want %d: %s", method, path, body, rec.Code, status, rec.Body)
	}
	if re != "" {
		var env envelope
		json.Unmarshal(rec.Body.Bytes(), &env)
		if !regexp.MustCompile(re).MatchString(env.Error) {
			ts.t.Fatalf("%s %s %s: error %q, want %q", method, path, body, env.Error, re)
		}
	}
	return rec
}

func TestTeamWithoutSessionEveryAPICallIs401(t *testing.T) {
	ts := newTeamServer(t)
	fill := regexp.MustCompile(`\{[a-z]+\}`)
	n := 0
	for _, r := range Contract() {
		method, path, _ := strings.Cut(r.Pattern, " ")
		if r.Pattern == "POST "+loginPath {
			continue
		}
		path = fill.ReplaceAllString(path, "s1.test")
		for _, s := range []session{{}, {cookie: &http.Cookie{Name: SessionCookie, Value: "forged"}}} {
			body := ""
			if method != "GET" {
				body = "{}"
			}
			if rec := ts.do(s, method, path, body, nil); rec.Code != http.StatusUnauthorized {
				t.Errorf("%s %s without a session: %d, want 401: %s", method, path, rec.Code, rec.Body)
			}
			n++
		}
	}
	if n < 100 {
		t.Fatalf("tried %d calls: the contract lost its routes?", n)
	}
	// The page itself is served: it shows the sign-in form.
	if rec := ts.do(session{}, "GET", "/api/nothing", "", nil); rec.Code != http.StatusUnauthorized {
		t.Errorf("an unknown API path without a session: %d, want 401", rec.Code)
	}
}

func TestTeamLoginCookie(t *testing.T) {
	ts := newTeamServer(t)
	rec := ts.want(session{}, "POST", "/api/login", `{"name":"ana","password":"wrong-password!"}`, 401, "^wrong name or password$")
	if len(rec.Result().Cookies()) != 0 {
		t.Fatal("a failed sign-in set a cookie")
	}
	for _, tc := range []struct {
		name   string
		edit   func(*http.Request)
		secure bool
	}{
		{"plain HTTP", nil, false},
		{"TLS", func(r *http.Request) { r.TLS = &tls.ConnectionState{} }, true},
		{"a proxy's header, not trusted", func(r *http.Request) { r.Header.Set("X-Forwarded-Proto", "https") }, false},
	} {
		rec := ts.do(session{}, "POST", "/api/login", `{"name":"ben","password":"ben-long-password"}`, tc.edit)
		cs := rec.Result().Cookies()
		if rec.Code != 200 || len(cs) != 2 {
			t.Fatalf("%s: %d %v", tc.name, rec.Code, cs)
		}
		for _, c := range cs {
			path := map[string]string{SessionCookie: "/", DeviceCookie: "/api/login"}[c.Name]
			if !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Secure != tc.secure || c.Path != path {
				t.Errorf("%s: cookie %+v, want HttpOnly, SameSite=Strict, Secure %v, path %q", tc.name, c, tc.secure, path)
			}
		}
	}
	// Behind a trusted proxy that says the browser spoke HTTPS.
	tp := newTeamServer(t, TrustProxy())
	rec = tp.do(session{}, "POST", "/api/login", `{"name":"ben","password":"ben-long-password"}`, func(r *http.Request) {
		r.Header.Set("X-Forwarded-Proto", "https")
		r.Header.Set("Origin", "https://127.0.0.1:7777")
	})
	if cs := rec.Result().Cookies(); rec.Code != 200 || len(cs) != 2 || !cs[0].Secure || !cs[1].Secure {
		t.Fatalf("behind --trust-proxy: %d %v %s", rec.Code, cs, rec.Body)
	}
	// A sign-in from another site is refused like any write.
	rec = ts.do(session{}, "POST", "/api/login", `{"name":"ben","password":"ben-long-password"}`, func(r *http.Request) {
		r.Header.Set("Origin", "https://evil.example")
	})
	if rec.Code != http.StatusForbidden {
		t.Fatalf("a sign-in from another site: %d", rec.Code)
	}
	// Signing out ends the session.
	s := ts.login("ana")
	ts.want(s, "GET", "/api/me", "", 200, "")
	ts.want(s, "POST", "/api/logout", "", 200, "")
	ts.want(s, "GET", "/api/me", "", 401, "session has ended")
}

func TestTeamWrongPasswordsAreSlowed(t *testing.T) {
	ts := newTeamServer(t)
	for range 3 {
		ts.want(session{}, "POST", "/api/login", `{"name":"ana","password":"guess-guess-guess"}`, 401, "wrong name or password")
	}
	ts.want(session{}, "POST", "/api/login", `{"name":"ana","password":"ana-long-password"}`, 429, `^too many failed sign-ins .* try again in \d+ s$`)
}

func TestTeamFailuresElsewhereDoNotLockOut(t *testing.T) {
	ts := newTeamServer(t)
	from := func(addr string, dev *http.Cookie) func(*http.Request) {
		return func(r *http.Request) {
			r.RemoteAddr = addr + ":4000"
			if dev != nil {
				r.AddCookie(dev)
			}
		}
	}
	login := func(addr string, dev *http.Cookie, password string) *httptest.ResponseRecorder {
		return ts.do(session{}, "POST", "/api/login", `{"name":"ben","password":"`+password+`"}`, from(addr, dev))
	}
	// Ben signs in at his desk; his browser gets a signed device.
	rec := login("10.0.0.1", nil, "ben-long-password")
	var dev *http.Cookie
	for _, c := range rec.Result().Cookies() {
		if c.Name == DeviceCookie {
			dev = c
		}
	}
	if rec.Code != 200 || dev == nil || dev.Value == "" {
		t.Fatalf("ben's sign-in: %d %v", rec.Code, rec.Result().Cookies())
	}
	// Guessers try his name from 20 addresses, till they are slowed,
	// then 3 times from the address his laptop will use.
	for i := range 20 {
		if rec := login("203.0.113."+strconv.Itoa(i), nil, "a-guess-a-guess"); rec.Code != 401 && rec.Code != 429 {
			t.Fatalf("a guess: %d %s", rec.Code, rec.Body)
		}
	}
	for range 3 {
		login("198.51.100.7", nil, "a-guess-a-guess")
	}
	if rec := login("10.0.0.1", nil, "ben-long-password"); rec.Code != 200 {
		t.Fatalf("ben from his own address after failures elsewhere: %d %s", rec.Code, rec.Body)
	}
	if rec := login("198.51.100.7", nil, "ben-long-password"); rec.Code != 429 {
		t.Fatalf("ben from the guessers' address without his device: %d %s", rec.Code, rec.Body)
	}
	if rec := login("198.51.100.7", dev, "ben-long-password"); rec.Code != 200 {
		t.Fatalf("ben's browser at the guessers' address: %d %s", rec.Code, rec.Body)
	}
}

func TestTeamIdentity(t *testing.T) {
	ts := newTeamServer(t)
	ana := ts.login("ana")
	ts.want(ana, "PUT", "/api/sites/s5.test/rating", `{"librarian":"ben","rating":1}`, 403, "^signed in as ana: cannot act as ben$")
	ts.want(ana, "PUT", "/api/sites/s5.test/note", `{"librarian":"ben","note":"x"}`, 403, "cannot act as ben")
	ts.want(ana, "GET", "/api/review/queue?librarian=ben", "", 403, "cannot act as ben")
	// Reads that show a librarian's own ratings show the signed-in one's.
	ts.want(ana, "GET", "/api/sites?librarian=ben", "", 403, "cannot act as ben")
	ts.want(ana, "GET", "/api/sites/s5.test?librarian=ben", "", 403, "cannot act as ben")
	ts.want(ana, "GET", "/api/sites/s5.test/review?librarian=ben", "", 403, "cannot act as ben")
	ts.want(ana, "DELETE", "/api/sites/s5.test/rating?librarian=ben", "", 403, "cannot act as ben")
	// A write naming another in its query is refused too, whatever its body
	// says and whether or not the route reads the query.
	ts.want(ana, "PUT", "/api/sites/s5.test/rating?librarian=ben", `{"rating":1}`, 403, "^signed in as ana: cannot act as ben$")
	ts.want(ana, "PUT", "/api/sites/s5.test/rating?librarian=ana&librarian=ben", `{"librarian":"ana","rating":1}`, 403, "cannot act as ben")
	ts.want(ana, "PUT", "/api/sites/s5.test/note?librarian=ben", `{"note":"x"}`, 403, "cannot act as ben")
	ts.want(ana, "PUT", "/api/sites/s5.test/selection?librarian=ben", `{"status":"nominated"}`, 403, "cannot act as ben")
	ts.want(ana, "POST", "/api/collections?librarian=ben", `{}`, 403, "cannot act as ben")
	// The librarian header (the app's last choice of librarian) is no
	// naming: the signed-in librarian acts, and the audit log says so.
	rec := ts.do(ana, "PUT", "/api/sites/s3.test/note", `{"note":"mine"}`, func(r *http.Request) { r.Header.Set(LibrarianHeader, "ben") })
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"librarian":"ana"`) {
		t.Fatalf("a write with another librarian's header: %d %s", rec.Code, rec.Body)
	}
	if rec := ts.want(ana, "GET", "/api/audit?limit=1", "", 200, ""); !strings.Contains(rec.Body.String(), `"librarian":"ana","address":"192.0.2.1","action":"note"`) {
		t.Fatalf("the note's row: %s", rec.Body)
	}
	ts.want(ana, "PUT", "/api/sites/s5.test/rating", `{"librarian":"ANA","rating":3}`, 200, "")
	// Naming no one acts as the signed-in librarian.
	rec = ts.want(ana, "PUT", "/api/sites/s5.test/rating", `{"rating":4}`, 200, "")
	if !strings.Contains(rec.Body.String(), `"librarian":"ana"`) {
		t.Fatalf("a rating naming no one: %s", rec.Body)
	}
	rs, err := ts.p.Store.RatingsAndNotes(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range rs {
		if r.Librarian == "ben" && r.Site == "s5.test" {
			found = true
			if r.Rating != 2 {
				t.Fatalf("ben's rating of s5 changed: %+v", r)
			}
		}
	}
	if !found {
		t.Fatal("ben's rating of s5 is gone")
	}
}

func TestTeamRolesAndTwoPersonApproval(t *testing.T) {
	ts := newTeamServer(t)
	ana, ben, cleo, dora := ts.login("ana"), ts.login("ben"), ts.login("cleo"), ts.login("dora")
	sel := func(st string) string { return `{"status":"` + st + `"}` }
	ts.want(ana, "PUT", "/api/sites/s1.test/selection", sel("nominated"), 200, "")
	ts.want(ana, "PUT", "/api/sites/s1.test/selection", sel("approved"), 403, "^to approve a site needs the approver role; ana is a curator$")
	ts.want(ana, "PUT", "/api/sites/s3.test/selection", sel("rejected"), 403, "needs the approver role")
	// No one approves in another's name.
	ts.want(ben, "PUT", "/api/sites/s1.test/selection", `{"librarian":"cleo","status":"approved"}`, 403, "cannot act as cleo")
	// No one approves their own nomination: accounts, not typed names.
	ts.want(cleo, "PUT", "/api/sites/s2.test/selection", sel("nominated"), 200, "")
	ts.want(cleo, "PUT", "/api/sites/s2.test/selection", sel("approved"), 409, "")
	rec := ts.want(ben, "PUT", "/api/sites/s2.test/selection", sel("approved"), 200, "")
	var s review.Selection
	json.Unmarshal([]byte(strings.TrimSuffix(strings.TrimPrefix(rec.Body.String(), `{"status":"success","data":`), "}\n")), &s)
	if s.NominatedBy != "cleo" || s.ApprovedBy != "ben" {
		t.Fatalf("approved %+v, want nominated by cleo, approved by ben", s)
	}
	ts.want(ben, "PUT", "/api/sites/s2.test/selection", sel("rejected"), 200, "")
	ts.want(ana, "PUT", "/api/sites/s2.test/selection", sel("candidate"), 403, "^to reopen a site needs the approver role")
	ts.want(ben, "PUT", "/api/sites/s2.test/selection", sel("candidate"), 200, "")
	// Crawls, imports, settings, librarians and accounts are an admin's.
	for _, c := range []struct{ method, path, body, what string }{
		{"POST", "/api/crawl", `{"seeds":["http://s1.test/"]}`, "start a crawl"},
		{"POST", "/api/crawl/recrawl", `{}`, "start a recrawl"},
		{"POST", "/api/imports", `{"warc":["/tmp/a.warc"]}`, "import web archives"},
		{"PUT", "/api/settings", `{"delay_ms":100}`, "change the settings"},
		{"POST", "/api/librarians", `{"name":"eve"}`, "add a librarian"},
		{"POST", "/api/accounts", `{"name":"eve","role":"admin"}`, "add an account"},
		{"PUT", "/api/accounts/ana", `{"role":"admin"}`, "change an account's role"},
		{"POST", "/api/lab/convergence", `{}`, "run a lab experiment"},
	} {
		ts.want(ben, c.method, c.path, c.body, 403, "^to "+regexp.QuoteMeta(c.what)+" needs the admin role; ben is an approver$")
	}
	ts.want(ana, "POST", "/api/ratings/import", "", 403, "needs the admin role")
	// An admin's account change reaches a signed-in session at once.
	ts.want(dora, "PUT", "/api/accounts/ana", `{"role":"approver"}`, 200, "")
	ts.want(cleo, "PUT", "/api/sites/s3.test/selection", sel("nominated"), 200, "")
	ts.want(ana, "PUT", "/api/sites/s3.test/selection", sel("approved"), 200, "")
	// and still not her own nomination.
	ts.want(ana, "PUT", "/api/sites/s1.test/selection", sel("approved"), 409, "nominated by ana, and ana cannot also approve it")
}

func TestTeamImportFolder(t *testing.T) {
	ts := newTeamServer(t)
	root := t.TempDir()
	folder, outside := filepath.Join(root, "imports"), filepath.Join(root, "secret")
	os.Mkdir(folder, 0o755)
	os.Mkdir(outside, 0o755)
	os.WriteFile(filepath.Join(outside, "passwd.warc"), []byte("root:x:0:0"), 0o644)
	os.Symlink(filepath.Join(outside, "passwd.warc"), filepath.Join(folder, "link.warc"))
	os.Symlink(outside, filepath.Join(folder, "dir"))
	if err := ts.a.Imports.SetImportFolder(folder); err != nil {
		t.Fatal(err)
	}
	dora := ts.login("dora")
	for _, p := range []string{
		filepath.Join(outside, "passwd.warc"),    // exists, outside
		filepath.Join(outside, "missing.warc"),   // does not exist, outside
		"/etc/passwd",                            // a system file
		folder + "/../secret/passwd.warc",        // .. out of the folder
		filepath.Join(folder, "link.warc"),       // a link inside to a file outside
		filepath.Join(folder, "dir/passwd.warc"), // through a linked folder
		"imports/a.warc",                         // relative
	} {
		body, _ := json.Marshal(map[string][]string{"warc": {p}})
		rec := ts.want(dora, "POST", "/api/imports", string(body), 400, "^import: the path is outside the import folder$")
		if strings.Contains(rec.Body.String(), "passwd") || strings.Contains(rec.Body.String(), "secret") {
			t.Errorf("the refusal of %s echoes it: %s", p, rec.Body)
		}
	}
	// A curator cannot start an import at all.
	ts.want(ts.login("ana"), "POST", "/api/imports", `{"warc":["`+filepath.Join(folder, "a.warc")+`"]}`, 403, "needs the admin role")
	// Inside the folder, the import goes on to its own checks.
	ts.want(dora, "POST", "/api/imports", `{"warc":["`+filepath.Join(folder, "none.warc")+`"]}`, 400, "^import: no file .*none.warc in the import folder$")
}

func TestTeamAuditLog(t *testing.T) {
	ts := newTeamServer(t)
	ana, ben := ts.login("ana"), ts.login("ben")
	ts.want(ana, "PUT", "/api/sites/s5.test/rating", `{"rating":3,"note":"soup"}`, 200, "")
	ts.want(ana, "PUT", "/api/sites/s5.test/note", `{"note":"good soup"}`, 200, "")
	ts.want(ana, "PUT", "/api/sites/s5.test/selection", `{"status":"nominated"}`, 200, "")
	ts.want(ben, "PUT", "/api/sites/s5.test/selection", `{"status":"approved"}`, 200, "")
	ts.want(ben, "PUT", "/api/sites/s5.test/selection", `{"status":"rejected","reason":"off topic"}`, 200, "")
	ts.want(ben, "PUT", "/api/sites/s5.test/selection", `{"status":"candidate"}`, 200, "")
	ts.want(ts.login("dora"), "PUT", "/api/settings", `{"delay_ms":1500}`, 200, "")
	rows := ts.audit(ana, "/api/audit?site=s5.test")
	var got []string
	for _, e := range rows {
		got = append(got, e.Librarian+" "+e.Action+" "+e.Address)
	}
	want := []string{"ben reopening 192.0.2.1", "ben rejection 192.0.2.1", "ben approval 192.0.2.1",
		"ana nomination 192.0.2.1", "ana note 192.0.2.1", "ana rating 192.0.2.1",
		"ben rating "} // made by the command line as the project was built
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("audit of s5.test:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Ana had no rating of s5: her rating's before is empty.
	if r := rows[5]; len(r.Before) != 0 || !strings.Contains(string(r.After), `"rating":3`) {
		t.Errorf("ana's rating row: before %s after %s", r.Before, r.After)
	}
	if r := rows[4]; !strings.Contains(string(r.Before), `"note":"soup"`) || !strings.Contains(string(r.After), `"note":"good soup"`) {
		t.Errorf("ana's note row: before %s after %s", r.Before, r.After)
	}
	rec := ts.want(ana, "GET", "/api/audit?librarian=DORA", "", 200, "")
	if !strings.Contains(rec.Body.String(), `"action":"settings change"`) || !strings.Contains(rec.Body.String(), `"delay_ms":1500`) {
		t.Fatalf("dora's settings change: %s", rec.Body)
	}
	ts.want(ana, "GET", "/api/audit?since=yesterday", "", 400, "neither a date")
}

func TestTeamPlatformChoiceIsAudited(t *testing.T) {
	ts := newTeamServer(t)
	ana, ben := ts.login("ana"), ts.login("ben")
	ts.want(ana, "PUT", "/api/sites/s5.test/platform", `{"platform":true}`, 200, "")
	ts.want(ben, "PUT", "/api/sites/s5.test/platform", `{"platform":false}`, 200, "")
	ts.want(ana, "PUT", "/api/sites/s5.test/platform", `{"platform":true,"librarian":"ben"}`, 403, "cannot act as ben")
	var got []string
	for _, e := range ts.audit(ana, "/api/audit?site=s5.test&limit=2") {
		got = append(got, e.Librarian+" "+e.Action+" "+e.Address+" "+string(e.Before)+" → "+string(e.After))
	}
	want := []string{
		`ben platform choice 192.0.2.1 {"platform":true,"listed":false,"chosen":true} → {"platform":false,"listed":false,"chosen":true}`,
		`ana platform choice 192.0.2.1 {"platform":false,"listed":false,"chosen":false} → {"platform":true,"listed":false,"chosen":true}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("audit of the platform choices:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestTeamSessionsEndWithTheServer(t *testing.T) {
	ts := newTeamServer(t)
	s := ts.login("ana")
	ts.want(s, "GET", "/api/project", "", 200, "")
	// A restart: the same project, a new server.
	ts.acc = accounts.New(ts.p, accounts.Options{})
	ts.h = New(ts.a, Team(ts.acc))
	ts.want(s, "GET", "/api/project", "", 401, "sign in again")
}

func TestNoTeamNoAccounts(t *testing.T) {
	a, _ := apptest.Open(t, apptest.ReviewProject(t))
	h := New(a)
	apptest.Call(t, h, "POST", "/api/login", `{"name":"ana","password":"x"}`, 404, nil)
	// One user names the librarian they act as, as before.
	apptest.Call(t, h, "PUT", "/api/sites/s5.test/rating", `{"librarian":"cleo","rating":2}`, 200, nil)
	var rows []review.AuditEntry
	apptest.Call(t, h, "GET", "/api/audit?librarian=cleo&site=s5.test", "", 200, &rows)
	if len(rows) != 1 || rows[0].Librarian != "cleo" || rows[0].Address != "" {
		t.Fatalf("audit without a team: %+v", rows)
	}
}

func TestTeamAddressBehindTrustedProxyOnly(t *testing.T) {
	for _, tc := range []struct {
		opts []Option
		want string
	}{{nil, "192.0.2.1"}, {[]Option{TrustProxy()}, "203.0.113.7"}} {
		ts := newTeamServer(t, tc.opts...)
		ana := ts.login("ana")
		rec := ts.do(ana, "PUT", "/api/sites/s5.test/note", `{"note":"via proxy"}`, func(r *http.Request) {
			r.Header.Set("X-Forwarded-For", "10.9.9.9, 203.0.113.7")
		})
		if rec.Code != 200 {
			t.Fatalf("note: %d %s", rec.Code, rec.Body)
		}
		rows, err := ts.a.Review.AuditLog(context.Background(), review.AuditQuery{Librarian: "ana", Limit: 1})
		if err != nil || len(rows) != 1 || rows[0].Address != tc.want {
			t.Fatalf("trust proxy %v: audit %+v %v, want address %s", tc.opts != nil, rows, err, tc.want)
		}
	}
}

func TestTeamCollectionsOfOthersAreAnAdmins(t *testing.T) {
	ts := newTeamServer(t)
	ana, cleo, dora := ts.login("ana"), ts.login("cleo"), ts.login("dora")
	rec := ts.want(ana, "POST", "/api/collections", `{"name":"Maps","count":5,"min_hubs":1,"min_authorities":1}`, 200, "")
	var env struct {
		Data struct {
			ID        int64  `json:"id"`
			CreatedBy string `json:"created_by"`
		}
	}
	json.Unmarshal(rec.Body.Bytes(), &env)
	if env.Data.CreatedBy != "ana" {
		t.Fatalf("collection made by %q, want ana", env.Data.CreatedBy)
	}
	path := "/api/collections/" + strconv.FormatInt(env.Data.ID, 10)
	ts.want(ana, "PATCH", path, `{"name":"Maps and atlases"}`, 200, "")
	ts.want(cleo, "PATCH", path, `{"name":"Cleo's now"}`, 403, `^to change ana's collection "Maps and atlases" needs the admin role; cleo is an approver$`)
	ts.want(cleo, "DELETE", path, "", 403, "needs the admin role")
	ts.want(dora, "DELETE", path, "", 200, "")
}

func TestTeamOwnPasswordChange(t *testing.T) {
	ts := newTeamServer(t)
	ana, elsewhere := ts.login("ana"), ts.login("ana")
	ts.want(ana, "PUT", "/api/me/password", `{"current":"wrong-password!","password":"a new long password"}`, 403, "current password is wrong")
	ts.want(ana, "PUT", "/api/me/password", `{"current":"ana-long-password","password":"short"}`, 400, "12 characters")
	ts.want(ana, "PUT", "/api/me/password", `{"current":"ana-long-password","password":"a new long password"}`, 200, "")
	ts.want(ana, "GET", "/api/me", "", 200, "")
	ts.want(elsewhere, "GET", "/api/me", "", 401, "")
	ts.want(session{}, "POST", "/api/login", `{"name":"ana","password":"ana-long-password"}`, 401, "")
	ts.want(session{}, "POST", "/api/login", `{"name":"ana","password":"a new long password"}`, 200, "")
}

// auditRows returns "who action site: summary" of the audit rows q selects.
func auditRows(t *testing.T, h http.Handler, q string) []string {
	t.Helper()
	var rows []review.AuditEntry
	apptest.Call(t, h, "GET", "/api/audit?"+q, "", 200, &rows)
	var out []string
	for _, e := range rows {
		out = append(out, strings.TrimSpace(e.Librarian+" "+e.Action+" "+e.Site)+": "+e.Summary)
	}
	return out
}

func TestAppActionsAreCreditedToTheChosenLibrarian(t *testing.T) {
	a, _, _ := apptest.OpenProject(t, apptest.ReviewProject(t))
	h := New(a)
	as := func(who, method, path, body string) {
		t.Helper()
		req := apptest.Request(h, method, path, strings.NewReader(body))
		if who != "" {
			req.Header.Set(LibrarianHeader, url.PathEscape(who))
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 200 && rec.Code != 201 {
			t.Fatalf("%s %s as %q: %d %s", method, path, who, rec.Code, rec.Body)
		}
	}
	// The app sends the librarian chosen in its top bar with every write.
	as("ben", "PUT", "/api/settings", `{"delay_ms":1500}`)
	as("Zoë Ängström", "POST", "/api/librarians", `{"name":"Ida"}`)
	as("ben", "PUT", "/api/sites/s5.test/platform", `{"platform":true}`)
	// Without one (the command line's API, an app with no librarian
	// chosen) the row names no one, as before.
	as("", "PUT", "/api/settings", `{"delay_ms":1000}`)
	got := auditRows(t, h, "limit=4")
	want := []string{"settings change: delay_ms 1500 → 1000", "ben platform choice s5.test: moved into the platforms",
		"Zoë Ängström librarian added: librarian Ida added", "ben settings change: delay_ms 1000 → 1500"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("audit rows:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// A name that no librarian could have is refused.
	req := apptest.Request(h, "PUT", "/api/settings", strings.NewReader(`{"delay_ms":1000}`))
	req.Header.Set(LibrarianHeader, "%zz")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 400 || !strings.Contains(rec.Body.String(), LibrarianHeader) {
		t.Fatalf("a malformed librarian header: %d %s", rec.Code, rec.Body)
	}
}

func TestTeamAccountChangesSayWhat(t *testing.T) {
	ts := newTeamServer(t)
	dora := ts.login("dora")
	ts.want(dora, "PUT", "/api/accounts/ben", `{"role":"admin"}`, 200, "")
	ts.want(dora, "PUT", "/api/accounts/cleo", `{"disable":true}`, 200, "")
	ts.want(dora, "PUT", "/api/accounts/ana", `{"reset":true}`, 200, "")
	ts.want(dora, "POST", "/api/accounts", `{"name":"eve","role":"curator"}`, 200, "")
	ts.want(dora, "PUT", "/api/me/password", `{"current":"dora-long-password","password":"dora-new-long-password"}`, 200, "")
	// Ben, now an admin, demotes dora: an admin remains.
	ts.want(ts.login("ben"), "PUT", "/api/accounts/dora", `{"role":"approver"}`, 200, "")
	var got []string
	for _, e := range ts.audit(dora, "/api/audit?limit=6") {
		got = append(got, e.Librarian+" "+e.Action+": "+e.Summary)
	}
	want := []string{
		"ben account change: dora made approver (was admin)",
		"dora account change: dora changed their own password",
		"dora account change: account eve added (curator)",
		"dora account change: ana's password reset and account enabled",
		"dora account change: cleo's account disabled",
		"dora account change: ben made admin (was approver)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("account rows:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The last enabled admin: ben alone now.
	ts.want(ts.login("ben"), "PUT", "/api/accounts/ben", `{"role":"curator"}`, 409, "^ben is the last enabled admin account: make another account an admin first$")
}

func TestTeamAccountsAreAnAdminsOnEveryRoute(t *testing.T) {
	ts := newTeamServer(t)
	dora := ts.login("dora")
	ts.want(dora, "PUT", "/api/accounts/cleo", `{"disable":true}`, 200, "")
	for _, name := range []string{"ana", "ben"} {
		s := ts.login(name)
		for _, c := range []struct{ method, path, body string }{
			{"GET", "/api/accounts", ""},
			{"POST", "/api/accounts", `{"name":"eve","role":"curator"}`},
			{"PUT", "/api/accounts/cleo", `{"role":"admin"}`},
			{"PUT", "/api/accounts/dora", `{"disable":true}`},
			{"PUT", "/api/accounts/cleo", `{"enable":true}`},
			{"PUT", "/api/accounts/dora", `{"reset":true}`},
		} {
			ts.want(s, c.method, c.path, c.body, 403, "needs the admin role; "+name+" is an? (curator|approver)$")
		}
	}
	as := ts.accounts(dora)
	if as["cleo"].Role != "approver" || !as["cleo"].Disabled || as["dora"].Disabled || as["eve"].Name != "" {
		t.Fatalf("accounts after the refusals: %+v", as)
	}
	ts.login("dora") // her password was not reset

}

// accounts is GET /api/accounts as s sees it, by name.
func (ts *teamServer) accounts(s session) map[string]accounts.Account {
	ts.t.Helper()
	rec := ts.want(s, "GET", "/api/accounts", "", 200, "")
	var env struct{ Data []accounts.Account }
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
		ts.t.Fatal(err)
	}
	m := map[string]accounts.Account{}
	for _, a := range env.Data {
		m[a.Name] = a
	}
	return m
}

func TestTeamAdminEnablesAnAccountAndSeesLastSignIns(t *testing.T) {
	ts := newTeamServer(t)
	dora := ts.login("dora")
	ts.want(dora, "POST", "/api/accounts", `{"name":"eve","role":"curator"}`, 200, "")
	ts.want(dora, "PUT", "/api/accounts/cleo", `{"disable":true}`, 200, "")
	if rec := ts.do(session{}, "POST", "/api/login", `{"name":"cleo","password":"cleo-long-password"}`, nil); rec.Code != 401 {
		t.Fatalf("a disabled account signs in: %d %s", rec.Code, rec.Body)
	}
	rec := ts.want(dora, "PUT", "/api/accounts/cleo", `{"enable":true}`, 200, "")
	if regexp.MustCompile(`"password"|"link_token":"[^"]`).MatchString(rec.Body.String()) {
		t.Fatalf("enabling hands out a password or link: %s", rec.Body)
	}
	ts.login("cleo") // with the password she had
	ts.want(dora, "PUT", "/api/accounts/cleo", `{"disable":true,"enable":true}`, 400, "both disable and enable")
	as := ts.accounts(dora)
	if as["cleo"].Disabled || as["cleo"].LastSignIn.IsZero() || as["dora"].LastSignIn.IsZero() {
		t.Fatalf("cleo enabled and signed in, dora signed in: %+v", as)
	}
	// Never signed in: no last_sign_in at all, not the year 1.
	body := ts.want(dora, "GET", "/api/accounts", "", 200, "").Body.String()
	if !as["eve"].LastSignIn.IsZero() || strings.Count(body, `"last_sign_in"`) != 2 {
		t.Fatalf("eve never signed in; the list: %s", body)
	}
	if got := ts.audit(dora, "/api/audit?limit=1"); len(got) != 1 || got[0].Summary != "cleo's account enabled" {
		t.Fatalf("the audit row of an enabling: %+v", got)
	}
}
