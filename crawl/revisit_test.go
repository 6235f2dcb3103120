package crawl

import (
	"slices"
	"testing"
)

// Revisit queues pages to fetch again, in their order within a site, after
// the prior's fetched URLs are marked done; unlike a seed, a revisited page
// on a private address is refused.
func TestRevisit(t *testing.T) {
	t.Parallel()
	hosts := map[string]map[string]resp{
		"a.test":          {"/": {body: `<a href="http://b.test/p1">1</a>`}},
		"b.test":          {"/p1": {body: "<p>1</p>"}, "/p2": {body: `<p>2</p><a href="http://b.test/p3">3</a>`}, "/p3": {body: "<p>3</p>"}},
		"169.254.169.254": {"/latest/meta-data/": {body: "<p>m</p>"}},
	}
	w := newWeb(t, hosts)
	r := crawl(t, w, []string{"http://a.test/"},
		Resume(Prior{Fetched: []string{"http://a.test/"}}),
		Revisit([]string{"http://b.test/p2", "http://b.test/p1", "http://169.254.169.254/latest/meta-data/", "http://bad host/"}))
	if r.err != nil {
		t.Fatal(r.err)
	}
	var b []string
	for _, u := range r.urls() {
		if u != "http://a.test/" {
			b = append(b, u)
		}
	}
	if want := []string{"http://b.test/p2", "http://b.test/p1", "http://b.test/p3"}; !slices.Equal(b, want) {
		t.Errorf("fetched %q, want %q: the revisits in order, then the link found", b, want)
	}
	if w.count("a.test", "/") != 0 {
		t.Error("a seed the prior fetched was fetched again")
	}
	if r.status.Refused != 1 || w.count("169.254.169.254", "/latest/meta-data/") != 0 {
		t.Errorf("Refused = %d, metadata requested %d times; want 1 and 0", r.status.Refused, w.count("169.254.169.254", "/latest/meta-data/"))
	}

	// A crawl with revisits needs no seed.
	r = crawl(t, w, nil, Revisit([]string{"http://b.test/p1"}))
	if r.err != nil || !slices.Equal(r.urls(), []string{"http://b.test/p1"}) {
		t.Errorf("revisit without seeds: %q, %v", r.urls(), r.err)
	}
}
