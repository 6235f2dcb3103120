package httpapi

import (
	"io/fs"
	"net/http"
	"strings"
)

// appPolicy is the Content-Security-Policy of the app's own answers, but
// for the frames it may hold: the app runs its own scripts alone, talks to
// its own API alone, and may be framed by its own pages alone (another web
// site that frames the working app could trick a click). Inline style
// attributes stay: the pages colour bars and swatches with them.
const appPolicy = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
	"font-src 'self' data:; connect-src 'self'; worker-src 'none'; object-src 'none'; base-uri 'self'; form-action 'self'; " +
	"frame-ancestors 'self'"

// securityHeaders sends the app's policy with every answer of the app's
// origin. Its frames are the replay origin's alone (none without one).
func securityHeaders(replay *ReplayOrigin, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		frames := "'none'"
		if replay != nil {
			frames = replay.origin(r)
		}
		h.Set("Content-Security-Policy", appPolicy+"; frame-src "+frames)
		h.Set("X-Frame-Options", "SAMEORIGIN")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		next.ServeHTTP(w, r)
	})
}

// appFiles serves the built frontend but for its replay/ folder, which
// holds ReplayWeb.page and is served by the replay origin alone: on the
// app's origin its service worker would replay archived scripts with the
// app's authority.
func appFiles(assets fs.FS) http.Handler {
	files := http.FileServerFS(assets)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.URL.Path; p == "/replay" || strings.HasPrefix(p, "/replay/") {
			http.Error(w, "captures are replayed on the replay origin, not on the app's", http.StatusNotFound)
			return
		}
		files.ServeHTTP(w, r)
	})
}
