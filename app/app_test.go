package app

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"sitesift/crawl/demoweb"
)

func TestIndexRebuiltFromStore(t *testing.T) {
	src := crawledProject(t)
	dir := t.TempDir()
	db, err := os.ReadFile(filepath.Join(src, DBFile))
	if err != nil {
		t.Fatal(err)
	}
	// A checkpointed copy of the database alone, with no index beside it.
	p0, err := OpenProject(src, false)
	if err != nil {
		t.Fatal(err)
	}
	p0.Close()
	if db, err = os.ReadFile(filepath.Join(src, DBFile)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, DBFile), db, 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := OpenProject(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	n, err := p.Index.Count()
	if err != nil || n == 0 {
		t.Fatalf("rebuilt index holds %d pages, %v", n, err)
	}
}

