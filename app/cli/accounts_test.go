package cli

import (
	"bytes"
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"sitesift/app/apptest"
)

func TestAccountsCLI(t *testing.T) {
	dir := apptest.ReviewProject(t)
	code, out, stderr := runCLI(t, "accounts", "add", "--project", dir, "--role", "approver", "--url", "https://sift.library.example/", "ana")
	if code != 0 {
		t.Fatalf("accounts add: exit %d: %s", code, stderr)
	}
	if !regexp.MustCompile(`(?m)^account ana \(approver\) added\npassword: [a-z2-7]{6}(-[a-z2-7]{6}){3}\nsign-in link, once, until .+: https://sift\.library\.example/\?signin=[0-9a-f]{64}\n$`).MatchString(out) {
		t.Fatalf("accounts add printed:\n%s", out)
	}
	// --password-stdin takes the password of a script.
	var sout, serr bytes.Buffer
	c := CLI{Stdout: &sout, Stderr: &serr, Stdin: strings.NewReader("ben's long password\n"), Desktop: func(string, http.Handler) error { return ErrNoDesktop }}
	if code := c.Run(context.Background(), []string{"accounts", "add", "--project", dir, "--password-stdin", "ben"}); code != 0 {
		t.Fatalf("accounts add --password-stdin: exit %d: %s", code, serr.String())
	}
	if strings.Contains(sout.String(), "password:") || !strings.Contains(sout.String(), "account ben (curator) added") {
		t.Fatalf("accounts add --password-stdin printed:\n%s", sout.String())
	}
	if code, _, stderr := runCLI(t, "accounts", "add", "--project", dir, "--role", "boss", "cleo"); code != 2 || !strings.Contains(stderr, `unknown role "boss"`) {
		t.Fatalf("a bad role: exit %d: %s", code, stderr)
	}
	if code, out, stderr := runCLI(t, "accounts", "role", "--project", dir, "ben", "admin"); code != 0 || out != "account ben is now admin\n" {
		t.Fatalf("accounts role: exit %d: %s%s", code, out, stderr)
	}
	if code, _, stderr := runCLI(t, "accounts", "disable", "--project", dir, "ana"); code != 0 {
		t.Fatalf("accounts disable: exit %d: %s", code, stderr)
	}
	code, out, stderr = runCLI(t, "accounts", "list", "--project", dir)
	if code != 0 {
		t.Fatalf("accounts list: exit %d: %s", code, stderr)
	}
	// ana's ratings made before her account stay hers.
	if !regexp.MustCompile(`(?m)^ana +approver +disabled +4 .* never$`).MatchString(out) || !regexp.MustCompile(`(?m)^ben +admin +sign-in link pending +5 `).MatchString(out) {
		t.Fatalf("accounts list:\n%s", out)
	}
	if code, out, stderr := runCLI(t, "accounts", "enable", "--project", dir, "ana"); code != 0 || out != "account ana enabled: it signs in with its password\n" {
		t.Fatalf("accounts enable: exit %d: %s%s", code, out, stderr)
	}
	if _, out, _ := runCLI(t, "accounts", "list", "--project", dir); !regexp.MustCompile(`(?m)^ana +approver +active +4 `).MatchString(out) {
		t.Fatalf("accounts list after enabling ana:\n%s", out)
	}
	code, out, stderr = runCLI(t, "audit", "--project", dir, "--format", "table")
	if code != 0 {
		t.Fatalf("audit: exit %d: %s", code, stderr)
	}
	for _, want := range []string{"account change", "ana's account disabled", "ben made admin", "rating", "s1.test"} {
		if !strings.Contains(out, want) {
			t.Errorf("audit lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = runCLI(t, "audit", "--project", dir, "--librarian", "cleo", "--format", "json")
	if code != 0 || strings.Count(out, `"action": "rating"`) != 3 || strings.Contains(out, `"ana"`) {
		t.Fatalf("audit --librarian cleo: exit %d\n%s", code, out)
	}
}
