package lab

import (
	"math"
	"reflect"
	"testing"

	"sitesift/importance"
)

func TestBand(t *testing.T) {
	// 1..20 against 15.5: mean 10.5, sd √35, CI 10.5 ± 1.96·√35/√20.
	var xs []float64
	for v := 20; v >= 1; v-- {
		xs = append(xs, float64(v))
	}
	xs = append(xs, math.NaN()) // a draw with no value there
	b := band(xs, 15.5)
	half := 1.96 * math.Sqrt(35) / math.Sqrt(20)
	if b.Draws != 20 || b.Mean != 10.5 || math.Abs(b.Lo95-(10.5-half)) > 1e-12 || math.Abs(b.Hi95-(10.5+half)) > 1e-12 {
		t.Errorf("band %+v", b)
	}
	// Percentiles by linear interpolation: position 0.05·19 = 0.95.
	if math.Abs(b.P5-1.95) > 1e-12 || math.Abs(b.P95-19.05) > 1e-12 {
		t.Errorf("percentiles %v, %v; want 1.95, 19.05", b.P5, b.P95)
	}
	if b.Below != 15 || b.Above != 5 {
		t.Errorf("below %d above %d, want 15 and 5", b.Below, b.Above)
	}
	if one := band([]float64{3}, 3); one.Draws != 1 || one.Lo95 != 3 || one.Hi95 != 3 || one.P5 != 3 || one.Below+one.Above != 0 {
		t.Errorf("one draw %+v", one)
	}
	if none := band([]float64{math.NaN()}, 1); none.Draws != 0 || !math.IsNaN(none.Mean) {
		t.Errorf("no draw %+v", none)
	}
}

func TestCoreShapes(t *testing.T) {
	c := func(h, a int) importance.Core {
		return importance.Core{Hubs: make([]int, h), Authorities: make([]int, a)}
	}
	got := CoreShapes([]importance.Core{c(3, 4), c(2, 2), c(3, 4), c(2, 3), c(10, 10)})
	want := []CoreShape{{2, 2, 1}, {2, 3, 1}, {3, 4, 2}, {10, 10, 1}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("shapes %v, want %v", got, want)
	}
	if s := shapeSummary(want); s != "2×2: 1, 2×3: 1, 3×4: 2, 10×10: 1" {
		t.Errorf("summary %q", s)
	}
}
