package imports

import (
	"encoding/json"
	"time"

	"sitesift/sites/store"
)

// The types of this file are what the API says of the files a project
// imported: the field names on the wire are decided here, not by the
// store's rows, which carry none.

// ImportStats is the record of one imported edge list.
type ImportStats struct {
	ID         int64     `json:"id"`
	File       string    `json:"file"`
	ImportedAt time.Time `json:"imported_at"`
	// Sites is the number of distinct sites the file names, including
	// those that appear only in self-edges.
	Sites int `json:"sites"`
	// Edges is the number of distinct site pairs of the file, repeats merged.
	Edges int `json:"edges"`
	// SelfEdges counts the edges dropped because both ends are one site.
	SelfEdges int `json:"self_edges"`
}

// ArchiveFile names a file imported from a web archive or a crawl engine:
// its kind ("warc", "cdx", "crawl-log", "cc-vertices", "cc-edges",
// "cc-ranks"), path as given, size and digest ("sha256:HEX"), and for the
// Common Crawl host graph's files the slice of it they were read with. Two
// files of one kind with the same size, digest and slice are the same
// import, wherever they lie.
type ArchiveFile struct {
	Kind   string `json:"kind"`
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	Digest string `json:"digest"`
	// Slice names the hosts kept of a Common Crawl graph (its TLDs and host
	// suffixes, as the importer writes them); "" for any other file.
	Slice string `json:"slice,omitempty"`
}

// ArchiveImport is the record of one imported file.
type ArchiveImport struct {
	ArchiveFile
	ID         int64     `json:"id"`
	ImportedAt time.Time `json:"imported_at"`
	// Summary is what the file added, as the importer described it.
	Summary json.RawMessage `json:"summary"`
}

// archiveImport is the record of a stored one.
func archiveImport(a store.ArchiveImport) ArchiveImport {
	return ArchiveImport{ArchiveFile: ArchiveFile(a.ArchiveFile), ID: a.ID, ImportedAt: a.ImportedAt, Summary: a.Summary}
}
