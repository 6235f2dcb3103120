package cli

import (
	"context"
	"fmt"
	"net"
	"net/http"

	"sitesift/app"
	"sitesift/app/accounts"
	"sitesift/app/httpapi"
	"sitesift/app/project"
)

// teamServe holds the flags of serve --team and of TLS.
type teamServe struct {
	team       bool
	importDir  string
	trustProxy bool
	cert, key  string
	// acc is the accounts service of the team server, once made.
	acc *accounts.Service
}

// teamFlags declares the team server's flags on f.
func (c CLI) teamFlags(f flags) *teamServe {
	ts := &teamServe{}
	f.BoolVar(&ts.team, "team", false, "accounts: every librarian signs in, acts as themself, within their role; decisions go to the audit log (docs/team.md)")
	f.StringVar(&ts.importDir, "import-dir", "", "with --team: the one folder of this machine that archives may be imported from by path (default: none, uploads only)")
	f.BoolVar(&ts.trustProxy, "trust-proxy", false, "with --team: believe X-Forwarded-For and X-Forwarded-Proto from the reverse proxy in front")
	f.StringVar(&ts.cert, "tls-cert", "", "serve HTTPS with this certificate file (PEM; with --tls-key)")
	f.StringVar(&ts.key, "tls-key", "", "the private key file of --tls-cert (PEM)")
	return ts
}

// check refuses flags that do not go together.
func (ts *teamServe) check() error {
	switch {
	case !ts.team && ts.importDir != "":
		return usageError{"serve: --import-dir needs --team (without it the one user imports any file they can read)"}
	case !ts.team && ts.trustProxy:
		return usageError{"serve: --trust-proxy needs --team"}
	case (ts.cert == "") != (ts.key == ""):
		return usageError{"serve: --tls-cert and --tls-key go together"}
	}
	return nil
}

func (ts *teamServe) scheme() string {
	if ts.cert != "" {
		return "https"
	}
	return "http"
}

// options makes the handler options of a team server, and warns of what a
// team should not run without.
func (ts *teamServe) options(c CLI, a *app.App, p *project.Project, addr string) ([]httpapi.Option, error) {
	if !ts.team {
		return nil, nil
	}
	if err := a.Imports.SetImportFolder(ts.importDir); err != nil {
		return nil, fmt.Errorf("serve: --import-dir: %w", err)
	}
	ts.acc = accounts.New(p, accounts.Options{})
	opts := []httpapi.Option{httpapi.Team(ts.acc)}
	if ts.trustProxy {
		opts = append(opts, httpapi.TrustProxy())
	}
	as, err := p.Store.Accounts(context.Background())
	if err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	admins := 0
	for _, ac := range as {
		if ac.Role == string(project.RoleAdmin) && !ac.Disabled {
			admins++
		}
	}
	if admins == 0 {
		fmt.Fprintf(c.Stderr, "sitesift: warning: the project has no admin account; stop the server and add one: sitesift accounts add --project %s --role admin NAME\n", p.Dir)
	}
	if ts.cert == "" && !ts.trustProxy && !httpapi.IsLoopbackAddr(addr) {
		fmt.Fprintf(c.Stderr, "sitesift: warning: %s is reachable from other machines over plain HTTP: passwords and session cookies cross the network in clear; give --tls-cert and --tls-key, or serve behind an HTTPS reverse proxy with --trust-proxy\n", addr)
	}
	return opts, nil
}

// serve serves srv on ln, over TLS when a certificate was given.
func (ts *teamServe) serve(srv *http.Server, ln net.Listener) error {
	if ts.cert != "" {
		return srv.ServeTLS(ln, ts.cert, ts.key)
	}
	return srv.Serve(ln)
}
