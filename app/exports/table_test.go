package exports

import (
	"slices"
	"testing"
)

// TestDeliverablesDeclared: each deliverable of the export table declares
// everything an export of it needs, once: a name of its own, its formats,
// options of [Options] only, and its writer.
func TestDeliverablesDeclared(t *testing.T) {
	seen := map[string]bool{}
	for _, d := range Deliverables {
		if d.What == "" || seen[d.What] || d.Title == "" || d.Purpose == "" || len(d.Formats) == 0 || d.write == nil || d.Options == nil {
			t.Errorf("%s: %+v: want a name of its own, a title, a purpose, formats, options and a writer", d.What, d)
		}
		seen[d.What] = true
		for _, o := range d.Options {
			if !slices.Contains(Options, o) {
				t.Errorf("%s takes %q, no option of %v", d.What, o, Options)
			}
		}
	}
}
