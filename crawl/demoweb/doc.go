// Package demoweb is sitesift's built-in offline demo web: about seventy
// generated sites under the reserved .test domain, served by an HTTP proxy,
// so that a crawl can be tried (and tested) with no internet.
//
// [New] generates the web from a seed, deterministically. The sites and
// their roles come from a catalogue (names.go); the seed decides the links
// and the text. The structure is made for link analysis:
//
//   - communities: each topic (heritage, local news, science, music, food,
//     sport, civic life) links densely inside and sparsely across;
//   - hubs: the web directory and one portal per topic link to many sites;
//   - authorities: one or two sites per topic that most of it links to, and
//     an encyclopedia linked from every topic;
//   - dangling sites that link to no other site, and two orphans that no
//     site links to (so a crawl from the seeds cannot reach them);
//   - a few www. hosts, and one bare alias that redirects to its www. host.
//
// Every page has a title and several paragraphs of English written from the
// topic's vocabulary, with navigation from home to sections to articles.
//
// Around what its authors wrote, inside <main><article>, each page has what
// real sites put there (chrome.go): a cookie banner, a header with a logo
// and the section navigation, breadcrumbs, and a footer with links to the
// site's profiles on the platforms. Three publisher groups span the topics:
// their sites carry a network bar and footer links to their sister sites
// (with utm_ parameters), and a banner pointing at the group's cookie
// policy. Articles have a picture, share buttons (links to the platforms'
// share endpoints, or ?share= links back to the page on one group's blogs),
// a "related articles" box and a sidebar of links to pictures. These
// template links are not the site graph: the links inside the article are,
// and [Web.Truth] lists them with each page's main text, the ground truth
// for extraction and link classification.
// What a crawler must survive is there too: robots.txt files disallowing
// /private/ (linked from about pages) or a whole site, 301 redirects from
// /old-home, links to missing pages (404) and to vanished sites (502), a
// footer link with a doubled scheme ("http://http://…"), PDF and CSV files,
// and images.
//
// [Web.Handler] serves the web as an HTTP proxy; [Web.Serve] listens and
// returns the proxy URL:
//
//	web := demoweb.New(demoweb.DefaultSeed)
//	srv, err := web.Serve(ctx, "127.0.0.1:0")
//	if err != nil {
//		return err
//	}
//	defer srv.Close()
//	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(srv.ProxyURL())}}
//	resp, err := client.Get(web.Seeds()[0]) // http://web-directory.test/
package demoweb
