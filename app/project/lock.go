package project

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"sitesift/app/fault"
)

// Files of a project directory that say which process holds the project.
const (
	// LockFile holds the description of the process that holds the project
	// (JSON [Holder]); that process keeps an exclusive flock on it, which the
	// system drops when the process ends, however it ends, so a killed
	// holder never keeps the project from being opened.
	LockFile = "sitesift.lock"
	// SocketFile is the Unix socket (mode 0600) on which the holder of the
	// project serves its API, for the commands that run beside it.
	SocketFile = "sitesift.sock"
)

// Holder describes the process that holds a project.
type Holder struct {
	PID     int       `json:"pid"`
	Started time.Time `json:"started"`
	// Command is what holds it, for people: "the desktop window",
	// "sitesift serve", "sitesift crawl".
	Command string `json:"command"`
	// URL is where a served app can be opened, when it is served.
	URL string `json:"url,omitempty"`
	// Socket is the path of the holder's API socket, when it serves one.
	Socket string `json:"socket,omitempty"`
}

// HeldError is returned by [Open] when another process holds the
// project. Its message says which and what to do.
type HeldError struct {
	Dir    string
	Holder Holder // zero when the holder wrote no description yet
}

func (e *HeldError) Error() string {
	h := e.Holder
	if h.PID == 0 {
		return fmt.Sprintf("project %s is open in another sitesift process (it has not said which yet); close it and try again", e.Dir)
	}
	what := h.Command
	if what == "" {
		what = "another sitesift"
	}
	var do string
	switch {
	case strings.Contains(what, "window"):
		do = "close that window, or do this from it"
	case h.URL != "":
		do = fmt.Sprintf("stop it (Ctrl+C, or kill %d), or do this from the app at %s", h.PID, h.URL)
	default:
		do = fmt.Sprintf("wait for it to end, or stop it (Ctrl+C, or kill %d)", h.PID)
	}
	return fmt.Sprintf("project %s is open in %s (pid %d, since %s): %s; the read-only commands (rank, search, seeds, export, agreement, sites, selection export, ratings export, collections list, show and export) work meanwhile",
		e.Dir, what, h.PID, h.Started.Local().Format("2006-01-02 15:04:05 MST"), do)
}

// projectLock is a project held by this process: the open lock file under
// its flock.
type projectLock struct {
	f      *os.File
	holder Holder
}

// lockProject takes the project in dir for this process, or returns a
// *HeldError naming the process that has it.
func lockProject(dir, command string) (*projectLock, error) {
	f, err := os.OpenFile(filepath.Join(dir, LockFile), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	if err := flock(f); errors.Is(err, errLocked) {
		h, _ := readHolder(f)
		f.Close()
		return nil, fault.Conflict(&HeldError{Dir: dir, Holder: h})
	} else if err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", f.Name(), err)
	}
	l := &projectLock{f: f, holder: Holder{PID: os.Getpid(), Started: time.Now().UTC().Truncate(time.Second), Command: command}}
	if err := l.write(); err != nil {
		l.release()
		return nil, err
	}
	return l, nil
}

// ReadHolder returns the description of the process that holds (or last
// held) the project in dir.
func ReadHolder(dir string) (Holder, error) {
	f, err := os.Open(filepath.Join(dir, LockFile))
	if err != nil {
		return Holder{}, err
	}
	defer f.Close()
	return readHolder(f)
}

func readHolder(f *os.File) (Holder, error) {
	// The holder writes its description right after it takes the lock: a
	// reader that comes in between finds the file empty, so it waits a
	// little for the description before calling the holder unknown.
	var h Holder
	var err error
	for range 40 {
		var b []byte
		if b, err = os.ReadFile(f.Name()); err != nil {
			return Holder{}, err
		}
		// The first JSON value is the description: what follows it is
		// the tail of a longer one being replaced (see write).
		h = Holder{}
		if err = json.NewDecoder(bytes.NewReader(b)).Decode(&h); err == nil && h.PID != 0 {
			return h, nil
		}
		time.Sleep(25 * time.Millisecond)
	}
	return h, err
}

// write replaces the lock file's description with l.holder. The lock file
// is rewritten in place (its flock is on it): the new description first,
// then the file cut to its length, so a reader finds one whole description
// at its start, the old or the new (readHolder reads the first JSON value).
func (l *projectLock) write() error {
	b, err := json.Marshal(l.holder)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if _, err := l.f.WriteAt(b, 0); err != nil {
		return fmt.Errorf("lock %s: %w", l.f.Name(), err)
	}
	if err := l.f.Truncate(int64(len(b))); err != nil {
		return fmt.Errorf("lock %s: %w", l.f.Name(), err)
	}
	return nil
}

// release drops the lock. The file stays: removing it would let a process
// that opened it just before lock a file no one else sees.
func (l *projectLock) release() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close() // closing the last descriptor drops the flock
	l.f = nil
	return err
}

// Advertise records in the project's lock file where the holder serves
// the app (url, for people) and its API socket (for the commands that run
// beside it); an empty argument keeps what was recorded. Only the holder,
// a project opened for writing, can.
func (p *Project) Advertise(url, socket string) error {
	if p.lock == nil {
		return errors.New("project: advertise: the project is open read-only")
	}
	if url != "" {
		p.lock.holder.URL = url
	}
	if socket != "" {
		p.lock.holder.Socket = socket
	}
	return p.lock.write()
}
