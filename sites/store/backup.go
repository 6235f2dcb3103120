package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// backupDSNParams open the database for reading alone, as the source of
// a backup.
const backupDSNParams = "mode=ro&_pragma=busy_timeout(5000)"

// ErrBackupExists is returned (wrapped) by [Store.Backup] when its file
// exists and overwriting was not asked for.
var ErrBackupExists = errors.New("store: the backup file exists")

// Backup writes a consistent copy of the database to file, whatever the
// writers of this or another process do meanwhile: SQLite's VACUUM INTO
// reads one snapshot (a read transaction, which in WAL mode waits for no
// writer and keeps none waiting) and writes it compacted, the WAL's
// committed pages included. The copy is written to a temporary file beside
// file, synced, then renamed to file, so that a failed or killed backup
// leaves no half-written file under that name; an existing file is
// [ErrBackupExists] unless overwrite. It reads through a read-only
// connection of its own, so a store opened [ReadOnly] beside the process
// that writes takes it too.
func (s *Store) Backup(ctx context.Context, file string, overwrite bool) (err error) {
	what := fmt.Sprintf("store: back up to %q", file)
	if !overwrite {
		if _, err := os.Lstat(file); err == nil {
			return fmt.Errorf("%s: %w", what, ErrBackupExists)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s: %w", what, err)
		}
	}
	// VACUUM INTO writes into a file that does not exist or is empty: the
	// empty temporary file reserves a name of its own beside file.
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".*.partial")
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	tmpName := tmp.Name()
	tmp.Close()
	defer func() {
		if err != nil {
			os.Remove(tmpName)
		}
	}()
	// A connection of its own, read-only: the read pool's refuse VACUUM
	// INTO (query_only), and lifting that on a pooled connection could hand
	// it back writable.
	db, err := sql.Open("sqlite", "file:"+s.path+"?"+backupDSNParams)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	_, err = db.ExecContext(ctx, `VACUUM INTO ?`, tmpName)
	db.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if err := syncFile(tmpName); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if overwrite {
		err = os.Rename(tmpName, file)
	} else if err = os.Link(tmpName, file); err == nil {
		// A hard link fails on an existing name, where a rename would
		// replace it: a file made meanwhile is kept.
		os.Remove(tmpName)
	} else if errors.Is(err, fs.ErrExist) {
		err = ErrBackupExists
	}
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return syncFile(filepath.Dir(file))
}

// syncFile flushes a file or directory to disk.
func syncFile(name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}
