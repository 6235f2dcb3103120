package review

import (
	"encoding/json"
	"strings"
	"testing"

	"sitesift/sites/store"
)

func TestAuditSummary(t *testing.T) {
	long := strings.Repeat("é", 100)
	for _, tc := range []struct {
		name, action, before, after, want string
	}{
		{"a first rating", store.AuditRating, ``, `{"rating":3,"note":"soup"}`, "rating 3 · note soup"},
		{"a rerating", store.AuditRating, `{"rating":3,"note":"soup"}`, `{"rating":2,"note":"soup"}`, "rating 3 → 2"},
		{"a note removed", store.AuditNote, `{"rating":3,"note":"soup"}`, `{"rating":3,"note":""}`, "note soup → —"},
		{"an unrating", store.AuditUnrating, `{"rating":3,"note":""}`, ``, "rating 3 → —"},
		{"an approval", store.AuditApprove, `{"status":"nominated","subject":"maps"}`, `{"status":"approved","subject":"maps"}`, "status nominated → approved"},
		{"a long note", store.AuditNote, ``, `{"note":"` + long + `"}`, "note " + strings.Repeat("é", maxValue-1) + "…"},
		{"withheld", store.AuditRating, ``, ``, ""},
		{"a crawl", store.AuditCrawl, ``, `{"recrawl":false,"seeds":3,"max_pages":500,"strategy":""}`, "max_pages: 500 · seeds: 3"},
		{"an import", store.AuditImport, ``, `{"warc":["/a.warc","/b.warc","/c.warc","/d.warc"],"cdx":null}`, "warc: /a.warc, /b.warc, /c.warc … (4)"},
		{"settings", store.AuditSettings, `{"delay_ms":1000,"parallel":4}`, `{"delay_ms":1500,"parallel":4}`, "delay_ms 1000 → 1500"},
		{"settings as they were", store.AuditSettings, `{"delay_ms":1000}`, `{"delay_ms":1000}`, "nothing changed"},
		{"a librarian", store.AuditLibrarian, ``, `{"name":"Ida","created_at":"2026-03-01T09:00:00Z","ratings":0}`, "librarian Ida added"},
		{"an account added", store.AuditAccount, ``, `{"name":"eve","role":"curator","disabled":false,"change":"added"}`, "account eve added (curator)"},
		{"a role", store.AuditAccount, `{"name":"ben","role":"curator","disabled":false}`, `{"name":"ben","role":"admin","disabled":false,"change":"role"}`, "ben made admin (was curator)"},
		{"a platform out", store.AuditPlatform, `{"platform":true,"listed":true,"chosen":false}`, `{"platform":false,"listed":true,"chosen":true}`, "moved out of the platforms, though the list names it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := summarize(tc.action, json.RawMessage(tc.before), json.RawMessage(tc.after)); got != tc.want {
				t.Fatalf("summary %q, want %q", got, tc.want)
			}
		})
	}
}
