package wire

import (
	"slices"
	"strconv"
	"testing"
)

// TestEach: every element is converted in order, an empty list stays an
// empty list (JSON []) and nil stays nil (JSON null).
func TestEach(t *testing.T) {
	if got := Each([]int{3, 1, 2}, strconv.Itoa); !slices.Equal(got, []string{"3", "1", "2"}) {
		t.Errorf("Each(3, 1, 2) = %q", got)
	}
	if got := Each([]int{}, strconv.Itoa); got == nil || len(got) != 0 {
		t.Errorf("Each of an empty list = %#v, want an empty list", got)
	}
	if got := Each([]int(nil), strconv.Itoa); got != nil {
		t.Errorf("Each(nil) = %#v, want nil", got)
	}
}
