package httpapi

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"sitesift/app/accounts"
	"sitesift/app/fault"
	"sitesift/app/project"
	"sitesift/app/review"
)

// SessionCookie is the cookie that holds a team server's session.
const SessionCookie = "sitesift_session"

// DeviceCookie is the cookie of a signed device: a browser a librarian
// signed in with, which failed sign-ins others cause for her name do not
// slow ([accounts.Service.SignIn]). Only POST /api/login receives it.
const DeviceCookie = "sitesift_device"

// deviceMaxAge is how long a browser keeps its device cookie.
const deviceMaxAge = 180 * 24 * time.Hour

// Team turns on the accounts of a team server (`serve --team`): every
// /api/ call but POST /api/login needs a signed-in librarian's session,
// and every call acts as that librarian, held to their role by the
// services (see [project.WithIdentity]). Without it the API is as it has
// always been: one user, who names the librarian they act as.
func Team(acc *accounts.Service) Option {
	return func(c *config) { c.team.acc = acc; c.guard.team = true }
}

// TrustProxy has a team server believe the X-Forwarded-For and
// X-Forwarded-Proto headers of the reverse proxy in front of it: the
// address of a sign-in and of each audit row is the last one the proxy
// added, and a session cookie is Secure when the proxy says the browser
// spoke HTTPS. Without it no proxy header is believed: anyone could send
// them.
func TrustProxy() Option {
	return func(c *config) { c.team.trustProxy = true; c.guard.trustProxy = true }
}

// team is the session check of a team server; acc nil is no team.
type team struct {
	acc        *accounts.Service
	trustProxy bool
}

var errNoSession = errors.New("sign in first: this sitesift serves a team, and every request needs a signed-in librarian")

// wrap lets through the API calls of a signed-in librarian, with their
// identity in the request's context, and POST /api/login; it answers 401
// to every other /api/ call. The app's pages themselves (HTML, scripts)
// are served to anyone: they hold no data, and show the sign-in form.
func (t *team) wrap(next http.Handler) http.Handler {
	next = withNamed(next)
	if t.acc == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/api/") || r.URL.Path == loginPath && r.Method == http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		c, err := r.Cookie(SessionCookie)
		if err != nil {
			writeError(w, fault.Unauthorized(errNoSession))
			return
		}
		id, ok := t.acc.Session(c.Value)
		if !ok {
			writeError(w, fault.Unauthorized(errors.New("your session has ended (signed out, idle too long, or the server restarted): sign in again")))
			return
		}
		id.Address = t.address(r)
		ctx := project.WithIdentity(r.Context(), id)
		// A write acts as the signed-in librarian alone: one whose query
		// names another is refused as a body naming one is, whether or not
		// its route reads the query (a read's librarian may be a filter).
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			for _, n := range r.URL.Query()["librarian"] {
				if _, _, err := project.SignedInAs(ctx, n); err != nil {
					writeError(w, err)
					return
				}
			}
		}
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// LibrarianHeader names, percent-encoded, the librarian chosen in the
// app's top bar: the app sends it with every write, so that the audit
// rows of actions whose request names no librarian (a crawl, an import, a
// settings change, a librarian added) are credited to the librarian who
// made them. A team server ignores it: the signed-in librarian is who
// acts.
const LibrarianHeader = "X-Sitesift-Librarian"

// withNamed puts the librarian a write's LibrarianHeader names in its
// context ([project.WithNamed]); a malformed name is refused.
func withNamed(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v := r.Header.Get(LibrarianHeader)
		if v == "" || r.Method == http.MethodGet || r.Method == http.MethodHead || !strings.HasPrefix(r.URL.Path, "/api/") {
			next.ServeHTTP(w, r)
			return
		}
		name, err := url.PathUnescape(v)
		if err != nil {
			writeError(w, fault.Invalid(fmt.Errorf("header %s: %q is not a percent-encoded librarian name", LibrarianHeader, v)))
			return
		}
		ctx, err := project.WithNamed(r.Context(), name)
		if err != nil {
			writeError(w, fmt.Errorf("header %s: %w", LibrarianHeader, err))
			return
		}
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// address is the client's address: the connection's peer, or behind a
// trusted proxy the last address of X-Forwarded-For (the one the proxy
// itself added; those before it are the client's say).
func (t *team) address(r *http.Request) string {
	if t.trustProxy {
		if xff := r.Header.Values("X-Forwarded-For"); len(xff) > 0 {
			parts := strings.Split(xff[len(xff)-1], ",")
			if a, err := netip.ParseAddr(strings.TrimSpace(parts[len(parts)-1])); err == nil {
				return a.Unmap().String()
			}
		}
	}
	if ap, err := netip.ParseAddrPort(r.RemoteAddr); err == nil {
		return ap.Addr().Unmap().String()
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// secure tells whether the browser spoke HTTPS to reach us.
func (t *team) secure(r *http.Request) bool {
	return r.TLS != nil || t.trustProxy && strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https")
}

const loginPath = "/api/login"

// loginBody is the body of POST /api/login: a name and password, or the
// token of a one-time sign-in link.
type loginBody struct {
	Name     string `json:"name"`
	Password string `json:"password"`
	Link     string `json:"link,omitempty"`
}

// Me is the signed-in librarian, as GET /api/me and POST /api/login give it.
type Me struct {
	Name string `json:"name"`
	Role string `json:"role"`
	// IdleMinutes is how long the session lasts unused.
	IdleMinutes int `json:"idle_minutes"`
}

var errNoTeam = errors.New("this sitesift has no accounts: it serves one user (start it with `sitesift serve --team` for a team)")

// routeTeam registers sign-in and sign-out, the signed-in librarian, the
// accounts and the audit log. Without accounts ([Team]) sign-in and the
// accounts answer 404; the audit log is kept and read all the same.
func (h *handler) routeTeam(mux *router, t *team) {
	mux.HandleFunc("POST "+loginPath, t.login)
	mux.HandleFunc("POST /api/logout", t.logout)
	mux.HandleFunc("GET /api/me", h.api(func(r *http.Request) (any, error) {
		id, ok := project.IdentityFrom(r.Context())
		if t.acc == nil || !ok {
			return nil, fault.NotFound(errNoTeam)
		}
		return Me{Name: id.Name, Role: string(id.Role), IdleMinutes: int(t.acc.IdleTimeout() / time.Minute)}, nil
	}))
	mux.HandleFunc("PUT /api/me/password", h.api(func(r *http.Request) (any, error) {
		var body passwordBody
		if err := decodeBody(r, &body); err != nil {
			return nil, err
		}
		c, err := r.Cookie(SessionCookie)
		if t.acc == nil || err != nil {
			return nil, fault.NotFound(errNoTeam)
		}
		return struct{}{}, t.acc.ChangePassword(r.Context(), body.Current, body.Password, c.Value)
	}))
	mux.HandleFunc("GET /api/accounts", h.api(func(r *http.Request) (any, error) {
		if t.acc == nil {
			return nil, fault.NotFound(errNoTeam)
		}
		return t.acc.List(r.Context())
	}))
	mux.HandleFunc("POST /api/accounts", h.api(func(r *http.Request) (any, error) {
		var body accountBody
		if err := decodeBody(r, &body); err != nil {
			return nil, err
		}
		if t.acc == nil {
			return nil, fault.NotFound(errNoTeam)
		}
		return t.acc.Add(r.Context(), body.Name, project.Role(body.Role), body.Password)
	}))
	mux.HandleFunc("PUT /api/accounts/{name}", h.api(func(r *http.Request) (any, error) {
		var body accountChangeBody
		if err := decodeBody(r, &body); err != nil {
			return nil, err
		}
		if t.acc == nil {
			return nil, fault.NotFound(errNoTeam)
		}
		return t.acc.Change(r.Context(), r.PathValue("name"), accounts.Change{Role: project.Role(body.Role), Disable: body.Disable,
			Enable: body.Enable, Reset: body.Reset})
	}))
	mux.HandleFunc("GET /api/audit", h.api(h.audit))
}

// passwordBody is the body of PUT /api/me/password.
type passwordBody struct {
	Current  string `json:"current"`
	Password string `json:"password"`
}

// accountBody is the body of POST /api/accounts.
type accountBody struct {
	Name     string `json:"name"`
	Role     string `json:"role"`
	Password string `json:"password,omitempty"` // "" generates one
}

// accountChangeBody is the body of PUT /api/accounts/{name}: a new role,
// a disabling or an enabling, or a reset of the password (a generated one
// and a new sign-in link).
type accountChangeBody struct {
	Role    string `json:"role,omitempty"`
	Disable bool   `json:"disable,omitempty"`
	Enable  bool   `json:"enable,omitempty"`
	Reset   bool   `json:"reset,omitempty"`
}

func (t *team) login(w http.ResponseWriter, r *http.Request) {
	var body loginBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, err)
		return
	}
	if t.acc == nil {
		writeError(w, fault.NotFound(errNoTeam))
		return
	}
	var token, device string
	var id project.Identity
	var err error
	if c, err := r.Cookie(DeviceCookie); err == nil {
		device = c.Value
	}
	if body.Link != "" {
		token, id, err = t.acc.SignInLink(r.Context(), body.Link, t.address(r))
	} else {
		token, id, err = t.acc.SignIn(r.Context(), body.Name, body.Password, t.address(r), device)
	}
	if err != nil {
		writeError(w, err)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: DeviceCookie, Value: t.acc.Device(id.Name, device), Path: loginPath, HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: t.secure(r), MaxAge: int(deviceMaxAge / time.Second)})
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: token, Path: "/", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: t.secure(r)})
	writeEnvelope(w, http.StatusOK, envelope{Status: "success",
		Data: Me{Name: id.Name, Role: string(id.Role), IdleMinutes: int(t.acc.IdleTimeout() / time.Minute)}})
}

func (t *team) logout(w http.ResponseWriter, r *http.Request) {
	if t.acc == nil {
		writeError(w, fault.NotFound(errNoTeam))
		return
	}
	if c, err := r.Cookie(SessionCookie); err == nil {
		t.acc.SignOut(c.Value)
	}
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: "", Path: "/", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: t.secure(r), MaxAge: -1})
	writeEnvelope(w, http.StatusOK, envelope{Status: "success", Data: struct{}{}})
}

func (h *handler) audit(r *http.Request) (any, error) {
	limit, err := intParam(r, "limit", review.DefaultAuditLimit)
	if err != nil {
		return nil, err
	}
	q := review.AuditQuery{Librarian: r.FormValue("librarian"), Site: r.FormValue("site"), Limit: limit}
	if s := r.FormValue("since"); s != "" {
		if q.Since, err = parseSince(s); err != nil {
			return nil, err
		}
	}
	return h.app.Review.AuditLog(r.Context(), q)
}

// parseSince reads the since parameter: an RFC 3339 time or a date.
func parseSince(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	return time.Time{}, fault.Invalid(errors.New("parameter since=" + s + " is neither a date (2026-03-01) nor an RFC 3339 time (2026-03-01T09:00:00Z)"))
}

// proxiedSameOrigin reports whether a request that came through a trusted
// proxy terminating TLS is from the app's own origin: its Origin is
// https://Host, which [sameOrigin] takes for another site since the
// connection to sitesift itself is plain HTTP.
func proxiedSameOrigin(r *http.Request) bool {
	o := r.Header.Get("Origin")
	if !strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https") || o == "" {
		return false
	}
	if s := r.Header.Get("Sec-Fetch-Site"); s != "" && s != "same-origin" && s != "none" {
		return false
	}
	return strings.EqualFold(o, "https://"+r.Host)
}
