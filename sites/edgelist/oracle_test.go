package edgelist

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"sitesift/sites"
)

// oracle parses in the plainest way, line by line with Go maps, from the
// format's definition: what the block parser with its token and edge tables
// must reproduce exactly (names in order of first appearance, the distinct
// edges in order of first appearance with their summed weights, the
// self-edge count, the bad lines).
type oracle struct {
	names    []string
	from, to []int32
	weight   []float64
	self     int
	bad      []int
	// ids says the file is a graph of ids; overflow that its weights
	// overflow (which stops a lenient reading too).
	ids, overflow bool
}

// oracleFields splits the lines of in, comments cut, and says which lines
// have fields.
func oracleFields(in string) [][]string {
	var out [][]string
	for _, line := range strings.Split(strings.TrimPrefix(in, "\uFEFF"), "\n") {
		line = strings.TrimSuffix(line, "\r")
		for i := 0; i < len(line); i++ {
			if line[i] == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t') {
				line = line[:i]
				break
			}
		}
		out = append(out, strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '\t' || r == '\r' }))
	}
	return out
}

// oracleWeight is a line's weight, or false.
func oracleWeight(f []string) (float64, bool) {
	if len(f) == 2 {
		return 1, true
	}
	if len(f) != 3 {
		return 0, false
	}
	v, err := strconv.ParseFloat(f[2], 64)
	return v, err == nil && v >= 0x1p-1022 && !math.IsInf(v, 0)
}

func allDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

func parseOracle(in string) oracle {
	var o oracle
	lines := oracleFields(in)
	// A graph of ids when most good lines of the first 1024 with fields
	// hold two integers.
	seen, good, intPairs := 0, 0, 0
	for _, f := range lines {
		if len(f) == 0 {
			continue
		}
		if seen++; seen > 1024 {
			break
		}
		if _, ok := oracleWeight(f); ok {
			good++
			if allDigits(f[0]) && allDigits(f[1]) {
				intPairs++
			}
		}
	}
	o.ids = 2*intPairs > good
	ids := map[string]int32{}
	site := func(tok string) (int32, bool) {
		name := sites.Name(tok)
		if o.ids {
			name = strings.TrimLeft(tok, "0")
			if name == "" {
				name = "0"
			}
			if !allDigits(tok) || len(name) > 19 {
				return 0, false
			}
		} else if strings.Contains(tok, "://") {
			s, err := sites.Of(tok)
			if err != nil {
				return 0, false
			}
			name = s
		} else if !utf8Printable(tok) || sites.CheckName(tok) != nil || !utf8Printable(name) {
			return 0, false
		}
		id, ok := ids[name]
		if !ok {
			id = int32(len(o.names))
			o.names = append(o.names, name)
			ids[name] = id
		}
		return id, true
	}
	edges := map[[2]int32]int{}
	total, overflow := 0.0, false
	for n, f := range lines {
		if len(f) == 0 {
			continue
		}
		w, ok := oracleWeight(f)
		var s, d int32
		if ok {
			s, ok = site(f[0])
		}
		if ok {
			d, ok = site(f[1])
		}
		switch {
		case !ok:
			o.bad = append(o.bad, n+1)
		case s == d:
			o.self++
		default:
			bad := false
			if k, seen := edges[[2]int32{s, d}]; !seen {
				edges[[2]int32{s, d}] = len(o.from)
				o.from, o.to, o.weight = append(o.from, s), append(o.to, d), append(o.weight, w)
			} else if sum := o.weight[k] + w; math.IsInf(sum, 0) {
				bad, o.overflow = true, true
			} else {
				o.weight[k] = sum
			}
			if !overflow {
				total += w
				if math.IsInf(total, 0) {
					overflow, bad, o.overflow = true, true, true
				}
			}
			if bad {
				o.bad = append(o.bad, n+1)
			}
		}
	}
	if o.ids && len(o.from) > 0 {
		// Every id from 0 to the largest is a node, while those no line
		// names are at most as many as those named.
		largest := 0
		named := map[int]bool{}
		for _, s := range o.names {
			v, _ := strconv.Atoi(s)
			largest, named[v] = max(largest, v), true
		}
		if missing := largest + 1 - len(o.names); missing <= len(o.names) && largest < math.MaxInt32 {
			for v := 0; v <= largest; v++ {
				if !named[v] {
					o.names = append(o.names, strconv.Itoa(v))
				}
			}
		}
	}
	return o
}

// checkAgainstOracle parses in with a buffer of chunk bytes, merging
// repeated edges once compactAt are read, and compares.
func checkAgainstOracle(t *testing.T, in string, chunk, compactAt int) {
	t.Helper()
	want := parseOracle(in)
	// One byte per Read: the buffer refills at every possible place.
	g, err := readBuffer(iotest.OneByteReader(strings.NewReader(in)), "in", 0, chunk, chunk-1, compactAt, Options{Rule: sites.RuleHost, Strict: true})
	if long := slices.IndexFunc(lineLengths(in), func(n int) bool { return n > chunk-1 }); long >= 0 {
		// The reading stops at the first long line, reported with the bad
		// lines before it.
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Fatalf("a line of more than %d bytes: err %v", chunk-1, err)
		}
		// The lines before it are all the reading saw, and decided
		// whether the file is a graph of ids.
		before := 0
		for _, l := range parseOracle(strings.Join(strings.Split(in, "\n")[:long], "\n")).bad {
			if l < long+1 {
				before++
			}
		}
		if last := pe.Lines[len(pe.Lines)-1]; pe.Total != before+1 ||
			pe.Total <= MaxReported && (last.Line != long+1 || !strings.HasPrefix(last.Msg, "a line longer than")) {
			t.Fatalf("long line %d: bad lines %v (total %d), want %d before it", long+1, pe.Lines, pe.Total, before)
		}
		return
	}
	if !want.overflow {
		checkLenient(t, in, want, chunk, compactAt)
	}
	if len(want.bad) > 0 {
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Fatalf("bad lines %v, err %v", want.bad, err)
		}
		var got []int
		for _, l := range pe.Lines {
			got = append(got, l.Line)
		}
		if pe.Total != len(want.bad) || !slices.Equal(got, want.bad[:min(len(want.bad), MaxReported)]) {
			t.Fatalf("bad lines %v (total %d), want %v", got, pe.Total, want.bad)
		}
		return
	}
	if len(want.from) == 0 {
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Total != 0 || !strings.HasPrefix(pe.Problem, "no edges") || !strings.HasPrefix(err.Error(), "in: no edges") {
			t.Fatalf("no edges: err %v", err)
		}
		return
	}
	if err != nil {
		t.Fatalf("err %v, want none", err)
	}
	checkGraph(t, g, want, compactAt)
}

// checkLenient reads in leniently and compares: the graph of the good
// lines, the bad ones counted and the first named, a file of bad lines
// only refused.
func checkLenient(t *testing.T, in string, want oracle, chunk, compactAt int) {
	t.Helper()
	g, err := readBuffer(iotest.OneByteReader(strings.NewReader(in)), "in", 0, chunk, chunk-1, compactAt, Options{Rule: sites.RuleHost})
	first := want.bad[:min(len(want.bad), MaxReported)]
	if len(want.from) == 0 {
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Total != len(want.bad) {
			t.Fatalf("lenient, no edges: err %v, want %d bad lines", err, len(want.bad))
		}
		return
	}
	if err != nil {
		t.Fatalf("lenient: err %v, want none", err)
	}
	var got []int
	for _, l := range g.SkippedLines {
		got = append(got, l.Line)
	}
	if g.Skipped != len(want.bad) || !slices.Equal(got, first) {
		t.Fatalf("lenient: skipped %v (total %d), want %v", got, g.Skipped, want.bad)
	}
	checkGraph(t, g, want, compactAt)
}

// checkGraph compares g with the oracle's graph.
func checkGraph(t *testing.T, g *Graph, want oracle, compactAt int) {
	t.Helper()
	if g.IDs != want.ids {
		t.Fatalf("IDs %v, want %v", g.IDs, want.ids)
	}
	if merged := 2*distinctEdges(g) + compactAt + 1; len(g.From) > merged {
		t.Fatalf("%d edges kept, more than %d: repeats not merged", len(g.From), merged)
	}
	mergeRepeats(g)
	if !slices.Equal(g.Names, want.names) || !slices.Equal(g.From, want.from) || !slices.Equal(g.To, want.to) ||
		!slices.Equal(g.Weight, want.weight) || g.SelfEdges != want.self {
		t.Fatalf("got names %q edges %v→%v %v self %d\nwant names %q edges %v→%v %v self %d",
			g.Names, g.From, g.To, g.Weight, g.SelfEdges, want.names, want.from, want.to, want.weight, want.self)
	}
}

// distinctEdges counts g's distinct edges.
func distinctEdges(g *Graph) int {
	seen := map[[2]int32]bool{}
	for k := range g.From {
		seen[[2]int32{g.From[k], g.To[k]}] = true
	}
	return len(seen)
}

// mergeRepeats merges g's repeated edges as callers do, in order of first
// appearance, adding the weights in order.
func mergeRepeats(g *Graph) {
	at := map[[2]int32]int{}
	w := 0
	for k := range g.From {
		e := [2]int32{g.From[k], g.To[k]}
		if i, ok := at[e]; ok {
			g.Weight[i] += g.Weight[k]
			continue
		}
		at[e] = w
		g.From[w], g.To[w], g.Weight[w] = g.From[k], g.To[k], g.Weight[k]
		w++
	}
	g.From, g.To, g.Weight = g.From[:w], g.To[:w], g.Weight[:w]
}

func lineLengths(in string) []int {
	var n []int
	for _, l := range strings.Split(in, "\n") {
		n = append(n, len(l))
	}
	return n
}

// TestReadMatchesOracle: random files with URLs, upper case, tabs, CRs,
// comments, weights, repeats and bad lines, over several block and buffer
// boundaries.
func TestReadMatchesOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	toks := []string{"a.test", "A.TEST", "b.test", "http://a.test/x", "https://WWW.b.test:443/", "site0000001.example",
		"a-very-long-site-name-beyond-the-slot.example", "http://c.test/a/long/path/that/is/longer/than/a/slot.html",
		"d#e", "http:///nohost", "ctl\x01name", "é.test", "<img/src=x>", "=evilhub()", "javascript:alert(1)", "blog.test/~a?b=1"}
	seps := []string{" ", "\t", "  ", " \t "}
	for trial := range 40 {
		var b strings.Builder
		for range 1 + rng.IntN(3000) {
			if rng.IntN(50) == 0 {
				b.WriteString("# a comment\n")
				continue
			}
			b.WriteString(toks[rng.IntN(len(toks))])
			b.WriteString(seps[rng.IntN(len(seps))])
			b.WriteString(toks[rng.IntN(len(toks))])
			switch rng.IntN(20) {
			case 0:
				b.WriteString(" 2.5")
			case 1:
				b.WriteString(" -1")
			case 2:
				b.WriteString(" # trailing")
			case 3:
				b.WriteString(" 1 extra")
			}
			if rng.IntN(10) == 0 {
				b.WriteString("\r")
			}
			b.WriteString("\n")
		}
		in := b.String()
		if trial%3 == 0 {
			in = strings.TrimSuffix(in, "\n") // a last line without newline
		}
		// Most trials without bad lines, so that the edges are compared.
		if trial%2 == 0 {
			var good []string
			for _, l := range strings.Split(in, "\n") {
				if o := parseOracle(l); len(o.bad) == 0 {
					good = append(good, l)
				}
			}
			in = strings.Join(good, "\n")
		}
		for _, c := range []struct{ chunk, compactAt int }{{128, 1}, {1000, 57}, {1 << 16, CompactEdges}} {
			t.Run(fmt.Sprintf("%d/%d", trial, c.chunk), func(t *testing.T) { checkAgainstOracle(t, in, c.chunk, c.compactAt) })
		}
	}
}

// TestReadIDsMatchOracle: random files of integer ids among host names,
// the first lines of some of them host names where most of the first 1024
// are ids, and of others ids where most are host names: the file's kind is
// that of most of its first 1024 lines, whatever the reads and the blocks.
func TestReadIDsMatchOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	ids := []string{"0", "1", "2", "007", "7", "00", "42", "12345678901234567890", "1234567890123456789", "3 1.5"}
	hosts := []string{"a.test", "b.test", "www,umass.edu", "www..igc.apc.org", "194.131.191", "x"}
	for trial := range 24 {
		var b strings.Builder
		head, share := 1+rng.IntN(40), 10+rng.IntN(81) // percent of id lines
		if trial%2 == 1 {
			share = 100 - share
		}
		for n := range 1 + rng.IntN(2500) {
			toks := ids
			if n < head == (trial%2 == 0) || rng.IntN(100) >= share {
				toks = hosts
			}
			fmt.Fprintf(&b, "%s %s\n", toks[rng.IntN(len(toks))], toks[rng.IntN(len(toks))])
			if rng.IntN(40) == 0 {
				b.WriteString("# comment\n\n")
			}
		}
		in := b.String()
		for _, c := range []struct{ chunk, compactAt int }{{64, 3}, {1 << 16, CompactEdges}} {
			t.Run(fmt.Sprintf("%d/%d", trial, c.chunk), func(t *testing.T) { checkAgainstOracle(t, in, c.chunk, c.compactAt) })
		}
	}
}

func FuzzReadMatchesOracle(f *testing.F) {
	f.Add("0 1\n1 2 2\n007 0\nx.test 3\n")
	f.Add("a b\nhttp://x.test/ y 2\n# c\n")
	f.Add("a\tb\t0.5\r\nb a 1e308\n")
	f.Add("A b\r\n a  B #x\nb\ta 3 4\nx y\n\n")
	f.Add("http://[::1]:80/ https://Q.test:443/p#f 3")
	f.Add("<img/src=x> a.test\n=evilhub() b.test/p\nb.test javascript:alert(1)\nc.test:8080/x?y d\n")
	f.Fuzz(func(t *testing.T, in string) {
		checkAgainstOracle(t, in, 16, 2)
		checkAgainstOracle(t, in, 4096, CompactEdges)
	})
}
