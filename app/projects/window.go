package projects

import (
	"os"
	"path/filepath"
)

// WindowTitle is the title of the desktop window while the project in dir
// is open: the app's name and the project's folder, "sitesift" alone when
// dir is "".
func WindowTitle(dir string) string {
	if dir == "" {
		return "sitesift"
	}
	return "sitesift — " + filepath.Clean(dir)
}

// DialogDir is the folder a dialog that opens or creates a project starts
// in: the folder that holds the open project, where the projects beside it
// are, or the home folder when none is open ("" when the system names
// none, which lets the dialog choose).
func (s *Switcher) DialogDir() string {
	if _, dir := s.Current(); dir != "" {
		return filepath.Dir(filepath.Clean(dir))
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return home
}
