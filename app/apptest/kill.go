package apptest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"sitesift/app/project"
	"sitesift/sites"
	"sitesift/sites/index"
)

// KillPages is a batch of n pages of kill.test, numbered from from, each of
// whose text holds "gramophone cylinders": the pages the tests of a kill
// save, index and search for.
func KillPages(from, n int) []sites.Page {
	pages := make([]sites.Page, n)
	for i := range pages {
		u := fmt.Sprintf("http://kill.test/p%d", from+i)
		pages[i] = sites.Page{URL: u, Site: "kill.test", Status: 200, ContentType: "text/html",
			Title: fmt.Sprintf("page %d", from+i), Text: "gramophone cylinders", FetchedAt: time.Now()}
	}
	return pages
}

// OpenDir opens the project in dir (a new one when create), as the next
// process would after a kill; the caller closes it.
func OpenDir(t testing.TB, dir string, create bool) *project.Project {
	t.Helper()
	p, err := project.Open(dir, create, project.SearchTimeout(project.NoSearchTimeout))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Save commits pages to the store of p, as a crawl batch does.
func Save(t testing.TB, p *project.Project, pages []sites.Page) {
	t.Helper()
	if err := p.Store.SaveCrawlBatch(context.Background(), pages, nil); err != nil {
		t.Fatal(err)
	}
}

// AddToIndex adds pages to the search index of p and marks them indexed,
// as a crawl batch does after its commit.
func AddToIndex(t testing.TB, p *project.Project, pages []sites.Page) {
	t.Helper()
	if err := project.IndexPages(context.Background(), p.Store, p.Index, pages); err != nil {
		t.Fatal(err)
	}
}

// SearchTotal is the number of pages of ix that the query q finds.
func SearchTotal(t testing.TB, ix *index.Index, q string) uint64 {
	t.Helper()
	res, err := ix.Search(context.Background(), index.Query{Text: q})
	if err != nil {
		t.Fatal(err)
	}
	return res.Total
}
