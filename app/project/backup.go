package project

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"sitesift/app/fault"
	"sitesift/sites/store"
)

// Backup writes a consistent copy of the project's database to file while
// the project is in use, a server writing it included ([store.Store.Backup]:
// SQLite's VACUUM INTO, through a temporary file beside file renamed when
// whole). An existing file is refused (fault.KindConflict) unless
// overwrite. The copy is the project's truth: put back as DBFile of a
// project folder it opens as the project was when the backup began, the
// search index rebuilt from it when the index is removed (see
// docs/team.md). Admins only.
func (p *Project) Backup(ctx context.Context, file string, overwrite bool) error {
	if err := Require(ctx, RoleAdmin, "back up the project"); err != nil {
		return err
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return fault.Invalid(fmt.Errorf("backup: %w", err))
	}
	if db, err := filepath.Abs(filepath.Join(p.Dir, DBFile)); err == nil && strings.HasPrefix(abs, db) {
		return fault.Invalid(fmt.Errorf("backup: %s is the project's own database: write the backup elsewhere", file))
	}
	if fi, err := os.Stat(filepath.Dir(abs)); err != nil || !fi.IsDir() {
		return fault.Invalid(fmt.Errorf("backup: the folder of %s does not exist", file))
	}
	err = p.Store.Backup(ctx, abs, overwrite)
	if errors.Is(err, store.ErrBackupExists) {
		return fault.Conflict(fmt.Errorf("backup: %s exists: it is replaced only when asked (--force)", file))
	}
	return err
}
