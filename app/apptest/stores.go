package apptest

import (
	"compress/gzip"
	"os"
	"strings"
	"testing"

	"sitesift/app"
	"sitesift/sites/store"
)

// StoreApp is an App over a new, empty project with the project's store at
// hand, for the tests that fill or read the store directly.
type StoreApp struct {
	*app.App
	Store *store.Store
}

// EmptyStoreApp opens a new, empty project, closed at cleanup, as a
// [StoreApp].
func EmptyStoreApp(t testing.TB) StoreApp {
	t.Helper()
	a, p := EmptyProject(t)
	return StoreApp{a, p.Store}
}

// WriteGz writes lines, each ended by a newline, as a gzip file at path,
// and returns path.
func WriteGz(t testing.TB, path string, lines ...string) string {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	zw.Write([]byte(strings.Join(lines, "\n") + "\n"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}
