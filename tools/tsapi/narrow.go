package main

// narrowings give fields whose Go type is a plain string (or map) the
// closed set of values the frontend names in frontend/src/api.ts, keyed by
// the generated type's name and the JSON field. The Go side declares no
// type for these sets yet; once it does (a named string type with its
// constants), the generator writes the union itself and the entry goes.
// An entry that names no field fails the generator, so a renamed field
// cannot leave one behind.
var narrowings = map[string]string{
	"CrawlStatus.state":           "CrawlState",
	"CrawlStatus.strategy":        "Strategy | ''",
	"CrawlStatus.end_reason":      "EndReason",
	"CrawlStatus.errors_by_class": "ErrorsByClass | null",
	"SiteReport.errors_by_class":  "ErrorsByClass | null",
	"CrawlRequest.strategy":       "Strategy",
	"CrawlRequest.scope":          "CrawlScope",
	"CrawlRequest.window":         "WindowPolicy | null",
	"CrawlRequest.links":          "LinkGraphSetting | null",
	"Settings.window":             "WindowPolicy",
	"Settings.links":              "LinkGraphSetting",
	"SettingsUpdate.window":       "WindowPolicy | null",
	"SettingsUpdate.links":        "LinkGraphSetting | null",
	"LinkGraph.links":             "LinkGraphSetting",
	"SiteRow.crawl_status":        "SiteCrawlStatus",
	"SiteDetail.crawl_status":     "SiteCrawlStatus",
	"PageRow.error_class":         "ErrorClass | ''",
	"FetchError.class":            "ErrorClass | string",
	"JobStatus.experiment":        "LabExperiment",
	"ImportStatus.state":          "ImportState",
	"Collection.params":           "CollectionParams",
	"Collection.graph":            "SiteGraph | null",
	"JobStatus.params":            "LabParams | null",
	"Selection.status":            "SelectionStatus",
	"SelectedSeed.status":         "SelectionStatus",
	"SelectionBody.status":        "SelectionStatus",
	"QueueItem.status":            "SelectionStatus",
	"ReviewQueue.order":           "QueueOrder",
	"SiteCommunity.role":          "'hub' | 'authority'",
	"AgreementRow.kind":           "'librarian' | 'measure'",
	"Confusion.kind":              "'librarian' | 'measure'",
	"ExportItem.formats":          "ExportFormat[] | null",
}
