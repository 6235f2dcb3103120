// Package doccheck holds the tests that keep sitesift's Markdown true to the
// tree: every relative link in a .md file leads to a file or directory that
// exists, and the frontend's README describes every file of frontend/src and
// names none that is gone. It has no code of its own; the tests read the
// repository from its root, two directories up.
package doccheck
