// Command tsapi writes frontend/src/api-types.gen.ts: the TypeScript types
// of the HTTP API, generated from the Go types each route of
// app/httpapi.Contract encodes, so that the frontend and the server share
// one contract. Run it from anywhere in the module:
//
//	go run ./tools/tsapi
//
// With -check it writes nothing and fails when the file differs from what
// it would write (the build runs that; so does this package's test).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"sitesift/app/httpapi"
)

// output is the generated file, relative to the module's root.
const output = "frontend/src/api-types.gen.ts"

func main() {
	check := flag.Bool("check", false, "fail when "+output+" is not what the Go types make, writing nothing")
	flag.Parse()
	if err := run(*check); err != nil {
		fmt.Fprintln(os.Stderr, "tsapi:", err)
		os.Exit(1)
	}
}

func run(check bool) error {
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	root, err := moduleRoot(wd)
	if err != nil {
		return err
	}
	out, err := generate(httpapi.Contract(), root, narrowings)
	if err != nil {
		return fmt.Errorf("generating %s: %w", output, err)
	}
	path := filepath.Join(root, output)
	if check {
		old, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("checking %s: %w", output, err)
		}
		if line := equalLines(old, out); line != 0 {
			return fmt.Errorf("%s differs from the Go types of the API from line %d: run `go run ./tools/tsapi` and commit it", output, line)
		}
		return nil
	}
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, out) {
		return nil
	}
	return os.WriteFile(path, out, 0o644)
}
