package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"sitesift/app/crawling"
	"sitesift/app/httpapi"
	"sitesift/tools/tsapi/sample"
)

// TestGeneratedFileIsCurrent fails when frontend/src/api-types.gen.ts is
// not what the Go types of the API make: a Go field renamed, retyped or
// added without regenerating. The frontend's type check then finds every
// use of the old field.
func TestGeneratedFileIsCurrent(t *testing.T) {
	root, err := moduleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	want, err := generate(httpapi.Contract(), root, narrowings)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(root, output))
	if err != nil {
		t.Fatal(err)
	}
	if line := equalLines(got, want); line != 0 {
		t.Fatalf("%s differs from the Go types of the API from line %d:\n  file: %q\n  Go:   %q\nrun `go run ./tools/tsapi` and commit it",
			output, line, lineOf(got, line), lineOf(want, line))
	}
}

// withoutDocs drops the doc comments of generated text.
func withoutDocs(s string) string {
	var out []string
	in := false
	for _, l := range strings.Split(s, "\n") {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "/**") && strings.HasSuffix(t, "*/"):
		case strings.HasPrefix(t, "/**"):
			in = true
		case in:
			in = !strings.HasSuffix(t, "*/")
		default:
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func lineOf(b []byte, n int) string {
	lines := strings.Split(string(b), "\n")
	if n-1 < len(lines) {
		return lines[n-1]
	}
	return "(end of file)"
}

// TestGeneratorFollowsEncodingJSON checks every rule of encoding/json the
// generator must follow on one struct, and that the JSON the encoder
// writes for it has exactly the fields the TypeScript type names.
func TestGeneratorFollowsEncodingJSON(t *testing.T) {
	root, err := moduleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	out, err := generate([]httpapi.Route{{Pattern: "GET /x", Response: sample.Sample{}}}, root, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range []string{
		"/**\n * Level is a named string type with constants: a union.\n *\n * (Go: sitesift/tools/tsapi/sample.Level)\n */\nexport type Level",
		"  /** no tag: its Go name */\n  Plain: number;",
	} {
		if !strings.Contains(string(out), doc) {
			t.Errorf("generated:\n%s\nwant the Go doc comment:\n%s", out, doc)
		}
	}
	got := withoutDocs(string(out))
	want := `export interface Sample {
  deep: string;
  name: string;
  Plain: number;
  "-": string;
  opt?: string;
  zero?: number;
  ptr: number | null;
  opt_ptr?: number;
  list: string[] | null;
  opt_list?: string[];
  bytes: string;
  grid: (number[] | null)[];
  counts: Record<string, Count> | null;
  at: string;
  when?: string;
  level: Level;
  quoted: string;
  any: unknown;
  raw: unknown;
  nested: {
    X: boolean;
  };
  row: RecrawlCounts;
  tagged: Inner;
}`
	if !strings.Contains(got, want) {
		t.Errorf("generated:\n%s\nwant it to hold:\n%s", got, want)
	}
	for _, decl := range []string{
		"export type Level = 'low' | 'high';", // the typed constants, not notLevel
		"export type Count = number;",
		"export interface Inner {\n  deep: string;\n  id: number;\n  tie: string;\n}",
		"export interface RecrawlCounts {",
	} {
		if !strings.Contains(got, decl) {
			t.Errorf("generated:\n%s\nwant it to hold %q", got, decl)
		}
	}
	if strings.Contains(got, "Skipped") || strings.Contains(got, "private") || strings.Contains(got, "untyped") || strings.Contains(got, "  tie") && !strings.Contains(got, "interface Inner") {
		t.Errorf("generated a field json leaves out:\n%s", got)
	}
	// The encoder's own output: every key it writes is in the type, and
	// every field the type requires is written.
	b, err := json.Marshal(sample.New())
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	fields, err := jsonFields(reflect.TypeFor[sample.Sample]())
	if err != nil {
		t.Fatal(err)
	}
	var names, required []string
	for _, f := range fields {
		names = append(names, f.name)
		if !f.optional {
			required = append(required, f.name)
		}
	}
	for k := range m {
		if !slices.Contains(names, k) {
			t.Errorf("encoding/json writes %q, which the generated type lacks", k)
		}
	}
	for _, k := range required {
		if _, ok := m[k]; !ok {
			t.Errorf("the generated type requires %q, which encoding/json left out of %s", k, b)
		}
	}
}

// TestNamesDoNotClash checks that two packages' types of one name, and a
// name the browser has, get their package's name before them.
func TestNamesDoNotClash(t *testing.T) {
	type File struct {
		A int `json:"a"`
	}
	type both struct {
		F File                   `json:"f"`
		L crawling.RecrawlCounts `json:"l"`
	}
	root, err := moduleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	out, err := generate([]httpapi.Route{{Pattern: "GET /x", Response: both{}}}, root, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "export interface TsapiFile {") {
		t.Errorf("a type named File kept the browser's name:\n%s", out)
	}
}

// TestNarrowingsNameFields checks that a narrowing naming no field fails
// the generator: a Go rename cannot leave one behind unnoticed.
func TestNarrowingsNameFields(t *testing.T) {
	root, err := moduleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	narrow := map[string]string{"Sample.name": "Level", "Sample.gone": "Level"}
	out, err := generate([]httpapi.Route{{Pattern: "GET /x", Response: sample.Sample{}}}, root, map[string]string{"Sample.name": "Level"})
	if err != nil || !strings.Contains(string(out), "  name: Level;\n") || !strings.Contains(string(out), "import type { Level } from './api';") {
		t.Fatalf("a narrowing of Sample.name: err %v, generated:\n%s", err, out)
	}
	_, err = generate([]httpapi.Route{{Pattern: "GET /x", Response: sample.Sample{}}}, root, narrow)
	if err == nil || !strings.Contains(err.Error(), "Sample.gone") {
		t.Fatalf("a narrowing of a missing field: err %v", err)
	}
}

// TestStandInsMatch holds each stand-in to the JSON its type writes: the
// same keys, for a value with every list and pointer set.
func TestStandInsMatch(t *testing.T) {
	for typ, st := range standIns {
		v := reflect.New(typ).Elem()
		fill(v)
		b, err := json.Marshal(v.Interface())
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]json.RawMessage
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		fields, err := jsonFields(st)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, f := range fields {
			want = append(want, f.name)
			if _, ok := got[f.name]; !ok {
				t.Errorf("%s writes no %q, which its stand-in %s has", typ, f.name, st)
			}
		}
		for k := range got {
			if !slices.Contains(want, k) {
				t.Errorf("%s writes %q, which its stand-in %s lacks", typ, k, st)
			}
		}
	}
}

// fill sets every pointer, and gives every slice and map one element, so
// that no omitempty field is left out.
func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem())
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() && v.Type().Field(i).Type != reflect.TypeFor[time.Time]() {
				fill(v.Field(i))
			}
		}
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0))
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
	case reflect.String:
		v.SetString("x")
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(1)
	case reflect.Float64:
		v.SetFloat(1)
	case reflect.Bool:
		v.SetBool(true)
	}
}
