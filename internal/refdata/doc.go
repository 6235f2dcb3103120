// Package refdata finds the shared reference data for tests and benchmarks:
// real files authored outside sitesift (the polblogs web graph, WARC files
// made by other tools) that live in ../shared/data beside the repository,
// never copied into it.
//
// A test asks for a file by its path under that folder:
//
//	edges := refdata.Shared(t, "polblogs", "edges.tsv")
//
// The path is found from the repository root (the folder holding go.mod), so
// it is the same from every package, however deep. When the file is absent
// the test is skipped, saying which path it looked for; with
// SITESIFT_REQUIRE_REFDATA=1 (as .ci/test runs) it fails instead, so that a
// CI run never passes by skipping the tests that read real data.
//
// It imports only the standard library, so any package's tests may use it.
package refdata
