package cli

import (
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"sitesift/app"
	"sitesift/app/fault"
	"sitesift/app/project"
)

// maxSocketPath is the longest path a Unix socket can have (sun_path holds
// 108 bytes on Linux, 104 on the BSDs, with its terminating NUL).
const maxSocketPath = 103

// serveSocket serves the app's API on the project's socket (project.SocketFile,
// mode 0600: this user's processes only) and records it in the lock file,
// so that the commands run beside this process can ask it what only it can
// answer (a search of the index it holds). It returns the function that
// stops serving. Without a socket (a path too long, a file system that has
// none) the project works all the same; only searches beside it fail, and
// say why.
func (c CLI) serveSocket(a *app.App, p *project.Project) (stop func()) {
	path := filepath.Join(p.Dir, project.SocketFile)
	warn := func(err error) func() {
		fmt.Fprintf(c.Stderr, "sitesift: warning: no API socket for the commands run beside this one: %v\n", err)
		return func() {}
	}
	if len(path) > maxSocketPath {
		return warn(fmt.Errorf("the path %s is longer than a socket's %d bytes", path, maxSocketPath))
	}
	// This process holds the project: a socket there was left by a holder
	// that was killed.
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return warn(err)
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return warn(err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return warn(err)
	}
	srv := &http.Server{Handler: c.handler(a), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	if err := p.Advertise("", path); err != nil {
		srv.Close()
		return warn(err)
	}
	return func() {
		srv.Close()
		os.Remove(path)
	}
}

// failurePage is the desktop window shown when the project cannot be
// opened: the reason, in words, for a person who has no terminal.
func failurePage(dir string, err error) http.Handler {
	title := "This project cannot be opened"
	var held *project.HeldError
	if errors.As(err, &held) {
		title = "This project is open in another sitesift"
	}
	page := fmt.Sprintf(`<!doctype html><html><head><meta charset="utf-8"><title>sitesift</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:3em auto;max-width:44em;padding:0 1.5em;color:#1c1917;background:#fafaf9}
h1{font-size:1.4em}code{background:#f0efed;padding:.1em .3em;border-radius:3px}.err{border-left:4px solid #b91c1c;padding:.5em 1em;background:#fef2f2}</style></head>
<body><h1 id="failure">%s</h1><p>Project <code>%s</code></p><p class="err" role="alert">%s</p>
<p>Close this window when you have read this.</p></body></html>`,
		html.EscapeString(title), html.EscapeString(dir), html.EscapeString(fault.OneLine(err)))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		fmt.Fprint(w, page)
	})
}
