package refdata

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// RequireEnv is the environment variable that, set to 1, turns a missing
// reference file from a skip into a failure.
const RequireEnv = "SITESIFT_REQUIRE_REFDATA"

// Shared returns the absolute path of elem under the shared reference data
// (../shared/data from the repository root). When that path does not exist
// it skips tb, or fails it when RequireEnv is set to 1.
func Shared(tb testing.TB, elem ...string) string {
	tb.Helper()
	wd, err := os.Getwd()
	if err != nil {
		tb.Fatalf("refdata: working directory: %v", err)
	}
	p, err := Find(wd, elem...)
	if err == nil {
		return p
	}
	if !errors.Is(err, os.ErrNotExist) || os.Getenv(RequireEnv) == "1" {
		tb.Fatalf("%v (%s=%q)", err, RequireEnv, os.Getenv(RequireEnv))
	}
	tb.Skipf("%v (set %s=1 to fail instead)", err, RequireEnv)
	return ""
}

// Find returns the absolute path of elem under ../shared/data from the
// repository that holds dir: the nearest folder at or above dir with a go.mod
// file. The error wraps os.ErrNotExist when the path is missing, and names
// the path looked for.
func Find(dir string, elem ...string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("refdata: %w", err)
	}
	root, err := repoRoot(dir)
	if err != nil {
		return "", err
	}
	p := filepath.Join(append([]string{filepath.Dir(root), "shared", "data"}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("refdata: reference data %s not found (../shared/data beside the repository %s): %w", p, root, os.ErrNotExist)
		}
		return "", fmt.Errorf("refdata: reference data: %w", err)
	}
	return p, nil
}

// repoRoot walks up from dir to the first folder holding go.mod.
func repoRoot(dir string) (string, error) {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		up := filepath.Dir(d)
		if up == d {
			// Not os.ErrNotExist: a test run outside the repository is a
			// mistake in how it was run, not missing data.
			return "", fmt.Errorf("refdata: no go.mod in %s or any folder above it", dir)
		}
		d = up
	}
}
