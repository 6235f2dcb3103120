package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"sitesift/sites"
	"sort"
	"strconv"
	"strings"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver
)

// ErrNotFound is returned (possibly wrapped) when a site, rating or crawl
// asked for does not exist.
var ErrNotFound = errors.New("store: not found")

// ErrInvalid is returned (wrapped, with the reason) when an argument is
// unacceptable: a rating outside 1–4, an empty librarian, an unknown sort key,
// a page without URL or site. Callers map it to "bad request".
var ErrInvalid = errors.New("store: invalid argument")

// ErrSchemaTooNew is returned (wrapped) by [Open] when the database was
// written by a newer sitesift whose schema this code does not know.
var ErrSchemaTooNew = errors.New("store: database schema is newer than this program")

// dsnParams are the connection settings every pooled connection gets.
// busy_timeout comes first so that the WAL switch on a fresh connection
// already waits for a lock held by another connection; _txlock=immediate
// makes every writing transaction take the write lock at BEGIN, which is what
// keeps read-then-write transactions from failing with SQLITE_BUSY when
// another connection commits in between (see STACK.md).
const dsnParams = "_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)&_txlock=immediate"

// readDSNParams are the settings of the read pool's connections: no
// _txlock, so that a transaction begins DEFERRED and, in WAL mode, reads
// its snapshot beside the one writer instead of queueing for the write
// lock; query_only makes a write sent there by mistake fail rather than
// take the lock. busy_timeout covers the moments a reader does wait (a WAL
// being recovered after a crash). The file is in WAL mode already: the
// write pool's first connection set it when the store opened.
const readDSNParams = "_pragma=busy_timeout(5000)&_pragma=query_only(1)"

// readIdleConns is how many idle connections the read pool keeps. Each
// reader at once holds one; database/sql keeps 2 idle by default, so 20
// readers at once closed and reopened most of theirs on every request, and
// a new connection parses the whole schema before its first query.
const readIdleConns = 32

// timeLayout is fixed-width so that stored times sort as text.
const timeLayout = "2006-01-02T15:04:05.000000000Z"

//go:embed sql/*.sql
var migrationFiles embed.FS

// Store is an open project database. Its methods are safe for concurrent use.
type Store struct {
	// db writes: IMMEDIATE transactions, one writer of this process at a
	// time (writeSem). rdb reads (readDSNParams): every method that only
	// reads uses it, so a read never waits for the crawl's writes. A
	// ReadOnly store has one pool, both.
	db     *sql.DB
	rdb    *sql.DB
	path   string
	logger *slog.Logger
	now    func() time.Time

	// writeSem admits one writing transaction of this process at a time.
	// SQLite's busy handler polls with growing sleeps, so two goroutines
	// that write back to back can starve a third past busy_timeout; queued
	// on a channel they are served in order. busy_timeout still arbitrates
	// with other processes.
	writeSem chan struct{}

	siteTotals siteTotals   // see totals
	nameCounts nameCounts   // see Store.QueueCount
	platforms  platformList // see Store.platformIDs

	// rule is the project's site rule (key site_rule of settings): the
	// site of every page and link the store is given must follow it.
	rule sites.Rule

	// readOnly opens the database for reading only ([ReadOnly]).
	readOnly bool
}

// ReadOnly opens the database for reading only, while another process
// holds it for writing: no migration (a schema other than this program's is
// refused), no write; every write fails with SQLite's "attempt to write a
// readonly database". The file must exist.
func ReadOnly() Option { return func(s *Store) { s.readOnly = true } }

// roDSNParams are the read-only connection's settings: SQLite opens the
// file itself read-only (it still reads a WAL the writer keeps) and
// query_only refuses any write on the connection.
const roDSNParams = "mode=ro&_pragma=busy_timeout(5000)&_pragma=query_only(1)"

// Option configures a [Store] in [Open].
type Option func(*Store)

// WithLogger sets the logger for schema migrations and other rare events.
// The default (and a nil logger) discards everything.
func WithLogger(l *slog.Logger) Option {
	return func(s *Store) {
		if l != nil {
			s.logger = l
		}
	}
}

// WithClock sets the function giving the current time, used for first_seen,
// rated_at and crawl times. The default is time.Now; tests pin it.
func WithClock(now func() time.Time) Option {
	return func(s *Store) {
		if now != nil {
			s.now = now
		}
	}
}

// Open opens the project database at path, creating the file if it does not
// exist (its directory must), and migrates its schema to the newest version
// this code knows. A database written by a newer version is refused with
// [ErrSchemaTooNew] rather than used with a schema the code does not expect.
func Open(path string, opts ...Option) (*Store, error) {
	if path == "" {
		return nil, fmt.Errorf("store: open: %w: empty path", ErrInvalid)
	}
	// The driver splits its DSN at the first '?', so such a path cannot be
	// expressed; refuse it instead of opening a different file.
	if strings.ContainsRune(path, '?') {
		return nil, fmt.Errorf("store: open %q: %w: path contains '?'", path, ErrInvalid)
	}
	dir := filepath.Dir(path)
	if fi, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("store: open %q: %w", path, err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("store: open %q: %s is not a directory", path, dir)
	}

	s := &Store{
		path:     path,
		logger:   slog.New(slog.NewTextHandler(io.Discard, nil)),
		now:      time.Now,
		writeSem: make(chan struct{}, 1),
	}
	for _, o := range opts {
		o(s)
	}
	s.logger = s.logger.With("component", "store")

	if s.readOnly {
		return s.openReadOnly()
	}
	db, err := sql.Open("sqlite", path+"?"+dsnParams)
	if err != nil {
		return nil, fmt.Errorf("store: open %q: %w", path, err)
	}
	s.db = db
	if err := s.migrate(context.Background()); err != nil {
		db.Close()
		return nil, err
	}
	// Opened after the migration, which made the file WAL.
	rdb, err := sql.Open("sqlite", path+"?"+readDSNParams)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open %q for reading: %w", path, err)
	}
	rdb.SetMaxIdleConns(readIdleConns)
	// A connection idle that long is closed: a burst of readers does not
	// keep its connections (and their page caches) for good.
	rdb.SetConnMaxIdleTime(time.Minute)
	s.rdb = rdb
	if err := s.loadSiteRule(context.Background()); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// openReadOnly is Open with [ReadOnly].
func (s *Store) openReadOnly() (*Store, error) {
	ctx := context.Background()
	if _, err := os.Stat(s.path); err != nil {
		return nil, fmt.Errorf("store: open %q read-only: %w", s.path, err)
	}
	db, err := sql.Open("sqlite", "file:"+s.path+"?"+roDSNParams)
	if err != nil {
		return nil, fmt.Errorf("store: open %q read-only: %w", s.path, err)
	}
	s.db, s.rdb = db, db
	ms, err := loadMigrations()
	if err != nil {
		db.Close()
		return nil, err
	}
	latest := ms[len(ms)-1].version
	current, err := s.SchemaVersion(ctx)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open %q read-only: %w", s.path, err)
	}
	switch {
	case current > latest:
		db.Close()
		return nil, fmt.Errorf("store: open %q: %w: it has schema version %d, this program knows up to %d",
			s.path, ErrSchemaTooNew, current, latest)
	case current < latest:
		db.Close()
		return nil, fmt.Errorf("store: open %q read-only: it has schema version %d and this program needs %d, which only a writer can bring it to",
			s.path, current, latest)
	}
	var v string
	if err := db.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, keySiteRule).Scan(&v); errors.Is(err, sql.ErrNoRows) {
		v = string(sites.DefaultRule)
	} else if err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open %q read-only: site rule: %w", s.path, err)
	}
	if s.rule, err = sites.ParseRule(v); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open %q: %w", s.path, err)
	}
	return s, nil
}

// ReadOnlyStore reports whether the store was opened with [ReadOnly].
func (s *Store) ReadOnlyStore() bool { return s.readOnly }

// Close closes the database. Calls after the first return nil.
func (s *Store) Close() error {
	if s == nil || s.db == nil {
		return nil
	}
	var rerr error
	if s.rdb != nil && s.rdb != s.db {
		rerr = s.rdb.Close()
	}
	if err := errors.Join(s.db.Close(), rerr); err != nil {
		return fmt.Errorf("store: close %q: %w", s.path, err)
	}
	return nil
}

// Path returns the file name the store was opened with.
func (s *Store) Path() string { return s.path }

// migration is one numbered schema step from sql/NNNN_name.sql.
type migration struct {
	version int
	name    string
	sql     string
}

// loadMigrations reads the embedded migration files in version order and
// checks that they number 1, 2, 3... without gaps, so a misnamed file is a
// build-time test failure rather than a silently skipped step.
func loadMigrations() ([]migration, error) {
	entries, err := fs.ReadDir(migrationFiles, "sql")
	if err != nil {
		return nil, fmt.Errorf("store: read migrations: %w", err)
	}
	var ms []migration
	for _, e := range entries {
		name := e.Name()
		num, _, ok := strings.Cut(name, "_")
		if !ok {
			return nil, fmt.Errorf("store: migration %q: name is not NNNN_description.sql", name)
		}
		v, err := strconv.Atoi(num)
		if err != nil || v <= 0 {
			return nil, fmt.Errorf("store: migration %q: bad version number", name)
		}
		b, err := migrationFiles.ReadFile(path.Join("sql", name))
		if err != nil {
			return nil, fmt.Errorf("store: read migration %q: %w", name, err)
		}
		ms = append(ms, migration{version: v, name: name, sql: string(b)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for i, m := range ms {
		if m.version != i+1 {
			return nil, fmt.Errorf("store: migration %q: expected version %d", m.name, i+1)
		}
	}
	return ms, nil
}

// migrate applies the migrations newer than the database's user_version, all
// in one IMMEDIATE transaction, so two processes opening the same new file at
// once cannot both apply them and a failing step leaves the old schema whole.
func (s *Store) migrate(ctx context.Context) error {
	ms, err := loadMigrations()
	if err != nil {
		return err
	}
	latest := ms[len(ms)-1].version

	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: open %q: begin migration: %w", s.path, err)
	}
	defer tx.Rollback()

	var current int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&current); err != nil {
		return fmt.Errorf("store: open %q: read schema version: %w", s.path, err)
	}
	if current > latest {
		return fmt.Errorf("store: open %q: %w: it has schema version %d, this program knows up to %d",
			s.path, ErrSchemaTooNew, current, latest)
	}
	if current == latest {
		return nil
	}
	for _, m := range ms[current:] {
		if _, err := tx.ExecContext(ctx, m.sql); err != nil {
			return fmt.Errorf("store: open %q: migration %s: %w", s.path, m.name, err)
		}
		if step := migrationSteps[m.version]; step != nil {
			if err := step(ctx, s, tx); err != nil {
				return fmt.Errorf("store: open %q: migration %s: %w", s.path, m.name, err)
			}
		}
		s.logger.Info("applied schema migration", "migration", m.name)
	}
	// PRAGMA takes no bound parameters; latest is an int we computed.
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", latest)); err != nil {
		return fmt.Errorf("store: open %q: write schema version: %w", s.path, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: open %q: commit migration: %w", s.path, err)
	}
	return nil
}

// SchemaVersion returns the schema version of the open database.
func (s *Store) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	if err := s.rdb.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return 0, fmt.Errorf("store: read schema version: %w", err)
	}
	return v, nil
}

// writer waits for this process's writers queued before it and returns the
// function that lets the next one go.
func (s *Store) writer(ctx context.Context, what string) (release func(), err error) {
	select {
	case s.writeSem <- struct{}{}:
		return func() { <-s.writeSem }, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("store: %s: %w", what, ctx.Err())
	}
}

// write runs fn in a writing (IMMEDIATE) transaction, after the writers of
// this process queued before it, and commits if fn returns nil. what names
// the operation in errors.
func (s *Store) write(ctx context.Context, what string, fn func(tx *sql.Tx) error) error {
	release, err := s.writer(ctx, what)
	if err != nil {
		return err
	}
	defer release()
	return inTx(ctx, s.db, what, fn)
}

// txBeginner begins transactions: *sql.DB and *sql.Conn do.
type txBeginner interface {
	BeginTx(ctx context.Context, opts *sql.TxOptions) (*sql.Tx, error)
}

// inTx runs fn in a transaction begun on b and commits if fn returns nil.
// what names the operation in errors.
func inTx(ctx context.Context, b txBeginner, what string, fn func(tx *sql.Tx) error) error {
	tx, err := b.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: %s: begin: %w", what, err)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: %s: commit: %w", what, err)
	}
	return nil
}

// readTx begins a read-only transaction on the read pool so that the
// several queries of one answer see one snapshot. It is DEFERRED (the read
// pool has no _txlock, and ReadOnly makes the driver leave it out anyway):
// readers never wait for writers.
func (s *Store) readTx(ctx context.Context) (*sql.Tx, error) {
	return s.rdb.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
}

func formatTime(t time.Time) string {
	return t.UTC().Format(timeLayout)
}

// formatTimeOrNull stores the zero time as NULL: "never" rather than year 1.
func formatTimeOrNull(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return formatTime(t)
}

func parseTime(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("store: bad stored time %q: %w", s, err)
	}
	return t, nil
}

func parseNullTime(s sql.NullString) (time.Time, error) {
	if !s.Valid {
		return time.Time{}, nil
	}
	return parseTime(s.String)
}
