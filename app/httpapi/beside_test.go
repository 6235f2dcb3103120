package httpapi

import (
	"context"
	"net"
	"net/http"
	"path/filepath"
	"testing"

	"sitesift/app/fault"
	"sitesift/app/project"
	"sitesift/app/review"
)

// TestHolderSearchBusy: the holder's 429 (too many searches at once) reaches
// a process beside it as a conflict, which its own API answers with 409,
// not as an error kind its API has no status for.
func TestHolderSearchBusy(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "api.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	busy := newGate("search", 1, 1, 0).busy()
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { writeError(w, busy) })}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	search := HolderSearch(project.Holder{PID: 1, Command: "sitesift serve", Socket: sock})
	_, err = search(context.Background(), review.Query{Text: "jazz"})
	if fault.KindOf(err) != fault.KindConflict || err.Error() != busy.Error() {
		t.Errorf("holder busy: %v (kind %s), want a conflict saying %q", err, fault.KindOf(err), busy)
	}
	if _, status := classify(err); status != http.StatusConflict {
		t.Errorf("answered beside with %d, want 409", status)
	}
}
