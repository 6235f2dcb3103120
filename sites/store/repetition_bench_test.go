package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"sitesift/sites"
)

// BenchmarkRepetitionRule measures the rule on a crawled project of 500
// sites of 40 pages, each page with 10 editorial links to other sites, 2
// of them its site's repeated "follow us" links, and 10 template links.
//
//	go test -run - -bench RepetitionRule -benchtime 3x ./sites/store/
func BenchmarkRepetitionRule(b *testing.B) {
	ctx := context.Background()
	s, err := Open(b.TempDir() + "/project.db")
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	rng := rand.New(rand.NewPCG(5, 6))
	const nSites, perSite = 500, 40
	for site := range nSites {
		var batch []sites.Page
		for i := range perSite {
			u := fmt.Sprintf("http://s%d.test/%d", site, i)
			p := sites.Page{URL: u, Site: fmt.Sprintf("s%d.test", site), Status: 200, ContentType: "text/html",
				Links: []string{fmt.Sprintf("http://f%d.test/us", site), fmt.Sprintf("http://g%d.test/", site)}}
			for range 8 {
				p.Links = append(p.Links, fmt.Sprintf("http://s%d.test/%d", rng.IntN(nSites), rng.IntN(perSite)))
			}
			for k := range 10 {
				p.TemplateLinks = append(p.TemplateLinks, fmt.Sprintf("http://t%d.test/%d", k, site))
			}
			batch = append(batch, p)
		}
		if err := s.SaveCrawlBatch(ctx, batch, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for range b.N {
		if _, err := s.RepetitionRule(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
