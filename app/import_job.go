package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"sitesift/sites/store"
)

// States of an archive import run in the background.
const (
	ImportIdle      = "idle" // none since the project was opened
	ImportRunning   = "running"
	ImportDone      = "done"
	ImportFailed    = "failed"
	ImportCancelled = "cancelled"
)

// ImportStatus is the state of the running or last archive import.
type ImportStatus struct {
	State    string               `json:"state"`
	Request  ArchiveImportRequest `json:"request"`
	Progress ImportProgress       `json:"progress"`
	// Result holds the files imported so far: all of them when done, the
	// ones before the failure (kept) when failed or cancelled.
	Result     ArchiveImportResult `json:"result"`
	Error      string              `json:"error,omitempty"`
	StartedAt  time.Time           `json:"started_at,omitzero"`
	FinishedAt time.Time           `json:"finished_at,omitzero"`
}

type importJobs struct {
	mu     sync.Mutex
	status ImportStatus
	cancel context.CancelFunc
	done   chan struct{}
}

func (j *importJobs) close() {
	j.mu.Lock()
	cancel, done := j.cancel, j.done
	j.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
}

// StartImport checks req (see [App.ImportArchives]) and starts the import
// in the background; [App.ImportStatus] follows it. An import already
// running is a conflict.
func (a *App) StartImport(req ArchiveImportRequest) (ImportStatus, error) {
	if _, err := checkArchiveRequest(req); err != nil {
		return ImportStatus{}, err
	}
	j := &a.imports
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.status.State == ImportRunning {
		return j.status, conflict(errors.New("import: an import is running; wait for it or cancel it"))
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	j.status = ImportStatus{State: ImportRunning, Request: req, StartedAt: time.Now().UTC()}
	j.cancel, j.done = cancel, done
	go func() {
		defer close(done)
		res, err := a.ImportArchives(ctx, req, func(p ImportProgress) {
			j.mu.Lock()
			j.status.Progress = p
			j.mu.Unlock()
		})
		j.mu.Lock()
		defer j.mu.Unlock()
		j.status.Result, j.status.FinishedAt = res, time.Now().UTC()
		switch {
		case errors.Is(err, context.Canceled):
			j.status.State = ImportCancelled
			j.status.Error = "cancelled; the files listed were imported whole and are kept"
		case err != nil:
			j.status.State, j.status.Error = ImportFailed, OneLine(err)
			a.log.Warn("archive import failed", "err", err)
		default:
			j.status.State = ImportDone
		}
		cancel()
		j.cancel = nil
	}()
	return j.status, nil
}

// ImportStatus returns the state of the running or last import.
func (a *App) ImportStatus() ImportStatus {
	a.imports.mu.Lock()
	defer a.imports.mu.Unlock()
	st := a.imports.status
	if st.State == "" {
		st.State = ImportIdle
	}
	return st
}

// CancelImport cancels the running import and waits for its end: the file
// being read is dropped whole, those before it are kept.
func (a *App) CancelImport() (ImportStatus, error) {
	j := &a.imports
	j.mu.Lock()
	cancel, done := j.cancel, j.done
	j.mu.Unlock()
	if cancel == nil {
		return a.ImportStatus(), conflict(errors.New("import: no import is running"))
	}
	cancel()
	<-done
	return a.ImportStatus(), nil
}

// UploadsDir is the directory of a project where uploaded archive files are
// kept for import.
const UploadsDir = "uploads"

// MaxFileName is the longest name, in bytes, of a file the app writes
// under a name it was given: the limit of most file systems.
const MaxFileName = 255

// SaveUpload writes an uploaded file for an import into the project's
// uploads directory under name (its base name only) and returns its path.
// The file appears whole or not at all. A name that is no file name (see
// [CheckFileName]) is a bad request.
func (a *App) SaveUpload(name string, r io.Reader) (string, error) {
	if strings.TrimSpace(name) == "" {
		return "", badRequest(errors.New("upload: the file has no name"))
	}
	base := filepath.Base(strings.TrimSpace(name))
	if err := CheckFileName(base); err != nil {
		return "", badRequest(fmt.Errorf("upload: %w", err))
	}
	dir := filepath.Join(a.project.Dir, UploadsDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("upload: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".upload-*")
	if err != nil {
		return "", fmt.Errorf("upload: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := io.Copy(tmp, r); err != nil {
		tmp.Close()
		return "", badRequest(fmt.Errorf("upload %s: %w", base, err))
	}
	if err := tmp.Close(); err != nil {
		return "", fmt.Errorf("upload %s: %w", base, err)
	}
	path := filepath.Join(dir, base)
	if err := os.Rename(tmp.Name(), path); err != nil {
		return "", fmt.Errorf("upload %s: %w", base, err)
	}
	return path, nil
}

// ArchiveImports returns the record of every file imported from archives,
// oldest first.
func (a *App) ArchiveImports(ctx context.Context) ([]store.ArchiveImport, error) {
	return a.store.ArchiveImports(ctx)
}

// CheckFileName returns an error, in words a person reads, when name
// cannot be the name of a file the app writes in a project: empty, . or
// .., hidden (starting with a dot), holding a slash or a control
// character (a NUL byte ends a name for the system), or longer than
// MaxFileName bytes.
func CheckFileName(name string) error {
	switch {
	case name == "" || name == "." || name == "..":
		return fmt.Errorf("%q is no file name", name)
	case strings.HasPrefix(name, "."):
		return fmt.Errorf("%q is no file name: it starts with a dot (a hidden file)", name)
	case strings.Contains(name, "/"):
		return fmt.Errorf("the file name %q holds a slash at byte %d", name, strings.Index(name, "/")+1)
	case len(name) > MaxFileName:
		return fmt.Errorf("the file name %.40q… is %d bytes long: at most %d", name, len(name), MaxFileName)
	}
	for i, c := range []byte(name) {
		if c < 0x20 || c == 0x7f {
			return fmt.Errorf("the file name %q holds a control character (%#02x) at byte %d", name, c, i+1)
		}
	}
	return nil
}
