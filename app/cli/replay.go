package cli

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"

	"sitesift/app/httpapi"
)

// replayFlags are where serve serves its replay origin (app/httpapi/replay.go):
// the origin of its own on which archived pages are replayed, apart from the
// app's.
type replayFlags struct {
	addr, public string
}

// replayFlags declares the replay origin's flags on f.
func (c CLI) replayFlags(f flags) *replayFlags {
	rf := &replayFlags{}
	f.StringVar(&rf.addr, "replay-addr", "", "address of the replay origin, which replays captured pages apart from the app (default: the host of --addr, a free port)")
	f.StringVar(&rf.public, "replay-url", "", "the replay origin's address as browsers reach it, behind a reverse proxy that maps a host name of its own to --replay-addr (docs/team.md)")
	return rf
}

// listenAddr is the replay origin's listening address for an app served on
// appAddr: --replay-addr, or the host of appAddr with a free port.
func (rf *replayFlags) listenAddr(appAddr string) string {
	if rf != nil && rf.addr != "" {
		return rf.addr
	}
	host, _, err := net.SplitHostPort(appAddr)
	if err != nil {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, "0")
}

// publicURL is --replay-url, "" without the flags.
func (rf *replayFlags) publicURL() string {
	if rf == nil {
		return ""
	}
	return rf.public
}

// serveReplay serves the replay origin on addr (over TLS as ts says) until
// stop is called, and returns the option that gives it to the app's
// handlers. The desktop window's replay origin listens on loopback.
func (c CLI) serveReplay(addr, public string, ts *teamServe) (opt httpapi.Option, stop func(), listening string, err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, "", fmt.Errorf("replay origin: %w", err)
	}
	o, err := httpapi.NewReplayOrigin(c.Assets, httpapi.ReplayOriginOptions{Addr: ln.Addr().String(), Public: public, TLS: ts != nil && ts.cert != "", Log: c.Logger})
	if err != nil {
		ln.Close()
		return nil, nil, "", err
	}
	srv := &http.Server{Handler: o, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		var err error
		if ts != nil {
			err = ts.serve(srv, ln)
		} else {
			err = srv.Serve(ln)
		}
		if err != nil && err != http.ErrServerClosed {
			fmt.Fprintf(c.Stderr, "sitesift: replay origin: %v\n", err)
		}
	}()
	stop = func() {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	}
	return httpapi.Replay(o), stop, ln.Addr().String(), nil
}

// windowReplay serves the desktop window's replay origin on loopback: the
// window's WebKitGTK registers service workers for http pages of loopback.
func (c CLI) windowReplay() ([]httpapi.Option, func()) {
	opt, stop, _, err := c.serveReplay("127.0.0.1:0", "", nil)
	if err != nil {
		fmt.Fprintf(c.Stderr, "sitesift: warning: no replay of captures in the window: %v\n", err)
		return nil, func() {}
	}
	return []httpapi.Option{opt}, stop
}
