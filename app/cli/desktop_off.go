//go:build !desktop

package cli

// DesktopBuild tells whether this binary was built with the desktop tags
// and can open a Wails window.
const DesktopBuild = false
