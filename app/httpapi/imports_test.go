package httpapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sitesift/app/apptest"
	"sitesift/app/imports"
	"sitesift/internal/refdata"
)

// waitImport polls the import until it is no longer running.
func waitImport(t *testing.T, h http.Handler) imports.ImportStatus {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		var st imports.ImportStatus
		apptest.Call(t, h, "GET", "/api/imports/status", "", http.StatusOK, &st)
		if st.State != imports.ImportRunning {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("import still running: %+v", st)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// upload sends body as an archive file named name and returns its path on
// the server.
func upload(t *testing.T, h http.Handler, name string, body []byte) string {
	t.Helper()
	req := apptest.Request(h, "POST", "/api/imports/upload?name="+name, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/octet-stream")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("upload: %d %s", rec.Code, rec.Body)
	}
	var env struct {
		Data struct{ Path string } `json:"data"`
	}
	json.Unmarshal(rec.Body.Bytes(), &env)
	return env.Data.Path
}

// TestImportAPIUploadAndSearch: a WARC file uploaded, imported in the
// background, its page found by search; the same file again is skipped;
// a missing path is refused at once with its name; a truncated upload
// fails naming the byte offset and keeps nothing of it.
func TestImportAPIUploadAndSearch(t *testing.T) {
	_, h := emptyApp(t)
	ref := refdata.Shared(t, "warc")
	b, err := os.ReadFile(filepath.Join(ref, "iana.warc.gz"))
	if err != nil {
		t.Fatal(err)
	}
	path := upload(t, h, "iana.warc.gz", b)
	body, _ := json.Marshal(imports.ArchiveImportRequest{WARC: []string{path}})
	var st imports.ImportStatus
	apptest.Call(t, h, "POST", "/api/imports", string(body), http.StatusAccepted, &st)
	st = waitImport(t, h)
	if st.State != imports.ImportDone || len(st.Result.Files) != 1 || st.Progress.BytesDone != st.Progress.BytesTotal {
		t.Fatalf("status %+v", st)
	}
	var sr struct {
		Total int `json:"total"`
	}
	apptest.Call(t, h, "GET", "/api/search?q=root+zone", "", http.StatusOK, &sr)
	if sr.Total == 0 {
		t.Error("search finds no imported page")
	}
	apptest.Call(t, h, "POST", "/api/imports", string(body), http.StatusAccepted, nil)
	if st = waitImport(t, h); st.State != imports.ImportDone || !st.Result.Files[0].Skipped {
		t.Errorf("second import %+v: want the file skipped", st)
	}

	env := apptest.Call(t, h, "POST", "/api/imports", `{"warc":["/no/such/file.warc.gz"]}`, http.StatusBadRequest, nil)
	if !strings.Contains(env.Error, "/no/such/file.warc.gz") {
		t.Errorf("error %q does not name the path", env.Error)
	}

	cut := upload(t, h, "cut.warc.gz", b[:400_000])
	body, _ = json.Marshal(imports.ArchiveImportRequest{WARC: []string{cut}})
	apptest.Call(t, h, "POST", "/api/imports", string(body), http.StatusAccepted, nil)
	if st = waitImport(t, h); st.State != imports.ImportFailed || !strings.Contains(st.Error, "byte offset 329393") {
		t.Errorf("truncated import %+v: want failed at byte offset 329393", st)
	}
	var files []json.RawMessage
	apptest.Call(t, h, "GET", "/api/imports", "", http.StatusOK, &files)
	if len(files) != 1 {
		t.Errorf("%d files recorded, want the good one", len(files))
	}
}

// TestUploadNames: a name that cannot be a file's is a bad request that
// says why, not a failure of the server: a NUL byte, a name over 255 bytes,
// a hidden or empty one.
func TestUploadNames(t *testing.T) {
	_, h := emptyApp(t)
	for _, tt := range []struct{ name, says string }{
		{"a%00b.warc", `upload: the file name "a\x00b.warc" holds a control character (0x00) at byte 2`},
		{strings.Repeat("n", 256) + ".warc", "upload: the file name \"" + strings.Repeat("n", 40) + "\"… is 261 bytes long: at most 255"},
		{"..", `upload: ".." is no file name`},
		{".hidden.warc", `upload: ".hidden.warc" is no file name: it starts with a dot (a hidden file)`},
		{"", "upload: the file has no name"},
	} {
		req := apptest.Request(h, "POST", "/api/imports/upload?name="+tt.name, strings.NewReader("x"))
		req.Header.Set("Content-Type", "application/octet-stream")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		var env apptest.Envelope
		json.Unmarshal(rec.Body.Bytes(), &env)
		if rec.Code != http.StatusBadRequest || env.ErrorType != "bad_request" || env.Error != tt.says {
			t.Errorf("name %.30q: %d %s %q, want 400 bad_request %q", tt.name, rec.Code, env.ErrorType, env.Error, tt.says)
		}
	}
	// A name of 255 bytes is a file name.
	if p := upload(t, h, strings.Repeat("n", 250)+".warc", []byte("x")); len(filepath.Base(p)) != 255 {
		t.Errorf("saved as %q", p)
	}
}
