package httpapi

import (
	"context"
	"encoding/json"
	"flag"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"sitesift/app/apptest"
	"sitesift/app/imports"
	"sitesift/internal/refdata"
)

var updateWire = flag.Bool("update-wire", false, "rewrite testdata/wire.golden from the answers of this build")

// TestWireKeys holds the JSON the frontend reads to what it was: the keys
// (and the kind of each value) of representative answers, the sites table,
// a site's page, a rating, the review page, the selection, a ratings file's
// import, the agreement, the project, its archive imports and an edge list's import, against testdata/wire.golden. The field names are
// decided by the services' own types, not by the store's rows; a field
// renamed, lost or sent under its Go name fails here.
func TestWireKeys(t *testing.T) {
	a, _ := apptest.Open(t, apptest.ReviewProject(t))
	h := New(a)
	var b strings.Builder
	show := func(method, path, body string) {
		env := apptest.Call(t, h, method, path, body, http.StatusOK, nil)
		var v any
		if err := json.Unmarshal(env.Data, &v); err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		b.WriteString(method + " " + path + "\n")
		for _, k := range keys("", v) {
			b.WriteString("  " + k + "\n")
		}
	}
	show("PUT", "/api/sites/s5.test/rating", `{"librarian":"ana","rating":3,"note":"soup"}`)
	show("PUT", "/api/sites/s1.test/selection", `{"librarian":"ana","status":"nominated","note":"maps"}`)
	show("GET", "/api/sites?limit=3&librarian=ana", "")
	show("GET", "/api/sites/s1.test?librarian=ana", "")
	show("GET", "/api/sites/s1.test/review?librarian=ana", "")
	show("GET", "/api/selection?status=nominated", "")
	show("GET", "/api/librarians", "")
	show("GET", "/api/search?q=maps", "")
	show("POST", "/api/ratings/import?name=r.csv", "librarian,site,rating,note\nana,s2.test,4,\n")
	show("GET", "/api/agreement", "")

	ia := apptest.Empty(t)
	ih := New(ia)
	if _, err := ia.Imports.ImportArchives(context.Background(), imports.ArchiveImportRequest{CDX: []string{refdata.Shared(t, "warc", "iana.cdx")}}, nil); err != nil {
		t.Fatal(err)
	}
	h = ih
	show("GET", "/api/imports", "")
	show("GET", "/api/project", "")
	show("GET", "/api/sites?limit=1", "")

	// An edge list with a bad line, imported into a project of its own.
	h = New(apptest.Empty(t))
	edges, _ := json.Marshal(imports.EdgeImportRequest{Path: upload(t, h, "e.txt", []byte("a.test b.test\nb,test c.test\n"))})
	show("POST", "/api/imports/edges", string(edges))

	golden := filepath.Join("testdata", "wire.golden")
	if *updateWire {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != string(want) {
		g, w := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range max(len(g), len(w)) {
			if i >= len(g) || i >= len(w) || g[i] != w[i] {
				t.Fatalf("the answers' JSON differs from %s from line %d:\n got: %q\nwant: %q", golden, i+1, at(g, i), at(w, i))
			}
		}
	}
}

// at is line i of lines, "" past the end.
func at(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return ""
}

// keys lists the paths of v's object keys with the kind of each value,
// sorted: "rows[].site string". The elements of a list are merged, so that
// the list's length does not matter.
func keys(path string, v any) []string {
	var out []string
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			p := k
			if path != "" {
				p = path + "." + k
			}
			out = append(out, p+" "+kind(x))
			out = append(out, keys(p, x)...)
		}
	case []any:
		for _, x := range v {
			out = append(out, keys(path+"[]", x)...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// kind is the JSON kind of a decoded value.
func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "object"
	case []any:
		return "list"
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "bool"
	}
	return "?"
}

// TestContractSpeaksServiceTypes: no type of the storage, named or reached
// through a field, a list, a map or an embedded struct, travels in a route
// of the contract. The store's rows carry no JSON tags; one of them on the
// wire would send its Go field names.
func TestContractSpeaksServiceTypes(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var walk func(route string, typ reflect.Type)
	walk = func(route string, typ reflect.Type) {
		if typ == nil || seen[typ] {
			return
		}
		seen[typ] = true
		if p := typ.PkgPath(); strings.HasPrefix(p, "sitesift/sites/store") || strings.HasPrefix(p, "sitesift/sites/index") {
			t.Errorf("%s: the wire carries %s, a type of the storage", route, typ)
		}
		switch typ.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			walk(route, typ.Elem())
		case reflect.Map:
			walk(route, typ.Key())
			walk(route, typ.Elem())
		case reflect.Struct:
			for f := range typ.Fields() {
				walk(route, f.Type)
			}
		}
	}
	for _, r := range Contract() {
		for _, v := range append(append([]any{}, r.Requests...), r.Response, r.Error) {
			if v != nil {
				walk(r.Pattern, reflect.TypeOf(v))
			}
		}
	}
	if len(seen) < 50 {
		t.Fatalf("walked %d types of the contract; the walk missed it", len(seen))
	}
}
