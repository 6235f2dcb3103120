package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// field is one member of a struct's JSON object.
type field struct {
	name     string // its JSON name
	goName   string
	typ      reflect.Type
	owner    reflect.Type // the struct that declares it
	index    []int
	tagged   bool // named by its tag
	optional bool // omitempty or omitzero, or promoted through an embedded pointer
	omitted  bool // omitempty or omitzero: a nil pointer, slice or map is left out, never null
	quoted   bool // ",string": the number or bool is written as a string
}

// jsonFields lists the members of t's JSON object as encoding/json
// (typeFields) finds them: exported fields and the promoted fields of
// embedded structs, a shallower field hiding a deeper one of the same name
// and two at one depth hiding each other unless one alone is tagged.
func jsonFields(t reflect.Type) ([]field, error) {
	type level struct {
		t        reflect.Type
		index    []int
		optional bool
	}
	var fields []field
	next := []level{{t: t}}
	visited := map[reflect.Type]bool{}
	for len(next) > 0 {
		current := next
		next = nil
		for _, lv := range current {
			if visited[lv.t] {
				continue
			}
			visited[lv.t] = true
			for i := range lv.t.NumField() {
				sf := lv.t.Field(i)
				if sf.Anonymous {
					ft := sf.Type
					if ft.Kind() == reflect.Pointer {
						ft = ft.Elem()
					}
					if !sf.IsExported() && ft.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				index := append(slices.Clip(lv.index), i)
				ft := sf.Type
				viaPointer := false
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
					viaPointer = true
				}
				if name != "" || !sf.Anonymous || ft.Kind() != reflect.Struct {
					f := field{name: name, goName: sf.Name, typ: sf.Type, owner: lv.t, index: index, tagged: name != "", optional: lv.optional}
					if f.name == "" {
						f.name = sf.Name
					}
					for o := range strings.SplitSeq(opts, ",") {
						switch o {
						case "omitempty", "omitzero":
							f.optional, f.omitted = true, true
						case "string":
							switch ft.Kind() {
							case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
								reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
								reflect.Float32, reflect.Float64:
								f.quoted = true
							}
						}
					}
					fields = append(fields, f)
					continue
				}
				next = append(next, level{t: ft, index: index, optional: lv.optional || viaPointer})
			}
		}
	}
	sort.SliceStable(fields, func(i, j int) bool {
		a, b := fields[i], fields[j]
		if a.name != b.name {
			return a.name < b.name
		}
		if len(a.index) != len(b.index) {
			return len(a.index) < len(b.index)
		}
		return a.tagged && !b.tagged
	})
	var out []field
	for i := 0; i < len(fields); {
		j := i + 1
		for j < len(fields) && fields[j].name == fields[i].name {
			j++
		}
		group := fields[i:j]
		i = j
		if len(group) > 1 && len(group[0].index) == len(group[1].index) && group[0].tagged == group[1].tagged {
			continue // two at one depth: encoding/json writes neither
		}
		out = append(out, group[0])
	}
	slices.SortFunc(out, func(a, b field) int { return slices.Compare(a.index, b.index) })
	return out, nil
}

// constants reads the string constants declared with type t in its
// package's source, in source order: the values of a Go enum.
func (g *generator) constants(t reflect.Type) ([]string, error) {
	key := t.PkgPath() + "." + t.Name()
	if v, ok := g.enums[key]; ok {
		return v, nil
	}
	files, err := g.source(t.PkgPath())
	if err != nil {
		return nil, fmt.Errorf("reading the constants of %s: %w", key, err)
	}
	var values []string
	for _, f := range files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				typed := false
				if id, ok := vs.Type.(*ast.Ident); ok && id.Name == t.Name() {
					typed = true
				}
				for _, v := range vs.Values {
					lit := v
					// T("x") declares a constant of type T too.
					if call, ok := v.(*ast.CallExpr); ok && len(call.Args) == 1 {
						if id, ok := call.Fun.(*ast.Ident); ok && id.Name == t.Name() {
							lit, typed = call.Args[0], true
						}
					}
					bl, ok := lit.(*ast.BasicLit)
					if !typed || !ok || bl.Kind != token.STRING {
						continue
					}
					s, err := strconv.Unquote(bl.Value)
					if err != nil {
						return nil, fmt.Errorf("constant of %s at %s: %w", key, bl.Value, err)
					}
					values = append(values, s)
				}
			}
		}
	}
	g.enums[key] = values
	return values, nil
}

// source parses the package pkgPath of the module, with its comments;
// none for a package outside it.
func (g *generator) source(pkgPath string) ([]*ast.File, error) {
	rel, ok := strings.CutPrefix(pkgPath, module)
	if !ok || (rel != "" && rel[0] != '/') {
		return nil, nil
	}
	dir := filepath.Join(g.root, filepath.FromSlash(rel))
	if files, ok := g.files[dir]; ok {
		return files, nil
	}
	var files []*ast.File
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution|parser.ParseComments)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	g.files[dir] = files
	return files, nil
}

// docs finds the doc comment of named type t in its source, and those of
// its fields by Go name; nothing for a type outside the module.
func (g *generator) docs(t reflect.Type) (string, map[string]string, error) {
	files, err := g.source(t.PkgPath())
	if err != nil {
		return "", nil, fmt.Errorf("reading the doc comments of %s: %w", t, err)
	}
	fields := map[string]string{}
	for _, f := range files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, sp := range gd.Specs {
				ts := sp.(*ast.TypeSpec)
				if ts.Name.Name != t.Name() {
					continue
				}
				doc := ts.Doc
				if doc == nil && len(gd.Specs) == 1 {
					doc = gd.Doc
				}
				if st, ok := ts.Type.(*ast.StructType); ok {
					for _, fl := range st.Fields.List {
						c := fl.Doc
						if c == nil {
							c = fl.Comment
						}
						for _, n := range fl.Names {
							fields[n.Name] = c.Text()
						}
					}
				}
				return doc.Text(), fields, nil
			}
		}
	}
	return "", fields, nil
}

// jsdoc writes text as a doc comment indented by indent.
func jsdoc(b *strings.Builder, text, indent string) {
	text = strings.TrimSpace(strings.ReplaceAll(text, "*/", "*\\/"))
	if text == "" {
		return
	}
	lines := strings.Split(text, "\n")
	if len(lines) == 1 {
		fmt.Fprintf(b, "%s/** %s */\n", indent, text)
		return
	}
	fmt.Fprintf(b, "%s/**\n", indent)
	for _, l := range lines {
		fmt.Fprintf(b, "%s%s\n", indent, strings.TrimRight(" * "+l, " "))
	}
	fmt.Fprintf(b, "%s */\n", indent)
}
