package imports

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"sitesift/app/fault"
	"sitesift/app/project"
	"sitesift/sites/store"
)

// importFolder is the one folder of the server's disk a team server
// imports archives from by path (`serve --team --import-dir DIR`); the
// project's uploads folder is always allowed.
type importFolder struct {
	mu sync.Mutex
	// roots are the folder as given (made absolute) and as resolved
	// (symbolic links followed); "" when there is none.
	given, resolved string
}

// ErrOutsideImportFolder is the whole answer to an import of a path
// outside the import folder: it says nothing of whether the path exists,
// its size or its contents.
var ErrOutsideImportFolder = errors.New("import: the path is outside the import folder")

// SetImportFolder makes dir the folder a signed-in librarian may import
// archives from by path; "" allows none, only uploads. dir must exist.
func (s *Service) SetImportFolder(dir string) error {
	s.folder.mu.Lock()
	defer s.folder.mu.Unlock()
	if dir == "" {
		s.folder.given, s.folder.resolved = "", ""
		return nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return fmt.Errorf("import folder %s: %w", dir, err)
	}
	res, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return fmt.Errorf("import folder %s: %w", dir, err)
	}
	if fi, err := os.Stat(res); err != nil || !fi.IsDir() {
		return fmt.Errorf("import folder %s: not a folder", dir)
	}
	s.folder.given, s.folder.resolved = abs, res
	return nil
}

// within reports whether path lies in one of roots, compared as cleaned
// absolute paths.
func within(path string, roots ...string) bool {
	return slices.ContainsFunc(roots, func(r string) bool {
		return r != "" && (path == r || strings.HasPrefix(path, r+string(filepath.Separator)))
	})
}

// checkImportPath holds one path of a signed-in librarian's import to the
// import folder: absolute, no "..", lexically inside the folder or the
// project's uploads before anything on disk is looked at, and still
// inside once its symbolic links are followed. Every refusal is the same
// [ErrOutsideImportFolder], except a path inside that does not exist.
func (s *Service) checkImportPath(path string) error {
	s.folder.mu.Lock()
	given, resolved := s.folder.given, s.folder.resolved
	s.folder.mu.Unlock()
	uploads := filepath.Join(s.project.Dir, UploadsDir)
	outside := fault.Invalid(ErrOutsideImportFolder)
	if !filepath.IsAbs(path) || slices.Contains(strings.Split(filepath.ToSlash(path), "/"), "..") {
		return outside
	}
	clean := filepath.Clean(path)
	if !within(clean, given, resolved, uploads) {
		return outside
	}
	real, err := filepath.EvalSymlinks(clean)
	if errors.Is(err, os.ErrNotExist) {
		return fault.Invalid(fmt.Errorf("import: no file %s in the import folder", clean))
	}
	if err != nil {
		return outside
	}
	if !within(real, resolved, uploads) {
		return outside
	}
	return nil
}

// StartAs is [Service.Start] for the librarian of ctx. On a team server
// an admin alone imports, and only files in the import folder (see
// [Service.SetImportFolder]) or uploaded into the project; the start is
// written to the audit log.
func (s *Service) StartAs(ctx context.Context, req ArchiveImportRequest) (ImportStatus, error) {
	if _, team := project.IdentityFrom(ctx); team {
		if err := project.Require(ctx, project.RoleAdmin, "import web archives"); err != nil {
			return ImportStatus{}, err
		}
		for _, group := range [][]string{req.WARC, req.CDX, req.CrawlLog, req.CCVertices, req.CCEdges, req.CCRanks} {
			for _, p := range group {
				if err := s.checkImportPath(p); err != nil {
					return ImportStatus{}, err
				}
			}
		}
	}
	st, err := s.Start(req)
	if err != nil {
		return st, err
	}
	return st, s.project.Audit(ctx, "", store.AuditImport, "", nil, req)
}

// CancelAs is [Service.Cancel] for the librarian of ctx: admins only on a
// team server.
func (s *Service) CancelAs(ctx context.Context) (ImportStatus, error) {
	if err := project.Require(ctx, project.RoleAdmin, "cancel an import"); err != nil {
		return ImportStatus{}, err
	}
	return s.Cancel()
}

// SaveUploadAs is [Service.SaveUpload] for the librarian of ctx: admins
// only on a team server.
func (s *Service) SaveUploadAs(ctx context.Context, name string, r io.Reader) (string, error) {
	if err := project.Require(ctx, project.RoleAdmin, "upload a file for import"); err != nil {
		return "", err
	}
	return s.SaveUpload(name, r)
}
