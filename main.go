// Command sitesift helps librarians decide which web sites to archive: it
// crawls politely, ranks sites by importance (OPIC online, PageRank
// offline), indexes pages for search, collects ratings and exports seed
// lists. main only wires: the command line, the embedded frontend and the
// desktop window live here, everything else in app.
package main

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"sync"
	"syscall"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	"github.com/wailsapp/wails/v2/pkg/runtime"

	"sitesift/app/cli"
	"sitesift/app/httpapi"
)

//go:embed all:frontend/dist
var dist embed.FS

//go:embed build/appicon.png
var icon []byte

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	assets, err := fs.Sub(dist, "frontend/dist")
	if err != nil {
		fmt.Fprintf(os.Stderr, "sitesift: %v\n", err)
		os.Exit(1)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: logLevel()}))
	dialogs := &windowDialogs{}
	c := cli.CLI{Stdout: os.Stdout, Stderr: os.Stderr, Assets: assets, Logger: logger, Dialogs: dialogs,
		Desktop: func(title string, h http.Handler) error { return desktop(title, h, dialogs) },
		Retitle: dialogs.SetTitle}
	stopProfile := cpuProfile(logger)
	code := c.Run(ctx, os.Args[1:])
	stopProfile()
	os.Exit(code)
}

// cpuProfile writes a CPU profile of the whole command to the file
// SITESIFT_CPUPROFILE names, for `go tool pprof`: where a step of an import
// or a ranking spends its time. The returned function ends it.
func cpuProfile(logger *slog.Logger) func() {
	path := os.Getenv("SITESIFT_CPUPROFILE")
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		logger.Warn("no CPU profile", "file", path, "err", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		logger.Warn("no CPU profile", "file", path, "err", err)
		f.Close()
		os.Remove(path) // empty: no profile is better than one that reads as empty
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			logger.Warn("CPU profile not written", "file", path, "err", err)
		}
	}
}

// logLevel is warn unless SITESIFT_LOG=debug or info asks for more.
func logLevel() slog.Level {
	var l slog.Level
	if err := l.UnmarshalText([]byte(os.Getenv("SITESIFT_LOG"))); err != nil || os.Getenv("SITESIFT_LOG") == "" {
		return slog.LevelWarn
	}
	return l
}

// desktop opens the Wails window on the app's handler: with no Assets, every
// request of the window, GET included, reaches the same handler that
// `sitesift serve` uses.
func desktop(title string, h http.Handler, d *windowDialogs) error {
	if !cli.DesktopBuild {
		return fmt.Errorf("%w: this binary was built without the desktop tags", cli.ErrNoDesktop)
	}
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return fmt.Errorf("%w: no display (DISPLAY and WAYLAND_DISPLAY are unset)", cli.ErrNoDesktop)
	}
	return wails.Run(&options.App{
		Title:            title,
		Width:            1280,
		Height:           800,
		MinWidth:         900,
		MinHeight:        600,
		AssetServer:      &assetserver.Options{Handler: h},
		BackgroundColour: &options.RGBA{R: 250, G: 250, B: 249, A: 255},
		Linux:            &linux.Options{Icon: icon, ProgramName: "sitesift"},
		OnStartup:        d.start,
	})
}

// windowDialogs are the native file dialogs of the desktop window
// (httpapi.Dialogs), through the Wails runtime. The API calls them from its
// request goroutines, never the GTK main thread, which Wails' dialogs need:
// they run on the main thread and block the caller until answered. Wails
// passes every dialog's answer through one channel, so one dialog is open
// at a time.
type windowDialogs struct {
	mu  sync.Mutex
	ctx context.Context // from OnStartup; nil until the window is up
}

func (d *windowDialogs) start(ctx context.Context) {
	d.mu.Lock()
	d.ctx = ctx
	d.mu.Unlock()
}

// errNoWindow is returned by a dialog asked for before the window is up.
var errNoWindow = fmt.Errorf("the desktop window is not open")

func (d *windowDialogs) SaveFile(dir, title, name string, filters []httpapi.FileFilter) (string, error) {
	if dir == "" {
		dir = downloadsDir()
	}
	return showDialog(d, func(ctx context.Context) (string, error) {
		return runtime.SaveFileDialog(ctx, runtime.SaveDialogOptions{Title: title, DefaultFilename: name,
			DefaultDirectory: dir, Filters: wailsFilters(filters), CanCreateDirectories: true})
	})
}

func (d *windowDialogs) OpenFile(title string, filters []httpapi.FileFilter) (string, error) {
	return showDialog(d, func(ctx context.Context) (string, error) {
		return runtime.OpenFileDialog(ctx, runtime.OpenDialogOptions{Title: title, Filters: wailsFilters(filters)})
	})
}

func (d *windowDialogs) OpenFiles(title string, filters []httpapi.FileFilter) ([]string, error) {
	return showDialog(d, func(ctx context.Context) ([]string, error) {
		return runtime.OpenMultipleFilesDialog(ctx, runtime.OpenDialogOptions{Title: title, Filters: wailsFilters(filters)})
	})
}

// OpenURL opens url in the system's web browser (httpapi.BrowserOpener):
// what the window cannot show, a replay of captures, is shown there.
func (d *windowDialogs) OpenURL(url string) error {
	d.mu.Lock()
	ctx := d.ctx
	d.mu.Unlock()
	if ctx == nil {
		return errNoWindow
	}
	runtime.BrowserOpenURL(ctx, url)
	return nil
}

func (d *windowDialogs) OpenDirectory(dir, title string) (string, error) {
	return showDialog(d, func(ctx context.Context) (string, error) {
		return runtime.OpenDirectoryDialog(ctx, runtime.OpenDialogOptions{Title: title, DefaultDirectory: dir, CanCreateDirectories: true})
	})
}

// SetTitle retitles the window (cli.CLI.Retitle); before the window is up
// there is nothing to retitle, and the window opens with its own title.
func (d *windowDialogs) SetTitle(title string) {
	d.mu.Lock()
	ctx := d.ctx
	d.mu.Unlock()
	if ctx != nil {
		runtime.WindowSetTitle(ctx, title)
	}
}

// showDialog shows a dialog of the window, one at a time.
func showDialog[T any](d *windowDialogs, show func(ctx context.Context) (T, error)) (T, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.ctx == nil {
		var none T
		return none, errNoWindow
	}
	return show(d.ctx)
}

func wailsFilters(fs []httpapi.FileFilter) []runtime.FileFilter {
	out := make([]runtime.FileFilter, len(fs))
	for i, f := range fs {
		out[i] = runtime.FileFilter{DisplayName: f.Name, Pattern: f.Pattern}
	}
	return out
}

// downloadsDir is the folder a Save dialog opens in: ~/Downloads when it
// exists, else the home folder ("" lets the dialog choose).
func downloadsDir() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	if fi, err := os.Stat(filepath.Join(home, "Downloads")); err == nil && fi.IsDir() {
		return filepath.Join(home, "Downloads")
	}
	return home
}
