// Package doccheck holds the tests that keep sitesift's Markdown true to the
// tree: every relative link in a .md file leads to a file or directory that
// exists, and the frontend's README describes every file of frontend/src and
// names none that is gone; the Go and Node that .ci/install fetches on a bare
// machine are recent enough for go.mod and the frontend's build, and pinned by
// hash. It has no code of its own; the tests read the repository from its
// root, two directories up.
package doccheck
