package plot

import (
	"bufio"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"strconv"
	"strings"
)

// Chart is a line chart. The zero value of every field but Series is a
// sensible default.
type Chart struct {
	Title string
	// Subtitle is a smaller line under the title: the experiment's
	// parameters, say. Both wrap at word boundaries when too long.
	Subtitle       string
	XLabel, YLabel string
	// LogX draws the x axis on a logarithmic scale; points with x ≤ 0 are
	// left out. A quantity that falls as 1/x is then a straight line.
	LogX bool
	// LogY draws the y axis on a logarithmic scale; points with y ≤ 0 are
	// left out (the line breaks there).
	LogY bool
	// YMin and YMax fix the y range when YMax > YMin (on a log axis both
	// must be positive); otherwise it fits the data.
	YMin, YMax float64
	// Width and Height of the drawing in pixels; default 860 × 520.
	Width, Height int
	Series        []Series
}

// Series is one line of a chart: the points (X[i], Y[i]), drawn in order.
// Points with a NaN or infinite coordinate are left out and break the
// line.
type Series struct {
	Name string
	X, Y []float64
	// Color is a CSS colour; empty takes the next colour of [Palette].
	Color string
	// Dash draws the line dashed: a second measure of the same thing, say.
	Dash bool
}

// Palette is the colour cycle for series without a colour: Tableau's ten,
// distinct for colour-blind readers as far as ten colours can be.
var Palette = []string{"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
	"#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"}

const (
	fontFamily     = "system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif"
	charWidth      = 7.0 // average width of a 12px character, to size the legend
	titleCharWidth = 9.5 // the same at 16px, bold
	maxMarkers     = 40  // series with at most this many points get a dot at each
)

// Render writes the chart as a standalone SVG document.
func (c *Chart) Render(w io.Writer) error {
	for i, s := range c.Series {
		if len(s.X) != len(s.Y) {
			return fmt.Errorf("plot: series %d (%q) has %d x and %d y values", i, s.Name, len(s.X), len(s.Y))
		}
	}
	if c.LogY && c.YMax > c.YMin && !(c.YMin > 0) {
		return errors.New("plot: a fixed log y range must be positive")
	}
	width, height := float64(c.Width), float64(c.Height)
	if width <= 0 {
		width = 860
	}
	if height <= 0 {
		height = 520
	}

	// The plot area: room for the title, the tick labels and axis labels,
	// and the legend on the right, outside the lines.
	top, left, bottom, right := 20.0, 80.0, 58.0, 20.0
	titleLines := wrap(c.Title, int((width-40)/titleCharWidth))
	subLines := wrap(c.Subtitle, int((width-40)/charWidth))
	if len(titleLines)+len(subLines) > 0 {
		top = 26 + 21*float64(len(titleLines)) + 16*float64(len(subLines))
	}
	var legendW float64
	for _, s := range c.Series {
		legendW = max(legendW, float64(len([]rune(s.Name)))*charWidth)
	}
	if legendW > 0 {
		legendW += 46
		right += legendW
	}
	area := rect{left, top, max(width-left-right, 40), max(height-top-bottom, 40)}

	xs, ys := c.ranges()
	b := &svgWriter{w: bufio.NewWriter(w)}
	id := c.clipID()
	b.printf(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.printf(`<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" viewBox="0 0 %g %g" font-family="%s" font-size="12">`+"\n",
		width, height, width, height, fontFamily)
	if c.Title != "" {
		b.printf("<title>%s</title>\n", esc(c.Title))
	}
	b.printf(`<rect width="%g" height="%g" fill="#ffffff"/>`+"\n", width, height)
	b.printf(`<defs><clipPath id="%s"><rect x="%.2f" y="%.2f" width="%.2f" height="%.2f"/></clipPath></defs>`+"\n",
		id, area.x, area.y, area.w, area.h)
	y := 10.0
	for _, l := range titleLines {
		y += 21
		b.printf(`<text class="title" x="%.2f" y="%.2f" text-anchor="middle" font-size="16" font-weight="600" fill="#222">%s</text>`+"\n",
			width/2, y, esc(l))
	}
	for _, l := range subLines {
		y += 16
		b.printf(`<text class="subtitle" x="%.2f" y="%.2f" text-anchor="middle" fill="#555">%s</text>`+"\n",
			width/2, y, esc(l))
	}

	// Grid and tick labels.
	b.printf(`<g class="grid" stroke="#e6e6e6" stroke-width="1">` + "\n")
	for _, t := range xs.ticks {
		x := area.x + xs.pos(t.v)*area.w
		stroke := ""
		if t.minor {
			stroke = ` stroke="#f2f2f2"`
		}
		b.printf(`<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f"%s/>`+"\n", x, area.y, x, area.y+area.h, stroke)
	}
	for _, t := range ys.ticks {
		y := area.y + (1-ys.pos(t.v))*area.h
		stroke := ""
		if t.minor {
			stroke = ` stroke="#f2f2f2"`
		}
		b.printf(`<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f"%s/>`+"\n", area.x, y, area.x+area.w, y, stroke)
	}
	b.printf("</g>\n")
	b.printf(`<rect class="frame" x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="none" stroke="#444" stroke-width="1"/>`+"\n",
		area.x, area.y, area.w, area.h)
	b.printf(`<g class="x-ticks" fill="#333" text-anchor="middle">` + "\n")
	for _, t := range xs.ticks {
		if t.label == "" {
			continue
		}
		x := area.x + xs.pos(t.v)*area.w
		b.printf(`<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" stroke="#444"/>`+"\n", x, area.y+area.h, x, area.y+area.h+5)
		b.printf(`<text x="%.2f" y="%.2f">%s</text>`+"\n", x, area.y+area.h+19, esc(t.label))
	}
	b.printf("</g>\n")
	b.printf(`<g class="y-ticks" fill="#333" text-anchor="end">` + "\n")
	for _, t := range ys.ticks {
		if t.label == "" {
			continue
		}
		y := area.y + (1-ys.pos(t.v))*area.h
		b.printf(`<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" stroke="#444"/>`+"\n", area.x-5, y, area.x, y)
		b.printf(`<text x="%.2f" y="%.2f">%s</text>`+"\n", area.x-8, y+4, esc(t.label))
	}
	b.printf("</g>\n")
	if c.XLabel != "" {
		b.printf(`<text class="x-label" x="%.2f" y="%.2f" text-anchor="middle" fill="#222">%s</text>`+"\n",
			area.x+area.w/2, area.y+area.h+44, esc(c.XLabel))
	}
	if c.YLabel != "" {
		cx, cy := 18.0, area.y+area.h/2
		b.printf(`<text class="y-label" x="%.2f" y="%.2f" text-anchor="middle" fill="#222" transform="rotate(-90 %.2f %.2f)">%s</text>`+"\n",
			cx, cy, cx, cy, esc(c.YLabel))
	}

	// The series, clipped to the plot area.
	b.printf(`<g class="series-group" clip-path="url(#%s)" fill="none" stroke-width="2" stroke-linejoin="round" stroke-linecap="round">`+"\n", id)
	for i, s := range c.Series {
		color := c.color(i)
		var d strings.Builder
		var dots []point
		pen := false
		for k := range s.X {
			if !xs.ok(s.X[k]) || !ys.ok(s.Y[k]) {
				pen = false
				continue
			}
			p := point{area.x + xs.pos(s.X[k])*area.w, area.y + (1-ys.pos(s.Y[k]))*area.h}
			if pen {
				fmt.Fprintf(&d, " L%.2f %.2f", p.x, p.y)
			} else {
				fmt.Fprintf(&d, " M%.2f %.2f", p.x, p.y)
			}
			pen = true
			dots = append(dots, p)
		}
		dash := ""
		if s.Dash {
			dash = ` stroke-dasharray="7 5"`
		}
		if d.Len() > 0 {
			b.printf(`<path class="series" data-name="%s" stroke="%s"%s d="%s"/>`+"\n", esc(s.Name), esc(color), dash, strings.TrimSpace(d.String()))
		}
		if len(s.X) <= maxMarkers {
			for _, p := range dots {
				b.printf(`<circle cx="%.2f" cy="%.2f" r="2.6" fill="%s" stroke="none"/>`+"\n", p.x, p.y, esc(color))
			}
		}
	}
	b.printf("</g>\n")

	// The legend, right of the plot area.
	if legendW > 0 {
		lx := area.x + area.w + 16
		b.printf(`<g class="legend" fill="#222">` + "\n")
		for i, s := range c.Series {
			y := area.y + 10 + float64(i)*20
			dash := ""
			if s.Dash {
				dash = ` stroke-dasharray="7 5"`
			}
			b.printf(`<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" stroke="%s" stroke-width="2"%s/>`+"\n", lx, y, lx+28, y, esc(c.color(i)), dash)
			b.printf(`<text x="%.2f" y="%.2f">%s</text>`+"\n", lx+34, y+4, esc(s.Name))
		}
		b.printf("</g>\n")
	}
	b.printf("</svg>\n")
	return b.flush()
}

func (c *Chart) color(i int) string {
	if s := c.Series[i].Color; s != "" {
		return s
	}
	return Palette[i%len(Palette)]
}

// clipID names the clip path after the chart, so that two charts inlined
// in one page do not share it.
func (c *Chart) clipID() string {
	h := fnv.New32a()
	io.WriteString(h, c.Title)
	for _, s := range c.Series {
		io.WriteString(h, "\x00"+s.Name)
	}
	return fmt.Sprintf("plot-area-%08x", h.Sum32())
}

// wrap breaks s into lines of at most width characters at spaces (a
// longer word gets a line of its own).
func wrap(s string, width int) []string {
	var lines []string
	var cur []rune
	for _, word := range strings.Fields(s) {
		w := []rune(word)
		if len(cur) > 0 && len(cur)+1+len(w) > width {
			lines = append(lines, string(cur))
			cur = nil
		}
		if len(cur) > 0 {
			cur = append(cur, ' ')
		}
		cur = append(cur, w...)
	}
	if len(cur) > 0 {
		lines = append(lines, string(cur))
	}
	return lines
}

type rect struct{ x, y, w, h float64 }

type point struct{ x, y float64 }

// axis maps data values to [0, 1] along one axis.
type axis struct {
	lo, hi float64 // on the log axis, decimal logarithms
	log    bool
	ticks  []tick
}

type tick struct {
	v     float64
	label string // empty: a grid line only
	minor bool
}

func (a *axis) ok(v float64) bool {
	return !math.IsNaN(v) && !math.IsInf(v, 0) && (!a.log || v > 0)
}

func (a *axis) pos(v float64) float64 {
	if a.log {
		v = math.Log10(v)
	}
	return (v - a.lo) / (a.hi - a.lo)
}

// ranges fits both axes to the data (and to YMin, YMax) and makes their
// ticks.
func (c *Chart) ranges() (x, y *axis) {
	x, y = &axis{log: c.LogX}, &axis{log: c.LogY}
	xlo, xhi := math.Inf(1), math.Inf(-1)
	ylo, yhi := math.Inf(1), math.Inf(-1)
	for _, s := range c.Series {
		for k := range s.X {
			if !x.ok(s.X[k]) || !y.ok(s.Y[k]) {
				continue
			}
			xlo, xhi = min(xlo, s.X[k]), max(xhi, s.X[k])
			ylo, yhi = min(ylo, s.Y[k]), max(yhi, s.Y[k])
		}
	}
	if xlo > xhi { // no point at all
		xlo, xhi, ylo, yhi = 1, 10, 1, 10
		if !c.LogX {
			xlo = 0
		}
		if !c.LogY {
			ylo = 0
		}
	}
	if c.YMax > c.YMin {
		ylo, yhi = c.YMin, c.YMax
	}
	if c.LogX {
		// The data's own range, unlike y: a reader follows the lines to
		// their ends. Widened to whole decades only when under one.
		x.lo, x.hi = math.Log10(xlo), math.Log10(xhi)
		if x.hi-x.lo < 1 {
			x.lo, x.hi = decades(xlo, xhi)
		}
		x.ticks = logTicks(x.lo, x.hi)
	} else {
		xlo, xhi = widen(xlo, xhi)
		x.lo, x.hi = xlo, xhi
		x.ticks = linearTicks(xlo, xhi, 6)
	}
	if c.LogY {
		y.lo, y.hi = decades(ylo, yhi)
		if c.YMax > c.YMin {
			y.lo, y.hi = math.Log10(ylo), math.Log10(yhi)
		}
		y.ticks = logTicks(y.lo, y.hi)
		return x, y
	}
	ylo, yhi = widen(ylo, yhi)
	if !(c.YMax > c.YMin) {
		// Round the y range out to whole ticks, so that the frame ends on
		// a labelled line.
		step := tickStep(ylo, yhi, 6)
		ylo, yhi = math.Floor(ylo/step+1e-9)*step, math.Ceil(yhi/step-1e-9)*step
	}
	y.lo, y.hi = ylo, yhi
	y.ticks = linearTicks(ylo, yhi, 6)
	return x, y
}

// decades returns the decimal logarithms of the powers of ten around
// [lo, hi], at least one decade apart.
func decades(lo, hi float64) (float64, float64) {
	l, h := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
	if h <= l {
		h = l + 1
	}
	return l, h
}

// widen gives an empty range some width.
func widen(lo, hi float64) (float64, float64) {
	if hi > lo {
		return lo, hi
	}
	d := math.Abs(lo) / 2
	if d == 0 {
		d = 1
	}
	return lo - d, hi + d
}

// tickStep is the 1, 2, 2.5 or 5 × 10ᵏ step giving about n ticks over
// [lo, hi].
func tickStep(lo, hi float64, n int) float64 {
	raw := (hi - lo) / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5} {
		if m*mag >= raw*(1-1e-9) {
			return m * mag
		}
	}
	return 10 * mag
}

func linearTicks(lo, hi float64, n int) []tick {
	step := tickStep(lo, hi, n)
	var vals []float64
	for k := math.Ceil(lo/step - 1e-9); k*step <= hi+step*1e-9; k++ {
		vals = append(vals, k*step)
	}
	// Thousands and millions get a k or M suffix when every tick is a
	// whole number of them: 250k reads at a glance, not 250000.
	maxAbs := max(math.Abs(lo), math.Abs(hi))
	div, suffix := 1.0, ""
	switch {
	case step >= 5e5:
		div, suffix = 1e6, "M"
	case maxAbs >= 1e4 && step >= 1e3:
		div, suffix = 1e3, "k"
	}
	dec := decimals(step / div)
	ticks := make([]tick, len(vals))
	for i, v := range vals {
		s := strconv.FormatFloat(v/div, 'f', dec, 64)
		if strings.Contains(s, ".") {
			s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
		}
		if strings.Trim(s, "-0.") == "" {
			s = "0"
		} else {
			s += suffix
		}
		ticks[i] = tick{v: v, label: s}
	}
	return ticks
}

// decimals is the number of decimals that show step exactly (up to 10).
func decimals(step float64) int {
	for d := 0; d < 10; d++ {
		p := math.Pow(10, float64(d))
		if math.Abs(step*p-math.Round(step*p)) < 1e-6*step*p {
			return d
		}
	}
	return 10
}

// logTicks labels every power of ten between the decimal logarithms lo and
// hi, with grid lines at 2…9 times each; over two decades or less, 2 and 5
// times are labelled too.
func logTicks(lo, hi float64) []tick {
	var ticks []tick
	few := hi-lo <= 2
	for e := math.Floor(lo); e <= math.Ceil(hi); e++ {
		for m := 1; m <= 9; m++ {
			v := float64(m) * math.Pow(10, e)
			l := math.Log10(v)
			if l < lo-1e-9 || l > hi+1e-9 {
				continue
			}
			t := tick{v: v, minor: m != 1}
			if m == 1 || few && (m == 2 || m == 5) {
				t.label = logLabel(v)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}

// logLabel writes a power of ten (or 2 or 5 times one) plainly when short:
// 0.001, 20, 1000; thousands and millions with k and M (50k, 2M), and in
// exponent form beyond.
func logLabel(v float64) string {
	switch {
	case v >= 1e-4 && v < 1e4:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case v >= 1e4 && v < 1e6:
		return strconv.FormatFloat(v/1e3, 'f', -1, 64) + "k"
	case v >= 1e6 && v < 1e9:
		return strconv.FormatFloat(v/1e6, 'f', -1, 64) + "M"
	}
	m, e := v, 0
	for m >= 10 {
		m, e = m/10, e+1
	}
	for m < 1 {
		m, e = m*10, e-1
	}
	return fmt.Sprintf("%se%d", strconv.FormatFloat(math.Round(m), 'f', -1, 64), e)
}

// svgWriter keeps the first write error, so that Render checks once.
type svgWriter struct {
	w   *bufio.Writer
	err error
}

func (s *svgWriter) printf(format string, args ...any) {
	if s.err == nil {
		_, s.err = fmt.Fprintf(s.w, format, args...)
	}
}

func (s *svgWriter) flush() error {
	if s.err != nil {
		return fmt.Errorf("plot: write: %w", s.err)
	}
	if err := s.w.Flush(); err != nil {
		return fmt.Errorf("plot: write: %w", err)
	}
	return nil
}

// esc escapes text for XML character data and attribute values.
func esc(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&quot;")
		case '\'':
			b.WriteString("&#39;")
		default:
			// Characters XML 1.0 forbids are dropped rather than written.
			if r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r != 0xfffe && r != 0xffff && !(r >= 0xd800 && r < 0xe000) {
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}
