package lab

import (
	"errors"
	"strings"
	"testing"

	"sitesift/importance"
)

// TestParamErrors: every refusal of a parameter is a ParamError, which the
// command line and the API map to a usage error and a bad request.
func TestParamErrors(t *testing.T) {
	rate := 2.0
	one, _ := importance.NewGraph(1, nil)
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"convergence n", (&ConvergenceParams{N: 1}).Check(), "needs n from 2"},
		{"convergence weighting", (&ConvergenceParams{N: 10, Weighting: "heavy"}).Check(), `unknown weighting "heavy"`},
		{"convergence teleport", (&ConvergenceParams{N: 10, Teleport: 1}).Check(), "teleport 1 not in (0, 1)"},
		{"convergence points", (&ConvergenceParams{Steps: 100000, Every: 1}).FillSteps(10), "at most 10000"},
		{"windows rate", (&WindowsParams{N: 10, ChangeRate: &rate}).Check(), "change rate 2 not in [0, 1]"},
		{"windows teleport", (&WindowsParams{N: 10, ChangeRate: new(float64), Teleport: -1}).Check(), "windows: teleport -1"},
		{"normleak damping", (&NormLeakParams{Damping: 2}).Check(), "damping 2 not in (0, 1]"},
		{"api nodes", CheckAPIBounds(Windows, 2_000_000, 1, 0), "the app runs at most 1000000"},
		{"one node", func() error { _, err := NewGraph(one, WeightingLinks, "tiny"); return err }(), "the graph tiny has 1 nodes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var pe ParamError
			if !errors.As(tc.err, &pe) || !strings.Contains(tc.err.Error(), tc.want) {
				t.Errorf("error %v (%T), want a ParamError containing %q", tc.err, tc.err, tc.want)
			}
		})
	}
}

// TestDefaults: zero parameters take the documented defaults.
func TestDefaults(t *testing.T) {
	c := ConvergenceParams{N: 100}
	if err := c.Check(); err != nil {
		t.Fatal(err)
	}
	if err := c.FillSteps(c.N); err != nil {
		t.Fatal(err)
	}
	if c.Graph != GraphSynthetic || c.AvgOut != 8 || c.Weighting != WeightingLinks || len(c.Strategies) != 3 ||
		c.Steps != 1000 || c.Every != 100 || c.Teleport != importance.DefaultTeleport || c.Seed != 1 {
		t.Errorf("convergence defaults %+v", c)
	}
	w := WindowsParams{N: 100, ChangeRate: new(float64)}
	if err := w.Check(); err != nil {
		t.Fatal(err)
	}
	if w.Steps != 1000 || w.Every != 50 || w.Window != 400 || w.Measures != 4 || w.MinMeasures != 3 || w.Seed != 1 {
		t.Errorf("windows defaults %+v", w)
	}
	var n NormLeakParams
	if err := n.Check(); err != nil || n.Iterations != 20 || n.Damping != importance.DefaultTeleport {
		t.Errorf("normleak defaults %+v, %v", n, err)
	}
}
