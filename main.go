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
	"syscall"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"

	"sitesift/app/cli"
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
	c := cli.CLI{Stdout: os.Stdout, Stderr: os.Stderr, Assets: assets, Desktop: desktop, Logger: logger}
	os.Exit(c.Run(ctx, os.Args[1:]))
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
func desktop(title string, h http.Handler) error {
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
	})
}
