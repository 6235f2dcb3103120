package cli

import (
	"fmt"
	"io"
	"os"
	"sitesift/app/crawling"
	"strings"
	"time"
)

// statusLine shows one changing line of progress: redrawn in place on a
// terminal, printed as a new line at most every quiet interval elsewhere
// (a log file should not get a line per update).
type statusLine struct {
	w     io.Writer
	tty   bool
	quiet time.Duration
	last  time.Time
	drawn bool
}

func newStatusLine(w io.Writer, quiet time.Duration) statusLine {
	tty := false
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil {
			tty = fi.Mode()&os.ModeCharDevice != 0
		}
	}
	return statusLine{w: w, tty: tty, quiet: quiet}
}

// due tells whether an update should be shown now; final updates always are.
func (l *statusLine) due(final bool) bool {
	every := l.quiet
	if l.tty {
		every = 200 * time.Millisecond
	}
	if !final && time.Since(l.last) < every {
		return false
	}
	l.last = time.Now()
	return true
}

func (l *statusLine) show(line string) {
	if l.tty {
		fmt.Fprintf(l.w, "\r\033[K%s", line)
		l.drawn = true
	} else {
		fmt.Fprintln(l.w, line)
	}
}

// done ends a redrawn line.
func (l *statusLine) done() {
	if l.drawn {
		fmt.Fprintln(l.w)
	}
}

// progressBar draws a crawl's progress.
type progressBar struct{ statusLine }

func newProgressBar(w io.Writer) *progressBar {
	return &progressBar{newStatusLine(w, 3*time.Second)}
}

func (b *progressBar) show(st crawling.CrawlStatus) {
	final := st.State != crawling.StateRunning && st.State != crawling.StatePaused && st.State != crawling.StateStopping
	if !b.due(final) {
		return
	}
	const width = 30
	frac := 0.0
	if st.MaxPages > 0 {
		frac = min(1, float64(st.PagesOK)/float64(st.MaxPages))
	}
	full := int(frac * width)
	b.statusLine.show(fmt.Sprintf("[%s%s] %s (caps %d, %d)  %.1f pages/s  %d sites  queue %d  bad links %d  refused %d  %s",
		strings.Repeat("#", full), strings.Repeat(".", width-full), fetchedFailed(st), st.MaxPages, st.MaxFailures,
		st.PagesPerSec, st.Sites, st.Queue, st.BadLinks, st.Refused, st.State))
}
