package plot

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"testing"
)

// parsed is what the tests read back from a rendered chart.
type parsed struct {
	paths   map[string]string // data-name → d of each series path
	dashed  map[string]bool
	texts   map[string][]string // class of the enclosing group or text → texts
	circles int
	title   string
}

// parse decodes the SVG with encoding/xml, failing the test on any
// malformed XML, and collects the parts the tests look at.
func parse(t *testing.T, svg []byte) parsed {
	t.Helper()
	p := parsed{paths: map[string]string{}, dashed: map[string]bool{}, texts: map[string][]string{}}
	dec := xml.NewDecoder(bytes.NewReader(svg))
	var stack []string // class of each open element (inherited when absent)
	var inText, inTitle bool
	var root bool
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("malformed XML: %v\n%s", err, svg)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			if len(stack) == 0 {
				if e.Name.Local != "svg" || e.Name.Space != "http://www.w3.org/2000/svg" {
					t.Fatalf("root element %v, want svg in the SVG namespace", e.Name)
				}
				root = true
			}
			class := ""
			if len(stack) > 0 {
				class = stack[len(stack)-1]
			}
			attr := map[string]string{}
			for _, a := range e.Attr {
				attr[a.Name.Local] = a.Value
			}
			if c, ok := attr["class"]; ok {
				class = c
			}
			stack = append(stack, class)
			switch e.Name.Local {
			case "path":
				if attr["class"] == "series" {
					p.paths[attr["data-name"]] = attr["d"]
					p.dashed[attr["data-name"]] = attr["stroke-dasharray"] != ""
				}
			case "circle":
				p.circles++
			case "text":
				inText = true
			case "title":
				inTitle = true
			}
		case xml.EndElement:
			stack = stack[:len(stack)-1]
			inText, inTitle = false, false
		case xml.CharData:
			s := strings.TrimSpace(string(e))
			if inText && s != "" {
				class := stack[len(stack)-1]
				p.texts[class] = append(p.texts[class], s)
			}
			if inTitle {
				p.title += s
			}
		}
	}
	if !root {
		t.Fatal("no svg element")
	}
	return p
}

func render(t *testing.T, c Chart) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := c.Render(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestRenderSeriesAndLegend(t *testing.T) {
	steps := []float64{0, 250000, 500000, 750000, 1000000}
	c := Chart{
		Title: `Errors <"greedy" & co>`, XLabel: "reads", YLabel: "error (%)",
		Series: []Series{
			{Name: "greedy", X: steps, Y: []float64{90, 20, 10, 5, 2.5}},
			{Name: "greedy top 1%", X: steps, Y: []float64{60, 10, 4, 2, 1}, Dash: true},
			{Name: "random", X: steps, Y: []float64{95, math.NaN(), 30, 20, 15}, Color: "#123456"},
		},
	}
	svg := render(t, c)
	p := parse(t, svg)
	if p.title != c.Title {
		t.Errorf("title %q, want %q", p.title, c.Title)
	}
	if got := p.texts["title"]; len(got) != 1 || got[0] != c.Title {
		t.Errorf("title text %q", got)
	}
	for _, s := range c.Series {
		d, ok := p.paths[s.Name]
		if !ok {
			t.Fatalf("no path for series %q", s.Name)
		}
		if p.dashed[s.Name] != s.Dash {
			t.Errorf("series %q dashed %v, want %v", s.Name, p.dashed[s.Name], s.Dash)
		}
		// One M per unbroken run: the NaN breaks "random" in two.
		wantMoves := 1
		if s.Name == "random" {
			wantMoves = 2
		}
		if n := strings.Count(d, "M"); n != wantMoves {
			t.Errorf("series %q: %d moves in %q, want %d", s.Name, n, d, wantMoves)
		}
	}
	if !slices.Equal(p.texts["legend"], []string{"greedy", "greedy top 1%", "random"}) {
		t.Errorf("legend %q", p.texts["legend"])
	}
	if p.circles != 14 {
		t.Errorf("%d markers, want 14 (one per drawn point)", p.circles)
	}
	if !bytes.Contains(svg, []byte(`stroke="#123456"`)) {
		t.Error("the series colour was not used")
	}
	// The x axis counts in thousands of reads.
	if x := p.texts["x-ticks"]; !slices.Contains(x, "0") || !slices.Contains(x, "1000k") {
		t.Errorf("x tick labels %q", x)
	}
	if !slices.Contains(p.texts["x-label"], "reads") || !slices.Contains(p.texts["y-label"], "error (%)") {
		t.Errorf("axis labels %q, %q", p.texts["x-label"], p.texts["y-label"])
	}
	// The linear y axis starts at a labelled 0 and ends at or above 95.
	y := p.texts["y-ticks"]
	if len(y) < 3 || y[0] != "0" {
		t.Errorf("y tick labels %q", y)
	}
}

func TestRenderLogAxis(t *testing.T) {
	c := Chart{LogY: true, Series: []Series{{Name: "err", X: []float64{1, 2, 3, 4}, Y: []float64{150, 12, 0.9, 0}}}}
	p := parse(t, render(t, c))
	// 0.9 to 150 spans 10^-1 to 10^3: a label at each power of ten.
	if got, want := p.texts["y-ticks"], []string{"0.1", "1", "10", "100", "1000"}; !slices.Equal(got, want) {
		t.Errorf("log tick labels %q, want %q", got, want)
	}
	// The point at y = 0 cannot be drawn on a log axis.
	if n := strings.Count(p.paths["err"], "L"); n != 2 {
		t.Errorf("path %q: want 3 points drawn", p.paths["err"])
	}

	// Over two decades or less, 2 and 5 are labelled too.
	c = Chart{LogY: true, Series: []Series{{Name: "e", X: []float64{0, 1}, Y: []float64{1.5, 40}}}}
	p = parse(t, render(t, c))
	if got, want := p.texts["y-ticks"], []string{"1", "2", "5", "10", "20", "50", "100"}; !slices.Equal(got, want) {
		t.Errorf("log tick labels %q, want %q", got, want)
	}

	// Far from 1, exponent form.
	c = Chart{LogY: true, Series: []Series{{Name: "e", X: []float64{0, 1}, Y: []float64{1e-7, 1e-5}}}}
	p = parse(t, render(t, c))
	if got, want := p.texts["y-ticks"], []string{"1e-7", "2e-7", "5e-7", "1e-6", "2e-6", "5e-6", "1e-5"}; !slices.Equal(got, want) {
		t.Errorf("log tick labels %q, want %q", got, want)
	}
}

func TestRenderFixedRangeAndEmpty(t *testing.T) {
	c := Chart{YMin: 0, YMax: 1.1, Series: []Series{{Name: "norm", X: []float64{0, 1, 2}, Y: []float64{1, 0.8, 0.5}}}}
	p := parse(t, render(t, c))
	if got := p.texts["y-ticks"]; len(got) == 0 || got[0] != "0" || got[len(got)-1] != "1" {
		t.Errorf("fixed range ticks %q", got)
	}
	// No data: axes and a legend, no path, still valid.
	p = parse(t, render(t, Chart{Title: "nothing", Series: []Series{{Name: "none"}}}))
	if len(p.paths) != 0 || !slices.Equal(p.texts["legend"], []string{"none"}) {
		t.Errorf("empty chart: paths %v, legend %q", p.paths, p.texts["legend"])
	}
	p = parse(t, render(t, Chart{}))
	if len(p.texts["x-ticks"]) == 0 {
		t.Error("empty chart without ticks")
	}
}

func TestRenderErrors(t *testing.T) {
	var b bytes.Buffer
	if err := (&Chart{Series: []Series{{X: []float64{1}, Y: nil}}}).Render(&b); err == nil {
		t.Error("series of unequal lengths accepted")
	}
	if err := (&Chart{LogY: true, YMin: 0, YMax: 10}).Render(&b); err == nil {
		t.Error("log range from 0 accepted")
	}
	if err := (&Chart{}).Render(failingWriter{}); err == nil {
		t.Error("write error not reported")
	}
}

// TestRenderEscapesAndDropsInvalidCharacters: names are untrusted (site
// names, file names); the document must stay well-formed whatever they hold.
func TestRenderEscapesAndDropsInvalidCharacters(t *testing.T) {
	name := "a<b>&\"c'\x00\x1b\ufffe d"
	p := parse(t, render(t, Chart{Title: name, XLabel: name, Series: []Series{{Name: name, X: []float64{1, 2}, Y: []float64{1, 2}}}}))
	want := "a<b>&\"c' d"
	if p.title != want || !slices.Equal(p.texts["legend"], []string{want}) {
		t.Errorf("title %q, legend %q; want %q", p.title, p.texts["legend"], want)
	}
}

func TestTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		want   []string
	}{
		{0, 1, []string{"0", "0.2", "0.4", "0.6", "0.8", "1"}},
		{0, 20, []string{"0", "5", "10", "15", "20"}},
		{0, 1e6, []string{"0", "200k", "400k", "600k", "800k", "1000k"}},
		{0, 2.5e6, []string{"0", "0.5M", "1M", "1.5M", "2M", "2.5M"}},
		{-1, 1, []string{"-1", "-0.5", "0", "0.5", "1"}},
		{0, 4e6, []string{"0", "1M", "2M", "3M", "4M"}},
		{0.5, 0.51, []string{"0.5", "0.502", "0.504", "0.506", "0.508", "0.51"}},
	} {
		var got []string
		for _, tk := range linearTicks(tc.lo, tc.hi, 6) {
			got = append(got, tk.label)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("ticks over [%v, %v]: %q, want %q", tc.lo, tc.hi, got, tc.want)
		}
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestRenderWrapsLongTitles(t *testing.T) {
	title := strings.Repeat("a long title word ", 12)
	sub := strings.Repeat("parameters ", 30)
	p := parse(t, render(t, Chart{Title: title, Subtitle: sub, Width: 600}))
	lines := p.texts["title"]
	if len(lines) < 2 || strings.Join(lines, " ") != strings.TrimSpace(title) {
		t.Errorf("title lines %q", lines)
	}
	for _, l := range lines {
		if float64(len(l))*titleCharWidth > 600-40 {
			t.Errorf("title line %q too wide", l)
		}
	}
	if subs := p.texts["subtitle"]; len(subs) < 2 || strings.Join(subs, " ") != strings.TrimSpace(sub) {
		t.Errorf("subtitle lines %q", subs)
	}
}

func TestRenderLogX(t *testing.T) {
	c := Chart{LogX: true, LogY: true, Series: []Series{{Name: "1/x",
		X: []float64{0, 1000, 10000, 100000, 1e6}, Y: []float64{5, 1, 0.1, 0.01, 0.001}}}}
	p := parse(t, render(t, c))
	if got, want := p.texts["x-ticks"], []string{"1000", "10k", "100k", "1M"}; !slices.Equal(got, want) {
		t.Errorf("log x tick labels %q, want %q", got, want)
	}
	// x = 0 cannot be drawn; the four others lie on a straight line.
	d := p.paths["1/x"]
	if strings.Count(d, "M") != 1 || strings.Count(d, "L") != 3 {
		t.Fatalf("path %q", d)
	}
	var pts [][2]float64
	for _, f := range strings.FieldsFunc(d, func(r rune) bool { return r == 'M' || r == 'L' }) {
		var x, y float64
		if _, err := fmt.Sscan(f, &x, &y); err != nil {
			t.Fatal(err)
		}
		pts = append(pts, [2]float64{x, y})
	}
	slope := func(a, b [2]float64) float64 { return (b[1] - a[1]) / (b[0] - a[0]) }
	if s1, s2 := slope(pts[0], pts[1]), slope(pts[2], pts[3]); math.Abs(s1-s2) > 0.01*math.Abs(s1) {
		t.Errorf("1/x is not straight on log-log axes: slopes %v and %v", s1, s2)
	}
}
