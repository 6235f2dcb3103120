package edgelist

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The files in testdata/aut are laid out as the Archives Unleashed Toolkit
// writes its domain graph (github.com/archivesunleashed/aut):
//   - domain-graph.csv: DomainGraphExtractor's columns crawl_date,
//     src_domain, dest_domain, count, as docs/aut-spark-submit-app.md of
//     archivesunleashed/aut-docs names them, written by Spark's CSV writer
//     with a header (a field quoted as Spark quotes one holding a comma);
//   - domain-graph.graphml: src/main/scala/io/archivesunleashed/app/
//     WriteGraphML.scala, byte for byte: nodes keyed by the MD5 of the
//     domain with a label <data>, edges with weight and crawlDate <data>,
//     one edge per crawl date;
//   - domain-graph.gexf: WriteGEXF.scala: nodes with a label attribute,
//     edges with a weight attribute and the crawl date as attvalue 0.

// edgeMap is a graph's edges by "src dst", the weights of repeats added.
func edgeMap(g *Graph) map[string]float64 {
	m := map[string]float64{}
	for i := range g.From {
		m[g.Names[g.From[i]]+" "+g.Names[g.To[i]]] += g.Weight[i]
	}
	return m
}

func TestReadAUTDomainGraph(t *testing.T) {
	want := map[string]float64{
		"liberal.ca youtube.com": 18, // 11 on 20080430 and 7 on 20081016
		"ndp.ca liberal.ca":      3,
		"greenparty.ca ndp.ca":   4,
	}
	for _, tc := range []struct {
		file  string
		extra map[string]float64
		self  int
	}{
		{"domain-graph.csv", map[string]float64{"conservative.ca liberal.ca": 6}, 1},
		{"domain-graph.graphml", nil, 0},
		{"domain-graph.gexf", nil, 0},
	} {
		t.Run(tc.file, func(t *testing.T) {
			g, err := ReadFileOptions(filepath.Join("testdata", "aut", tc.file), Options{Strict: true})
			if err != nil {
				t.Fatal(err)
			}
			if r := g.Report(tc.file); !strings.HasPrefix(r, tc.file+": read as "+g.Format+"\n") || g.Format == FormatEdgeList {
				t.Errorf("Report = %q, want it to name the layout read", r)
			}
			w := map[string]float64{}
			for k, v := range want {
				w[k] = v
			}
			for k, v := range tc.extra {
				w[k] = v
			}
			got := edgeMap(g)
			if len(got) != len(w) || len(g.From) != len(w) {
				t.Errorf("edges = %v (%d entries), want %v, one per pair", got, len(g.From), w)
			}
			for k, v := range w {
				if got[k] != v {
					t.Errorf("%s: weight %v, want %v", k, got[k], v)
				}
			}
			if g.SelfEdges != tc.self {
				t.Errorf("self-edges = %d, want %d", g.SelfEdges, tc.self)
			}
		})
	}
}

func TestDomainCSVGzipAndParts(t *testing.T) {
	// Spark writes a directory of part files, each with its header; put
	// end to end, the repeated headers are no bad lines.
	part, err := os.ReadFile(filepath.Join("testdata", "aut", "domain-graph.csv"))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(part)
	zw.Write(part)
	zw.Close()
	path := filepath.Join(t.TempDir(), "domain-graph.csv.gz")
	os.WriteFile(path, buf.Bytes(), 0o644)
	g, err := ReadFileOptions(path, Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := edgeMap(g)["liberal.ca youtube.com"]; got != 36 {
		t.Errorf("liberal.ca youtube.com = %v, want 36", got)
	}
}

func TestDomainCSVBadLines(t *testing.T) {
	in := "\uFEFF\"crawl_date\",\"src_domain\",\"dest_domain\",\"count\"\r\n" +
		"20080430,liberal.ca,youtube.com,11\r\n" +
		"20080430,<img/src=x>,youtube.com,2\r\n" + // line 3: no host name
		"20080430,ndp.ca,liberal.ca\r\n" + // line 4: a field missing
		"20080430,ndp.ca,liberal.ca,-1\r\n" + // line 5: a negative count
		"20080430,ndp\"x.ca,liberal.ca,3\r\n" + // line 6: a bare quote
		"\"20080430\",\"ndp.ca\",\"liberal.ca\",\"3\"\r\n"
	g, err := ReadOptions(strings.NewReader(in), "dg.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Skipped != 4 || len(g.SkippedLines) != 4 {
		t.Fatalf("skipped %d (%v), want 4", g.Skipped, g.SkippedLines)
	}
	for i, line := range []int{3, 4, 5, 6} {
		if g.SkippedLines[i].Line != line {
			t.Errorf("skipped line %d is %d, want %d (%s)", i, g.SkippedLines[i].Line, line, g.SkippedLines[i].Msg)
		}
	}
	if got := edgeMap(g); len(got) != 2 || got["ndp.ca liberal.ca"] != 3 {
		t.Errorf("edges = %v", got)
	}
	_, err = ReadOptions(strings.NewReader(in), "dg.csv", Options{Strict: true})
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Total != 4 || !strings.Contains(err.Error(), "dg.csv:5: the count is not a positive number") {
		t.Fatalf("strict: err = %v", err)
	}
	if strings.Contains(err.Error(), "<img") {
		t.Errorf("the error quotes the bad name: %v", err)
	}
}

func TestDomainCSVLongRecord(t *testing.T) {
	// An unclosed quote would make the CSV reader hold the rest of the
	// file as one field.
	in := "crawl_date,src_domain,dest_domain,count\n20080430,\"a.ca" + strings.Repeat("x\n", maxRecord) + "\n"
	_, err := ReadOptions(strings.NewReader(in), "dg.csv", Options{})
	if err == nil || !strings.Contains(err.Error(), "byte offset 40 is longer than") {
		t.Fatalf("err = %v", err)
	}
}

func TestGraphXMLBadEdges(t *testing.T) {
	in := `<?xml version="1.0" encoding="UTF-8"?>
<gexf xmlns="http://www.gexf.net/1.3draft" version="1.3">
<graph mode="static" defaultedgetype="directed">
<nodes>
<node id="1" label="a.ca" />
<node id="2" label="b.ca" />
<node id="3" label="javascript:alert(1)" />
</nodes>
<edges>
<edge source="1" target="2" weight="2" />
<edge source="1" target="9" weight="2" />
<edge source="1" target="3" weight="1" />
<edge source="2" target="1" weight="NaN" />
<edge source="2" target="1" type="undirected" />
</edges>
</graph>
</gexf>`
	g, err := ReadOptions(strings.NewReader(in), "g.gexf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Skipped != 3 {
		t.Errorf("skipped %d, want 3: %v", g.Skipped, g.SkippedLines)
	}
	for i, line := range []int{11, 12, 13} {
		if i < len(g.SkippedLines) && g.SkippedLines[i].Line != line {
			t.Errorf("skipped %v, want lines 11, 12, 13", g.SkippedLines)
		}
	}
	if got := edgeMap(g); got["a.ca b.ca"] != 3 || got["b.ca a.ca"] != 1 || len(got) != 2 {
		t.Errorf("edges = %v", got)
	}
	if _, err := ReadOptions(strings.NewReader(in), "g.gexf", Options{Strict: true}); err == nil || !strings.Contains(err.Error(), "g.gexf:11: the edge's target is no node of the file") {
		t.Errorf("strict: err = %v", err)
	}
}

func TestGraphXMLHostile(t *testing.T) {
	graphml := `<?xml version="1.0"?>` + "\n"
	bomb := graphml + `<!DOCTYPE lolz [
<!ENTITY lol "lol">
<!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
]>
<graphml><graph><node id="&lol2;"/></graph></graphml>`
	undeclared := graphml + `<graphml><graph>
<node id="a"><data key="label">&lol2;</data></node></graph></graphml>`
	deep := graphml + "<graphml><graph>" + strings.Repeat("<node>", 10000) + strings.Repeat("</node>", 10000) + "</graph></graphml>"
	huge := graphml + `<graphml><graph><node id="` + strings.Repeat("a", 2*maxToken) + `"/></graph></graphml>`
	hugeText := graphml + `<graphml><graph><node id="a"><data key="label">` + strings.Repeat(strings.Repeat("a", 1000)+"<!-- -->", 1100) + `</data></node></graph></graphml>`
	for _, tc := range []struct{ name, in, want string }{
		{"entity bomb", bomb, "g.graphml: line 2 (byte offset 22): a DOCTYPE"},
		{"undeclared entity", undeclared, "g.graphml: line 3 (byte offset"},
		{"10k levels", deep, "g.graphml: line 2 (byte offset 218): elements nested deeper than 32"},
		{"huge attribute", huge, "an XML token longer than 1048576 bytes"},
		{"huge text", hugeText, "an element's text longer than 1048576 bytes"},
		{"gexf bomb", strings.ReplaceAll(bomb, "graphml", "gexf"), "a DOCTYPE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadOptions(strings.NewReader(tc.in), "g.graphml", Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestDetectFormat(t *testing.T) {
	for _, tc := range []struct {
		head string
		want format
	}{
		{"crawl_date,src_domain,dest_domain,count\n", autCSV},
		{"\uFEFF\"CrawlDate\",\"SrcDomain\",\"DestDomain\",\"count\"\r\n", autCSV},
		{"count,source,target,crawl_date\n", autCSV},
		{"crawl_date,src_domain,dest_domain\n", plainFormat},
		{"crawl_date,src_domain,src_domain,count\n", plainFormat},
		{"a.test b.test\n", plainFormat},
		{"<?xml version=\"1.0\"?>\n<!-- x -->\n<graphml>", graphML},
		{"<gexf:gexf xmlns:gexf=\"http://www.gexf.net/1.3\">", gexf},
		{"<html>", plainFormat},
	} {
		if got := detectFormat([]byte(tc.head)); got != tc.want {
			t.Errorf("detectFormat(%q) = %d, want %d", tc.head, got, tc.want)
		}
	}
}

// FuzzReadDerivative reads hostile domain graphs: no panic, and a graph
// read has edges between distinct named sites of positive weight, one per
// pair.
func FuzzReadDerivative(f *testing.F) {
	for _, name := range []string{"domain-graph.csv", "domain-graph.graphml", "domain-graph.gexf"} {
		b, err := os.ReadFile(filepath.Join("testdata", "aut", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if detectFormat(in) == plainFormat {
			return // the edge-list reader's own fuzzing covers it
		}
		for _, strict := range []bool{false, true} {
			g, err := ReadOptions(bytes.NewReader(in), "f", Options{Strict: strict})
			if err != nil {
				continue
			}
			seen := map[[2]int32]bool{}
			for i := range g.From {
				k := [2]int32{g.From[i], g.To[i]}
				if g.From[i] == g.To[i] || seen[k] || !(g.Weight[i] > 0) || int(g.From[i]) >= len(g.Names) || int(g.To[i]) >= len(g.Names) {
					t.Fatalf("bad edge %d: %v", i, k)
				}
				seen[k] = true
			}
			if strict && g.Skipped > 0 {
				t.Fatalf("strict reading skipped %d lines", g.Skipped)
			}
		}
	})
}
