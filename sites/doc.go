// Package sites holds sitesift's domain types and the rule that maps a URL to
// its site. Everything else in sitesift speaks of sites through this package,
// so the site rule lives in exactly one place: [Of].
//
// Sub-packages own storage: sites/store is the SQLite project database (the
// source of truth), sites/index the Bleve full-text index (rebuildable from
// the store).
package sites
