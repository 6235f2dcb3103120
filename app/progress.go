package app

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// progressBar draws a crawl's progress on a terminal, redrawing one line; on
// anything else it prints a line every few seconds.
type progressBar struct {
	w     io.Writer
	tty   bool
	last  time.Time
	drawn bool
}

func newProgressBar(w io.Writer) *progressBar {
	tty := false
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil {
			tty = fi.Mode()&os.ModeCharDevice != 0
		}
	}
	return &progressBar{w: w, tty: tty}
}

func (b *progressBar) show(st CrawlStatus) {
	if !b.tty && time.Since(b.last) < 3*time.Second {
		return
	}
	b.last = time.Now()
	const width = 30
	frac := 0.0
	if st.MaxPages > 0 {
		frac = min(1, float64(st.Pages)/float64(st.MaxPages))
	}
	full := int(frac * width)
	line := fmt.Sprintf("[%s%s] %d/%d pages  %.1f pages/s  %d sites  queue %d  errors %d  %s",
		strings.Repeat("#", full), strings.Repeat(".", width-full), st.Pages, st.MaxPages,
		st.PagesPerSec, st.Sites, st.Queue, st.Errors, st.State)
	if b.tty {
		fmt.Fprintf(b.w, "\r\033[K%s", line)
		b.drawn = true
	} else {
		fmt.Fprintln(b.w, line)
	}
}

func (b *progressBar) done() {
	if b.drawn {
		fmt.Fprintln(b.w)
	}
}
