// Package plot draws line charts as standalone SVG documents: several
// series, axes with ticks and labels, an optional logarithmic y axis, a
// legend and a title, with no dependency beyond the standard library. The
// lab experiments use it for their figures, the command line writes them to
// files and the app shows them.
//
//	c := plot.Chart{Title: "OPIC error", XLabel: "reads", YLabel: "error (%)", LogY: true,
//		Series: []plot.Series{{Name: "greedy", X: steps, Y: errs}}}
//	err := c.Render(w)
package plot
