package httpapi

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"sitesift/app/fault"
)

// BrowserOpener is what the desktop window offers besides its dialogs:
// opening a URL in the system's web browser. The window's WebKitGTK cannot
// register a service worker for the app's own wails:// pages, and
// ReplayWeb.page replays captures through one, so the Captured panel opens
// the site in a browser instead (POST /api/desktop/browser).
type BrowserOpener interface {
	OpenURL(url string) error
}

// browserServer is the loopback HTTP server that the desktop window starts
// for the system browser the first time it is asked: the same app, served
// as `sitesift serve` serves it, until the window's process ends.
type browserServer struct {
	mu  sync.Mutex
	url string // "http://127.0.0.1:PORT/" once started
}

// start serves a on 127.0.0.1 (a free port) with serve's handler, once,
// and returns its address.
func (b *browserServer) start(newHandler func() http.Handler) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.url != "" {
		return b.url, nil
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("browser: serving the app on loopback: %w", err)
	}
	srv := &http.Server{Handler: newHandler(), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln) // until the process ends, with the window
	b.url = "http://" + ln.Addr().String() + "/"
	return b.url, nil
}

// browserRequest is the body of POST /api/desktop/browser: the app's page
// to open, as its hash route ("#/sites/example.org").
type browserRequest struct {
	Page string `json:"page"`
}

// BrowserOpened is the answer of POST /api/desktop/browser: the address
// of the page in the app served on loopback for the browser, and whether
// the system's browser was asked to open it (Error says why not).
type BrowserOpened struct {
	URL    string `json:"url"`
	Opened bool   `json:"opened"`
	Error  string `json:"error"`
}

// routeBrowser registers POST /api/desktop/browser when the window can
// open URLs. serve makes the handler of the loopback server: the app as
// `sitesift serve` serves it.
func (h *handler) routeBrowser(mux *router, o BrowserOpener, serve func() http.Handler) {
	if o == nil {
		return
	}
	var b browserServer
	mux.HandleFunc("POST /api/desktop/browser", h.api(func(r *http.Request) (any, error) {
		var body browserRequest
		if err := decodeBody(r, &body); err != nil {
			return nil, err
		}
		if body.Page != "" && !strings.HasPrefix(body.Page, "#/") {
			return nil, fault.Invalid(errors.New(`browser: page must be a page of the app, "#/…"`))
		}
		base, err := b.start(serve)
		if err != nil {
			return nil, err
		}
		h.log.Info("the app served for the system browser", "url", base)
		out := BrowserOpened{URL: base + body.Page}
		if err := o.OpenURL(out.URL); err != nil {
			out.Error = err.Error()
		} else {
			out.Opened = true
		}
		return out, nil
	}))
}
