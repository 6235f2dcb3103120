package main

import (
	"reflect"

	"sitesift/app/review"
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
//
// None does today: the site detail, which once wrote its own JSON from the
// store, is a plain struct of the review service.
var standIns = map[reflect.Type]reflect.Type{}
