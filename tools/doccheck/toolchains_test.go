package doccheck

import (
	"encoding/base64"
	"encoding/json"
	"go/version"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// pins reads the NAME=VALUE lines and the [key]='value' entries of the
// associative arrays of .ci/toolchains, the versions and hashes that the
// install fetches on a machine without Go or Node.
func pins(t *testing.T) (vars map[string]string, entries map[string]map[string]string) {
	t.Helper()
	text, err := os.ReadFile(filepath.Join(root, ".ci", "toolchains"))
	if err != nil {
		t.Fatal(err)
	}
	vars = map[string]string{}
	entries = map[string]map[string]string{}
	assign := regexp.MustCompile(`^([A-Z_]+)=([^\s(]+)$`)
	array := regexp.MustCompile(`^declare -gA ([A-Z_]+)=\($`)
	entry := regexp.MustCompile(`^\s*\[([a-z0-9]+)\]='([^']*)'$`)
	var in string
	for _, line := range strings.Split(string(text), "\n") {
		switch {
		case array.MatchString(line):
			in = array.FindStringSubmatch(line)[1]
			entries[in] = map[string]string{}
		case in != "" && line == ")":
			in = ""
		case in != "" && entry.MatchString(line):
			m := entry.FindStringSubmatch(line)
			entries[in][m[1]] = m[2]
		case assign.MatchString(line):
			m := assign.FindStringSubmatch(line)
			vars[m[1]] = strings.Trim(m[2], "'\"")
		}
	}
	return vars, entries
}

// TestGoPinBuildsTheModule: the Go toolchain fetched for a machine without
// one is at least the version go.mod names, with a checksum database hash for
// each CPU it is fetched for; moving go.mod's go line past the pin fails here,
// not on a librarian's machine.
func TestGoPinBuildsTheModule(t *testing.T) {
	vars, entries := pins(t)
	pin := vars["SITESIFT_GO_VERSION"]
	if !version.IsValid("go" + pin) {
		t.Fatalf(".ci/toolchains: SITESIFT_GO_VERSION=%q is not a Go version", pin)
	}
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go ([0-9.]+)$`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("go.mod has no go line")
	}
	if version.Compare("go"+pin, "go"+string(m[1])) < 0 {
		t.Errorf(".ci/toolchains fetches Go %s, older than go.mod's go %s", pin, m[1])
	}
	for _, arch := range []string{"amd64", "arm64"} {
		sum := entries["SITESIFT_GO_SUM"][arch]
		h, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(sum, "h1:"))
		if !strings.HasPrefix(sum, "h1:") || err != nil || len(h) != 32 {
			t.Errorf(".ci/toolchains: SITESIFT_GO_SUM[%s]=%q is not a checksum database hash (h1: and a SHA-256)", arch, sum)
		}
	}
}

// TestNodePinBuildsTheFrontend: the Node fetched for a machine without a
// recent one satisfies the engines of the programs `npm run build` runs (Vite
// and TypeScript, as package-lock.json pins them), and every tarball it
// fetches has an npm integrity to be checked against.
func TestNodePinBuildsTheFrontend(t *testing.T) {
	vars, entries := pins(t)
	node := vars["SITESIFT_NODE_VERSION"]
	lock, err := os.ReadFile(filepath.Join(root, "frontend", "package-lock.json"))
	if err != nil {
		t.Fatal(err)
	}
	var l struct {
		Packages map[string]struct {
			Engines json.RawMessage `json:"engines"`
		} `json:"packages"`
	}
	if err := json.Unmarshal(lock, &l); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"vite", "typescript"} {
		var e struct{ Node string }
		if err := json.Unmarshal(l.Packages["node_modules/"+p].Engines, &e); err != nil || e.Node == "" {
			t.Fatalf("package-lock.json: %s has no engines.node (%v)", p, err)
		}
		ok, err := satisfies(node, e.Node)
		if err != nil {
			t.Fatalf("%s's engines.node: %v", p, err)
		}
		if !ok {
			t.Errorf(".ci/toolchains fetches Node %s; %s needs %q", node, p, e.Node)
		}
	}
	integrity := regexp.MustCompile(`^sha512-[A-Za-z0-9+/]{86}==$`)
	for _, arch := range []string{"x64", "arm64"} {
		if v := entries["SITESIFT_NODE_INTEGRITY"][arch]; !integrity.MatchString(v) {
			t.Errorf(".ci/toolchains: SITESIFT_NODE_INTEGRITY[%s]=%q is not an npm sha512 integrity", arch, v)
		}
	}
	if v := vars["SITESIFT_NPM_INTEGRITY"]; !integrity.MatchString(v) {
		t.Errorf(".ci/toolchains: SITESIFT_NPM_INTEGRITY=%q is not an npm sha512 integrity", v)
	}
}

// satisfies reports whether version v (1.2.3) is in the npm range r, in the
// forms package engines use: comparators (>=, >, <=, <, =, ^, or a bare
// version) joined by spaces (all must hold) and by || (one must).
func satisfies(v, r string) (bool, error) {
	have, err := parseVersion(v)
	if err != nil {
		return false, err
	}
	for _, alt := range strings.Split(r, "||") {
		all := true
		fields := strings.Fields(strings.NewReplacer(">= ", ">=", "> ", ">", "<= ", "<=", "< ", "<").Replace(alt))
		if len(fields) == 0 {
			return false, strconv.ErrSyntax
		}
		for _, c := range fields {
			op := strings.TrimRight(c[:min(2, len(c))], "0123456789")
			w, err := parseVersion(strings.TrimPrefix(c, op))
			if err != nil {
				return false, err
			}
			cmp := compareVersions(have, w)
			var ok bool
			switch op {
			case ">=":
				ok = cmp >= 0
			case ">":
				ok = cmp > 0
			case "<=":
				ok = cmp <= 0
			case "<":
				ok = cmp < 0
			case "", "=":
				ok = cmp == 0
			case "^":
				ok = cmp >= 0 && have[0] == w[0]
			default:
				return false, strconv.ErrSyntax
			}
			all = all && ok
		}
		if all {
			return true, nil
		}
	}
	return false, nil
}

// parseVersion reads 1, 1.2 or 1.2.3 (missing parts are 0).
func parseVersion(s string) ([3]int, error) {
	var out [3]int
	parts := strings.Split(s, ".")
	if len(parts) > 3 {
		return out, strconv.ErrSyntax
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil {
			return out, err
		}
		out[i] = n
	}
	return out, nil
}

func compareVersions(a, b [3]int) int {
	for i := range a {
		if a[i] != b[i] {
			return a[i] - b[i]
		}
	}
	return 0
}

func TestSatisfies(t *testing.T) {
	for _, c := range []struct {
		v, r string
		want bool
	}{
		{"20.20.2", "^20.19.0 || >=22.12.0", true},
		{"20.18.3", "^20.19.0 || >=22.12.0", false},
		{"22.11.0", "^20.19.0 || >=22.12.0", false},
		{"24.0.0", "^20.19.0 || >=22.12.0", true},
		{"18.20.4", ">=14.17", true},
		{"20.20.2", ">=22 <25", false},
		{"24.1.0", ">=22 <25", true},
		{"12.0.0", ">= 12", true},
	} {
		got, err := satisfies(c.v, c.r)
		if err != nil || got != c.want {
			t.Errorf("satisfies(%q, %q) = %v, %v; want %v", c.v, c.r, got, err, c.want)
		}
	}
	if _, err := satisfies("20.0.0", "~20.1"); err == nil {
		t.Error(`satisfies accepted "~20.1", a form it does not read`)
	}
}

// TestToolchainsChoosePath runs .ci/toolchains' own checks: a version compare
// that orders 1.26.10 after 1.26.8, the go running this test taken as it is
// (it builds the module), and no Go at all when PATH holds none.
func TestToolchainsChoosePath(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	run := func(env []string, script string) error {
		cmd := exec.Command(bash, "-c", ". .ci/toolchains && "+script)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), env...)
		return cmd.Run()
	}
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"1.26.10", "1.26.8", true},
		{"1.26.8", "1.26.0", true},
		{"1.26.0", "1.26.0", true},
		{"1.19", "1.26.0", false},
		{"1.9.9", "1.26.0", false},
	} {
		err := run(nil, "_sitesift_version_ge "+c.a+" "+c.b)
		if (err == nil) != c.want {
			t.Errorf("_sitesift_version_ge %s %s: %v, want success %v", c.a, c.b, err, c.want)
		}
	}
	empty := t.TempDir()
	goBin := filepath.Join(runtime.GOROOT(), "bin")
	if err := run([]string{"PATH=" + goBin + ":" + empty, "XDG_CACHE_HOME=" + empty}, `sitesift_go_ok && [ "$(command -v go)" = "`+goBin+`/go" ]`); err != nil {
		t.Errorf("with %s first on PATH, sitesift_go_ok failed or another go was put first: %v", goBin, err)
	}
	// No go on PATH (and no fetched copy under an empty cache): not ok.
	if err := run([]string{"PATH=" + empty, "XDG_CACHE_HOME=" + empty}, "! sitesift_go_ok && ! command -v go"); err != nil {
		t.Errorf("with no go on PATH, sitesift_go_ok succeeded or a go was put on PATH: %v", err)
	}
}
