package cli

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sync"
)

// demoLogFile is the file, in the demo's project, that the demo's log goes
// to.
const demoLogFile = "demo.log"

// demoLog sends c's log to the file demo.log of the project in dir, added
// to the end of what earlier runs wrote, at the level c's Logger logs: a
// person trying the demo reads a few lines of progress on the terminal,
// and the crawl's warnings (the demo web's proxy refuses every https URL,
// and a demo run again asks for the https links the first one left) read
// there as errors. It returns the CLI that logs to the file, the file's
// path and the function that closes it; with no Logger there is nothing to
// log, and no file.
func (c CLI) demoLog(dir string) (CLI, string, func(), error) {
	if c.Logger == nil {
		return c, "", func() {}, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return c, "", nil, fmt.Errorf("demo: %w", err)
	}
	path := filepath.Join(dir, demoLogFile)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return c, "", nil, fmt.Errorf("demo: log: %w", err)
	}
	level := slog.LevelError
	for _, l := range []slog.Level{slog.LevelDebug, slog.LevelInfo, slog.LevelWarn} {
		if c.Logger.Enabled(context.Background(), l) {
			level = l
			break
		}
	}
	c.Logger = slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: level}))
	return c, path, func() { f.Close() }, nil
}

// saysOpened is h, which says on c's Stdout, once, that the window opened
// when the window first asks it for something: Desktop blocks until the
// window closes, and the window's first request is the sign it is up.
func (c CLI) saysOpened(h http.Handler) http.Handler {
	var once sync.Once
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		once.Do(func() { fmt.Fprintln(c.Stdout, "sitesift: the demo is open in its window; closing the window ends it") })
		h.ServeHTTP(w, r)
	})
}
