// Package projects holds the rules of a librarian's projects, outside any
// one of them: what folder is a project, which names a new project may
// take, the list of projects this user opened recently, the folder of
// projects `sitesift serve --projects DIR` offers, and the switch from the
// open project to another one, refused while a crawl, an import or a lab experiment runs.
//
// The desktop window and serve hold one [Switcher]; the adapters
// (app/httpapi, app/cli) only ask it and translate its answers.
//
//	sw := projects.NewSwitcher(projects.Options{Open: open, Recent: &projects.Recent{Path: file}})
//	if _, err := sw.OpenDir(dir); err != nil { ... }
//	a, dir := sw.Current()
package projects
