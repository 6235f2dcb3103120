package lab

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"sitesift/app/export"
	"sitesift/app/plot"
	"sitesift/sites/wholefile"
)

// File is one output of an experiment.
type File struct {
	Name string
	Data []byte
}

// Output is what an experiment produced: its files, the main CSV and
// SVG first, and a few lines that sum the result up.
type Output struct {
	Experiment string
	Files      []File
	Summary    []string
}

// File returns the output named name.
func (o *Output) File(name string) (File, bool) {
	for _, f := range o.Files {
		if f.Name == name {
			return f, true
		}
	}
	return File{}, false
}

// file is an output file before it is rendered: CSV rows, or a chart
// when c is set.
type file struct {
	name string
	rows [][]string
	c    *plot.Chart
}

// newOutput renders the files of experiment exp, in the order given.
func newOutput(exp string, files ...file) (*Output, error) {
	out := &Output{Experiment: exp}
	for _, f := range files {
		if err := out.add(f.name, f.rows, f.c); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// add renders rows as CSV or c as SVG into a new file of the output.
func (o *Output) add(name string, rows [][]string, c *plot.Chart) error {
	var buf bytes.Buffer
	if c != nil {
		if err := c.Render(&buf); err != nil {
			return fmt.Errorf("lab %s: %s: %w", o.Experiment, name, err)
		}
	} else {
		w := export.NewCSVWriter(&buf)
		if err := w.WriteAll(rows); err != nil {
			return fmt.Errorf("lab %s: %s: %w", o.Experiment, name, err)
		}
	}
	o.Files = append(o.Files, File{Name: name, Data: buf.Bytes()})
	return nil
}

// num writes a measure with the precision it has: 10 significant
// digits are far beyond what any of them means.
func num(v float64) string { return strconv.FormatFloat(v, 'g', 10, 64) }

// WriteFiles writes the files into dir (created if needed) so that no
// file is ever seen half-written: each goes to a temporary file in dir
// first, and only once all are written are they renamed into place.
func WriteFiles(dir string, files []File) (err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("lab: output directory: %w", err)
	}
	written := make([]*wholefile.File, 0, len(files))
	defer func() {
		for _, w := range written {
			w.Abort() // a no-op for those committed
		}
	}()
	for _, f := range files {
		w, err := wholefile.Create(filepath.Join(dir, f.Name))
		if err != nil {
			return fmt.Errorf("lab: write %w", err)
		}
		written = append(written, w)
		if _, err := w.Write(f.Data); err != nil {
			return fmt.Errorf("lab: write %s: %w", f.Name, err)
		}
	}
	for _, w := range written {
		if err := w.Commit(); err != nil {
			return fmt.Errorf("lab: write %w", err)
		}
	}
	return nil
}
