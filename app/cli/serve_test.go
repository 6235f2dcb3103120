package cli

import (
	"bytes"
	"context"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"sitesift/app/httpapi"
)

// startServe runs the command line args (a serve) with c, whose Stdout and
// Stderr are out and errb, until the test ends, and returns the URL it
// prints.
func startServe(t *testing.T, c CLI, out, errb *lockedBuffer, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int)
	go func() { done <- c.Run(ctx, args) }()
	t.Cleanup(func() { cancel(); <-done })
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		for _, l := range strings.Split(out.String(), "\n") {
			if u, ok := strings.CutPrefix(l, "sitesift: open "); ok {
				return u
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no URL printed: %q %q", out.String(), errb.String())
		}
	}
}

// lockedBuffer is a bytes.Buffer safe to write from one goroutine while
// another reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// serve on every address warns, and its API answers only with the secret
// of the URL it prints; the browser keeps it in a cookie.
func TestServeBeyondLoopbackNeedsTheSecret(t *testing.T) {
	var out, errb lockedBuffer
	c := CLI{Stdout: &out, Stderr: &errb}
	open := startServe(t, c, &out, &errb, []string{"serve", "--project", filepath.Join(t.TempDir(), "p"), "--addr", "0.0.0.0:0"}...)
	if !strings.Contains(errb.String(), "warning: 0.0.0.0:0 is reachable from other machines") {
		t.Errorf("no warning on stderr: %q", errb.String())
	}
	u, err := url.Parse(open)
	if err != nil || len(u.Query().Get("token")) != 64 {
		t.Fatalf("printed URL %q: want one with a generated token", open)
	}
	base := "http://" + u.Host
	for _, tt := range []struct {
		name string
		set  func(*http.Request)
	}{
		{"no secret", func(*http.Request) {}},
		{"a wrong secret", func(r *http.Request) { r.Header.Set("Authorization", "Bearer nope") }},
		{"a wrong cookie", func(r *http.Request) { r.AddCookie(&http.Cookie{Name: httpapi.TokenCookie, Value: "nope"}) }},
	} {
		req, _ := http.NewRequest("GET", base+"/api/project", nil)
		tt.set(req)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s: %d, want 401", tt.name, res.StatusCode)
		}
	}
	req, _ := http.NewRequest("GET", base+"/api/project", nil)
	req.Header.Set("Authorization", "Bearer "+u.Query().Get("token"))
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != 200 {
		t.Errorf("with the bearer secret: %v %v", res, err)
	}
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar}
	res, err := browser.Get(open)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.Request.URL.RawQuery != "" {
		t.Errorf("the secret stays in the address bar: %s", res.Request.URL)
	}
	res, err = browser.Get(base + "/api/project")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("with the cookie of the printed URL: %d, want 200", res.StatusCode)
	}
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
