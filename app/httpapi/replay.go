package httpapi

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"

	"sitesift/app"
	"sitesift/app/fault"
)

// Archived pages run scripts (ReplayWeb.page replays them as they were),
// and every archived byte is the crawled site's, not the librarian's. So
// the replay runs on an origin of its own, the replay origin: a second
// listener that serves ReplayWeb.page's files, a frame page that holds the
// <replay-web-page> element, and the sites' WACZ files the app's pages
// were granted, and nothing else. It sets no cookie and reads none, has no
// route to /api/, and its pages are framed by the app's page in a sandbox
// without top navigation. A script of an archived page that reaches past
// ReplayWeb.page's rewriting finds a window of another origin above it:
// it can read nothing of the app's, and the guard refuses what it sends
// (another origin cannot write, nor run costly reads).

// ReplayOrigin is the replay origin's handler. Make one per process with
// [NewReplayOrigin], serve it on a listener of its own, and give it to
// the app's handlers with [Replay].
type ReplayOrigin struct {
	assets fs.FS
	// public is the replay origin's address as the app's pages reach it
	// ("https://replay.example.org/"), or "" to take the page's own host
	// name with port.
	public string
	port   string
	scheme string
	log    *slog.Logger

	mu     sync.Mutex
	grants map[string]replayGrant // by capability
	caps   map[grantKey]string    // the capability of a file already granted
	order  []string               // capabilities, oldest first
	etags  map[string]string      // the ETag of each file of replayFiles read so far, by name
}

// replayGrant is a WACZ file the app's page may replay: open opens it
// anew for every request (byte ranges).
type replayGrant struct {
	key  grantKey
	open func(ctx context.Context) (*os.File, error)
}

// grantKey names a granted file: the project's service (a switch to
// another project grants anew), the site and its file's key.
type grantKey struct {
	app       *app.App
	site, key string
}

// maxReplayGrants bounds the files granted at once; the oldest grant goes
// first (its page asks the captures again when it is replayed next).
const maxReplayGrants = 4096

// ReplayOriginOptions say where the replay origin is served.
type ReplayOriginOptions struct {
	// Addr is the replay origin's listening address ("127.0.0.1:40123"):
	// its port, with the host name of the app's page, is the origin the
	// pages are sent to when Public is "".
	Addr string
	// Public is the replay origin's address as the app's pages reach it,
	// for a server behind a reverse proxy that maps a host name of its
	// own to Addr ("https://replay.sitesift.example.org/"). Default: the
	// page's host name and the port of Addr.
	Public string
	// TLS is true when Addr serves HTTPS.
	TLS bool
	// Log receives a line for every request (info level), the
	// capabilities of its paths left out; nil logs nothing.
	Log *slog.Logger
}

// NewReplayOrigin returns the replay origin's handler over the built
// frontend (its replay/ folder holds ReplayWeb.page and the frame page).
func NewReplayOrigin(assets fs.FS, o ReplayOriginOptions) (*ReplayOrigin, error) {
	_, port, err := net.SplitHostPort(o.Addr)
	if err != nil {
		return nil, fmt.Errorf("replay origin: address %q: %w", o.Addr, err)
	}
	pub := o.Public
	if pub != "" {
		u, err := url.Parse(pub)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
			return nil, fmt.Errorf("replay origin: %q is not an http(s) address of a host: give one such as https://replay.example.org/", pub)
		}
		pub = u.Scheme + "://" + u.Host + "/"
	}
	scheme := "http"
	if o.TLS {
		scheme = "https"
	}
	log := o.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &ReplayOrigin{assets: assets, public: pub, port: port, scheme: scheme, log: log.With("component", "replay"),
		grants: map[string]replayGrant{}, caps: map[grantKey]string{}, etags: map[string]string{}}, nil
}

// Replay gives the app's handler its replay origin: the captures of a site
// (GET /api/sites/{site}/captures) then name a frame page of it, and the
// app's pages may frame it and nothing else.
func Replay(o *ReplayOrigin) Option { return func(c *config) { c.replay = o } }

// base is the replay origin's address for a request of the app's page r:
// its public address, or the host name r was sent to with the replay
// origin's port. The desktop window's requests name no host of the
// network ("wails"): the replay origin listens on loopback for it.
func (o *ReplayOrigin) base(r *http.Request) string {
	if o.public != "" {
		return o.public
	}
	host := hostOnly(r.Host)
	if host == "" || host == desktopHost {
		host = "127.0.0.1"
	}
	return o.scheme + "://" + net.JoinHostPort(host, o.port) + "/"
}

// origin is base without its final slash: what a Content-Security-Policy
// names.
func (o *ReplayOrigin) origin(r *http.Request) string { return strings.TrimSuffix(o.base(r), "/") }

// grant lets the replay origin serve the WACZ file of site named key in a's
// project, and returns the frame page that replays it: the replay origin's
// address with the file's path as its source query parameter. The page
// adds the URL to show as its fragment.
func (o *ReplayOrigin) grant(r *http.Request, a *app.App, site, key string) string {
	k := grantKey{a, site, key}
	o.mu.Lock()
	c, ok := o.caps[k]
	if !ok {
		b := make([]byte, 16)
		rand.Read(b)
		c = hex.EncodeToString(b)
		o.caps[k] = c
		o.grants[c] = replayGrant{key: k, open: func(ctx context.Context) (*os.File, error) {
			return a.Exports.OpenSiteWACZ(ctx, site, key)
		}}
		o.order = append(o.order, c)
		for len(o.order) > maxReplayGrants {
			old := o.order[0]
			o.order = o.order[1:]
			delete(o.caps, o.grants[old].key)
			delete(o.grants, old)
		}
	}
	o.mu.Unlock()
	return o.base(r) + "?" + url.Values{"source": {"/w/" + c + "/" + url.PathEscape(site) + ".wacz"}}.Encode()
}

// replayFiles are the files the replay origin serves, by path: the frame
// page and ReplayWeb.page's element and service worker, from the built
// frontend's replay/ folder. The service worker's scope is /replay/,
// which the frame page is outside of.
var replayFiles = map[string]string{
	"/":             "replay/frame.html",
	"/frame.js":     "replay/frame.js",
	"/replay/ui.js": "replay/ui.js",
	"/replay/sw.js": "replay/sw.js",
}

// ServeHTTP serves the replay origin: the files of replayFiles, and the
// WACZ files granted, at /w/CAPABILITY/SITE.wacz, with byte ranges.
// Everything else is 404; no answer sets a cookie.
func (o *ReplayOrigin) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Path
	if rest, ok := strings.CutPrefix(path, "/w/"); ok {
		_, file, _ := strings.Cut(rest, "/")
		path = "/w/…/" + file
	}
	o.log.Info("replay", "method", r.Method, "path", path, "range", r.Header.Get("Range"))
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		http.Error(w, "the replay origin only reads", http.StatusMethodNotAllowed)
		return
	}
	if rest, ok := strings.CutPrefix(r.URL.Path, "/w/"); ok {
		o.serveWACZ(w, r, rest)
		return
	}
	name := replayFiles[r.URL.Path]
	if name == "" {
		http.Error(w, "not found on the replay origin: it serves the replay of captures and nothing of the app", http.StatusNotFound)
		return
	}
	if o.assets == nil {
		http.Error(w, "this sitesift binary was built without its frontend, which holds ReplayWeb.page", http.StatusNotFound)
		return
	}
	if r.URL.Path == "/" {
		// The frame page runs no archived script itself: its scripts are
		// the replay origin's own files.
		h.Set("Content-Security-Policy", "script-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'")
	}
	// Every use revalidates (a new build's files are never served stale),
	// and the ETag makes that a 304 without a body: each frame loaded
	// anew, one a review card, asks again for 2 MB of scripts, which the
	// browser then takes from its cache, compiled.
	h.Set("Cache-Control", "no-cache")
	if tag, err := o.etag(name); err == nil {
		h.Set("ETag", tag)
	}
	http.ServeFileFS(w, r, o.assets, name)
}

// etag is the ETag of the asset name: a digest of its contents, read once.
func (o *ReplayOrigin) etag(name string) (string, error) {
	o.mu.Lock()
	tag, ok := o.etags[name]
	o.mu.Unlock()
	if ok {
		return tag, nil
	}
	b, err := fs.ReadFile(o.assets, name)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	tag = `"` + hex.EncodeToString(sum[:16]) + `"`
	o.mu.Lock()
	o.etags[name] = tag
	o.mu.Unlock()
	return tag, nil
}

// serveWACZ serves a granted WACZ file: rest is "CAPABILITY/SITE.wacz".
func (o *ReplayOrigin) serveWACZ(w http.ResponseWriter, r *http.Request, rest string) {
	c, file, _ := strings.Cut(rest, "/")
	o.mu.Lock()
	g, ok := o.grants[c]
	o.mu.Unlock()
	if !ok || file != url.PathEscape(g.key.site)+".wacz" && file != g.key.site+".wacz" {
		http.Error(w, "no such capture file on the replay origin: open the site's page in sitesift again", http.StatusNotFound)
		return
	}
	f, err := g.open(r.Context())
	if err != nil {
		kind, status := classify(err)
		if kind == string(fault.KindInternal) || status == 0 {
			status = http.StatusInternalServerError
		}
		http.Error(w, err.Error(), status)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`inline; filename="%s-captures.wacz"`, g.key.site))
	http.ServeContent(w, r, fi.Name(), fi.ModTime(), f)
}
