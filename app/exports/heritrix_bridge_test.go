package exports

import "testing"

// HeritrixScopeOf returns whether Heritrix's SurtPrefixedDecideRule keeps
// a URL in the scope of the seeds file (see readHeritrixSeeds), for the
// tests of the exports of a whole project.
func HeritrixScopeOf(t *testing.T, file string) func(u string) bool {
	s := readHeritrixSeeds(t, file)
	return func(u string) bool { return s.in(t, u) }
}
