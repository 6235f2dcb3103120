package plot

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
)

// SeriesCount reads back a chart [Chart.Render] wrote: it returns the
// number of series lines in svg, or an error when svg is not a well-formed
// XML document with an svg root. The tests of the lab's outputs use it to
// check what a run drew without comparing bytes.
func SeriesCount(svg []byte) (int, error) {
	dec := xml.NewDecoder(bytes.NewReader(svg))
	root, paths := "", 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return 0, fmt.Errorf("malformed SVG: %w", err)
		}
		if e, ok := tok.(xml.StartElement); ok {
			if root == "" {
				root = e.Name.Local
			}
			for _, a := range e.Attr {
				if e.Name.Local == "path" && a.Name.Local == "class" && a.Value == "series" {
					paths++
				}
			}
		}
	}
	if root != "svg" {
		return 0, fmt.Errorf("root element %q, want svg", root)
	}
	return paths, nil
}
