//go:build !unix

package project

import (
	"errors"
	"os"
)

// errLocked is flock's answer when another open file holds the lock.
var errLocked = errors.New("locked")

// flock takes no lock where there is no flock: the search index's own
// exclusive lock still keeps a second writer out, with a less helpful
// message.
func flock(*os.File) error { return nil }
