// Package project opens a sitesift project directory — its SQLite store,
// its Bleve index, its WARC files and the journal of a crawl — for one
// process at a time, and mends on opening what a killed process left: the
// journal's records saved, the crawls left running marked interrupted, the
// pages the index lacks indexed, the WARC files left open cut after their
// last whole record. It keeps the project's settings (who crawls and how
// politely, the site rule, the recrawl window, single-person approval, the
// link graph): every service reads them through [Project.Settings].
//
//	p, err := project.Open(dir, true, project.HeldBy("serve"))
//	if err != nil {
//		return err
//	}
//	defer p.Close()
//
// It is the core every feature of the service stands on, and imports none
// of them.
package project
