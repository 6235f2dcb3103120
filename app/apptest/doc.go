// Package apptest holds what the tests of app, of its services and of its
// adapters share: projects built for them (a crawl of the demo web, a graph
// of known communities, rated sites, pages a kill left behind) and requests
// made as the app's own pages make them. Each service's tests sit beside it
// in an external test package (package imports_test) built on apptest; the
// root app package keeps the tests of the composition (App.Info, App.Check).
// Only tests import it.
package apptest
