//go:build unix

package project

import (
	"errors"
	"os"
	"syscall"
)

// errLocked is flock's answer when another open file holds the lock.
var errLocked = errors.New("locked")

// flock takes an exclusive flock on f without waiting. Two opens of the
// file conflict even within one process, as two processes do.
func flock(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, syscall.EWOULDBLOCK):
			return errLocked
		case errors.Is(err, syscall.EINTR):
			continue
		}
		return err
	}
}
