package edgelist

import (
	"bufio"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// maxToken bounds one XML token (a tag with its attributes, a run of text,
// a comment): a hostile file cannot make the decoder hold more.
const maxToken = 1 << 20

// maxDepth bounds the nesting of XML elements. GraphML and GEXF as the
// Archives Unleashed Toolkit writes them nest five deep.
const maxDepth = 32

// xmlKey is a GraphML <key>: the name of the attribute a <data key=…>
// holds, and its default.
type xmlKey struct {
	name, dflt string
	hasDflt    bool
}

// xmlEdge is an edge as read, its ends node ids, resolved at the end: a
// file may name a node before it declares it.
type xmlEdge struct {
	line     int
	src, dst string
	w        float64
	msg      string // what is wrong with the edge, if anything
	both     bool   // undirected: an edge each way
}

// readGraphXML reads GraphML or GEXF (f) as the Archives Unleashed
// Toolkit's WriteGraphML and WriteGEXF write a domain graph, and as other
// tools write a graph of web sites: a node is a site named by its label
// (its id when it has none), an edge carries its weight (GraphML: the
// <data> of the key whose attr.name is weight or count; GEXF: the weight
// attribute; 1 without one). Undirected edges count both ways. Edges of
// one pair add up into one edge; other attributes (AUT's crawlDate) are
// not read.
//
// The decoder is strict and expands no entity beyond XML's five; a DOCTYPE
// is refused (neither format needs one, and it is how entity bombs come),
// as is a token over 1 MiB or nesting deeper than 32 elements. A broken
// edge (an unknown node, a bad weight, a label that is no host name) is a
// bad line; broken XML refuses the file, naming the line and byte offset.
func readGraphXML(r io.Reader, name string, o Options, f format) (*Graph, error) {
	lim := &recordLimit{r: bufio.NewReader(r), max: maxToken}
	d := xml.NewDecoder(lim)
	d.Strict = true
	b := newDerivBuilder(name, o)
	// where is the start of the token being read.
	var line int
	var offset int64
	where := func() string { return fmt.Sprintf("line %d (byte offset %d)", line, offset) }
	keys := map[string]xmlKey{}
	labels := map[string]string{}
	var edges []xmlEdge
	var stack []string
	root := "graphml"
	if f == gexf {
		root = "gexf"
	}
	undirected := false
	graphs := 0
	// The element being read and its text.
	var (
		curKey       string // GraphML <key> id
		curNode      string // node id
		curEdge      *xmlEdge
		dataKey      string
		text         strings.Builder
		inDefault    bool
		weightKeyIDs = map[string]bool{}
	)
	for {
		lim.n = 0
		line, _ = d.InputPos()
		offset = d.InputOffset()
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			if lim.over {
				return b.fail(fmt.Sprintf("%s: an XML token longer than %d bytes; the file was not read further", where(), maxToken))
			}
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				return b.fail(fmt.Sprintf("line %d (byte offset %d): not well-formed XML: %s", se.Line, d.InputOffset(), se.Msg))
			}
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		switch t := tok.(type) {
		case xml.Directive:
			return b.fail(where() + ": a DOCTYPE or other <!…> declaration, which GraphML and GEXF do not use, is not read")
		case xml.StartElement:
			stack = append(stack, t.Name.Local)
			if len(stack) > maxDepth {
				return b.fail(fmt.Sprintf("%s: elements nested deeper than %d", where(), maxDepth))
			}
			if len(stack) == 1 && t.Name.Local != root {
				return b.fail(fmt.Sprintf("%s: the root element is <%s>, not <%s>", where(), t.Name.Local, root))
			}
			text.Reset()
			switch t.Name.Local {
			case "graph":
				if graphs++; graphs > 1 || len(stack) != 2 {
					return b.fail(where() + ": a second or nested <graph>, which is not read")
				}
				d := attr(t, "edgedefault")
				if f == gexf {
					d = attr(t, "defaultedgetype")
				}
				undirected = d == "undirected"
			case "key":
				curKey = attr(t, "id")
				if curKey == "" {
					return b.fail(where() + ": a <key> without an id")
				}
				keys[curKey] = xmlKey{name: attr(t, "attr.name")}
				if n := strings.ToLower(attr(t, "attr.name")); attr(t, "for") != "node" && (n == "weight" || n == "count") {
					weightKeyIDs[curKey] = true
				}
			case "default":
				inDefault = curKey != ""
			case "node":
				if len(stack) < 2 || stack[len(stack)-2] != map[format]string{graphML: "graph", gexf: "nodes"}[f] {
					break
				}
				curNode = attr(t, "id")
				if curNode == "" {
					b.bad(line, "a node without an id")
					break
				}
				labels[curNode] = curNode
				if f == gexf {
					if l, ok := attrOK(t, "label"); ok {
						labels[curNode] = strings.TrimSpace(l)
					}
				}
			case "edge":
				e := xmlEdge{line: line, src: attr(t, "source"), dst: attr(t, "target"), w: 1, both: undirected}
				switch attr(t, "directed") + attr(t, "type") {
				case "false", "undirected", "mutual":
					e.both = true
				case "true", "directed":
					e.both = false
				}
				if f == graphML {
					e.w, e.msg = graphMLDefaultWeight(keys, weightKeyIDs)
				} else if w, ok := attrOK(t, "weight"); ok {
					e.w, e.msg = weight([]byte(strings.TrimSpace(w)))
				}
				if e.src == "" || e.dst == "" {
					e.msg = "an edge without a source or a target"
				}
				edges = append(edges, e)
				curEdge = &edges[len(edges)-1]
			case "data":
				dataKey = attr(t, "key")
			}
		case xml.CharData:
			if text.Len()+len(t) > maxToken {
				return b.fail(fmt.Sprintf("%s: an element's text longer than %d bytes", where(), maxToken))
			}
			text.Write(t)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
			switch t.Name.Local {
			case "default":
				if inDefault {
					k := keys[curKey]
					k.dflt, k.hasDflt = strings.TrimSpace(text.String()), true
					keys[curKey] = k
					inDefault = false
				}
			case "key":
				curKey = ""
			case "node":
				curNode = ""
			case "edge":
				curEdge = nil
			case "data":
				v := strings.TrimSpace(text.String())
				switch {
				case curEdge != nil && weightKeyIDs[dataKey]:
					if curEdge.msg == "" || strings.HasPrefix(curEdge.msg, "the weight") {
						curEdge.w, curEdge.msg = weight([]byte(v))
					}
				case curEdge == nil && curNode != "" && isLabelKey(keys, dataKey):
					labels[curNode] = v
				}
				dataKey = ""
			}
		}
	}
	if graphs == 0 {
		return b.fail("no <graph> element")
	}
	for i := range edges {
		e := &edges[i]
		if e.msg == "" {
			switch src, ok := labels[e.src]; {
			case !ok:
				e.msg = "the edge's source is no node of the file"
			default:
				dst, ok := labels[e.dst]
				if !ok {
					e.msg = "the edge's target is no node of the file"
					break
				}
				b.edge(e.line, src, dst, e.w)
				if e.both {
					b.edge(e.line, dst, src, e.w)
				}
			}
		}
		if e.msg != "" {
			b.bad(e.line, e.msg)
		}
	}
	return b.finish()
}

// graphMLDefaultWeight is the weight of a GraphML edge without weight
// data: the default of the weight key if it has one, else 1.
func graphMLDefaultWeight(keys map[string]xmlKey, weightKeys map[string]bool) (float64, string) {
	for id := range weightKeys {
		if k := keys[id]; k.hasDflt {
			return weight([]byte(k.dflt))
		}
	}
	return 1, ""
}

// isLabelKey reports whether the GraphML key id holds a node's label.
func isLabelKey(keys map[string]xmlKey, id string) bool {
	k, ok := keys[id]
	return ok && strings.EqualFold(k.name, "label") || !ok && id == "label"
}

func attr(t xml.StartElement, name string) string {
	v, _ := attrOK(t, name)
	return v
}

func attrOK(t xml.StartElement, name string) (string, bool) {
	for _, a := range t.Attr {
		if a.Name.Local == name {
			return a.Value, true
		}
	}
	return "", false
}
