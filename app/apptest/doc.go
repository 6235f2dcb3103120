// Package apptest holds what the tests of app and of its adapters share:
// projects built for them (a crawl of the demo web, a graph of known
// communities, rated sites) and requests made as the app's own pages make
// them. Only tests import it.
package apptest
