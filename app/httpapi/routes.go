package httpapi

import "net/http"

// router is the mux with the list of the patterns registered on it: the
// route table that routes_test.go holds against API.md and the wire
// contract (contract.go), so that a route added in code and forgotten in
// the document, or the other way round, fails the build. Every handler is
// registered with what the contract says of its route applied (the policy
// of costly.go): a route cannot be added without it.
type router struct {
	mux      *http.ServeMux
	patterns []string
	policy   *policy
}

// HandleFunc registers f for pattern and lists the pattern.
func (rt *router) HandleFunc(pattern string, f func(http.ResponseWriter, *http.Request)) {
	rt.Handle(pattern, http.HandlerFunc(f))
}

// Handle registers h for pattern, under the contract's policy, and lists
// the pattern.
func (rt *router) Handle(pattern string, h http.Handler) {
	rt.patterns = append(rt.patterns, pattern)
	rt.mux.Handle(pattern, rt.policy.apply(pattern, h))
}
