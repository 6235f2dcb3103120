// Package export writes what sitesift hands over: seed lists, rankings,
// selections, ratings files and tables, as txt, CSV or JSON. Every CSV goes
// through its [CSVWriter], which neutralises cells a spreadsheet would take
// for a formula, and every JSON list is written as [] when empty, so the
// command line and the HTTP API write the same bytes for the same data.
//
// It formats and does not decide: which rows a deliverable holds is the
// service's (package app) business. It imports nothing of the project.
package export
