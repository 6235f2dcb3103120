//go:build unix

package wholefile

import (
	"errors"
	"os"
	"syscall"
)

// renameOpen is true where a file may be renamed while open: the
// temporary file is then renamed before it is closed, so that it stays
// held until it has its place.
const renameOpen = true

// hold takes an exclusive flock on f, waiting for it: the file is this
// process's own for as long as f is open. The kernel lets it go when the
// process ends, killed or not.
func hold(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// unheld reports whether f is held by no open file (of this process or
// another), and holds it if so.
func unheld(f *os.File) bool {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			return err == nil
		}
	}
}

// linked reports whether f still has a name in its folder.
func linked(f *os.File) bool {
	var st syscall.Stat_t
	if err := syscall.Fstat(int(f.Fd()), &st); err != nil {
		return false
	}
	return st.Nlink > 0
}
