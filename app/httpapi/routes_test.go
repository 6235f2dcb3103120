package httpapi

import (
	"os"
	"regexp"
	"sitesift/app/projects"
	"slices"
	"strings"
	"testing"
)

// apiRoutes are the /api/ patterns the handler registers, the desktop
// window's included: the route table.
func apiRoutes(t *testing.T) []string {
	t.Helper()
	c := newConfig(Desktop(&browserChooser{}))
	c.switcher = projects.NewSwitcher(projects.Options{})
	_, rt := buildWith(nil, c)
	var out []string
	for _, p := range rt.patterns {
		// The catch-all answers 404 for unknown endpoints: no route.
		if strings.Contains(p, " /api/") {
			out = append(out, p)
		}
	}
	if len(out) < 50 {
		t.Fatalf("the route table lists %d API routes; the handler has more than 50", len(out))
	}
	return out
}

// docRoute is a route a bullet of API.md opens with: "- `GET /api/x?q=…`",
// and each one after it joined by ", " (several routes sharing a text); a
// route with its body may run on to the next line.
var docRoute = regexp.MustCompile("^(?:, )?`((?:GET|POST|PUT|PATCH|DELETE) /api/[^`?\\s]*)[^`]*(?:`|$)")

// documentedRoutes reads the routes API.md documents, with the line of each.
func documentedRoutes(t *testing.T) map[string]int {
	t.Helper()
	b, err := os.ReadFile("API.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := map[string]int{}
	for i, line := range strings.Split(string(b), "\n") {
		rest, ok := strings.CutPrefix(line, "- ")
		if !ok {
			continue
		}
		for {
			m := docRoute.FindStringSubmatchIndex(rest)
			if m == nil {
				break
			}
			if route := rest[m[2]:m[3]]; doc[route] == 0 {
				doc[route] = i + 1
			}
			rest = rest[m[1]:]
		}
	}
	return doc
}

// TestRoutesDocumented holds the mux and API.md to the same routes: a
// route registered in code and not documented, or documented and not
// served, fails. A route is documented by a bullet of API.md opening with
// it in backquotes, its query string aside.
func TestRoutesDocumented(t *testing.T) {
	served := apiRoutes(t)
	doc := documentedRoutes(t)
	for _, r := range served {
		if _, ok := doc[r]; !ok {
			t.Errorf("%s is served but API.md documents it nowhere: add a bullet \"- `%s` → …\"", r, r)
		}
	}
	for r, line := range doc {
		if !slices.Contains(served, r) {
			t.Errorf("API.md:%d documents %s, which the handler does not serve", line, r)
		}
	}
}

// TestContractCoversRoutes holds the wire contract the frontend's types are
// generated from to the mux: every route served is in it once, with the
// type of its answer or what it sends instead, and it lists no route the
// handler does not serve.
func TestContractCoversRoutes(t *testing.T) {
	served := apiRoutes(t)
	seen := map[string]bool{}
	for _, r := range Contract() {
		if seen[r.Pattern] {
			t.Errorf("Contract lists %s twice", r.Pattern)
		}
		seen[r.Pattern] = true
		if !slices.Contains(served, r.Pattern) {
			t.Errorf("Contract lists %s, which the handler does not serve", r.Pattern)
		}
		if r.Response == nil && r.Body == "" {
			t.Errorf("Contract gives %s neither a Response type nor a Body", r.Pattern)
		}
	}
	for _, r := range served {
		if !seen[r] {
			t.Errorf("%s is served but not in Contract (contract.go): add it with the types of its body and answer", r)
		}
	}
}
