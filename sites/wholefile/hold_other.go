//go:build !unix

package wholefile

import "os"

// renameOpen is false where a file open cannot be renamed: it is closed
// first.
const renameOpen = false

// hold does nothing where there is no flock.
func hold(*os.File) error { return nil }

// unheld reports false where there is no flock: no one can tell a
// temporary file left by a killed process from one being written, so
// none is removed.
func unheld(*os.File) bool { return false }

// linked reports true: without hold, no sweep removes a file being made.
func linked(*os.File) bool { return true }
