package main

import (
	"reflect"

	"sitesift/app/review"
	"sitesift/sites/store"
)

// literals are the TypeScript types of Go types that write their own JSON
// as a plain value.
var literals = map[reflect.Type]string{
	// Float writes NaN and infinities as null.
	reflect.TypeFor[review.Float](): "number | null",
}

// standIns give the Go types that write their own JSON object a struct of
// the same JSON shape for the generator to read; TestStandInsMatch holds
// each to the JSON its type writes, so a change to one fails the test.
var standIns = map[reflect.Type]reflect.Type{
	reflect.TypeFor[store.SiteDetail](): reflect.TypeFor[siteDetailJSON](),
}

// siteDetailJSON is the shape store.SiteDetail.MarshalJSON writes.
type siteDetailJSON struct {
	Site        string           `json:"site"`
	OPIC        float64          `json:"opic"`
	PageRank    float64          `json:"pagerank"`
	PagesCount  int              `json:"pages_count"`
	Errors      int              `json:"errors"`
	CrawlStatus string           `json:"crawl_status"`
	InSites     int              `json:"in_sites"`
	OutSites    int              `json:"out_sites"`
	Rating      *int             `json:"rating"`
	Pages       []store.PageRow  `json:"pages"`
	InLinks     []store.SiteLink `json:"in_links"`
	OutLinks    []store.SiteLink `json:"out_links"`
	Ratings     []store.Rating   `json:"ratings"`
	Report      store.SiteReport `json:"report"`
	Platform    bool             `json:"platform"`
	Listed      bool             `json:"platform_listed"`
	Chosen      bool             `json:"platform_chosen"`
	store.Standing
}
