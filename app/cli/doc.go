// Package cli is sitesift's command line: [CLI.Run] parses a command and
// its flags, opens the project, calls the methods of [app.App], prints
// tables, CSV or JSON through the service's writers, and returns the exit
// status: 0 on success, 1 on a failure, 2 on a usage mistake, 3 when an
// export wrote a deliverable that holds nothing (its header alone), with
// the error on one line of stderr. The commands are a table (commandTable):
// the dispatch, `sitesift help`, each command's --help and the reference
// of docs/cli.md (tools/clidoc) are all made from it and from the flags
// each command defines.
//
// It translates and does not decide: defaults, checks of a request and
// every rule are the service's; so are the types and constants it names
// (it imports neither sites/store nor sites/index). It also wires the two ways to open the
// app: the desktop window (through the Desktop function main gives it) and
// `sitesift serve`, both on the handler of app/httpapi.
package cli
