package httpapi

import (
	"bytes"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"sitesift/app/fault"
	"strings"
)

// ServedAt tells the handler the host it is served at (the host of
// `serve --addr`), which requests may then name in their Host header besides
// the loopback names.
func ServedAt(host string) Option {
	return func(c *config) { c.guard.hosts[hostOnly(host)] = true }
}

// SharedSecret makes every request prove it knows secret: a `token` query
// parameter (which sets a cookie, so the browser keeps it), the cookie, or
// an `Authorization: Bearer` header. For an app served beyond loopback,
// where anyone on the network could otherwise read and change the project.
// Requests may then name any Host: the secret is what keeps others out.
func SharedSecret(secret string) Option {
	return func(c *config) { c.guard.secret = secret }
}

// NewSecret returns a random secret for [SharedSecret]: 32 bytes in hex.
func NewSecret() string {
	b := make([]byte, 32)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// The limits of request bodies: JSON requests are small; an uploaded
// ratings file may be large.
const (
	maxJSONBody   = 1 << 20
	maxUploadBody = maxRatingsFile
)

// uploads are the endpoints that take a file as their body, with its type.
var uploads = map[string]string{"/api/ratings/import": "text/csv", "/api/imports/upload": "application/octet-stream"}

// uploadLimits are the endpoints whose uploads may exceed maxUploadBody.
var uploadLimits = map[string]int64{"/api/imports/upload": maxArchiveUpload}

// TokenHeader is the header in which the UI sends the per-process write
// token that GET /api/session gives it.
const TokenHeader = "X-Sitesift-Token"

// TokenCookie is the cookie that holds the shared secret in a browser.
const TokenCookie = "sitesift_token"

// guard keeps other web sites from driving the app through the user's
// browser. The API has no CORS headers, so another origin can send requests
// but never read answers; the rules below make sure what it sends does
// nothing:
//   - the Host must be one the server was started for (loopback names, the
//     served host, and in the desktop window's handler alone the window's):
//     a DNS-rebound name is refused, so a page of another site cannot read
//     the API as its own origin;
//   - a write (any method but GET, HEAD, OPTIONS) must come from the app's
//     own origin (Origin, Sec-Fetch-Site), be JSON (or the exact type of an
//     upload: a plain HTML form cannot send either), and carry the
//     per-process token that only the app's own pages can read;
//   - bodies are bounded;
//   - a GET of the API must not come from another web site either, unless
//     the contract says it is a cheap read; see costly.go;
//   - with a shared secret, every request must carry it.
type guard struct {
	token  string          // per process, sent by the UI on writes
	secret string          // shared secret, or "" on loopback and in the window
	hosts  map[string]bool // Host names accepted besides loopback (and the window's)
	// window is true for the desktop window's handler ([Desktop]), the
	// only one that accepts its Host: served by `serve`, a request naming
	// it would be treated as the window's own.
	window bool
	// team is set on a team server, where every API call needs a session
	// (team.go): the session, not the Host, keeps others out.
	team bool
	// trustProxy believes X-Forwarded-Proto (see TrustProxy).
	trustProxy bool
}

// desktopHost is the Host of the Wails window's requests (Wails v2 with
// WebKitGTK: wails://wails/…). Its requests carry no Origin and no
// Sec-Fetch-Site, writes included.
const desktopHost = "wails"

// desktopOrigin is the window's origin, accepted should a WebKit version
// send it as Origin.
const desktopOrigin = "wails://wails"

// isLoopbackHost reports whether a host (without port) names this machine.
func isLoopbackHost(h string) bool {
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	a, err := netip.ParseAddr(h)
	return err == nil && a.Unmap().IsLoopback()
}

// IsLoopbackAddr reports whether a listen address ("host:port") serves only
// this machine.
func IsLoopbackAddr(addr string) bool { return isLoopbackHost(hostOnly(addr)) }

// hostOnly returns the host of "host:port" or of a bare host, lower-cased,
// an IPv6 address without brackets.
func hostOnly(hostport string) string {
	h := hostport
	if host, _, err := net.SplitHostPort(hostport); err == nil {
		h = host
	}
	return strings.ToLower(strings.Trim(h, "[]"))
}

func (g *guard) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := g.check(w, r); errors.Is(err, errAnswered) {
			return
		} else if err != nil {
			writeError(w, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}

var (
	errMisdirected = errors.New("this Host is not one sitesift serves (a DNS-rebound name?)")
	errNoSecret    = errors.New("this sitesift needs its token: open the URL it printed (…/?token=…)")
	errCrossSite   = errors.New("a request from another web site cannot change this project")
	errNoToken     = errors.New("missing or wrong " + TokenHeader + " header: writes come from the app's own pages")
	// errAnswered says check has answered the request itself.
	errAnswered = errors.New("answered")
)

// check applies the rules; a nil error lets the request through. It may
// answer itself (the redirect that stores the shared secret in a cookie).
func (g *guard) check(w http.ResponseWriter, r *http.Request) error {
	host := hostOnly(r.Host)
	if g.secret != "" {
		if err := g.checkSecret(w, r); err != nil {
			return err
		}
	} else if !g.team && !isLoopbackHost(host) && !(host == desktopHost && g.window) && !g.hosts[host] {
		return &apiError{"misdirected", http.StatusMisdirectedRequest, errMisdirected}
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return nil
	}
	if g.foreign(r) {
		return &apiError{"forbidden", http.StatusForbidden, errCrossSite}
	}
	want, limit := "application/json", int64(maxJSONBody)
	if t, ok := uploads[r.URL.Path]; ok {
		want, limit = t, maxUploadBody
		if l, ok := uploadLimits[r.URL.Path]; ok {
			limit = l
		}
	}
	if r.ContentLength < 0 && r.Header.Get("Content-Type") == "" {
		emptyBody(r)
	}
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if r.ContentLength != 0 && mt != want {
		return &apiError{"unsupported_media_type", http.StatusUnsupportedMediaType,
			fmt.Errorf("%s %s takes %s, not %q", r.Method, r.URL.Path, want, r.Header.Get("Content-Type"))}
	}
	// A sign-in comes before the page can read the token; the checks of
	// origin and type above still keep other sites from sending one.
	if subtle.ConstantTimeCompare([]byte(r.Header.Get(TokenHeader)), []byte(g.token)) != 1 && !(g.team && r.URL.Path == loginPath) {
		return &apiError{"forbidden", http.StatusForbidden, errNoToken}
	}
	if r.ContentLength > limit {
		return &apiError{"too_large", http.StatusRequestEntityTooLarge, fmt.Errorf("the request body is larger than %d MiB", limit>>20)}
	}
	r.Body = http.MaxBytesReader(w, r.Body, limit)
	return nil
}

// foreign reports whether a request comes from a page of another web site
// ([crossSite]), a request through a trusted proxy from the app's own
// https origin aside.
func (g *guard) foreign(r *http.Request) bool {
	return crossSite(r) && !(g.trustProxy && proxiedSameOrigin(r))
}

// emptyBody marks a request of unknown length whose body is empty as one
// of no body (ContentLength 0): the desktop window's WebKitGTK sends a POST
// without a body (Pause, Stop, a cancel) with neither a length nor a type,
// which would otherwise be refused as of the wrong type. A body that is not
// empty is left whole for the checks after.
func emptyBody(r *http.Request) {
	if r.Body == nil || r.Body == http.NoBody {
		r.ContentLength = 0
		return
	}
	var first [1]byte
	n, err := io.ReadFull(r.Body, first[:])
	if n == 0 && (err == io.EOF || err == io.ErrUnexpectedEOF) {
		r.Body.Close()
		r.Body, r.ContentLength = http.NoBody, 0
		return
	}
	r.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(first[:n]), r.Body), r.Body}
}

// sameOrigin reports whether an Origin header is the request's own origin
// (scheme and host:port) or the desktop window's.
func sameOrigin(origin string, r *http.Request) bool {
	if strings.EqualFold(origin, desktopOrigin) {
		return hostOnly(r.Host) == desktopHost
	}
	u, err := url.Parse(origin)
	if err != nil || u.Path != "" || u.RawQuery != "" {
		return false
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return strings.EqualFold(u.Scheme, scheme) && strings.EqualFold(u.Host, r.Host)
}

// bodyError is the API error of a failed read of a request body: 413 when
// the guard's cap stopped it, else 400.
func bodyError(what string, err error) error {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return &apiError{"too_large", http.StatusRequestEntityTooLarge,
			fmt.Errorf("%s: larger than %d MiB", what, tooLarge.Limit>>20)}
	}
	return fault.Invalid(fmt.Errorf("%s: %w", what, err))
}

// checkSecret lets through a request that carries the shared secret.
func (g *guard) checkSecret(w http.ResponseWriter, r *http.Request) error {
	eq := func(s string) bool { return subtle.ConstantTimeCompare([]byte(s), []byte(g.secret)) == 1 }
	if t := r.URL.Query().Get("token"); t != "" && eq(t) {
		http.SetCookie(w, &http.Cookie{Name: TokenCookie, Value: g.secret, Path: "/", HttpOnly: true,
			SameSite: http.SameSiteStrictMode})
		if r.Method == http.MethodGet && !strings.HasPrefix(r.URL.Path, "/api/") {
			q := r.URL.Query()
			q.Del("token")
			u := *r.URL
			u.RawQuery = q.Encode()
			http.Redirect(w, r, u.RequestURI(), http.StatusSeeOther)
			return errAnswered
		}
		return nil
	}
	if c, err := r.Cookie(TokenCookie); err == nil && eq(c.Value) {
		return nil
	}
	if b, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && eq(b) {
		return nil
	}
	return &apiError{"unauthorized", http.StatusUnauthorized, errNoSecret}
}
