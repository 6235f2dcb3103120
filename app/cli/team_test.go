package cli

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sitesift/app/apptest"
	"sitesift/app/httpapi"
)

// selfSigned writes a certificate for 127.0.0.1 and its key, PEM.
func selfSigned(t *testing.T) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "sitesift test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, _ := x509.MarshalECPrivateKey(key)
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600)
	cert, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

// serve --team --tls-cert serves HTTPS: a librarian signs in and gets a
// Secure session cookie; without it, the API answers 401.
func TestServeTeamOverTLS(t *testing.T) {
	dir := apptest.ReviewProject(t)
	var sout, serr lockedBuffer
	c := CLI{Stdout: &sout, Stderr: &serr, Stdin: strings.NewReader("ana-long-password\n")}
	if code := c.Run(context.Background(), []string{"accounts", "add", "--project", dir, "--role", "approver", "--password-stdin", "ana"}); code != 0 {
		t.Fatalf("accounts add: %d %s", code, serr.String())
	}
	cert, key, pool := selfSigned(t)
	var out, errb lockedBuffer
	c = CLI{Stdout: &out, Stderr: &errb}
	open := startServe(t, c, &out, &errb, []string{"serve", "--project", dir, "--team", "--addr", "127.0.0.1:0", "--tls-cert", cert, "--tls-key", key}...)
	if !strings.HasPrefix(open, "https://127.0.0.1:") || strings.Contains(open, "token=") {
		t.Fatalf("printed %q, want an https URL without a token", open)
	}
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	res, err := client.Get(open + "api/project")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("GET /api/project without a session over TLS: %d", res.StatusCode)
	}
	res, err = client.Post(open+"api/login", "application/json", strings.NewReader(`{"name":"ana","password":"ana-long-password"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	var session *http.Cookie
	for _, ck := range res.Cookies() {
		if ck.Name == httpapi.SessionCookie {
			session = ck
		}
	}
	if res.StatusCode != 200 || session == nil || !session.Secure || !session.HttpOnly || session.SameSite != http.SameSiteStrictMode {
		t.Fatalf("sign-in over TLS: %d, cookie %+v", res.StatusCode, session)
	}
	req, _ := http.NewRequest("GET", open+"api/me", nil)
	req.AddCookie(session)
	if res, err := client.Do(req); err != nil || res.StatusCode != 200 {
		t.Fatalf("GET /api/me in the session: %v %v", res, err)
	}
}

func TestServeTeamFlags(t *testing.T) {
	p := filepath.Join(t.TempDir(), "p")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--import-dir", "/srv"}, "--import-dir needs --team"},
		{[]string{"--trust-proxy"}, "--trust-proxy needs --team"},
		{[]string{"--tls-cert", "c.pem"}, "--tls-cert and --tls-key go together"},
	} {
		code, _, stderr := runCLI(t, append([]string{"serve", "--project", p}, tc.args...)...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("serve %v: exit %d, %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
}
