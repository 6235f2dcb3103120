package imports

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"sitesift/app/fault"
	"sitesift/app/internal/jobs"
	"sitesift/app/internal/wire"
	"sitesift/sites/store"
	"sitesift/sites/wholefile"
)

// States of an archive import run in the background.
const (
	ImportIdle      = "idle" // none since the project was opened
	ImportRunning   = string(jobs.Running)
	ImportDone      = string(jobs.Done)
	ImportFailed    = string(jobs.Failed)
	ImportCancelled = string(jobs.Cancelled)
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

// importJobs runs the App's archive imports, one at a time, keeping none
// but the last.
type importJobs = jobs.Runner[ArchiveImportRequest, ImportProgress, ArchiveImportResult]

// newImportJobs returns the runner of the archive imports, which logs their
// failures to log.
func newImportJobs(log *slog.Logger) *importJobs {
	return &importJobs{OnEnd: func(st jobs.Status[ArchiveImportRequest, ImportProgress, ArchiveImportResult]) {
		if st.State == jobs.Failed {
			log.Warn("archive import failed", "err", st.Err)
		}
	}}
}

func importStatus(st jobs.Status[ArchiveImportRequest, ImportProgress, ArchiveImportResult]) ImportStatus {
	out := ImportStatus{State: string(st.State), Request: st.Request, Progress: st.Progress, Result: st.Result,
		StartedAt: st.Started.UTC()}
	if !st.Finished.IsZero() {
		out.FinishedAt = st.Finished.UTC()
	}
	switch st.State {
	case jobs.Cancelled:
		out.Error = "cancelled; the files listed were imported whole and are kept"
	case jobs.Failed:
		out.Error = fault.OneLine(st.Err)
	}
	return out
}

// Start checks req (see [Service.ImportArchives]) and starts the import
// in the background; [Service.Status] follows it. An import already
// running is a conflict.
func (s *Service) Start(req ArchiveImportRequest) (ImportStatus, error) {
	if _, err := checkArchiveRequest(req); err != nil {
		return ImportStatus{}, err
	}
	st, err := s.imports.Start("import", req, func(ctx context.Context, progress func(ImportProgress)) (ArchiveImportResult, error) {
		return s.ImportArchives(ctx, req, progress)
	})
	switch {
	case errors.Is(err, jobs.ErrBusy):
		return importStatus(st), fault.Conflict(errors.New("import: an import is running; wait for it or cancel it"))
	case errors.Is(err, jobs.ErrClosed):
		return ImportStatus{}, fault.Conflict(errors.New("import: the app is shutting down"))
	}
	return importStatus(st), err
}

// Status returns the state of the running or last import.
func (s *Service) Status() ImportStatus {
	st, ok := s.imports.Last()
	if !ok {
		return ImportStatus{State: ImportIdle}
	}
	return importStatus(st)
}

// Cancel cancels the running import and waits for its end: the file
// being read is dropped whole, those before it are kept.
func (s *Service) Cancel() (ImportStatus, error) {
	st, ok := s.imports.Running()
	if !ok {
		return s.Status(), fault.Conflict(errors.New("import: no import is running"))
	}
	if err := s.imports.Cancel(st.ID); err != nil && !errors.Is(err, jobs.ErrNotRunning) {
		return s.Status(), err
	}
	if _, err := s.imports.Wait(context.Background(), st.ID); err != nil {
		return s.Status(), err
	}
	return s.Status(), nil
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
func (s *Service) SaveUpload(name string, r io.Reader) (string, error) {
	if strings.TrimSpace(name) == "" {
		return "", fault.Invalid(errors.New("upload: the file has no name"))
	}
	base := filepath.Base(strings.TrimSpace(name))
	if err := CheckFileName(base); err != nil {
		return "", fault.Invalid(fmt.Errorf("upload: %w", err))
	}
	dir := filepath.Join(s.project.Dir, UploadsDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("upload: %w", err)
	}
	// Written whole beside its place: a kill halfway leaves a temporary
	// file that the next upload removes.
	path := filepath.Join(dir, base)
	f, err := wholefile.CreateNamed(path, ".upload-*")
	if err != nil {
		return "", fmt.Errorf("upload: %w", err)
	}
	defer f.Abort()
	if _, err := io.Copy(f, r); err != nil {
		return "", fault.Invalid(fmt.Errorf("upload %s: %w", base, err))
	}
	if err := f.Commit(); err != nil {
		return "", fmt.Errorf("upload %s: %w", base, err)
	}
	return path, nil
}

// ArchiveImports returns the record of every file imported from archives,
// oldest first.
func (s *Service) ArchiveImports(ctx context.Context) ([]ArchiveImport, error) {
	as, err := s.store.ArchiveImports(ctx)
	return wire.Each(as, archiveImport), err
}

// SiteGraphImports returns the record of every edge list imported into the
// site graph, oldest first.
func (s *Service) SiteGraphImports(ctx context.Context) ([]ImportStats, error) {
	st, err := s.store.Imports(ctx)
	return wire.Each(st, func(x store.ImportStats) ImportStats { return ImportStats(x) }), err
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
